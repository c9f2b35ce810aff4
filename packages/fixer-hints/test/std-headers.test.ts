import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { stdHeaders, stdTable } from '../src/cpp/std-headers.js';

// The names of the table that are namespaces: they are checked with an alias, the others with a using-declaration.
const NAMESPACES = new Set([
  'chrono',
  'filesystem',
  'numbers',
  'this_thread',
  'placeholders',
  'views',
  'execution',
  'regex_constants',
]);

/** g++'s errors for a translation unit that includes only `header` and names everything the table gives it. */
function check(header: string, names: string[]): Promise<string> {
  const tu = [
    `#include ${header}`,
    ...names.map((n, i) => (NAMESPACES.has(n) ? `namespace alias_${i} = std::${n};` : `using std::${n};`)),
  ].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      'g++',
      ['-std=c++2b', '-fsyntax-only', '-x', 'c++', '-'],
      { env: { ...process.env, LC_ALL: 'C' } },
      (error, _out, stderr) => resolve(error ? `${header}:\n${stderr}` : ''),
    );
    child.stdin!.end(`${tu}\n`);
  });
}

describe('the standard header table', () => {
  it('is right about every name on this machine: a translation unit with only that header declares it (g++ 12, -std=c++2b)', async () => {
    const table = stdTable();
    const errors: string[] = [];
    // two compilers at a time: the machine is shared
    for (let i = 0; i < table.length; i += 2)
      errors.push(...(await Promise.all(table.slice(i, i + 2).map(([h, names]) => check(h, names)))));
    expect(errors.filter(Boolean).join('\n')).toBe('');
  }, 900_000);

  it('gives one header for the names it may add, and all of them for a name declared in several', () => {
    expect(stdHeaders('sqrt')).toEqual(['<cmath>']);
    expect(stdHeaders('accumulate')).toEqual(['<numeric>']);
    expect(stdHeaders('chrono')).toEqual(['<chrono>']);
    expect(stdHeaders('size_t')).toEqual(['<cstddef>', '<cstdio>', '<cstdlib>', '<cstring>', '<ctime>']);
    expect(stdHeaders('no_such_name')).toEqual([]);
  });

  it('is ambiguous only where the standard is: abs, move, remove and size_t', () => {
    const ambiguous = [...new Set(stdTable().flatMap(([, names]) => names))]
      .filter((n) => stdHeaders(n).length > 1)
      .sort();
    expect(ambiguous).toEqual(['abs', 'move', 'remove', 'size_t']);
  });
});
