/**
 * What the weakening guard compares: the tests of a file and the assertions each makes, with
 * the facts that tell a kept assertion from one that can no longer fail. Languages differ only in
 * how these facts are read; the comparison (weakening.ts) is the same for all.
 */
export interface AssertionFact {
  /** The assertion's source, comments and whitespace removed (string contents kept). */
  text: string;
  /** Identifiers the assertion mentions (the call under test among them), keywords and the assertion's own name left out. */
  names: string[];
  /** Nothing in it can change between runs: `assert True`, `expect(1).toBe(1)`, `EXPECT_TRUE(true)`. */
  constant: boolean;
  /** Why it can no longer run or fail, when so: an early return, a dead branch, a swallowing handler. */
  disarmed?: string;
  /**
   * What it checks with its expected values taken out, in one vocabulary for every language:
   * `@ == $` for `assert x == 5`, `EXPECT_EQ(x, 5)` and `expect(x).toBe(5)`; `@ < $^` for a bound
   * that accepts more as it grows, `@ > $v` for one that accepts more as it shrinks. An edit that
   * keeps the form and changes only `expected` is an expectation change; any other makes it
   * easier to pass unless it tightens it. Absent when the reader cannot tell.
   */
  form?: string;
  /** The expected operands of `form`, one per placeholder, in order. */
  expected?: string[];
}

export interface TestFact {
  name: string;
  assertions: AssertionFact[];
  /** A skip, xfail, todo or DISABLED_ marker on it or in it. */
  skipped: boolean;
  /**
   * The rows of data its assertions run over, as source text, when the reader can list them:
   * parametrize rows, a case list a loop iterates, a `.each` table. Dropping a row weakens the
   * test; changing one is an expectation change.
   */
  cases?: string[];
}

export interface TestFileModel {
  tests: TestFact[];
  /**
   * Functions of the file that are not tests and hold assertions (or call one that does): a
   * `check(candidate)` the tests call, a conftest or test-utility helper. Compared like tests by
   * name; a test's call of one is one of its assertions.
   */
  helpers?: TestFact[];
  /** Mocking statements (jest.mock, mock.patch, monkeypatch.setattr, ...), as source text. */
  mocks: string[];
  /** Definitions that shadow an assertion: `#define EXPECT_EQ`, `def assert_equal`, `expect = ...`. */
  redefinitions: string[];
  /**
   * Which of the analyzer's readers read the file (`tree`, `text`), when it has more than one:
   * the other version of the file is asked for by this name, so both are read alike.
   */
  reader?: string;
}
