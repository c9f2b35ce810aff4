import type { ChangeBase, ProjectSelection } from '../api/contracts/selection.js';

/** How a project's tests were chosen, in one line: `selected 3 of 120 tests: ...` or why all ran. */
export function selectionLine(s: ProjectSelection): string {
  const chosen =
    s.basis === 'record'
      ? `selected ${s.selected} of ${s.total} tests by what the change reaches (selection record)`
      : `ran all ${s.selected} tests${s.fallback ? `: ${s.fallback}` : ''}`;
  const recorded =
    s.recorded === undefined ? '' : s.recorded === true ? '; recorded' : `; not recorded: ${s.recorded}`;
  return chosen + recorded;
}

/** The change `--changed` measured against, in one line. */
export function changeBaseLine(b: ChangeBase): string {
  if (b.error) return `--changed: ${b.error}; every project ran whole`;
  return `--changed: ${b.changed} file(s) differ from ${b.commit.slice(0, 12)} (${b.source})`;
}
