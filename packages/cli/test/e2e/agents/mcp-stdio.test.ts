import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup } from '../cli-support.js';
import { call, connectSuture, exampleRepo, snapshot, type ToolResult } from './support.js';

afterAll(cleanup);

interface Failure {
  id: string;
  kind: string;
  tests: string[];
  outcome?: string;
}
interface Patch {
  id: string;
  diff: string;
  files: string[];
  validation: { passed: boolean; tests_run: string[]; still_failing: Array<{ id: string }> };
}
interface HealAnswer {
  session_id: string;
  call: number;
  status: string;
  reason?: string;
  analysis: { failures: Failure[] };
  phases: Array<{ name: string; status: string }>;
  patches: Patch[];
}

/** The structured answer, after checking that the text content carries the same JSON. */
function answer<T>(result: ToolResult): T {
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

const cases = [
  {
    project: 'python' as const,
    mechanical: 'exception',
    patched: ['python/inventory/stock.py', '    return total\n'],
  },
  {
    project: 'js' as const,
    mechanical: 'exception',
    patched: ['js/src/orders.js', 'shippingCost(subtotal)'],
  },
  { project: 'cpp' as const, mechanical: 'build', patched: ['cpp/src/format.cpp', '#include <string>'] },
];

describe('suture mcp over stdio, with the MCP SDK client', () => {
  it.each(cases)(
    'calls every tool on a real $project project: run, heal propose-only, apply, report',
    async ({ project, mechanical, patched }) => {
      const dir = await exampleRepo([project]);
      const { client, transport } = await connectSuture(dir);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual([
          'suture_apply',
          'suture_heal',
          'suture_report',
          'suture_run',
        ]);

        const run = answer<{ status: string; failures: Failure[]; run_id: string }>(
          await call(client, 'suture_run', {}),
        );
        expect(run.status).toBe('failing');
        const fault = run.failures.find((f) => f.kind === mechanical)!;
        expect(fault).toBeDefined();

        const before = await snapshot(dir);
        const progress: string[] = [];
        // The build failure stops every GoogleTest case, so C++ is healed over its whole suite:
        // the logic bug then still fails, and the heal answers the closest candidate.
        const selection = fault.tests.length > 0 ? { tests: fault.tests } : {};
        const heal = answer<HealAnswer>(
          await call(
            client,
            'suture_heal',
            { change_description: `edited the ${project} project`, ...selection },
            (m) => progress.push(m),
          ),
        );
        expect(await snapshot(dir)).toEqual(before);
        expect(heal.phases.map((p) => p.name)).toEqual(['analyse', 'plan', 'patch', 'verify']);
        expect(progress.filter((m) => /^(analyse|patch|verify):/.test(m)).length).toBeGreaterThanOrEqual(3);
        const best = heal.patches[0]!;
        expect(best.files).toEqual([patched[0]]);
        expect(best.diff).toContain(`diff --git a/${patched[0]} b/${patched[0]}`);
        if (project === 'cpp') {
          expect(heal.status).toBe('candidates');
          expect(best.validation.passed).toBe(false);
          expect(best.validation.still_failing.map((t) => t.id)).toEqual(['Units.RoundsHalfUp']);
          expect(heal.analysis.failures.map((f) => `${f.kind}:${f.outcome}`).sort()).toEqual([
            'assertion:unfixable',
            'build:healed',
          ]);
        } else {
          expect(heal.status).toBe('fixed');
          expect(best.validation).toMatchObject({ passed: true, still_failing: [] });
          expect(best.validation.tests_run).toEqual(expect.arrayContaining(fault.tests));
        }

        const applied = answer<{ applied: boolean; files: string[] }>(
          await call(client, 'suture_apply', { session_id: heal.session_id, patch_id: best.id }),
        );
        expect(applied).toMatchObject({ applied: true, files: [patched[0]] });
        expect(await readFile(join(dir, patched[0]!), 'utf8')).toContain(patched[1]);

        const report = answer<{ session: { latest: HealAnswer; applied: string[] } }>(
          await call(client, 'suture_report', { session_id: heal.session_id }),
        );
        expect(report.session.latest).toEqual(heal);
        expect(report.session.applied).toEqual([best.id]);
        const latestRun = answer<{ run: { run_id: string } }>(await call(client, 'suture_report', {}));
        expect(latestRun.run.run_id).toBe(run.run_id);
      } finally {
        await client.close();
        await transport.close();
      }
    },
    900_000,
  );

  it('continues a session: the next call is numbered in it and answers unfixable with the analysis', async () => {
    const dir = await exampleRepo(['python']);
    const { client } = await connectSuture(dir);
    try {
      const run = answer<{ failures: Failure[] }>(await call(client, 'suture_run', {}));
      const logic = run.failures.find((f) => f.kind === 'assertion')!;
      const mechanical = run.failures.find((f) => f.kind === 'exception')!;
      const first = answer<HealAnswer>(
        await call(client, 'suture_heal', { change_description: 'new stock code', tests: mechanical.tests }),
      );
      const second = answer<HealAnswer>(
        await call(client, 'suture_heal', {
          change_description: 'the discount starts at ten units',
          session_id: first.session_id,
          tests: logic.tests,
        }),
      );
      expect(second).toMatchObject({
        session_id: first.session_id,
        call: 2,
        status: 'unfixable',
        patches: [],
      });
      expect(second.reason).toMatch(/needs an LLM fixer/);
      expect(second.analysis.failures.map((f) => [f.kind, f.tests, f.outcome])).toEqual([
        ['assertion', logic.tests, 'unfixable'],
      ]);
    } finally {
      await client.close();
    }
  }, 600_000);
});
