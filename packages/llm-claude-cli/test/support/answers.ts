import type { LlmAnswer } from '@suture/core/llm';

/** Answers as a model gives them through the answer schema (every field present). */
export function editAnswer(
  file: string,
  search: string,
  replace: string,
  rationale = 'the boundary is off by one',
): LlmAnswer {
  return {
    verdict: 'edits',
    rationale,
    edits: [{ file, search, replace, content: null }],
    bug: null,
    diagnosis: null,
  };
}

export function bugAnswer(summary: string, file: string, symbol: string): LlmAnswer {
  return {
    verdict: 'product-bug',
    rationale: 'the test states the documented rule; the code breaks it',
    edits: [],
    bug: {
      summary,
      expected: 'a 10% discount from 10 units on',
      actual: 'no discount at exactly 10 units',
      evidence: 'assert 0 == 0.1',
      file,
      symbol,
    },
    diagnosis: null,
  };
}
