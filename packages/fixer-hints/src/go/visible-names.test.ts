import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GO_PREDECLARED, renameAt, visibleGoNames } from './visible-names.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-go-names-'));
  temps.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('renameAt', () => {
  it('replaces the identifier at the column, and only a whole identifier', () => {
    const text = 'package p\n\nfunc f() int { return summ + summary }\n';
    expect(renameAt(text, 3, 23, 'summ', 'sum')).toBe('package p\n\nfunc f() int { return sum + summary }\n');
    // `summ` is the start of `summary` at column 30: not a whole identifier
    expect(renameAt(text, 3, 30, 'summ', 'sum')).toBeUndefined();
    expect(renameAt(text, 3, 22, 'summ', 'sum')).toBeUndefined();
    expect(renameAt(text, 9, 1, 'summ', 'sum')).toBeUndefined();
  });

  it('counts columns in bytes, as the Go compiler does', () => {
    const text = 'package p\n\nvar s = "é" + nme\n';
    // "é" is two bytes: the compiler puts nme at byte column 16
    expect(renameAt(text, 3, 16, 'nme', 'name')).toBe('package p\n\nvar s = "é" + name\n');
  });
});

describe('visibleGoNames', () => {
  it('orders locals, then the package (its own files, never another package of the folder), then predeclared names', async () => {
    const dir = await folder({
      'a.go':
        'package p\n\nimport str "strings"\n\nfunc F(n int) int {\n\tx := 1\n\tif n > 0 {\n\t\tinner := 2\n\t\t_ = inner\n\t}\n\treturn 0\n}\n',
      'b.go': 'package p\n\ntype Cart struct{}\n\nconst Limit = 3\n\nvar counter, other int\n',
      'b_test.go': 'package p\n\nfunc helperOfTests() {}\n',
      'c_test.go': 'package p_test\n\nfunc External() {}\n',
    });
    const [locals, pkg, predeclared] = (await visibleGoNames(dir, 'a.go', 11, 2))!;
    expect(locals).toEqual(expect.arrayContaining(['n', 'x']));
    expect(locals).not.toContain('inner');
    expect(pkg).toEqual(expect.arrayContaining(['F', 'str', 'Cart', 'Limit', 'counter', 'other']));
    // a test file's names are not in a build of the package; another package's never are
    expect(pkg).not.toContain('helperOfTests');
    expect(pkg).not.toContain('External');
    expect(predeclared).toBe(GO_PREDECLARED);
    // inside the if body, its local is visible; a local declared after the place is not
    const [inIf] = (await visibleGoNames(dir, 'a.go', 9, 3))!;
    expect(inIf).toContain('inner');
    const [atStart] = (await visibleGoNames(dir, 'a.go', 6, 2))!;
    expect(atStart).not.toContain('x');
    // a test file sees the package's test files too
    const [, fromTest] = (await visibleGoNames(dir, 'b_test.go', 3, 1))!;
    expect(fromTest).toEqual(expect.arrayContaining(['F', 'helperOfTests']));
  });

  it('is undefined for a file it cannot read', async () => {
    expect(await visibleGoNames(await folder({}), 'missing.go', 1, 1)).toBeUndefined();
  });
});
