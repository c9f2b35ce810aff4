/** Guard against proposals that make tests pass by testing less (DESIGN invariant 6). */

const ASSERTION =
  /^\s*assert\b|\bself\.assert\w*\s*\(|\bpytest\.raises\s*\(|\bexpect\s*\(|\bassert(?:\.\w+)?\s*\(|\b(?:EXPECT|ASSERT)_[A-Z_]+\s*\(|\bTEST_ASSERT\w*\s*\(|\bCHECK\w*\s*\(|\bREQUIRE\w*\s*\(/;
const SKIP =
  /\bpytest\.skip\s*\(|@pytest\.mark\.(?:skip|skipif|xfail)\b|\bunittest\.skip|\.skip\s*\(|\.skipIf\s*\(|\bx(?:it|test|describe)\s*\(|\.todo\s*\(|\bDISABLED_|\bGTEST_SKIP\b|\bTEST_IGNORE\b|\breturn\s*;\s*\/\/\s*skip/;
const TEST_DEF = [
  /^\s*(?:async\s+)?def\s+(test\w*)\s*\(/gm,
  /\b(?:it|test)(?:\.each\s*\([^)]*\)\s*)?\s*\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g,
  /\bTEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)/g,
];
const SWALLOW = [
  // python: try: ... assert ... except [AssertionError|Exception|BaseException|bare]:
  /\btry\s*:\s*\n(?:[^\n]*\n){0,8}?[^\n]*\bassert\b[^\n]*\n(?:[^\n]*\n){0,8}?\s*except\s*(?:\(?\s*(?:AssertionError|Exception|BaseException)[^:]*)?:/g,
  // js/ts and c++: try { ... expect( / assert( / EXPECT_* / ASSERT_* ... } catch
  /\btry\s*\{(?:(?!\}\s*catch\b)[^])*?\b(?:expect|assert(?:\.\w+)?|(?:EXPECT|ASSERT)_[A-Z_]+)\s*\([^]*?\}\s*catch\b/g,
];

function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

function assertionLines(text: string): string[] {
  return lines(text)
    .filter((l) => ASSERTION.test(l))
    .map((l) => l.trim());
}

function count(re: RegExp, text: string): number {
  return lines(text).filter((l) => re.test(l)).length;
}

function testNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const re of TEST_DEF) {
    for (const m of text.matchAll(re))
      names.add(
        m
          .slice(1)
          .filter(Boolean)
          .filter((g) => !/^['"`]$/.test(g))
          .join('.'),
      );
  }
  return names;
}

function swallowCount(text: string): number {
  return SWALLOW.reduce((n, re) => n + [...text.matchAll(re)].length, 0);
}

export interface WeakeningVerdict {
  /** Why the change weakens the tests; undefined when it does not. */
  weakening?: string;
  /** The change edits an assertion (an expected value) without removing any. */
  expectationChanged: boolean;
}

/** Compares a test file before and after a proposal. */
export function checkTestWeakening(
  file: string,
  before: string | undefined,
  after: string,
): WeakeningVerdict {
  const old = before ?? '';
  const reasons: string[] = [];
  const oldAsserts = assertionLines(old);
  const newAsserts = assertionLines(after);
  if (newAsserts.length < oldAsserts.length)
    reasons.push(`removes ${oldAsserts.length - newAsserts.length} assertion(s)`);
  const addedSkips = count(SKIP, after) - count(SKIP, old);
  if (addedSkips > 0) reasons.push('adds a skip, xfail, todo or DISABLED_ marker');
  const oldTests = testNames(old);
  const newTests = testNames(after);
  const deleted = [...oldTests].filter((t) => !newTests.has(t));
  if (deleted.length > 0) reasons.push(`deletes or renames test(s) ${deleted.slice(0, 5).join(', ')}`);
  if (swallowCount(after) > swallowCount(old))
    reasons.push('wraps an assertion in a try block that swallows its failure');
  if (reasons.length > 0)
    return { weakening: `test-weakening edit to ${file}: ${reasons.join('; ')}`, expectationChanged: false };
  // Assertions did not decrease; if an old one is gone, it was rewritten (an expected value changed).
  const newSet = new Set(newAsserts);
  const expectationChanged = oldAsserts.some((l) => !newSet.has(l));
  return { expectationChanged };
}
