/** A Python expression inside a request value (`user["id"]`), where a literal will not do. */
export interface PyExpr {
  $py: string;
}

export type CaseKind =
  | 'positive'
  | 'missing-required'
  | 'wrong-type'
  | 'bad-format'
  | 'out-of-range'
  | 'no-auth'
  | 'malformed-body'
  | 'chain'
  | 'state'
  | 'data'
  | 'business';

/** One request a test sends. */
export interface CallSpec {
  method: string;
  path: string;
  pathArgs: Record<string, unknown>;
  query: Record<string, unknown>;
  /** The JSON body; absent for none. */
  json?: unknown;
  /** A raw body instead of JSON (the malformed-body case). */
  raw?: string;
  /** Send the credential (false: the no-auth case). */
  auth: boolean;
}

/** What a test expects of the answer. */
export type Expectation =
  | { kind: 'status'; status: number }
  | { kind: 'client-error' }
  | { kind: 'unauthorised'; statuses: number[] }
  | { kind: 'declared' };

export interface TestCase {
  /** `TC-001`. */
  id: string;
  kind: CaseKind;
  /** The operation it is about (a chain: the resource's create operation). */
  operation: string;
  /** `POST /orders`. */
  api: string;
  scenario: string;
  /** Project-relative test file and the test function. */
  file: string;
  test: string;
  /** The field a negative case breaks, and how. */
  field?: string;
  breaks?: string;
  /** What the answer must be, in words for the report: `201`, `4xx`, `401`. */
  expect: string;
  /** Where the expectation comes from when not the document: a data row, a rule. */
  source?: string;
  /** Fixtures the test takes (resources it needs). */
  fixtures: string[];
}
