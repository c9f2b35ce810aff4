import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, commitAll, readConfig, suture, workspace, writeTree } from './support.js';

afterAll(cleanup);

/**
 * A third party's runner: each `<testDir>/*.test.mjs` runs as its own node process (core's
 * script runner does the running), and detect() finds folders that hold such files.
 */
const RUNNER = (name: string, testDir: string): string => `import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptRunner } from '@suture/core/testing';

export default function runner(options = {}) {
  const testDir = options.testDir ?? '${testDir}';
  return {
    ...scriptRunner({ testDir }),
    name: '${name}',
    async detect(dir) {
      const files = await readdir(join(dir, testDir)).catch(() => []);
      if (!files.some((f) => f.endsWith('.test.mjs'))) return null;
      return { name: dir.split('/').pop(), reason: testDir + '/*.test.mjs', notes: ['each test file runs in its own node process'] };
    },
  };
}
`;

const PASS = "import assert from 'node:assert';\nassert.strictEqual(1 + 1, 2);\n";
const FAIL = "import assert from 'node:assert';\nassert.strictEqual(2 - 1, 0);\n";

interface Report {
  projects: Array<{
    name: string;
    runner: string;
    totals: { tests: number; passed: number; failed: number };
  }>;
}

describe('suture init asks third-party runners', () => {
  it('finds a runner installed in node_modules by its suture-runner keyword, and the config it writes runs', async () => {
    const dir = await workspace();
    await writeTree(dir, {
      '.gitignore': 'node_modules/\n',
      'node_modules/suture-runner-node-scripts/package.json': JSON.stringify({
        name: 'suture-runner-node-scripts',
        keywords: ['suture', 'suture-runner'],
        type: 'module',
        exports: './index.mjs',
      }),
      'node_modules/suture-runner-node-scripts/index.mjs': RUNNER('suture-runner-node-scripts', 'checks'),
      // a fixer is not a runner: init must not even import it
      'node_modules/suture-fixer-other/package.json': JSON.stringify({
        name: 'suture-fixer-other',
        keywords: ['suture', 'suture-fixer'],
        type: 'module',
        exports: './index.mjs',
      }),
      'node_modules/suture-fixer-other/index.mjs': "throw new Error('a fixer was imported as a runner');\n",
      // a scoped package that says it is a runner but cannot be loaded
      'node_modules/@acme/suture-runner-broken/package.json': JSON.stringify({
        name: '@acme/suture-runner-broken',
        keywords: ['suture-runner'],
        type: 'module',
        exports: './index.mjs',
      }),
      'node_modules/@acme/suture-runner-broken/index.mjs': "import 'a-package-that-is-not-there';\n",
      // a runner whose detect() throws: said once, and the others still run
      'node_modules/suture-runner-throws/package.json': JSON.stringify({
        name: 'suture-runner-throws',
        keywords: ['suture-runner'],
        type: 'module',
        exports: './index.mjs',
      }),
      'node_modules/suture-runner-throws/index.mjs':
        "export default () => ({ name: 'suture-runner-throws', apiVersion: 1, language: 'x', supportsSelection: false, run() {}, detect() { throw new Error('no license file'); } });\n",
      'calc/checks/add.test.mjs': PASS,
      'calc/checks/sub.test.mjs': FAIL,
    });
    commitAll(dir);

    const init = await suture(['init'], dir);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).not.toContain('a fixer was imported');
    expect(init.stderr).toMatch(
      /^suture: skipping runner @acme\/suture-runner-broken \(keyword suture-runner in node_modules\/@acme\/suture-runner-broken\/package\.json\): cannot load .*index\.mjs: .*a-package-that-is-not-there/m,
    );
    expect(
      init.stderr.match(
        /suture-runner-throws: detect\(.*\) failed: no license file; the runner is not asked again/g,
      ),
    ).toHaveLength(1);
    expect(init.stdout).toContain(
      'found suture-runner-node-scripts project "calc" in calc (checks/*.test.mjs)\n  each test file runs in its own node process\n',
    );
    expect((await readConfig(dir)).projects).toEqual([
      { name: 'calc', root: 'calc', runner: 'suture-runner-node-scripts' },
    ]);

    const run = await suture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.projects.map((p) => [p.name, p.runner, p.totals.tests, p.totals.failed])).toEqual([
      ['calc', 'suture-runner-node-scripts', 2, 1],
    ]);
  });

  it('asks a local runner named in the existing config, with the options the config gives it', async () => {
    const dir = await workspace();
    const spec = ['./tools/smoke-runner.mjs', { testDir: 'smoke' }];
    await writeTree(dir, {
      'tools/smoke-runner.mjs': RUNNER('smoke-runner', 'never-used'),
      'web/smoke/home.test.mjs': PASS,
      'api/smoke/health.test.mjs': PASS,
      'suture.config.json': JSON.stringify({
        projects: [{ name: 'website', root: 'web', runner: spec }],
        fixers: [],
      }),
    });
    commitAll(dir);

    const init = await suture(['init', '--force'], dir);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      'kept ./tools/smoke-runner.mjs project "website" in web from the existing config\n',
    );
    expect(init.stdout).toContain('found ./tools/smoke-runner.mjs project "api" in api (smoke/*.test.mjs)\n');
    const config = await readConfig(dir);
    expect(config.projects).toEqual([
      { name: 'api', root: 'api', runner: spec },
      { name: 'website', root: 'web', runner: spec },
    ]);
    // the settings the user wrote stay
    expect(config.fixers).toEqual([]);

    const run = await suture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as Report).projects.map((p) => [p.name, p.totals.passed])).toEqual([
      ['api', 1],
      ['website', 1],
    ]);
  });
});
