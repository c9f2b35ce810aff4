// A script-runner repository for the workspace and sandbox suites: `add` is broken, and the
// fixer answers with a patch given as text (fixes add, plus whatever a hostile or slow patch does
// on import). Shared by the vitest suite and bench/workspace.mjs.
import { readdir, readFile } from 'node:fs/promises';
import { commitFixture, writeAt } from './cli.mjs';

export const MATH =
  'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
export const FIXED =
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';

/** Writes the repository at `root` with `patch` as the fixer's whole-file answer for src/math.mjs. */
export async function writeWorkspaceFixture(root, { patch = FIXED, config = {} } = {}) {
  const put = (rel, content) => writeAt(root, rel, content);
  await put(
    'suture.config.json',
    `${JSON.stringify(
      {
        projects: [{ name: 'calc', root: 'calc', runner: './plugins/runner.mjs', timeoutMs: 120_000 }],
        fixers: ['./plugins/fixer.mjs'],
        heal: { flakyReruns: 0, maxAttempts: 1 },
        reporters: ['json', 'patch'],
        ...config,
      },
      null,
      2,
    )}\n`,
  );
  await put('plugins/runner.mjs', "export { scriptRunner as default } from '@suture/core/testing';\n");
  await put(
    'plugins/fixer.mjs',
    `export default function fixer() {
  return {
    name: 'workspace-fixer',
    apiVersion: 1,
    async propose() {
      return { verdict: 'edits', rationale: 'add must add', edits: [{ file: 'src/math.mjs', content: ${JSON.stringify(patch)} }] };
    },
  };
}
`,
  );
  await put('calc/src/math.mjs', MATH);
  await put(
    'calc/tests/add.test.mjs',
    "import assert from 'node:assert/strict';\nimport { add } from '../src/math.mjs';\n\nassert.equal(add(2, 3), 5);\n",
  );
  await put(
    'calc/tests/mul.test.mjs',
    "import assert from 'node:assert/strict';\nimport { mul } from '../src/math.mjs';\n\nassert.equal(mul(2, 3), 6);\n",
  );
  commitFixture(root);
}

/** Live processes (not zombies) whose command line holds `marker`, wherever they run. */
export async function processesWith(marker) {
  const found = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(marker)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    if (!/^\d+ \(.*\) Z /.test(stat)) found.push(Number(name));
  }
  return found;
}

/**
 * A patch that fixes add and, on import, starts a helper that leaves the run's process group
 * (setsid) and one that daemonises (double fork), both sleeping with `marker` in their command
 * line, then sleeps `holdMs` itself: a validation run that takes long and leaves processes behind.
 */
export function lingeringPatch(marker, holdMs) {
  const helper = `setInterval(() => {}, 1000); /* ${marker} */`;
  return `import { spawn } from 'node:child_process';
spawn('setsid', [process.execPath, '-e', ${JSON.stringify(helper)}], { stdio: 'ignore', detached: true }).unref();
spawn(process.execPath, ['-e', "require('child_process').spawn(process.execPath, ['-e', process.argv[1]], { stdio: 'ignore', detached: true }).unref()", ${JSON.stringify(helper)}], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, ${holdMs}));
${FIXED}`;
}
