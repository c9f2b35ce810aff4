/**
 * A Vitest test id: `<project-relative file>::<full name>`, the full name as Vitest's reported
 * tasks join it (`outer > inner > adds`). A test of a named Vitest project (a `test.projects`
 * entry) is `[<project>] <file>::<full name>`. The shape is the Jest runner's, so the shared
 * JavaScript analyzer reads both.
 */
export function testId(file: string, names: readonly string[], project?: string): string {
  return `${project ? `[${project}] ` : ''}${file}::${names.join(' > ')}`;
}

const PROJECT = /^\[([^\]]+)\] (.*::.*)$/s;

export function parseId(id: string): { file: string; fullName: string; project?: string } {
  const inProject = PROJECT.exec(id);
  const rest = inProject ? inProject[2]! : id;
  const at = rest.indexOf('::');
  const place =
    at < 0 ? { file: rest, fullName: '' } : { file: rest.slice(0, at), fullName: rest.slice(at + 2) };
  return inProject ? { ...place, project: inProject[1]! } : place;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
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
