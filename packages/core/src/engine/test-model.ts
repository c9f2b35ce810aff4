import type { AssertionFact, TestFact, TestFileModel } from '../api/test-model.js';

export type { AssertionFact, TestFact, TestFileModel };

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

/** The identifiers an assertion depends on. */
export function namesOf(text: string): string[] {
  const bare = text.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
  const out = new Set<string>();
  for (const m of bare.matchAll(/[A-Za-z_]\w*/g)) {
    const n = m[0];
    if (KEYWORDS.has(n) || ASSERTION_NAME.test(n) || /^\d/.test(n)) continue;
    out.add(n);
  }
  return [...out];
}
