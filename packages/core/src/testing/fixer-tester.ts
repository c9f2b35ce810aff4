import type { Fixer } from '../api/plugin.js';
import { checkFixerCase, type FixerCase, type FixerCaseOptions } from './fixer-case.js';

/** The part of a test framework FixerTester registers with: vitest's and Jest's `describe`/`it`. */
export interface CaseApi {
  describe: (name: string, fn: () => void) => void;
  it: (name: string, fn: () => Promise<void>, timeout?: number) => void;
}

export interface FixerTesterOptions extends FixerCaseOptions {
  /** Time limit of one case. Default 60 s. */
  timeoutMs?: number;
}

/**
 * A table-driven test of a fixer, in the spirit of ESLint's RuleTester: each case is a request
 * (against a real project folder) and the verdict it must get, or the file contents after the
 * engine applies its edits.
 *
 * ```ts
 * import { describe, it } from 'vitest';
 * new FixerTester({ describe, it }).run('my fixer', myFixer(), [
 *   { name: 'renames the typo', project: { 'src/a.py': 'x = totl\n' }, expect: { verdict: 'edits', files: { 'src/a.py': 'x = total\n' } } },
 * ]);
 * ```
 *
 * Every case also checks what the engine relies on: the request is deep-frozen (a fixer that
 * changes it fails), no project file is written, the answer parses as a FixProposal, and edits
 * pass the engine's own validation (scope, policy, test weakening) unless the case expects a refusal.
 */
export class FixerTester {
  constructor(
    private readonly api: CaseApi,
    private readonly options: FixerTesterOptions = {},
  ) {}

  /** Registers one `describe` block with an `it` per case. A function fixer is called once per case. */
  run(name: string, fixer: Fixer | (() => Fixer), cases: readonly FixerCase[]): void {
    const names = new Set<string>();
    for (const c of cases) {
      if (names.has(c.name))
        throw new Error(`FixerTester: two cases are named "${c.name}"; names must be unique`);
      names.add(c.name);
    }
    this.api.describe(name, () => {
      for (const c of cases)
        this.api.it(
          c.name,
          () => checkFixerCase(typeof fixer === 'function' ? fixer() : fixer, c, this.options),
          this.options.timeoutMs ?? 60_000,
        );
    });
  }
}
