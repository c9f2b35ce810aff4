import { describe, expect, it } from 'vitest';
import type { AttemptSummary } from '../api/contracts/fix.js';
import { createRedactor } from '../safety/redact.js';
import { sampleFixRequest } from '../testing/sample-fix-request.js';
import { conversationKey, planPrompt } from './conversation.js';
import { loadPromptTemplates, type RenderOptions } from './prompt.js';

const render: RenderOptions = {
  templates: loadPromptTemplates(),
  answer: 'Answer through the answer tool.',
  redact: (s) => s,
  readsFiles: true,
};
function failedAttempt(attempt: number, outcome: string): AttemptSummary {
  return {
    attempt,
    fixer: '@suture/llm-x',
    verdict: 'failed-validation',
    rationale: 'the discount is too small',
    diff: '--- a/shop/pricing.py\n+++ b/shop/pricing.py\n@@ -3 +3 @@\n-        return 0.1\n+        return 0.15\n',
    outcome,
  };
}

describe('conversationKey', () => {
  it('is one per failure group of a project', () => {
    const base = sampleFixRequest();
    const other = sampleFixRequest({ failure: { ...base.failure, id: 'shop:f2' } });
    const otherProject = sampleFixRequest({ project: { ...base.project, name: 'web' } });
    expect(conversationKey(sampleFixRequest({ attempt: 2 }))).toBe(conversationKey(base));
    expect(new Set([base, other, otherProject].map(conversationKey)).size).toBe(3);
  });
});

describe('planPrompt', () => {
  it('sends the whole template on a new conversation, with the answer instruction of the transport', () => {
    const { prompt, followUp } = planPrompt(sampleFixRequest(), render);
    expect(followUp).toBe(false);
    expect(prompt.kind).toBe('logic');
    expect(prompt.user).toContain('def discount(units):');
    expect(prompt.user).toContain('E       assert 0 == 0.1');
    expect(prompt.user).toContain('Answer through the answer tool.');
    expect(prompt.system).toContain('You have read-only tools over the project');
  });

  it('sends a short follow-up carrying only what became of the unseen attempts', () => {
    const request = sampleFixRequest({
      attempt: 2,
      history: [failedAttempt(1, 'AssertionError: assert 0.15 == 0.1')],
    });
    const full = planPrompt(request, render).prompt.user;
    const { prompt, followUp } = planPrompt(request, render, 0);
    expect(followUp).toBe(true);
    expect(prompt.user.length).toBeLessThan(full.length);
    expect(prompt.user).toMatch(/^This is attempt 2 of 3 on the same failure/);
    expect(prompt.user).toContain('applied, and the failing tests were re-run: they still fail');
    expect(prompt.user).toContain('What happened:\n\n```text\nAssertionError: assert 0.15 == 0.1\n```');
    expect(prompt.user).toContain('+        return 0.15');
    expect(prompt.user).toContain('Answer through the answer tool.');
    // the source and the evidence were sent in the first turn; the files are unchanged since
    expect(prompt.user).not.toContain('def discount(units):');
    expect(prompt.user).not.toContain('E       assert 0 == 0.1');
  });

  it('tells a resumed conversation only the attempts it has not seen', () => {
    const request = sampleFixRequest({
      attempt: 3,
      history: [failedAttempt(1, 'first outcome'), failedAttempt(2, 'second outcome')],
    });
    const { prompt } = planPrompt(request, render, 1);
    expect(prompt.user).toContain('second outcome');
    expect(prompt.user).not.toContain('first outcome');
  });

  it('falls back to the whole prompt when there is nothing new to tell', () => {
    const request = sampleFixRequest({ history: [failedAttempt(1, 'x')] });
    expect(planPrompt(request, render, 1).followUp).toBe(false);
  });

  it('redacts secrets from the system prompt, the first prompt and the follow-up', () => {
    const secret = 'hunter2-very-secret-value';
    const leaky = sampleFixRequest({
      attempt: 2,
      failure: {
        ...sampleFixRequest().failure,
        evidence: `connect failed with ${secret} and sk-ant-api03-abcdefghijklmnop`,
      },
      history: [failedAttempt(1, `still ${secret}`)],
    });
    const redact = createRedactor({ DB_PASSWORD: secret });
    for (const seen of [undefined, 0]) {
      const { prompt } = planPrompt(leaky, { ...render, redact }, seen);
      expect(prompt.user).not.toContain(secret);
      expect(prompt.user).not.toContain('sk-ant-api03');
      expect(prompt.user).toContain('[REDACTED]');
    }
  });
});
