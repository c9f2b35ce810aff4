import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealConfigSchema, type GateReport } from '@suture/core';
import { runGate } from '@suture/core/internal';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';
import { cleanup, quiet, repoWith } from './gate-support.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYplantedHOME77';
const homes: string[] = [];
afterAll(async () => {
  await cleanup();
  await Promise.all(homes.splice(0).map((h) => rm(h, { recursive: true, force: true })));
});

/** A user's home holding AWS credentials, as HOME for suture and everything it starts. */
async function homeWithCredentials(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'suture-user-home-'));
  homes.push(home);
  await mkdir(join(home, '.aws'));
  await writeFile(
    join(home, '.aws', 'credentials'),
    `[default]\naws_access_key_id = AKIAPLANTEDHOME00077\naws_secret_access_key = ${SECRET}\n`,
  );
  return home;
}

describe('tested code in the sandbox', () => {
  it("cannot read the user's ~/.aws/credentials, through ~ or the home's path, and the heal still validates", async () => {
    const { repo, root } = await repoWith('home-secrets');
    const home = await homeWithCredentials();
    const fixer = scriptedFixer([
      {
        verdict: 'edits',
        rationale: 'add must add',
        edits: [{ file: 'calc.py', search: 'return a - b', replace: 'return a + b' }],
      },
    ]);
    const saved = { HOME: process.env.HOME, FIXTURE_REAL_HOME: process.env.FIXTURE_REAL_HOME };
    // The runner starts pytest with suture's environment: the user's home is the planted one.
    process.env.HOME = home;
    process.env.FIXTURE_REAL_HOME = home;
    let report: GateReport;
    try {
      report = await runGate({
        root: repo,
        outputDir: join(repo, '.suture', 'runs'),
        mode: 'check',
        projects: [
          {
            name: 'app',
            root,
            runner: pytest(),
            analyzer: pytest().analyzer!(),
            timeoutMs: 60_000,
            heal: HealConfigSchema.parse({ maxAttempts: 1, flakyReruns: 1 }),
          },
        ],
        fixers: [fixer],
        reporters: [],
        concurrency: 1,
        logger: quiet,
        workspace: 'auto',
        sandbox: 'strict',
        sandboxEnv: ['FIXTURE_REAL_HOME'],
      });
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
    // In the user's own environment the test read the credentials (the initial run and its re-run).
    const project = report.projects[0]!;
    expect(project.rounds[0]!.tests[0]).toMatchObject({ status: 'failed' });
    expect(project.rounds[0]!.tests[0]!.message).toContain('aws_secret_access_key');
    // In the sandbox it saw a private HOME and nothing of the real one, so the fix validated.
    expect(project.failures[0]!.outcome).toBe('healed');
    expect(project.status).toBe('healed');
    expect(report.isolation).toMatchObject({ sandbox: 'strict' });
    // What it printed of the credentials is masked in the report and in the request to the fixer.
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(JSON.stringify(fixer.requests)).not.toContain(SECRET);
    expect(fixer.requests).toHaveLength(1);
  }, 120_000);
});
