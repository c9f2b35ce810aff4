import { loadPromptTemplates, planPrompt } from '@suture/core/llm';
import { sampleFixRequest } from '@suture/core/testing';
import { describe, expect, it } from 'vitest';
import { API_ANSWER, cliAnswer } from './prompt.js';
import { failedAttempt } from './test-support/fix-request.js';

const templates = loadPromptTemplates();
const none = (s: string): string => s;

describe('the answer instructions of each mode', () => {
  it('tell claude to answer through StructuredOutput and the Messages API through propose_fix', () => {
    const cli = planPrompt(sampleFixRequest(), {
      templates,
      answer: cliAnswer(true),
      redact: none,
      readsFiles: true,
    });
    expect(cli.prompt.user).toContain(
      'You may read and search the project files first. Then answer by calling the StructuredOutput tool',
    );
    const bare = planPrompt(sampleFixRequest(), { templates, answer: cliAnswer(false), redact: none });
    expect(bare.prompt.user).toContain('Answer by calling the StructuredOutput tool');
    expect(bare.prompt.user).not.toContain('read and search');
    const api = planPrompt(sampleFixRequest(), { templates, answer: API_ANSWER, redact: none });
    expect(api.prompt.user).toContain('calling the propose_fix tool');
    expect(api.prompt.user).not.toContain('StructuredOutput');
  });

  it('close the follow-up of a resumed conversation too', () => {
    const request = sampleFixRequest({ attempt: 2, history: [failedAttempt(1, 'still failing')] });
    const { prompt, followUp } = planPrompt(
      request,
      { templates, answer: cliAnswer(false), redact: none },
      0,
    );
    expect(followUp).toBe(true);
    expect(prompt.user.trimEnd().endsWith(cliAnswer(false))).toBe(true);
  });
});
