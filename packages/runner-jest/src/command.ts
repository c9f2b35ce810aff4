import { relative } from 'node:path';
import { namePattern, selectedNames, type TestPlace } from './ids.js';
import type { ResolvedJestOptions } from './options.js';

const quote = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The command line that runs what the runner runs, for the report and for a reader to paste: the
 * runner itself starts Jest through its API (see reporter/jest-entry.cjs), which has no command
 * line of its own to show.
 */
export function displayCommand(
  root: string,
  options: ResolvedJestOptions,
  jestBin: string,
  nodeFlags: readonly string[],
  selection: readonly TestPlace[] | undefined,
): string {
  const bin = relative(root, jestBin);
  const argv = [
    'node',
    ...nodeFlags,
    bin.startsWith('..') ? jestBin : bin,
    ...options.args,
    '--ci',
    ...(options.config ? ['--config', options.config] : []),
    ...(options.runInBand ? ['--runInBand'] : []),
    ...(options.testTimeoutMs !== undefined ? [`--testTimeout=${options.testTimeoutMs}`] : []),
    ...(selection
      ? [
          '--runTestsByPath',
          ...new Set(selection.map((s) => s.file)),
          ...(selection.some((s) => s.fullName !== '')
            ? [
                `--testNamePattern=${namePattern(selection.filter((s) => s.fullName !== '').flatMap(selectedNames))}`,
              ]
            : []),
        ]
      : []),
  ];
  return argv.map(quote).join(' ');
}
