import type { FixRequest } from '../api/contracts/fix.js';
import { renderFixPrompt, type RenderedPrompt, type RenderOptions } from './prompt.js';

/**
 * The conversation an attempt belongs to: one per failure group of a project. A different
 * `failure.id` is a different root cause and starts afresh, so one failure's dead ends do not
 * bias the next.
 */
export function conversationKey(request: FixRequest): string {
  return `${request.project.name}\u0000${request.failure.id}`;
}

/**
 * The prompt of a later attempt in the same conversation. The model has the source and the first
 * evidence already; what it lacks is what its last proposals caused, so those lead, followed by
 * the evidence, the scope and the policy again, which are short and must not be misremembered.
 */
export const FOLLOW_UP_TEMPLATE = `This is attempt {{attempt}} of {{maxAttempts}} on the same failure. Since your last answer, this happened:

{{history}}

Every patch above was rolled back: the files are as they were when you first looked. Read them
again if you need to. Do not repeat a patch that did not work; look again at the evidence and
the files, and find what was missed.

## The failure

{{failure}}

## Evidence

\`\`\`
{{evidence}}
\`\`\`

## Scope: the only files you may edit

{{scope}}

## Policy

{{policy}}

{{answer}}`;

export interface PromptPlan {
  prompt: RenderedPrompt;
  /** True when only the attempts since the conversation's last call were sent. */
  followUp: boolean;
}

/**
 * The prompt for this attempt: the full template for a new conversation, or a follow-up that
 * carries the attempts the conversation has not seen (`seen` is how many history entries it had).
 * Either way secrets are redacted before the text leaves the process.
 */
export function planPrompt(request: FixRequest, render: RenderOptions, seen?: number): PromptPlan {
  const unseen = seen === undefined ? [] : request.history.slice(seen);
  if (seen === undefined || unseen.length === 0) {
    return { prompt: renderFixPrompt(request, render), followUp: false };
  }
  const followUp = { build: FOLLOW_UP_TEMPLATE, logic: FOLLOW_UP_TEMPLATE };
  return {
    prompt: renderFixPrompt({ ...request, history: unseen }, { ...render, templates: followUp }),
    followUp: true,
  };
}
