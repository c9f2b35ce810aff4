import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { documentedOptions } from '@suture/core/testing';
import { describe, expect, it } from 'vitest';

const README = fileURLToPath(new URL('../README.md', import.meta.url));
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

const help = (...args: string[]): string =>
  execFileSync(process.execPath, [BIN, ...args, '--help'], { encoding: 'utf8' });

/** The option names (`--fix`, `--config <file>` as `--config`) a help text lists under "Options:". */
function optionsOf(text: string): string[] {
  const section = text.split(/^Options:$/m)[1] ?? '';
  return [...section.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)]
    .map((m) => m[1]!)
    .filter((o) => o !== '--help' && o !== '--version');
}

describe('README.md', () => {
  it('has a row under "## Options" for every option of every command, and none for an option that is gone', () => {
    const commands = [...(help().split(/^Commands:$/m)[1] ?? '').matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]!);
    expect(commands).toContain('run');
    const options = new Set(commands.flatMap((c) => optionsOf(help(c))));
    const documented = documentedOptions(README).map((o) => o.split(' ')[0]!);
    expect(documented.sort()).toEqual([...options].sort());
  });
});

const RUNNERS_GUIDE = fileURLToPath(new URL('../../../docs/guide/runners.md', import.meta.url));

/** The options the guide's runners table names for a runner: the names outside parentheses. */
function rootRunnerOptions(runner: string): string[] {
  const row = readFileSync(RUNNERS_GUIDE, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`| \`${runner}\` |`));
  if (!row) throw new Error(`docs/guide/runners.md: no row for the runner "${runner}" in the runners table`);
  // drop what the parentheses explain (defaults, examples), nested ones included
  let cell = row.split('|')[2]!;
  for (let prev = ''; prev !== cell;) [prev, cell] = [cell, cell.replace(/\([^()]*\)/g, '')];
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe('docs/guide/runners.md', () => {
  it.each(['pytest', 'ctest', 'jest'])(
    'names every option of the %s runner in its runners table, as the runner package documents them',
    (runner) => {
      const own = fileURLToPath(new URL(`../../runner-${runner}/README.md`, import.meta.url));
      expect(rootRunnerOptions(runner).sort()).toEqual(documentedOptions(own).sort());
    },
  );
});
