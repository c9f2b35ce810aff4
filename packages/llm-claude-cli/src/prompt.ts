import {
  ANSWER_TOOL_NAME,
  renderFixPrompt,
  type PromptTemplates,
  type Redactor,
  type RenderedPrompt,
} from '@suture/core/llm';
import { type FixRequest } from '@suture/core';

/** How to hand the answer back through `claude --json-schema`. */
export const CLI_ANSWER =
  'You may read and search the project files first. Then answer by calling the StructuredOutput tool exactly once with the proposal (each field of its schema says what it holds): leave unused fields null and `edits` empty unless the verdict is `edits`. Do not try to edit files yourself.';

/** How to hand the answer back through the forced tool of api mode. */
export const API_ANSWER = `Answer by calling the ${ANSWER_TOOL_NAME} tool with the proposal (each field of its schema says what it holds): leave unused fields null and \`edits\` empty unless the verdict is \`edits\`.`;

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

export interface PromptRendering {
  templates: PromptTemplates;
  /** How this transport hands the answer back (fills the templates' {{answer}}). */
  answer: string;
  redact: Redactor;
  /** CLI mode: claude can read and search the project with its read-only tools. */
  readsFiles: boolean;
}

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
export function planPrompt(request: FixRequest, render: PromptRendering, seen?: number): PromptPlan {
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
