import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FailureSchema } from '../api/contracts/failure.js';
import { RunResultSchema, type TestResult } from '../api/contracts/run-result.js';
import type { Logger } from '../api/plugin.js';
import { scriptAnalyzer, scriptRunner } from './script-runner.js';

const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-script-'));
  await mkdir(join(root, 'tests'));
  await mkdir(join(root, 'src'));
  await writeFile(
    join(root, 'src/lib.mjs'),
    'export function half(n) {\n  if (n % 2) throw new RangeError(`odd: ${n}`);\n  return n / 2;\n}\n',
  );
  await writeFile(
    join(root, 'tests/ok.test.mjs'),
    "import { half } from '../src/lib.mjs';\nif (half(4) !== 2) process.exit(1);\n",
  );
  await writeFile(
    join(root, 'tests/assert.test.mjs'),
    "import assert from 'node:assert/strict';\n\nassert.equal(1 + 1, 3);\n",
  );
  await writeFile(
    join(root, 'tests/throws.test.mjs'),
    "import { half } from '../src/lib.mjs';\n\nhalf(3);\n",
  );
  await writeFile(join(root, 'tests/crash.test.mjs'), "process.kill(process.pid, 'SIGSEGV');\n");
  await writeFile(join(root, 'tests/hang.test.mjs'), 'setInterval(() => {}, 1000);\n');
  await writeFile(
    join(root, 'tests/db.test.mjs'),
    "console.log('SUTURE_INFRA: redis is down');\nprocess.exit(2);\n",
  );
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(selection?: string[], timeoutMs = 20_000) {
  const streamed: TestResult[] = [];
  const raw = await scriptRunner().run({
    root,
    timeoutMs,
    signal: new AbortController().signal,
    logger,
    workDir: root,
    onTestResult: (t) => void streamed.push(t),
    ...(selection ? { selection } : {}),
  });
  return { result: RunResultSchema.parse(raw), streamed };
}

describe('scriptRunner', () => {
  it('runs a selection, streams results, and reports status, message and the failing line', async () => {
    const { result, streamed } = await run([
      'tests/ok.test.mjs',
      'tests/assert.test.mjs',
      'tests/throws.test.mjs',
      'tests/crash.test.mjs',
      'tests/db.test.mjs',
    ]);
    expect(result.selected).toBe(true);
    expect(result.status).toBe('failed');
    const by = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    expect(Object.keys(by).sort()).toEqual([
      'tests/assert.test.mjs',
      'tests/crash.test.mjs',
      'tests/db.test.mjs',
      'tests/ok.test.mjs',
      'tests/throws.test.mjs',
    ]);
    expect(streamed.map((t) => t.id)).toEqual(result.tests.map((t) => t.id));
    expect(by['tests/ok.test.mjs']!.status).toBe('passed');
    expect(by['tests/assert.test.mjs']).toMatchObject({
      status: 'failed',
      line: 3,
      details: { errorType: 'AssertionError' },
    });
    expect(by['tests/assert.test.mjs']!.message).toContain('2 !== 3');
    expect(by['tests/throws.test.mjs']).toMatchObject({
      status: 'failed',
      line: 3,
      message: 'RangeError: odd: 3',
    });
    expect(by['tests/crash.test.mjs']).toMatchObject({
      status: 'crashed',
      message: expect.stringContaining('SIGSEGV'),
    });
  });

  it('kills a hanging test at the time limit and reports a timeout', async () => {
    const { result } = await run(['tests/hang.test.mjs'], 1500);
    expect(result.status).toBe('timeout');
    expect(result.tests[0]).toMatchObject({ id: 'tests/hang.test.mjs', status: 'timeout' });
  });
});

describe('scriptAnalyzer', () => {
  it('turns failures into kinds with frames, stable fingerprints and a scope that follows imports', async () => {
    const { result } = await run(['tests/assert.test.mjs', 'tests/throws.test.mjs', 'tests/db.test.mjs']);
    const analyzer = scriptAnalyzer();
    const info = { name: 'p', root, scopeDepth: 2, logger };
    const failures = (await analyzer.analyze(result, info)).map((f) => FailureSchema.parse(f));
    const by = Object.fromEntries(failures.map((f) => [f.tests[0]!, f]));
    expect(by['tests/assert.test.mjs']!.kind).toBe('assertion');
    expect(by['tests/db.test.mjs']).toMatchObject({ kind: 'infra', repairable: false });
    const thrown = by['tests/throws.test.mjs']!;
    expect(thrown.kind).toBe('exception');
    expect(thrown.location).toMatchObject({ file: 'src/lib.mjs', line: 2, symbol: 'half' });
    expect(thrown.frames.map((f) => f.file)).toEqual(['src/lib.mjs', 'tests/throws.test.mjs']);
    const again = (await analyzer.analyze((await run(['tests/throws.test.mjs'])).result, info))[0]!;
    expect(again.fingerprint).toBe(thrown.fingerprint);
    const scope = await analyzer.scope(thrown, info);
    expect(scope.entries.map((e) => [e.file, e.role])).toEqual([
      ['tests/throws.test.mjs', 'test'],
      ['src/lib.mjs', 'source'],
    ]);
    const assertScope = await analyzer.scope(by['tests/assert.test.mjs']!, info);
    expect(assertScope.entries.map((e) => e.file)).toEqual(['tests/assert.test.mjs']);
  });
});
