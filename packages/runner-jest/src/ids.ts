import { escapeRegex } from './js-runner/ids.js';

export {
  distinctNames,
  escapeRegex,
  parseId,
  selectedNames,
  testId,
  type TestPlace,
} from './js-runner/ids.js';

/** `-t` pattern matching exactly these full names (Jest matches it against the full name). */
export function namePattern(fullNames: readonly string[]): string {
  return `^(?:${fullNames.map(escapeRegex).join('|')})$`;
}
