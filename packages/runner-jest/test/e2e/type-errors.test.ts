import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

// ts-jest type-checks each file it compiles: a type error in a source stops every test file that
// imports it, each reporting the same compiler diagnostic.
describe('a TypeScript error in a source that every test file imports', () => {
  it('is one failure at its place in the source, holding each suite it stopped, and its scope starts there', async () => {
    const root = await copy('ts-types');
    const file = join(root, 'src/dates.ts');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('value instanceof Date && ', 'value instanceof Date || '));
    const r = await run(root);
    expect(r.tests).toEqual([]);
    expect(r.diagnostics.map((d) => d.file).sort()).toEqual([
      'test/is-date.test.ts',
      'test/not-date.test.ts',
    ]);

    const analyzer = jest().analyzer!();
    const groups = await analyzer.analyze(r, project(root));
    expect(groups).toHaveLength(1);
    const group = FailureSchema.parse({ ...groups[0]!, id: groups[0]!.fingerprint });
    expect(group).toMatchObject({
      kind: 'build',
      title: "src/dates.ts:2:42: error TS18046: 'value' is of type 'unknown'.",
      location: { file: 'src/dates.ts', line: 2, column: 42 },
    });
    expect(group.diagnostics).toHaveLength(2);
    expect(group.evidence).toMatch(/value\.getTime\(\)/);
    const scope = ScopeSchema.parse(await analyzer.scope(group, project(root)));
    expect(scope.entries[0]!.file).toBe('src/dates.ts');
  }, 120_000);
});
