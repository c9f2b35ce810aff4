/** A Jest test id: `<project-relative file>::<full name>`, reversible into a selection. */
export function testId(file: string, fullName: string): string {
  return `${file}::${fullName}`;
}

export function parseId(id: string): { file: string; fullName: string } {
  const at = id.indexOf('::');
  return at < 0 ? { file: id, fullName: '' } : { file: id.slice(0, at), fullName: id.slice(at + 2) };
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `-t` pattern matching exactly these full names (Jest matches it against the full name). */
export function namePattern(fullNames: readonly string[]): string {
  return `^(?:${fullNames.map(escapeRegex).join('|')})$`;
}
