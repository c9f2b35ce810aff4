import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from '../cli-support.js';
import { FIXTURES, requirePythonModule, tree } from './support.js';

afterAll(cleanup);

const KEPT = 'from calc.ops import clamp\n\n\ndef test_low():\n    assert clamp(-1, 0, 10) == 0\n';

/** A generator that writes a good test, then ends the process when asked for the rest. */
const EXITING = `
export default function exiting() {
  return {
    name: 'exiting-generator',
    apiVersion: 1,
    language: 'python',
    async generate(request) {
      if (request.feedback) process.exit(0);
      const files = [{ file: 'tests/gen/test_gen_low.py', content: ${JSON.stringify(KEPT)} }];
      return { files, plan: { summary: 'one test', tests: [{ file: files[0].file, test: files[0].file }] } };
    },
  };
}
`;

describe('a generator that calls process.exit', () => {
  it('fails the run naming it (exit 3), and what the run wrote is taken back', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await workspace(join(FIXTURES, 'python'));
    await writeFile(
      join(root, 'suture.config.json'),
      JSON.stringify({ projects: [{ name: 'py', root: '.', runner: 'pytest' }], fixers: [], reporters: [] }),
    );
    await writeFile(join(root, 'exiting-generator.mjs'), EXITING);
    const before = await tree(root, ['.suture']);
    const r = await suture(
      ['generate', 'tests', 'calc/ops.py', '--generator', './exiting-generator.mjs'],
      root,
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout + r.stderr).toContain(
      'exiting-generator (suture.config.json#--generator) called process.exit(0) in generate; a plugin must return or throw, never end the process',
    );
    expect(existsSync(join(root, 'tests/gen/test_gen_low.py'))).toBe(false);
    expect(await tree(root, ['.suture'])).toEqual(before);
  }, 600_000);
});
