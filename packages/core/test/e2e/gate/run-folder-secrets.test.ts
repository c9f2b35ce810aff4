import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runner } from '../../../src/plugin/types.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, gate, project, sandbox, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(abs)));
    else out.push(abs);
  }
  return out;
}

describe('the run folder', () => {
  it("keeps no runner scratch file, where raw test output (secrets included) would outlive the run", async () => {
    const b = await sandbox();
    boxes.push(b);
    const secret = 'planted-session-token-0042';
    const inner = scriptRunner();
    // Like the pytest and Jest runners: a raw event file of everything the tests printed.
    const runner: Runner = { ...inner, run: async (ctx) => {
      await writeFile(join(ctx.workDir, 'raw-events.jsonl'), JSON.stringify({ stdout: `SESSION_TOKEN=${secret}` }));
      return inner.run(ctx);
    } };
    const report = await gate(b, [scriptedFixer([FIX_ADD])], { mode: 'fix', env: { SESSION_TOKEN: secret }, projects: [project(b.root, { runner })] });
    expect(report.projects[0]!.status).toBe('recovered');
    const files = await allFiles(report.runDir!);
    expect(files.some((f) => f.includes(`${report.runDir}/work/`))).toBe(false);
    for (const f of files) expect(await readFile(f, 'utf8'), f).not.toContain(secret);
  });
});
