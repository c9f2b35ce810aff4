import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apply, propose, request } from './support.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-hints-env-'));
  temps.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

const PAGE = 'function heading() {\n  return documnt.title;\n}\n\nmodule.exports = { heading };\n';
const TEST =
  "const { heading } = require('../src/page');\n\ntest('heading', () => expect(heading()).toBe(''));\n";

/** The failure the Jest analyzer makes of `ReferenceError: documnt is not defined` in src/page.js. */
const failure = (root: string) =>
  request(
    root,
    'javascript',
    {
      kind: 'exception',
      title: 'ReferenceError: documnt is not defined',
      evidence: 'ReferenceError: documnt is not defined\n    at heading (src/page.js:2:10)',
      location: { file: 'src/page.js', line: 2 },
    },
    ['src/page.js', 'test/page.test.js'],
  );

describe('the DOM in the program of the script hints', () => {
  it('is left out where the tests run in Node: `document` does not exist there, so it is no fix', async () => {
    const root = await project({
      'package.json': '{ "name": "node-env", "private": true, "jest": { "testEnvironment": "node" } }\n',
      'src/page.js': PAGE,
      'test/page.test.js': TEST,
    });
    const proposal = await propose(failure(root));
    expect(proposal.verdict).toBe('unfixable');
    expect(JSON.stringify(proposal)).not.toContain('document');
  });

  it.each([
    [
      'package.json',
      { 'package.json': '{ "name": "dom", "private": true, "jest": { "testEnvironment": "jsdom" } }\n' },
    ],
    [
      "a test file's docblock",
      {
        'package.json': '{ "name": "dom", "private": true }\n',
        // put together, so that the docblock is not read as this file's own by Vitest
        'test/page.test.js': `/**\n * @jest-${'environment'} jsdom\n */\n${TEST}`,
      },
    ],
    [
      'vitest.config.mjs',
      {
        'package.json': '{ "name": "dom", "private": true }\n',
        'vitest.config.mjs': "export default { test: { environment: 'happy-dom' } };\n",
      },
    ],
  ])('is in where %s says the tests run with a DOM, and `documnt` becomes `document`', async (_, files) => {
    const root = await project({ 'src/page.js': PAGE, 'test/page.test.js': TEST, ...files });
    const req = failure(root);
    await apply(root, req, await propose(req));
    expect(await readFile(join(root, 'src/page.js'), 'utf8')).toBe(PAGE.replace('documnt', 'document'));
  });
});
