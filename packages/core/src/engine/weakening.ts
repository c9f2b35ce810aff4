/** Guard against proposals that make tests pass by testing less (DESIGN invariant 6). */
import type { Analyzer } from '../api/plugin.js';
import { loosening } from '../analysis/test-model/form.js';
import type {
  AssertionDetail,
  AssertionFact,
  FileModelDetail,
  TestFact,
} from '../analysis/test-model/names.js';
import { testModels, type ModelSource } from './weakening-models.js';
import { compareCases, compareHelpers, sameCheck } from './weakening-units.js';

export interface WeakeningVerdict {
  /** Why the change weakens the tests; undefined when it does not. */
  weakening?: string;
  /** The change edits an assertion (an expected value) and keeps every one armed. */
  expectationChanged: boolean;
  /** Which of the analyzer's readers read both versions (`tree`, `text`, else `analyzer`); undefined: unread. */
  readBy?: ModelSource;
}

export interface WeakeningOptions {
  /** The analyzer whose `testModel` reads the file, when it has one. */
  analyzer?: Analyzer;
  /** Names of the code under test (the scope's symbols and modules): mocking them is refused. */
  protectedNames?: readonly string[];
  /** Ask the analyzer for one of its readers by name (`text`: its text rules even where the file parses). */
  reader?: string;
}

/** Names that only an assertion, a test or a test framework goes by: defining one disarms checks. */
const ASSERTION_LIKE =
  /^(?:EXPECT_\w*|ASSERT_\w*|TEST_ASSERT\w*|TEST\w*|CHECK\w*|REQUIRE\w*|FAIL|ADD_FAILURE|GTEST_\w+|RUN_TEST|RUN_ALL_TESTS|UNITY_\w+|assert\w*|Assert\w*|AssertionError|expect|it|test|describe|raises|pytest|unittest|approx|fail)$/;

