/**
 * A Jest test id: `<project-relative file>::<full name>`, reversible into a selection. A test of a
 * Jest project with a displayName is `[<displayName>] <file>::<full name>`: one file may run in
 * several projects, and each of its runs is a test of its own.
 */
export function testId(file: string, fullName: string, project?: string): string {
  return `${project ? `[${project}] ` : ''}${file}::${fullName}`;
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

/** `-t` pattern matching exactly these full names (Jest matches it against the full name). */
export function namePattern(fullNames: readonly string[]): string {
  return `^(?:${fullNames.map(escapeRegex).join('|')})$`;
}
