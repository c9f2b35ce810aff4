/**
 * What the weakening guard compares beyond a test's own assertions: the rows of data they run
 * over, and the helpers (functions that hold assertions) the tests call.
 */
import type {
  AssertionDetail,
  AssertionFact,
  TestFact,
  TestFileModel,
} from '../analysis/test-model/names.js';

/**
 * Do two assertions check the same thing? The same once read through the locals each uses
 * (`result = add(2, 3); assert result == 5` is `assert add(2, 3) == 5`); or the same text whose
 * locals still hold every call it made (`total = add(3, 2)` for `total = add(2, 3)` is a fix of the
 * setup, `total = 5` no check at all).
 */
export function sameCheck(a: AssertionFact, b: AssertionFact): boolean {
  const read = (x: AssertionFact): string => (x as AssertionDetail).inlined ?? x.text;
  if (read(a) === read(b)) return true;
  return a.text === b.text && ((a as AssertionDetail).calls ?? []).every((c) => b.names.includes(c));
}

const short = (text: string): string => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

/**
 * The test's rows of data against the old ones: a row dropped (emptied, shrunk, the failing rows
 * taken out) makes the test check less; a row rewritten in place changes an expectation.
 */
export function compareCases(old: TestFact, now: TestFact): { reasons: string[]; changed: boolean } {
  if (!old.cases) return { reasons: [], changed: false };
  // a row repeated runs nothing new: a failing row swapped for a copy of a passing one is dropped
  const before = [...new Set(old.cases)];
  const after = new Set(now.cases ?? []);
  const gone = before.filter((r) => !after.has(r));
  if (after.size < before.length) {
    const which = gone.slice(0, 3).map((r) => `\`${short(r)}\``);
    return {
      reasons: [
        `drops ${before.length - after.size} of the ${before.length} cases ${now.name} runs${which.length ? ` (${which.join(', ')})` : ''}`,
      ],
      changed: false,
    };
  }
  return { reasons: [], changed: gone.length > 0 };
}

type Compare = (old: TestFact, now: TestFact) => { reasons: string[]; changed: boolean };

/**
 * Each helper of the old file, compared as a unit by name: its armed assertions must survive as
 * a test's must, and a helper that held some may not vanish (the tests that call it, here or in
 * other files, would check nothing).
 */
export function compareHelpers(
  old: TestFileModel,
  now: TestFileModel,
  compare: Compare,
): { reasons: string[]; changed: boolean } {
  const reasons: string[] = [];
  let changed = false;
  const byName = new Map((now.helpers ?? []).map((h) => [h.name, h]));
  for (const h of old.helpers ?? []) {
    const label = `helper ${h.name}`;
    const armed = h.assertions.filter((a) => !a.disarmed && !a.constant);
    const n = byName.get(h.name);
    if (!n) {
      if (armed.length > 0)
        reasons.push(`removes ${label}, or every assertion it made (\`${short(armed[0]!.text)}\`)`);
      continue;
    }
    const verdict = compare({ ...h, name: label }, { ...n, name: label });
    reasons.push(...verdict.reasons);
    changed ||= verdict.changed;
  }
  return { reasons, changed };
}
