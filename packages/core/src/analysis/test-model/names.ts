import type { AssertionFact, TestFact, TestFileModel } from '../../api/test-model.js';

export type { AssertionFact, TestFact, TestFileModel };

/** What the syntax-tree readers know beyond the public model: exact calls, definitions, imports. */
export interface AssertionDetail extends AssertionFact {
  /** Functions and methods the assertion calls (the code under test among them). */
  calls?: string[];
  /**
   * Its text read through the locals it uses, when that differs from `text`: `assert result == 5`
   * after `result = add(2, 3)` is `assert add(2, 3) == 5`, the same assertion.
   */
  inlined?: string;
}

export interface Definition {
  /** The name the definition binds: a macro, a function, a variable. */
  name: string;
  /** Its source, for the reason. */
  text: string;
}

export interface FileModelDetail extends TestFileModel {
  /**
   * Names the file binds at its top level or in a test (macros, functions, variables, imports under
   * another name), when the reader knows them; `redefinitions` holds the same as text.
   */
  definitions?: Definition[];
  /** Imported name -> the module it comes from. */
  imports?: Record<string, string>;
  /** Functions the tests call that the file does not define (imported, or declared in a header). */
  called?: string[];
}

const KEYWORDS = new Set(
  (
    'assert and or not in is None True False if else lambda return await async yield def class ' +
    'true false null undefined this new typeof instanceof void const let var function nullptr ' +
    'sizeof static_cast std auto int bool float double char long unsigned size_t string self'
  ).split(' '),
);

/** Assertion helpers: mentioned by every assertion, so they say nothing about what it checks. */
const ASSERTION_NAME =
  /^(?:assert\w*|expect|EXPECT_\w+|ASSERT_\w+|TEST_ASSERT\w*|CHECK\w*|REQUIRE\w*|to[A-Z]\w*|not|resolves|rejects|pytest|raises|approx|assertEqual|assertTrue|assertFalse|assertIn|assertIs\w*|assertRaises|assertAlmostEqual|assertNotEqual|unittest)$/;

/** Is this identifier something an assertion depends on (not a keyword or an assertion's own name)? */
export function isDependency(name: string): boolean {
  return !KEYWORDS.has(name) && !ASSERTION_NAME.test(name) && !/^\d/.test(name);
}

/** The identifiers an assertion depends on. */
export function namesOf(text: string): string[] {
  const bare = text.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
  const out = new Set<string>();
  for (const m of bare.matchAll(/[A-Za-z_]\w*/g)) if (isDependency(m[0])) out.add(m[0]);
  return [...out];
}

/**
 * An assertion's text read through the locals it uses (each name bound once, to the text of its
 * value): what the values mention is part of what the assertion checks, and the text read through
 * (`assert result == 5` after `result = add(2, 3)` reads `assert add(2, 3) == 5`) is the same
 * assertion made in place. For the text rules; the syntax-tree readers read locals from the tree.
 */
export function throughLocals(
  text: string,
  locals: ReadonlyMap<string, string>,
): { names: string[]; inlined?: string; calls?: string[] } {
  const names = new Set(namesOf(text));
  if (locals.size === 0) return { names: [...names] };
  let read = text;
  for (let depth = 0; depth < 4; depth++) {
    const next = read.replace(
      /(["'`])(?:\\.|(?!\1).)*\1|[A-Za-z_]\w*/g,
      (m, quote: string | undefined, at: number) => {
        const value = quote || read[at - 1] === '.' ? undefined : locals.get(m);
        if (value === undefined) return m;
        for (const n of namesOf(value)) names.add(n);
        return /^[\w.]+(?:\([^()]*\))?$|^\d/.test(value) ? value : `(${value})`;
      },
    );
    if (next === read) break;
    read = next;
  }
  if (read === text) return { names: [...names] };
  // the calls it makes once read through: `total = 5` for `total = add(2, 3)` drops `add`
  const calls = [...read.matchAll(/([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1]!).filter((n) => names.has(n));
  return { names: [...names], inlined: read, calls: [...new Set(calls)] };
}
