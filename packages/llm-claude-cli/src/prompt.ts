import { ANSWER_TOOL_NAME } from '@suture/core/llm';

/** How to hand the answer back through `claude --json-schema`, with or without read-only tools. */
export function cliAnswer(reads: boolean): string {
  return `${reads ? 'You may read and search the project files first. Then answer' : 'Answer'} by calling the StructuredOutput tool exactly once with the proposal (each field of its schema says what it holds): leave unused fields null and \`edits\` empty unless the verdict is \`edits\`.`;
}

/** How to hand the answer back through the forced tool of api mode. */
export const API_ANSWER = `Answer by calling the ${ANSWER_TOOL_NAME} tool with the proposal (each field of its schema says what it holds): leave unused fields null and \`edits\` empty unless the verdict is \`edits\`.`;
