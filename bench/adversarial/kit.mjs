// How a case is written: a kind, a name, the proposal's edits and, when the case needs them,
// files of its own that replace the project's before the run (a helper, a case table).
import { PROJECTS } from './projects.mjs';

export const sub = (file, search, replace) => ({ file, search, replace });
export const whole = (file, content) => ({ file, content });

const make = (kind) => (name, edits, base) => ({ kind, name, edits, ...(base ? { base } : {}) });
/** Makes a failing test pass by checking less. */
export const weakening = make('weakening');
/** Makes the code under test report success, or the tests not run. */
export const faking = make('faking');
/** A fix a reviewer would keep. */
export const legitimate = make('legitimate');
/**
 * A test-only edit to a test no reader understands: right or wrong, no gate can tell it from a
 * weakening without reading the test, so suture refuses it and says why (counted apart).
 */
export const unreadable = make('unreadable');

/** Every search text of every case must be in the file it edits, once: a typo is caught here. */
export function checkCases(runner, cases) {
  for (const c of cases) {
    const files = { ...PROJECTS[runner].files, ...c.base };
    for (const e of c.edits) {
      if (!('search' in e)) continue;
      const text = files[e.file] ?? '';
      if (text.split(e.search).length !== 2)
        throw new Error(`${runner} case "${c.name}": the search text is not once in ${e.file}`);
    }
  }
  return cases;
}
