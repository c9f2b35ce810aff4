import { escapeRegex } from './js-runner/ids.js';

export { escapeRegex, parseId, testId } from './js-runner/ids.js';

/** `-t` pattern matching exactly these full names (Jest matches it against the full name). */
export function namePattern(fullNames: readonly string[]): string {
  return `^(?:${fullNames.map(escapeRegex).join('|')})$`;
}
