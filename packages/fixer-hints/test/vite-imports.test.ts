import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apply, cleanup, copy, propose, request } from './support.js';

afterAll(cleanup);

const missing = (root: string) =>
  request(
    root,
    'javascript',
    {
      kind: 'exception',
      title: 'ReferenceError: formatPrice is not defined',
      location: { file: 'src/receipt.ts', line: 2 },
    },
    // the scope the analyzer gives: the failing file and the test, not the module that exports the name
    ['src/receipt.ts', '__tests__/receipt.test.ts'],
  );

describe('a missing import in an ES module, resolved as the project resolves it', () => {
  it('in a Vitest project, finds the module through the test’s extensionless import and writes one like it', async () => {
    const root = await copy('vitest/missing-import');
    const req = missing(root);
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: 'TypeScript code fix: Add import from "./format"',
    });
    await apply(root, req, proposal);
    expect(await readFile(join(root, 'src/receipt.ts'), 'utf8')).toMatch(
      /^import \{ formatPrice \} from "\.\/format";\n/,
    );
  });

  it('in a plain Node ES module project, keeps Node’s rule: an extensionless import finds nothing, so no import is guessed', async () => {
    const root = await copy('vitest/missing-import');
    await writeFile(
      join(root, 'package.json'),
      JSON.stringify({ name: 'plain', private: true, type: 'module' }),
    );
    expect(await propose(missing(root))).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/no spelling or import fix/),
    });
  });

  it('in a plain Node ES module project whose imports Node resolves, writes the import with the extension Node needs', async () => {
    const root = await copy('vitest/missing-import');
    await writeFile(
      join(root, 'package.json'),
      JSON.stringify({ name: 'plain', private: true, type: 'module' }),
    );
    const test = join(root, '__tests__/receipt.test.ts');
    await writeFile(test, (await readFile(test, 'utf8')).replace("'../src/format'", "'../src/format.js'"));
    expect(await propose(missing(root))).toMatchObject({
      verdict: 'edits',
      rationale: 'TypeScript code fix: Add import from "./format.js"',
    });
  });
});
