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
 * The prompt of a later attempt in the same conversation. The model has the failure, the
 * evidence, the scope, the source and the policy already; what it lacks is what became of its
 * last proposals, said as it happened (applied and still failing, refused before it was applied,
 * unreadable), so that is all a follow-up carries.
 */
export const FOLLOW_UP_TEMPLATE = `This is attempt {{attempt}} of {{maxAttempts}} on the same failure. Since your last answer, this happened:

{{history}}

No patch above stays: the files are as they were when you first looked. Do not repeat a patch that
did not work; look again at the evidence and the source, and find what was missed. The scope and
the policy have not changed.

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