function callsOf(a: AssertionFact): string[] {
  const exact = (a as AssertionDetail).calls;
  if (exact) return exact;
  const names = new Set(a.names);
  return [...a.text.matchAll(/([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!).filter((n) => names.has(n));
}

/** Why `now`, the rewrite of `old`, accepts more than it did (see AssertionFact.form); undefined when it does not. */
function loosened(old: AssertionFact, now: AssertionFact): string | undefined {
  if (old.form === undefined || now.form === undefined) return undefined;
  return loosening(
    { form: old.form, expected: old.expected ?? [] },
    { form: now.form, expected: now.expected ?? [] },
  );
}

const short = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** Each armed assertion of the old test must have an armed counterpart that checks the same thing. */
function compareTest(old: TestFact, now: TestFact): { reasons: string[]; changed: boolean } {
  const reasons: string[] = [];
  let changed = false;
  const free = now.assertions.filter((a) => !a.disarmed && !a.constant);
  const required = old.assertions.filter((a) => !a.disarmed && !a.constant);
  const unmatched: AssertionFact[] = [];
  for (const a of required) {
    const same = free.findIndex((b) => sameCheck(a, b) && !loosened(a, b));
    if (same >= 0) {
      free.splice(same, 1);
      continue;
    }
    unmatched.push(a);
  }
  for (const a of unmatched) {
    const calls = callsOf(a);
    const candidates = free.filter(
      (b) =>
        calls.every((c) => b.names.includes(c)) &&
        (calls.length > 0 || b.names.some((n) => a.names.includes(n))),
    );
    // the counterpart that checks as much, else the first: a rewrite that checks less is refused
    const counterpart = candidates.find((b) => !loosened(a, b)) ?? candidates[0];
    if (counterpart) {
      free.splice(free.indexOf(counterpart), 1);
      const why = loosened(a, counterpart);
      if (why)
        reasons.push(
          `in ${now.name}, \`${short(a.text)}\` became \`${short(counterpart.text)}\`, which checks less: ${why}`,
        );
      else changed = true;
      continue;
    }
    const disarmed = now.assertions.find(
      (b) => b.disarmed && (b.text === a.text || calls.every((c) => b.names.includes(c))),
    );
    if (disarmed)
      reasons.push(`in ${now.name}, \`${short(a.text)}\` can no longer fail: ${disarmed.disarmed}`);
    else if (
      now.assertions.some(
        (b) => b.constant && b.text !== a.text && !old.assertions.some((o) => o.text === b.text),
      )
    )
      reasons.push(`in ${now.name}, \`${short(a.text)}\` became a constant that cannot fail`);
    else
      reasons.push(
        `removes 1 assertion from ${now.name} (\`${short(a.text)}\`, or it no longer mentions ${calls.join(', ') || a.names.join(', ')})`,
      );
  }
  if (!old.skipped && now.skipped)
    reasons.push(`adds a skip, xfail, todo or DISABLED_ marker to ${now.name}`);
  const rows = compareCases(old, now);
  reasons.push(...rows.reasons);
  return { reasons, changed: changed || rows.changed };
}

function counts(items: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

function added(old: readonly string[], now: readonly string[]): string[] {
  const before = counts(old);
  return now.filter((x) => {
    const n = before.get(x) ?? 0;
    before.set(x, n - 1);
    return n <= 0;
  });
}

const ownName = (name: string): string => name.split(/ > |\./).at(-1)!;

/**
 * The test that `t` became when only its suite changed (a describe or class around it added or
 * renamed): the one new test of the same own name, so its assertions are still compared.
 */
function moved(t: TestFact, now: readonly TestFact[], oldNames: ReadonlySet<string>): TestFact | undefined {
  const same = now.filter((x) => !oldNames.has(x.name) && ownName(x.name) === ownName(t.name));
  return same.length === 1 ? same[0] : undefined;
}

/** New definitions of an assertion or of the code under test, and the code under test imported from elsewhere. */
function shadows(old: FileModelDetail, now: FileModelDetail, exercised: ReadonlySet<string>): string[] {
  const reasons: string[] = [];
  const matters = (name: string | undefined): boolean =>
    name === undefined || ASSERTION_LIKE.test(name) || exercised.has(name);
  if (old.definitions && now.definitions) {
    const key = (d: { name: string; text: string }): string => `${d.name}\0${d.text}`;
    const fresh = added(old.definitions.map(key), now.definitions.map(key));
    for (const d of now.definitions)
      if (fresh.includes(key(d)) && matters(d.name))
        reasons.push(`redefines an assertion or the code under test (\`${short(d.text)}\`)`);
  } else {
    for (const def of added(old.redefinitions, now.redefinitions))
      if (matters(/#\s*(?:define|undef)\s+(\w+)/.exec(def)?.[1]))
        reasons.push(`redefines an assertion or the code under test (\`${short(def)}\`)`);
  }
  for (const [name, from] of Object.entries(now.imports ?? {})) {
    const was = old.imports?.[name];
    if (was !== undefined && was !== from && exercised.has(name))
      reasons.push(`imports ${name} from ${from} instead of ${was}, the code under test`);
  }
  return reasons;
}

/**
 * Compares a test file before and after a proposal. Every assertion of every test must survive,
 * stay reachable (no early return, no dead branch), not be swallowed (no handler that catches
 * its failure, no wrapper that expects it to fail), not be redefined, and still depend on the
 * code it called; no test may be deleted or skipped, and the code under test may not be mocked
 * anew. An assertion rewritten with the same dependencies is an expectation change: allowed,
 * and flagged.
 */
export function checkTestWeakening(
  file: string,
  before: string | undefined,
  after: string,
  options: WeakeningOptions = {},
): WeakeningVerdict {
  const models = testModels(file, before ?? '', after, options.analyzer, options.reader);
  if (!models) return { expectationChanged: false };
  const { old, now, source } = models;
  const reasons: string[] = [];
  let changed = false;
  // tests of one name (two `it('adds')`, a `test.each` of one title) pair up in their order:
  // one deleted leaves the last of that name without a counterpart
  const byName = new Map<string, TestFact[]>();
  for (const t of now.tests) byName.set(t.name, [...(byName.get(t.name) ?? []), t]);
  const oldNames = new Set(old.tests.map((t) => t.name));
  const seen = new Map<string, number>();
  const deleted: string[] = [];
  for (const t of old.tests) {
    const k = seen.get(t.name) ?? 0;
    seen.set(t.name, k + 1);
    const n = byName.get(t.name)?.[k] ?? (k === 0 ? moved(t, now.tests, oldNames) : undefined);
    if (!n) {
      const disabled = now.tests.find((x) => x.name.replace(/DISABLED_/g, '') === t.name && x.skipped);
      if (disabled) reasons.push(`adds a skip, xfail, todo or DISABLED_ marker to ${t.name}`);
      else deleted.push(t.name);
      continue;
    }
    const verdict = compareTest(t, n);
    reasons.push(...verdict.reasons);
    changed ||= verdict.changed;
  }
  if (deleted.length > 0) reasons.push(`deletes or renames test(s) ${deleted.slice(0, 5).join(', ')}`);
  const helpers = compareHelpers(old, now, compareTest);
  reasons.push(...helpers.reasons);
  changed ||= helpers.changed;

  const exercised = new Set(options.protectedNames ?? []);
  for (const t of old.tests) for (const a of t.assertions) for (const c of callsOf(a)) exercised.add(c);
  for (const c of old.called ?? []) exercised.add(c);
  for (const mock of added(old.mocks, now.mocks)) {
    // a mock names its target in a string ("calc.core.add"): every word counts
    const hit = [...mock.matchAll(/[A-Za-z_]\w*/g)].map((m) => m[0]).find((n) => exercised.has(n));
    const relative = /\(\s*["'`]\.\.?\//.test(mock);
    if (hit || relative)
      reasons.push(
        `mocks the code under test (\`${short(mock)}\`${hit ? `, which the test calls as ${hit}` : ''})`,
      );
  }
  reasons.push(...shadows(old, now, exercised));
  if (reasons.length > 0)
    return {
      weakening: `test-weakening edit to ${file}: ${reasons.join('; ')}`,
      expectationChanged: false,
      readBy: source,
    };
  return { expectationChanged: changed, readBy: source };
}
