import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { TestResult } from '../api/contracts/run-result.js';
import { check } from './conformance-utils.js';

/**
 * The words of a test's own name that its definition line spells: the last `::` segment of its
 * name (or id), without parameters (`[5-2]`), split on anything that is not part of an
 * identifier, numbers and words under three letters dropped. `cart total applies the discount`
 * gives cart, total, applies, the, discount; `Factors/Factor.KeepsZero/3` gives Factors, Factor,
 * KeepsZero.
 */
export function nameWords(test: Pick<TestResult, 'id' | 'name'>): string[] {
  const own = (test.name ?? test.id)
    .split('::')
    .pop()!
    .replace(/\[[^\]]*\]$/, '');
  return [...new Set(own.split(/[^A-Za-z0-9_]+/).filter((w) => w.length >= 3 && !/^\d+$/.test(w)))];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Does the line spell at least half of the words (at least one), each as a whole word? */
export function lineSpells(line: string, words: readonly string[]): boolean {
  const found = words.filter((w) =>
    new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(w)}(?![A-Za-z0-9_])`).test(line),
  );
  return found.length > 0 && found.length * 2 >= words.length;
}

/**
 * Checks every located test against the project's real files: the line is 1-based, inside the
 * file, and holds the test's name (or the text `definitions` gives for it). Tests the fixture
 * names must be located.
 */
export async function checkDefinitionLines(
  root: string,
  tests: readonly TestResult[],
  declared: readonly string[],
  definitions: Readonly<Record<string, string>> = {},
): Promise<void> {
  for (const id of declared) {
    const t = tests.find((x) => x.id === id);
    check(t?.file && t.line, `test "${id}" must carry the file and 1-based line of its definition`);
  }
  const files = new Map<string, string[] | undefined>();
  for (const t of tests) {
    if (t.file === undefined) continue;
    check(
      !isAbsolute(t.file) && !t.file.startsWith('..'),
      `test "${t.id}" file must be relative to the project root, got ${t.file}`,
    );
    if (t.line === undefined) continue;
    check(Number.isInteger(t.line) && t.line >= 1, `test "${t.id}" line must be 1-based, got ${t.line}`);
    if (!files.has(t.file))
      files.set(
        t.file,
        await readFile(join(root, t.file), 'utf8').then(
          (text) => text.split('\n'),
          () => undefined,
        ),
      );
    const lines = files.get(t.file);
    check(lines, `test "${t.id}" names ${t.file}, which is not a file of the project`);
    check(
      t.line <= lines.length,
      `test "${t.id}" line ${t.line} is past the end of ${t.file} (${lines.length} lines)`,
    );
    const text = lines[t.line - 1]!;
    const given = definitions[t.id];
    const words = nameWords(t);
    if (given === undefined && words.length === 0) continue;
    check(
      given !== undefined ? text.includes(given) : lineSpells(text, words),
      `test "${t.id}" is reported at ${t.file}:${t.line}, which reads ${JSON.stringify(text.trim())} and does not name it` +
        `${(given !== undefined ? lines[t.line]?.includes(given) : lineSpells(lines[t.line] ?? '', words)) ? ' (the next line does: are lines 0-based?)' : ''}` +
        '; a line must be the 1-based line of the test definition (give fixture.definitions for a test whose line does not spell its name)',
    );
  }
}
