import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/api/contracts/report.js';
import { runGate } from '../../../src/engine/gate.js';
import { createGateOptions } from '../../../src/host/gate-options.js';
import { loadConfig } from '../../../src/host/load-config.js';
import { silentLogger } from '../../../src/testing/conformance-utils.js';

// Copies live under the repository so that the plugin files resolve @suture/core from its node_modules.
const TMP = fileURLToPath(new URL('../../../../../.tmp/', import.meta.url));

let root: string;
let report: GateReport;
type Line = { hook: string; begin?: true; exitCode?: number };
const linesIn = async (file: string): Promise<Line[]> =>
  (await readFile(join(root, file), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
/** The calls a reporter recorded: each one's begin line must be followed by its own end line. */
async function hooksIn(file: string): Promise<Line[]> {
  const lines = await linesIn(file);
  const calls: Line[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    expect(lines[i], `line ${i + 1} of ${file}`).toEqual({ hook: lines[i]!.hook, begin: true });
    expect(lines[i + 1]?.hook, `${lines[i]!.hook} ended before the next hook began`).toBe(lines[i]!.hook);
    calls.push(lines[i + 1]!);
  }
  return calls;
}

beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  root = join(await mkdtemp(join(TMP, 'reporter-plugin-')), 'repo');
  await cp(fileURLToPath(new URL('./repo', import.meta.url)), root, { recursive: true });
  const loaded = await loadConfig({ cwd: root });
  const options = await createGateOptions(loaded, {
    mode: 'check',
    logger: silentLogger,
    output: { stream: { write: () => true }, env: {} },
  });
  report = await runGate(options);
}, 120_000);

afterAll(() => rm(join(root, '..'), { recursive: true, force: true }));

describe('a reporter plugin named by relative path in suture.config.json', () => {
  it('hears every hook of a real run, in order, each awaited before the next', async () => {
    expect(report.projects[0]!.status).toBe('healed');
    const calls = await hooksIn('hooks.jsonl');
    expect([...new Set(calls.map((c) => c.hook))].sort()).toEqual(
      [
        'onAttemptEnd',
        'onAttemptStart',
        'onProjectEnd',
        'onProjectStart',
        'onRoundEnd',
        'onRunEnd',
        'onRunStart',
        'onTestResult',
      ].sort(),
    );
    expect(calls[0]!.hook).toBe('onRunStart');
    expect(calls.at(-1)).toEqual({ hook: 'onRunEnd', exitCode: report.exitCode });
    expect(calls.filter((c) => c.hook === 'onAttemptStart')).toHaveLength(1);
  });

  it('keeps a reporter that throws from stopping the run, and names its config entry in the report', async () => {
    const second = await hooksIn('second.jsonl');
    expect(second.map((c) => c.hook)).toEqual((await hooksIn('hooks.jsonl')).map((c) => c.hook));
    expect(report.pluginErrors).toEqual([
      expect.objectContaining({
        plugin: 'record-reporter',
        kind: 'reporter',
        origin: 'suture.config.json#reporters[1]',
        phase: 'onRoundEnd',
        message: 'onRoundEnd is not supported',
      }),
    ]);
  });
});
