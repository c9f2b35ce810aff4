import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApi } from '../../src/index.js';
import { captured, EXAMPLE, freePort, tempDir } from '../support.js';

describe('bad input to suture generate api', () => {
  let out: { dir: string; dispose(): Promise<void> };
  const env = { ...process.env, API_TOKEN: 'any' };

  beforeAll(async () => {
    out = await tempDir('suture-api-bad-');
  });
  afterAll(async () => {
    await out.dispose();
  });

  it('an unreachable base URL: infra, said once, no test run and no fixer asked; the suite is still written', async () => {
    const port = await freePort();
    const stream = captured();
    const result = await generateApi({
      spec: 'openapi.yaml',
      cwd: EXAMPLE,
      baseUrl: `http://127.0.0.1:${port}`,
      out: join(out.dir, 'unreachable'),
      stream,
      env,
    });
    expect(result.exitCode).toBe(1);
    expect(result.report).toBeUndefined();
    expect(result.totals).toMatchObject({ passed: 0, bugs: 0, notRun: result.totals.cases });
    expect(stream.text()).toContain(
      `http://127.0.0.1:${port} is unreachable (ECONNREFUSED); start the service, pass --server, or fix --base-url. No test was run and no fixer was asked.`,
    );
    expect(await readFile(join(result.outDir, 'testcases.md'), 'utf8')).toContain(
      'Nothing ran: http://127.0.0.1',
    );
    expect(await readFile(join(result.outDir, 'conftest.py'), 'utf8')).toContain('def api(request)');
  });

  it('CSV columns that match nothing: reported and ignored; the others are mapped to parameters in data_mapping.json', async () => {
    const stream = captured();
    const result = await generateApi({
      spec: 'openapi.yaml',
      data: 'cases.csv',
      cwd: EXAMPLE,
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      out: join(out.dir, 'data'),
      stream,
      env,
    });
    expect(stream.text()).toContain(
      'cases.csv: column(s) "comment" match no parameter or field; ignored (see data_mapping.json)',
    );
    const mapping = JSON.parse(await readFile(join(result.outDir, 'data_mapping.json'), 'utf8')) as {
      ignored: string[];
      rows: number;
      columns: Array<{ column: string; matches: Array<{ operation: string; name: string }> }>;
    };
    expect(mapping.ignored).toEqual(['comment']);
    expect(mapping.rows).toBe(7);
    expect(mapping.columns.find((c) => c.column === 'delivery_date')!.matches).toEqual([
      expect.objectContaining({ operation: 'createOrder', name: 'deliveryDate' }),
    ]);
    const tests = await readFile(join(result.outDir, 'test_data_driven.py'), 'utf8');
    // row C6 makes its product with the row's stock, and expects the row's status
    expect(tests).toMatch(
      /def test_tc\d+_data_c6_create_order\(api, cleanup\):[^]*?"stock": 1[^]*?"quantity": 3[^]*?assert_status\(resp, 409\)/,
    );
  });

  it('a server command that fails to start: a config error with the tail of its output', async () => {
    const port = await freePort();
    await expect(
      generateApi({
        spec: 'openapi.yaml',
        cwd: EXAMPLE,
        baseUrl: `http://127.0.0.1:${port}`,
        server: `node -e "console.error('listen EADDRINUSE: the port is taken'); process.exit(3)"`,
        out: join(out.dir, 'server'),
        stream: captured(),
        env,
      }),
    ).rejects.toThrow(
      /--server "node -e .*" exited with code 3 before http:\/\/127\.0\.0\.1:\d+ answered; its output ends:\nlisten EADDRINUSE: the port is taken/,
    );
  });

  it('a document that needs a credential and no token in the environment: says which variable to set', async () => {
    const { API_TOKEN: _, ...bare } = env;
    await expect(
      generateApi({
        spec: 'openapi.yaml',
        cwd: EXAMPLE,
        baseUrl: 'http://127.0.0.1:9',
        out: join(out.dir, 'token'),
        stream: captured(),
        env: bare,
      }),
    ).rejects.toThrow(
      /openapi\.yaml requires a credential for 6 operation\(s\) \(POST \/users, DELETE \/users\/\{userId\}, POST \/products, \.\.\.\); set API_TOKEN/,
    );
  });

  it('an output folder of someone else: refused, nothing written', async () => {
    await expect(
      generateApi({
        spec: 'openapi.yaml',
        cwd: EXAMPLE,
        baseUrl: 'http://127.0.0.1:9',
        out: EXAMPLE,
        stream: captured(),
        env,
      }),
    ).rejects.toThrow(
      /the folder holds files that are not a suite written by suture generate api; name an empty or new folder/,
    );
  });
});
