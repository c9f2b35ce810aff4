import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Diagnostic } from '@suture/core';

/** One check: a line `name: command` of a checks file. */
export interface Check {
  /** `checks/calc.checks::adds`: the file and the name, unique in a project. */
  id: string;
  name: string;
  /** Project-relative POSIX path. */
  file: string;
  /** 1-based line of the check. */
  line: number;
  command: string;
}

export const CHECK = /^([^:#][^:]*):\s*(\S.*)$/;

/** Reads every `*.checks` file of `dir`: the checks, and a diagnostic for each line that is not one. */
export async function readChecks(
  root: string,
  dir: string,
): Promise<{ checks: Check[]; diagnostics: Diagnostic[] }> {
  const names = await readdir(join(root, dir)).catch(() => [] as string[]);
  const checks: Check[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of names.filter((n) => n.endsWith('.checks')).sort()) {
    const file = posix.join(dir, name);
    const lines = (await readFile(join(root, file), 'utf8')).split('\n');
    lines.forEach((text, i) => {
      if (text.trim() === '' || text.trimStart().startsWith('#')) return;
      const m = CHECK.exec(text);
      if (m) {
        const checkName = m[1]!.trim();
        checks.push({ id: `${file}::${checkName}`, name: checkName, file, line: i + 1, command: m[2]! });
        return;
      }
      diagnostics.push({
        source: 'checks',
        severity: 'error',
        message: `expected "name: command", got ${JSON.stringify(text.trim())}`,
        file,
        line: i + 1,
        column: 1,
        notes: [],
        fixIts: [],
        tests: [],
      });
    });
  }
  return { checks, diagnostics };
}
