import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture } from '../cli-support.js';
import { exampleRepo, snapshot } from './support.js';

afterAll(cleanup);

const STOCK_TESTS = ['tests/test_stock.py::test_total_units', 'tests/test_stock.py::test_needs_reorder'];
const STOCK = 'python/inventory/stock.py';

describe('suture heal', () => {
  it('prints the propose-only answer as JSON, exits 0 when fixed, and leaves the tree as it was', async () => {
    const dir = await exampleRepo(['python']);
    const before = await snapshot(dir);
    const args = ['heal', 'summed the units in a loop', '--path', 'python/inventory/**'];
    const r = await suture([...args, ...STOCK_TESTS.flatMap((t) => ['--test', t])], dir);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as {
      status: string;
      session_id: string;
      patches: Array<{ files: string[] }>;
    };
    expect(answer.status).toBe('fixed');
    expect(answer.patches[0]!.files).toEqual([STOCK]);
    expect(r.stderr).toMatch(/suture heal: analyse: python: 2 tests, 1 failing/);
    expect(await snapshot(dir)).toEqual(before);
    const session = JSON.parse(
      await readFile(join(dir, '.suture/sessions', answer.session_id, 'call-001.json'), 'utf8'),
    ) as { request: unknown; answer: unknown };
    expect(session.answer).toEqual(answer);
  }, 300_000);

  it('keeps the scope to the allowed paths: a fix outside them is not proposed', async () => {
    const dir = await exampleRepo(['python']);
    const r = await suture(
      ['heal', 'x', '--quiet', '--path', 'python/tests/**', ...STOCK_TESTS.flatMap((t) => ['--test', t])],
      dir,
    );
    expect(r.code).toBe(1);
    const answer = JSON.parse(r.stdout) as {
      status: string;
      patches: unknown[];
      analysis: { failures: Array<{ scope?: Array<{ file: string }> }> };
    };
    expect(answer.status).toBe('unfixable');
    expect(answer.patches).toEqual([]);
    for (const entry of answer.analysis.failures[0]!.scope ?? [])
      expect(entry.file).toMatch(/^python\/tests\//);
    expect(r.stderr).toBe('');
  }, 300_000);

  it('exits 2 on bad arguments, naming the argument', async () => {
    const dir = await exampleRepo(['python']);
    const empty = await suture(['heal', ''], dir);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/change_description: change_description is empty/);
    const outside = await suture(['heal', 'x', '--path', '../../**'], dir);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/allowed_paths: "\.\.\/\.\.\/\*\*" is outside the repository root/);
    const session = await suture(['heal', 'x', '--session', 'nope'], dir);
    expect(session.code).toBe(2);
    expect(session.stderr).toMatch(/session_id: unknown session "nope"/);
    const input = await suture(['heal', '--input', '{"change_description": "x", "max_attempts": 0}'], dir);
    expect(input.code).toBe(2);
    expect(input.stderr).toMatch(/max_attempts: Too small/);
  }, 120_000);
});

describe('suture tools --call suture_apply', () => {
  it('refuses to write a patch onto a file changed since the heal, and keeps the change', async () => {
    const dir = await exampleRepo(['python']);
    const heal = await suture(['heal', 'x', '--quiet', ...STOCK_TESTS.flatMap((t) => ['--test', t])], dir);
    const answer = JSON.parse(heal.stdout) as { session_id: string; patches: Array<{ id: string }> };
    const mine = `${await readFile(join(dir, STOCK), 'utf8')}\n# my own edit\n`;
    await writeFile(join(dir, STOCK), mine);
    const input = JSON.stringify({ session_id: answer.session_id, patch_id: answer.patches[0]!.id });
    const refused = await suture(['tools', '--call', 'suture_apply', '--input', input], dir);
    expect(refused.code, refused.stderr).toBe(0);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      applied: false,
      changed: [STOCK],
      reason: expect.stringMatching(/changed since the heal read them .*nothing was written/),
    });
    expect(await readFile(join(dir, STOCK), 'utf8')).toBe(mine);
    const unknown = await suture(['tools', '--call', 'suture_apply', '--input', '{"session_id": "x1"}'], dir);
    // a failed call answers on stdout as JSON, as a tool result does, and exits 2 (the input's fault)
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toEqual({
      tool: 'suture_apply',
      key: 'session_id',
      error: expect.stringMatching(
        /^session_id: unknown session "x1" in .*: suture_apply needs the session_id suture_heal answered with; the sessions here are .*\. Call suture_heal again for a new patch and session$/,
      ),
    });
    expect(unknown.stderr).not.toMatch(/unknown session/);
    const noTool = await suture(['tools', '--call', 'suture_fly', '--input', '{}'], dir);
    expect(noTool.code).toBe(2);
    expect(JSON.parse(noTool.stdout)).toEqual({
      tool: 'suture_fly',
      error: "no such tool; suture's tools are suture_run, suture_heal, suture_apply, suture_report",
    });
  }, 300_000);
});
