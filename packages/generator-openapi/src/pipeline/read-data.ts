import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { ConfigError } from '@suture/core';
import { parseCsv } from '../data/csv.js';
import { mapColumns, type DataMapping } from '../data/mapping.js';
import { parseRules, type Rule } from '../data/rules.js';
import type { ApiModel } from '../spec/model.js';

/** The CSV of --data, its rows and the columns matched to parameters. */
export async function readData(
  path: string,
  cwd: string,
  model: ApiModel,
): Promise<{ rows: Array<Record<string, string>>; mapping: DataMapping }> {
  const file = resolve(cwd, path);
  const shown = relative(cwd, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--data ${shown}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path`,
    );
  }
  const { header, rows } = parseCsv(text);
  if (header.length === 0)
    throw new ConfigError(
      `--data ${shown}: no header line; the first line names the columns (e.g. case,api,name,email,expected_status)`,
    );
  return { rows, mapping: mapColumns(model, header, shown, rows.length) };
}

/** The rules of --rules, one per list item of the document. */
export async function readRules(path: string, cwd: string): Promise<{ rules: Rule[]; shown: string }> {
  const file = resolve(cwd, path);
  const shown = relative(cwd, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--rules ${shown}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path`,
    );
  }
  const rules = parseRules(text);
  if (rules.length === 0)
    throw new ConfigError(
      `--rules ${shown}: no rule found; write one rule per list item ("- An order over stock is refused with 409")`,
    );
  return { rules, shown };
}
