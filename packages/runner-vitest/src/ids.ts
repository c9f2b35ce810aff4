import { escapeRegex, testId as jsTestId } from '@suture/runner-jest/js-runner';

export { escapeRegex, parseId } from '@suture/runner-jest/js-runner';

/**
 * A Vitest test id: the shape of every JavaScript runner's, the full name as Vitest's reported
 * tasks join it (`outer > inner > adds`).
 */
export function testId(file: string, names: readonly string[], project?: string): string {
  return jsTestId(file, names.join(' > '), project);
}

/**
 * A test name pattern matching exactly these full names. Vitest matches its pattern against the
 * titles joined by single spaces, and the id joins them with ` > `: each ` > ` of an id stands for
 * a space between titles or for those characters inside a title.
 */
export function namePattern(fullNames: readonly string[]): string {
  const one = (n: string): string => n.split(' > ').map(escapeRegex).join('(?: | > )');
  return `^(?:${fullNames.map(one).join('|')})$`;
}
