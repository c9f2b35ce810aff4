import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContract } from '../../src/emit/contract.js';
import { buildPlan } from '../../src/plan/plan.js';
import { loadTest } from '../../src/pipeline/load-test.js';
import { loadSpec } from '../../src/spec/load.js';
import { buildModel } from '../../src/spec/model.js';
import { captured, EXAMPLE, startExampleService, tempDir, TOKEN, type Service } from '../support.js';

describe('the load test of what passed (autocannon, in-process, against the example service)', () => {
  let service: Service;
  let out: { dir: string; dispose(): Promise<void> };

  beforeAll(async () => {
    service = await startExampleService();
    out = await tempDir('suture-api-load-');
  });
  afterAll(async () => {
    await service?.stop();
    await out?.dispose();
  });

  it('loads the endpoints whose tests all passed in results.xml, creating what their requests need first, and writes the CSV and the page', async () => {
    const model = buildModel(await loadSpec('openapi.yaml', EXAMPLE));
    const plan = buildPlan(model, 1);
    const contract = buildContract(model, plan.cases, {
      baseUrl: service.url,
      authEnv: 'API_TOKEN',
      responseTimeLimitS: 10,
    });
    const id = (op: string, kind: string): string => {
      const c = plan.cases.find((x) => x.operation === op && x.kind === kind)!;
      return `${c.file}::${c.test}`;
    };
    // getUser passed; createOrder has a failing case, so it stays out
    await mkdir(out.dir, { recursive: true });
    await writeFile(
      join(out.dir, 'results.xml'),
      `<?xml version="1.0"?><testsuites><testsuite name="api"><testcase classname="api" name="${id('getUser', 'positive')}"/><testcase classname="api" name="${id('createOrder', 'positive')}"/><testcase classname="api" name="${id('createOrder', 'bad-format')}"><failure message="500"/></testcase></testsuite></testsuites>`,
    );
    const result = await loadTest({
      out: out.dir,
      plan,
      contract,
      baseUrl: service.url,
      token: TOKEN,
      options: { durationS: 1, connections: 2, maxErrorRate: 0 },
      stream: captured(),
      cwd: out.dir,
    });
    expect(result.endpoints.map((e) => e.operation)).toEqual(['getUser']);
    const [get] = result.endpoints;
    expect(get!.requests).toBeGreaterThan(0);
    expect(get!).toMatchObject({ non2xx: 0, errors: 0, failed: [], closesConnections: false });
    expect(get!.p99Ms).toBeGreaterThanOrEqual(get!.p50Ms);
    const csv = (await readFile(join(out.dir, 'load_test.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toBe(
      'operation,method,path,requests,rps,p50_ms,p90_ms,p99_ms,non_2xx,errors,timeouts,error_rate,verdict',
    );
    expect(csv[1]).toMatch(/^getUser,GET,\/users\/\{userId\},\d+,[\d.]+,\d+,\d+,\d+,0,0,0,0,passed$/);
    expect(await readFile(join(out.dir, 'load_test_report.html'), 'utf8')).toContain(
      '<code>GET /users/{userId}</code>',
    );
  });

  it('fails an endpoint over a threshold: a delete loaded again and again answers 404s', async () => {
    const model = buildModel(await loadSpec('openapi.yaml', EXAMPLE));
    const plan = buildPlan(model, 1);
    const contract = buildContract(model, plan.cases, {
      baseUrl: service.url,
      authEnv: 'API_TOKEN',
      responseTimeLimitS: 10,
    });
    const result = await loadTest({
      out: out.dir,
      plan,
      contract,
      baseUrl: service.url,
      token: TOKEN,
      options: { durationS: 1, connections: 2, maxErrorRate: 0.05, endpoints: ['DELETE /users/{userId}'] },
      stream: captured(),
      cwd: out.dir,
    });
    expect(result.passed).toBe(false);
    expect(result.endpoints[0]!.non2xx).toBeGreaterThan(0);
    expect(result.endpoints[0]!.failed[0]).toMatch(/^error rate \d+\.\d% > 5\.0%$/);
  });
});
