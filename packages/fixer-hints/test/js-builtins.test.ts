import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apply, cleanup, copy, propose, request } from './support.js';

afterAll(cleanup);

// Jest 30's failure messages for the fixture's tests, captured by fixtures/js-builtins/capture.sh.
const messages = JSON.parse(
  readFileSync(new URL('./fixtures/js-builtins/jest-failures.json', import.meta.url), 'utf8'),
) as Record<string, string>;
const SOURCES = [
  'src/eol.js',
  'src/paths.js',
  'src/misuse.js',
  'src/label.js',
  'src/util.js',
  'src/one.js',
  'src/two.js',
  'src/run.js',
];

/** The failure the Jest analyzer makes of a test's message: located at its innermost frame in src/. */
function failure(root: string, test: string): ReturnType<typeof request> {
  const message = messages[test]!.split('<root>').join(root);
  const frame = /\((?:[^()]*?)\/(src\/[\w.]+):(\d+):\d+\)/.exec(message)!;
  return request(
    root,
    'javascript',
    {
      kind: 'exception',
      title: message.split('\n')[0],
      evidence: message,
      location: { file: frame[1]!, line: Number(frame[2]) },
    },
    SOURCES,
  );
}

/** Runs a script file with Node: `node -e` would not do, as it makes every built-in module a global. */
async function runScript(root: string, name: string, code: string): Promise<string> {
  await writeFile(join(root, name), code);
  try {
    return execFileSync(process.execPath, [name], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    return String((error as { stderr: string }).stderr);
  }
}

describe("a Node built-in module used without being bound, which TypeScript's import fix does not cover", () => {
  it('requires os for os.EOL in a CommonJS file, and the function works', async () => {
    const root = await copy('js-builtins');
    const req = failure(root, 'eol');
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(
        /"os" is Node's built-in module, used as os\.EOL without being bound: added `const os = require\("os"\);`/,
      ),
    });
    await apply(root, req, proposal);
    expect(await readFile(join(root, 'src/eol.js'), 'utf8')).toBe(
      'const os = require("os");\n\nfunction eol() {\n  return os.EOL;\n}\n\nmodule.exports = { eol };\n',
    );
    const check = 'process.stdout.write(JSON.stringify(require("./src/eol").eol()));';
    expect(await runScript(root, 'check.js', check)).toBe('"\\n"');
  });

  it("writes the require like the file's others (quotes, node: prefix), after them", async () => {
    const root = await copy('js-builtins');
    const req = failure(root, 'tmpFile');
    await apply(root, req, await propose(req));
    expect(await readFile(join(root, 'src/paths.js'), 'utf8')).toMatch(
      /^'use strict';\nconst \{ join \} = require\('node:path'\);\nconst os = require\('node:os'\);\n\nfunction tmpFile/,
    );
  });

  it('binds it with an import in an ES module', async () => {
    const root = await copy('js-builtins');
    await writeFile(
      join(root, 'src/cores.mjs'),
      'export function cores() {\n  return os.cpus().length;\n}\n',
    );
    const check = "import { cores } from './src/cores.mjs';\nprocess.stdout.write(String(cores() > 0));\n";
    const thrown = await runScript(root, 'check.mjs', check);
    expect(thrown).toMatch(/ReferenceError: os is not defined/);
    const req = request(
      root,
      'javascript',
      {
        kind: 'exception',
        title: 'ReferenceError: os is not defined',
        evidence: thrown,
        location: { file: 'src/cores.mjs', line: 2 },
      },
      ['src/cores.mjs'],
    );
    await apply(root, req, await propose(req));
    expect(await readFile(join(root, 'src/cores.mjs'), 'utf8')).toBe(
      'import * as os from "os";\n\nexport function cores() {\n  return os.cpus().length;\n}\n',
    );
    expect(await runScript(root, 'check.mjs', check)).toBe('true');
  });

  it("leaves it when the file's use of the name does not type-check against Node's module", async () => {
    const root = await copy('js-builtins');
    const proposal = await propose(failure(root, 'ticks'));
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(
        /Node's "os" module does not fit how the file uses it \(Property 'uptimeTicks' does not exist/,
      ),
    });
  });

  it('leaves it when a project module answers to the same name', async () => {
    const root = await copy('js-builtins');
    const proposal = await propose(failure(root, 'label'));
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/could be Node's built-in module or the project's src\/util\.js/),
    });
  });
});

describe('import fixes', () => {
  it('are not taken when two project modules export the missing name', async () => {
    const root = await copy('js-builtins');
    const proposal = await propose(failure(root, 'run'));
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/more than one module exports it \(\.\/one, \.\/two\)/),
    });
  });
});
