import { createRedactor, loadPromptTemplates } from '@suture/core/llm';
import { sampleFixRequest } from '@suture/core/testing';
import { describe, expect, it } from 'vitest';
import { API_ANSWER, CLI_ANSWER, planPrompt } from './prompt.js';
import { failedAttempt } from './test-support/fix-request.js';

const templates = loadPromptTemplates();
const none = (s: string): string => s;

describe('planPrompt', () => {
  it('sends the whole logic template on a new conversation, with the answer instruction of the transport', () => {
    const { prompt, followUp } = planPrompt(sampleFixRequest(), {
      templates,
      answer: CLI_ANSWER,
      redact: none,
      readsFiles: true,
    });
    expect(followUp).toBe(false);
    expect(prompt.kind).toBe('logic');
    expect(prompt.user).toContain('def discount(units):');
    expect(prompt.user).toContain('E       assert 0 == 0.1');
    expect(prompt.user).toContain('StructuredOutput tool');
    const api = planPrompt(sampleFixRequest(), {
      templates,
      answer: API_ANSWER,
      redact: none,
      readsFiles: false,
    }).prompt;
    expect(api.user).toContain('propose_fix tool');
    expect(api.system).toContain('You cannot open files');
    expect(prompt.system).toContain('You may read and search files of the project');
  });

  it('uses the build template for a collection failure', () => {
    const request = sampleFixRequest({
      failure: {
        ...sampleFixRequest().failure,
        kind: 'import',
        title: "ModuleNotFoundError: No module named 'shop.pricng'",
      },
    });
    expect(
      planPrompt(request, { templates, answer: CLI_ANSWER, redact: none, readsFiles: true }).prompt.kind,
    ).toBe('build');
  });

  it('sends a shorter follow-up carrying what the unseen attempts caused and the evidence', () => {
    const request = sampleFixRequest({
      attempt: 2,
      history: [failedAttempt(1, 'AssertionError: assert 0.15 == 0.1')],
    });
    const full = planPrompt(request, { templates, answer: CLI_ANSWER, redact: none, readsFiles: true }).prompt
      .user;
    const { prompt, followUp } = planPrompt(
      request,
      { templates, answer: CLI_ANSWER, redact: none, readsFiles: true },
      0,
    );
    expect(followUp).toBe(true);
    expect(prompt.user.length).toBeLessThan(full.length);
    expect(prompt.user).toMatch(/^This is attempt 2 of 3 on the same failure/);
    expect(prompt.user).toContain('What happened: AssertionError: assert 0.15 == 0.1');
    expect(prompt.user).toContain('+        return 0.15');
    expect(prompt.user).toContain('E       assert 0 == 0.1');
    expect(prompt.user).toContain('`shop/pricing.py`');
    expect(prompt.user).toContain('StructuredOutput tool');
    // the source was sent in the first turn; the files are unchanged since
    expect(prompt.user).not.toContain('def discount(units):');
  });

  it('tells a resumed conversation only the attempts it has not seen', () => {
    const request = sampleFixRequest({
      attempt: 3,
      history: [failedAttempt(1, 'first outcome'), failedAttempt(2, 'second outcome')],
    });
    const { prompt } = planPrompt(
      request,
      { templates, answer: CLI_ANSWER, redact: none, readsFiles: true },
      1,
    );
    expect(prompt.user).toContain('second outcome');
    expect(prompt.user).not.toContain('first outcome');
  });

  it('falls back to the whole prompt when there is nothing new to tell', () => {
    const request = sampleFixRequest({ history: [failedAttempt(1, 'x')] });
    expect(
      planPrompt(request, { templates, answer: CLI_ANSWER, redact: none, readsFiles: true }, 1).followUp,
    ).toBe(false);
  });

  it('redacts secrets from the system prompt, the first prompt and the follow-up', () => {
    const secret = 'hunter2-very-secret-value';
    const redact = createRedactor({ DB_PASSWORD: secret });
    const leaky = sampleFixRequest({
      failure: {
        ...sampleFixRequest().failure,
        evidence: `connect failed with ${secret} and sk-ant-api03-abcdefghijklmnop`,
      },
      history: [failedAttempt(1, `still ${secret}`)],
    });
    for (const seen of [undefined, 0]) {
      const { prompt } = planPrompt(leaky, { templates, answer: CLI_ANSWER, redact, readsFiles: true }, seen);
      expect(prompt.user).not.toContain(secret);
      expect(prompt.user).not.toContain('sk-ant-api03');
      expect(prompt.user).toContain('[REDACTED]');
    }
  });
});
