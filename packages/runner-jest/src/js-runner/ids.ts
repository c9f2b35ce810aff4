/**
 * A test id of a JavaScript runner: `<project-relative file>::<full name>`, reversible into a
 * selection. A test of a named project of the tool (a Jest displayName, a Vitest `test.projects`
 * entry) is `[<project>] <file>::<full name>`: one file may run in several projects, and each of
 * its runs is a test of its own. The shared JavaScript analyzer reads both runners' ids so.
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
