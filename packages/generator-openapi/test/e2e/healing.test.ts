import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateReport } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi, { gateSuite } from '../../src/index.js';
import { writeFiles } from '../../src/pipeline/out-dir.js';
import {
  captured,
  EXAMPLE,
  requirePythonModules,
  startExampleService,
  tempDir,
  TOKEN,
  type Service,
} from '../support.js';

/** Replaces `from` with `to` inside one test function of a file (named by what follows its case id), as a script mistake. */
async function mistake(dir: string, file: string, test: string, from: string, to: string): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, 'utf8');
  const start = text.search(new RegExp(`def test_tc\\d+_${test}\\(`));
  if (start < 0) throw new Error(`${file} has no test ..._${test}`);
  const end = text.indexOf('\n\n\n', start);
  const body = text.slice(start, end < 0 ? undefined : end);
  if (!body.includes(from)) throw new Error(`${file}::${test} has no "${from}"`);
  await writeFile(path, text.slice(0, start) + body.replace(from, to) + (end < 0 ? '' : text.slice(end)));
}

describe('two layers of healing on seeded script mistakes (real pytest, the judge first)', () => {
  let service: Service;
  let out: { dir: string; dispose(): Promise<void> };
  let report: GateReport;
  const stream = captured();

  beforeAll(async () => {
    requirePythonModules();
    service = await startExampleService();
    out = await tempDir('suture-api-healing-');
    const generated = await openapi({ baseUrl: service.url }).generate(
      {
        project: { name: 'api', root: out.dir },
        goal: 'api',
        inputs: [join(EXAMPLE, 'openapi.yaml')],
        existingTests: [],
        options: {},
      },
      {
        signal: new AbortController().signal,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
        root: out.dir,
      },
    );
    await writeFiles(out.dir, generated.files);
    // a wrong URL, a misspelt body field, a misread status, a misread response field
    await mistake(out.dir, 'test_users.py', 'create_user_positive', '"/users"', '"/user"');
    await mistake(out.dir, 'test_products.py', 'create_product_positive', '"stock":', '"stok":');
    await mistake(
      out.dir,
      'test_users.py',
      'get_user_positive',
      'assert_status(resp, 200)',
      'assert_status(resp, 202)',
    );
    await mistake(
      out.dir,
      'test_chains.py',
      'chain_product',
      '    item = created.json()\n',
      '    item = created.json()\n    assert item["stok"] >= 0\n',
    );
    report = await gateSuite({
      outDir: out.dir,
      cwd: EXAMPLE,
      baseUrl: service.url,
      fixers: [],
      maxAttempts: 3,
      env: { API_BASE_URL: service.url, API_TOKEN: TOKEN },
      stream,
      processEnv: { ...process.env, API_TOKEN: TOKEN },
    });
  }, 600_000);

  afterAll(async () => {
    await service?.stop();
    await out?.dispose();
  });

  const outcomeOf = (test: string): string | undefined =>
    report.projects[0]!.failures.find((f) =>
      f.failure.tests.some((t) => new RegExp(`::test_tc\\d+_${test}$`).test(t)),
    )?.outcome;

  it('repairs each script mistake in the test, with the judge, and validates it by a re-run', async () => {
    expect(report.projects[0]!.error ?? report.error).toBeUndefined();
    for (const test of [
      'create_user_positive',
      'create_product_positive',
      'get_user_positive',
      'chain_product',
    ])
      expect({ test, outcome: outcomeOf(test) }).toEqual({ test, outcome: 'healed' });
    const healers = report.projects[0]!.failures.filter((f) => f.outcome === 'healed').map(
      (f) => f.attempts.at(-1)!.fixer,
    );
    expect(new Set(healers)).toEqual(new Set(['@suture/generator-openapi/judge']));
    const users = await readFile(join(out.dir, 'test_users.py'), 'utf8');
    expect(users).not.toContain('"/user"');
    expect(users).not.toContain('assert_status(resp, 202)');
    expect(await readFile(join(out.dir, 'test_products.py'), 'utf8')).not.toContain('"stok":');
    expect(await readFile(join(out.dir, 'test_chains.py'), 'utf8')).toContain('assert item["stock"] >= 0');
    // changing an expected status is allowed, and shown to a reviewer
    const status = report.projects[0]!.failures.find((f) =>
      f.failure.tests.some((t) => t.endsWith('_get_user_positive')),
    )!;
    expect(status.attempts.at(-1)!.expectationChanged).toBe(true);
  });

  it('never "fixes" a product bug: both stay failing and are reported', () => {
    expect(outcomeOf('create_order_bad_format_delivery_date')).toBe('product-bug');
    expect(outcomeOf('repeat_order_keeps_user_product_valid')).toBe('product-bug');
    expect(report.projects[0]!.totals).toMatchObject({ bugs: 2, stillFailing: 2, healed: 4 });
  });
});
