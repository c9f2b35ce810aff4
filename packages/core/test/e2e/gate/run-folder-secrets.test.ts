import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runner } from '../../../src/api/plugin.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, gate, hashTree, project, sandbox, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

describe('the run folder', () => {
  it('keeps no runner scratch file, where raw test output (secrets included) would outlive the run', async () => {
    const b = await sandbox();
    boxes.push(b);
    const secret = 'planted-session-token-0042';
    const inner = scriptRunner();
    // Like the pytest and Jest runners: a raw event file of everything the tests printed.
    const runner: Runner = {
      ...inner,
      run: async (ctx) => {
        await writeFile(
          join(ctx.workDir, 'raw-events.jsonl'),
          JSON.stringify({ stdout: `SESSION_TOKEN=${secret}` }),
        );
        return inner.run(ctx);
      },
    };
    const report = await gate(b, [scriptedFixer([FIX_ADD])], {
      mode: 'fix',
      env: { SESSION_TOKEN: secret },
      projects: [project(b.root, { runner })],
    });
    expect(report.projects[0]!.status).toBe('healed');
    const files = Object.keys(await hashTree(report.runDir!));
    expect(files.some((f) => f.startsWith('work/'))).toBe(false);
    for (const f of files) expect(await readFile(join(report.runDir!, f), 'utf8'), f).not.toContain(secret);
  });
});
