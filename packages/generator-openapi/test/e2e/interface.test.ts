import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApi, type GenerateApiResult } from '../../src/index.js';
import {
  captured,
  EXAMPLE,
  requirePythonModules,
  startExampleService,
  tempDir,
  TOKEN,
  type Service,
} from '../support.js';

const run = promisify(execFile);

describe('interface mode against the example service (real pytest, no LLM, no key)', () => {
  let service: Service;
  let out: { dir: string; dispose(): Promise<void> };
  let result: GenerateApiResult;

  beforeAll(async () => {
    requirePythonModules();
    service = await startExampleService();
    out = await tempDir('suture-api-interface-');
    result = await generateApi({
      spec: 'openapi.yaml',
      cwd: EXAMPLE,
      baseUrl: service.url,
      out: join(out.dir, 'api-tests'),
      stream: captured(),
      env: { ...process.env, API_TOKEN: TOKEN },
    });
  }, 600_000);

  afterAll(async () => {
    await service?.stop();
    await out?.dispose();
  });

  it('finds both seeded product bugs, reports nothing else, and the rest of the suite is green', async () => {
    expect(result.totals.failing).toBe(0);
    expect(result.totals.notRun).toBe(0);
    expect(result.totals.passed).toBe(result.totals.cases - 2);
    expect(result.bugs.summary).toMatchObject({ total: 2, critical: 1, high: 1 });
    const [serverError, stock] = result.bugs.bugs;
    // the 500 on a delivery date that is not a date
    expect(serverError).toMatchObject({ api: 'POST /orders', severity: 'critical' });
    expect(serverError!.evidence.request).toMatchObject({
      method: 'POST',
      body: { deliveryDate: 'not-a-date' },
    });
    expect(serverError!.evidence.response).toMatchObject({ status: 500 });
    // the missing stock check: three orders of 2 on a stock of 3 leave the product at -3
    expect(stock).toMatchObject({ api: 'GET /products/{productId}', severity: 'high' });
    expect(stock!.actual).toContain('/stock');
    expect(stock!.evidence.response).toMatchObject({ status: 200, body: { stock: -3 } });
    expect(stock!.evidence.before?.filter((b) => b.startsWith('POST') && b.includes('/orders'))).toHaveLength(
      3,
    );
    expect(result.exitCode).toBe(1);
  });

  it('writes the deliverables: testcases.md, plan.json with the dependency graph, results.xml, report.html', async () => {
    const md = await readFile(join(result.outDir, 'testcases.md'), 'utf8');
    expect(md).toContain(
      `${result.totals.cases} cases: ✅ ${result.totals.passed} passed, 🐛 2 product bugs`,
    );
    expect(md).toMatch(/\| TC-\d{3} \| field deliveryDate breaking its format date: a 4xx \| 🐛 \|/);
    expect(md).toContain('## Dependencies');
    const plan = JSON.parse(await readFile(join(result.outDir, 'plan.json'), 'utf8')) as {
      order: string[];
      dependencies: Array<{ from: string; to: string; kind: string; confidence: number }>;
    };
    expect(plan.order.indexOf('createUser')).toBeLessThan(plan.order.indexOf('createOrder'));
    expect(plan.order.indexOf('createProduct')).toBeLessThan(plan.order.indexOf('createOrder'));
    expect(plan.dependencies).toContainEqual(
      expect.objectContaining({ from: 'createUser', to: 'createOrder', kind: 'explicit', confidence: 1 }),
    );
    expect(plan.dependencies).toContainEqual(
      expect.objectContaining({ from: 'createUser', to: 'getUser', kind: 'link' }),
    );
    const xml = await readFile(join(result.outDir, 'results.xml'), 'utf8');
    expect((xml.match(/<testcase /g) ?? []).length).toBe(result.totals.cases);
    expect((xml.match(/<failure /g) ?? []).length).toBe(2);
    expect(await readFile(join(result.outDir, 'report.html'), 'utf8')).toContain('<html');
    const bugFile = JSON.parse(await readFile(join(result.outDir, 'bug_report.json'), 'utf8')) as {
      bugs: Array<Record<string, unknown>>;
    };
    for (const bug of bugFile.bugs)
      expect(Object.keys(bug)).toEqual(
        expect.arrayContaining([
          'testcase_id',
          'api',
          'scenario',
          'expected',
          'actual',
          'severity',
          'root_cause',
          'evidence',
        ]),
      );
  });

  it('is a pytest project that runs without suture, with the same verdicts', async () => {
    // as a user's shell runs it: not with the colours an enclosing task runner (nx) forces
    const { FORCE_COLOR: _colour, ...env } = process.env;
    const pytest = await run('python3', ['-m', 'pytest', '-q', '-p', 'no:randomly'], {
      cwd: result.outDir,
      env: { ...env, API_BASE_URL: service.url, API_TOKEN: TOKEN },
    }).catch((error: { stdout: string; code: number }) => error);
    expect((pytest as { code?: number }).code).toBe(1);
    expect(pytest.stdout).toMatch(new RegExp(`2 failed, ${result.totals.cases - 2} passed`));
    expect(pytest.stdout).toContain('test_tc040_create_order_bad_format_delivery_date');
  });
});
