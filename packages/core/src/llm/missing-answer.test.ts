import { describe, expect, it } from 'vitest';
import { missingAnswerReason, type MissingAnswer } from './missing-answer.js';

const plain: MissingAnswer = { model: 'coder', expected: 'propose_fix', text: '' };

describe('missingAnswerReason', () => {
  it('says the answer was cut off before anything else, with the option to raise', () => {
    expect(missingAnswerReason({ ...plain, cutOff: 'length', maxOutputTokens: 64, text: 'partial' })).toBe(
      'the model "coder" ran out of output tokens (maxOutputTokens 64) before it finished its answer: raise the fixer option "maxOutputTokens"',
    );
    expect(
      missingAnswerReason({ ...plain, cutOff: 'content-filter', endpoint: 'https://x.example/v1' }),
    ).toBe('the model "coder" stopped at the content filter of https://x.example/v1: no answer');
  });

  it('passes on a refusal, with or without words', () => {
    expect(missingAnswerReason({ ...plain, refusal: 'I cannot help with that.' })).toBe(
      'the model "coder" refused to answer: I cannot help with that.',
    );
    expect(missingAnswerReason({ ...plain, refusal: '' })).toBe('the model "coder" refused to answer');
  });

  it('names the tools called instead of the answer tool', () => {
    expect(missingAnswerReason({ ...plain, otherCalls: ['read_file', 'search'] })).toBe(
      'the model "coder" called read_file, search instead of propose_fix',
    );
  });

  it('quotes plain text on one line, shortened, with what may be wrong', () => {
    const long = `Use >= instead of >.\n\n${'x'.repeat(400)}`;
    const reason = missingAnswerReason({
      ...plain,
      text: long,
      plainTextHint: 'does it support tool calling?',
    });
    expect(reason).toMatch(
      /^the model "coder" answered in plain text instead of calling propose_fix \(does it support tool calling\?\): Use >= instead of >\. x+\.\.\.$/,
    );
    expect(reason.length).toBeLessThan(320);
    expect(missingAnswerReason({ ...plain, expected: 'the StructuredOutput tool', text: ' \n' })).toBe(
      'the model "coder" answered in plain text instead of calling the StructuredOutput tool: the reply was empty',
    );
  });
});
