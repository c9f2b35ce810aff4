import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { silentLogger, snapshotTree } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSutureServer, type SutureServer } from '../src/server.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const IGNORED = ['.suture/**', '.git/**', '**/__pycache__/**', '**/.pytest_cache/**'];
let dir: string;
let client: Client;
let suture: SutureServer;

// The Python project of the bundled example: a NameError the hints fixer heals and an assertion
// it cannot, gated by the real pytest.
beforeAll(async () => {
  await mkdir(join(REPO, '.tmp'), { recursive: true });
  dir = await mkdtemp(join(REPO, '.tmp', 'mcp-server-'));
  await cp(join(REPO, 'examples/polyglot/python'), join(dir, 'python'), {
    recursive: true,
    filter: (src) => !/__pycache__|\.pytest_cache/.test(src),
  });
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({ projects: [{ name: 'python', root: 'python', runner: 'pytest' }], fixers: ['hints'] }),
  );
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x'], { cwd: dir });
  suture = createSutureServer({ cwd: dir, logger: silentLogger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await suture.server.connect(serverSide);
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client?.close();
  await rm(dir, { recursive: true, force: true });
});

function json(result: Awaited<ReturnType<Client['callTool']>>): unknown {
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  expect(result.isError, text).toBeFalsy();
  return JSON.parse(text);
}

describe('the MCP server over an in-memory transport', () => {
  it('lists the four tools with input and output schemas and read-only hints', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['suture_run', true],
      ['suture_heal', true],
      ['suture_apply', false],
      ['suture_report', true],
    ]);
    // only a heal may reach outside: its fixers can call a model's API
    expect(tools.map((t) => [t.name, t.annotations?.openWorldHint])).toEqual([
      ['suture_run', false],
      ['suture_heal', true],
      ['suture_apply', false],
      ['suture_report', false],
    ]);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    expect(named(tools, 'suture_heal').inputSchema.required).toEqual(['change_description']);
  });

  it('runs, heals propose-only with progress, applies and reports', async () => {
    const run = await client.callTool({ name: 'suture_run', arguments: {} }, undefined, { timeout: 300_000 });
    const runAnswer = run.structuredContent as {
      status: string;
      run_dir: string;
      failures: Array<{ kind: string; tests: string[]; reason?: string }>;
    };
    expect(json(run)).toEqual(runAnswer);
    expect(runAnswer.status).toBe('failing');
    // suture_run heals nothing by design: the reasons say so, not a CLI flag nobody gave
    for (const failure of runAnswer.failures)
      expect(failure.reason).toBe(
        'not healed: this run only ran the tests (suture_run, or suture run --no-heal); call suture_heal for a verified fix',
      );
    expect(runAnswer.run_dir).toMatch(/^\.suture\/runs\/[^/]+$/);
    expect(runAnswer.failures.map((f) => f.kind).sort()).toEqual(['assertion', 'exception']);
    const nameError = runAnswer.failures.find((f) => f.kind === 'exception')!;

    const before = await snapshotTree(dir, IGNORED);
    const progress: string[] = [];
    const heal = await client.callTool(
      {
        name: 'suture_heal',
        arguments: { change_description: 'summed the units in a loop', tests: nameError.tests },
      },
      undefined,
      { timeout: 300_000, resetTimeoutOnProgress: true, onprogress: (p) => progress.push(String(p.message)) },
    );
    const answer = heal.structuredContent as {
      session_id: string;
      status: string;
      patches: Array<{ id: string; diff: string; validation: { passed: boolean } }>;
      phases: Array<{ name: string; status: string }>;
    };
    expect(heal.isError).toBeFalsy();
    expect(json(heal)).toEqual(answer);
    expect(answer.status, JSON.stringify(answer.patches.map((p) => p.validation))).toBe('fixed');
    expect(answer.patches[0]!.diff).toContain('+    return total');
    expect(answer.patches[0]!.validation.passed).toBe(true);
    expect(answer.phases.map((p) => `${p.name}:${p.status}`)).toEqual([
      'analyse:done',
      'plan:done',
      'patch:done',
      'verify:done',
    ]);
    expect(progress.some((m) => m.startsWith('analyse:'))).toBe(true);
    expect(progress.some((m) => m.startsWith('patch:'))).toBe(true);
    expect(progress.some((m) => m.startsWith('verify:'))).toBe(true);
    // Propose-only: the caller's tree is as it was.
    expect(await snapshotTree(dir, IGNORED)).toEqual(before);

    const apply = await client.callTool({
      name: 'suture_apply',
      arguments: { session_id: answer.session_id },
    });
    expect(apply.structuredContent).toEqual({
      applied: true,
      session_id: answer.session_id,
      patch_id: answer.patches[0]!.id,
      files: ['python/inventory/stock.py'],
    });
    expect(await readFile(join(dir, 'python/inventory/stock.py'), 'utf8')).toContain('    return total\n');
    const again = await client.callTool({
      name: 'suture_apply',
      arguments: { session_id: answer.session_id },
    });
    expect((again.structuredContent as { applied: boolean; reason: string }).reason).toMatch(
      /applied already/,
    );

    const report = await client.callTool({
      name: 'suture_report',
      arguments: { session_id: answer.session_id },
    });
    const session = (report.structuredContent as { session: { latest: unknown; applied: string[] } }).session;
    expect(session.latest).toEqual(answer);
    expect(session.applied).toEqual([answer.patches[0]!.id]);
    const latestRun = await client.callTool({ name: 'suture_report', arguments: {} });
    expect((latestRun.structuredContent as { run: unknown }).run).toEqual(runAnswer);
  });
});

function named<T extends { name: string }>(tools: T[], name: string): T {
  return tools.find((t) => t.name === name)!;
}
