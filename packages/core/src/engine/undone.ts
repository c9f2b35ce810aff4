import type { TreeChange } from '../api/contracts/tree-change.js';

/** One line naming what a run changed in the user's tree and what suture did about each change. */
export function undoneWarning(what: string, changes: readonly TreeChange[]): string {
  const restored = changes.filter((c) => c.restored);
  const left = changes.filter((c) => !c.restored);
  const list = (cs: readonly TreeChange[]): string =>
    cs.map((c) => `${c.file} (${c.change}${c.reason ? `: ${c.reason}` : ''})`).join(', ');
  const parts = [
    ...(restored.length > 0 ? [`put back ${restored.length} file(s) it changed: ${list(restored)}`] : []),
    ...(left.length > 0 ? [`${left.length} file(s) it changed are left as they are: ${list(left)}`] : []),
  ];
  return `${what} wrote the tree, which suture did not: ${parts.join('; ')}`;
}
