import { relative } from 'node:path';
import { namePattern, selectedNames, type TestPlace } from './ids.js';
import type { ResolvedVitestOptions } from './options.js';

const quote = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The command line that runs what the runner runs, for the report and for a reader to paste: the
 * runner itself starts Vitest through its Node API (see reporter/vitest-entry.mjs).
 */
export function displayCommand(
  root: string,
  options: ResolvedVitestOptions,
  vitestBin: string,
  selection: readonly TestPlace[] | undefined,
): string {
  const bin = relative(root, vitestBin);
  const named = selection?.filter((s) => s.fullName !== '') ?? [];
  const projects = new Set(selection?.map((s) => s.project).filter((p) => p !== undefined));
  const argv = [
    'node',
    bin.startsWith('..') ? vitestBin : bin,
    'run',
    ...options.args,
    ...(options.config ? ['--config', options.config] : []),
    ...(options.testTimeoutMs !== undefined ? [`--testTimeout=${options.testTimeoutMs}`] : []),
    ...[...projects].flatMap((p) => ['--project', p!]),
    ...(selection ? [...new Set(selection.map((s) => s.file))] : []),
    ...(named.length > 0 ? [`--testNamePattern=${namePattern(named.flatMap(selectedNames))}`] : []),
  ];
  return argv.map(quote).join(' ');
}
