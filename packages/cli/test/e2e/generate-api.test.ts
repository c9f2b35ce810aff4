import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, suture } from './cli-support.js';

const EXAMPLE = join(REPO, 'examples', 'api-service');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('suture generate', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'suture-cli-generate-api-'));
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('names the kinds it knows, and what `generate api` needs', async () => {
    const kind = await suture(['generate', 'apis'], EXAMPLE);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain(
      'suture generate: unknown kind "apis"; use one of `suture generate api`, `suture generate tests`',
    );
    const spec = await suture(['generate', 'api', '--base-url', 'http://127.0.0.1:9'], EXAMPLE);
    expect(spec.code).toBe(2);
    expect(spec.stderr).toContain('suture generate api needs --spec: the OpenAPI document (JSON or YAML)');
    const url = await suture(
      ['generate', 'api', '--spec', 'openapi.yaml', '--base-url', 'localhost:8000'],
      EXAMPLE,
    );
    expect(url.code).toBe(2);
    expect(url.stderr).toContain(
      '--base-url expects a URL such as http://127.0.0.1:8000, got "localhost:8000"',
    );
  });

  it('writes the suite and says the service is unreachable, with no test run (exit 1)', async () => {
    const port = await freePort();
    const result = await suture(
      [
        'generate',
        'api',
        '--spec',
        'openapi.yaml',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--out',
        join(out, 'api-tests'),
      ],
      EXAMPLE,
      { API_TOKEN: 'demo-token' },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`http://127.0.0.1:${port} is unreachable (ECONNREFUSED)`);
    expect(await readFile(join(out, 'api-tests', 'testcases.md'), 'utf8')).toContain(
      '# Test cases: Shop 1.0.0',
    );
  });

  it('an invalid document: exit 2 with the file, the line and the pointer', async () => {
    const result = await suture(
      ['generate', 'api', '--spec', 'rules.md', '--base-url', 'http://127.0.0.1:9'],
      EXAMPLE,
      { API_TOKEN: 'x' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/suture: rules\.md(:\d+)? .*not/);
  });
});
