import { readFileSync } from 'node:fs';

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/**
 * The option names a README documents: every `backticked` name in the first column of the first
 * table under the heading `heading` (`| \`baseURL\`, \`apiKey\` | ... |` names two). A plugin's
 * test compares them with the keys of its options schema, so an option added without a line in
 * the README fails, as does a line left for an option that is gone.
 */
export function documentedOptions(readmeFile: string, heading = 'Options'): string[] {
  const lines = readFileSync(readmeFile, 'utf8').split('\n');
  const at = lines.findIndex((l) => /^#{1,6}\s/.test(l) && l.replace(/^#+\s*/, '').trim() === heading);
  if (at < 0) throw new Error(`${readmeFile}: no heading "${heading}"; add one above the options table`);
  const rows: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^#{1,6}\s/.test(line)) break;
    if (line.trimStart().startsWith('|')) rows.push(line);
    else if (rows.length > 0) break;
  }
  if (rows.length < 2 || !/^[\s|:-]+$/.test(rows[1]!))
    throw new Error(
      `${readmeFile}: no table under "${heading}"; write one as | option | default | meaning |, a row per option`,
    );
  return rows.slice(2).flatMap((row) => [...(cells(row)[0] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}
