import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunResultSchema, type RunResult, type TestResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cargo from '../../src/index.js';
import '../toolchain.js';

let root: string;
let result: RunResult;
const streamed: TestResult[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-cargo-hang-'));
  await cp(fileURLToPath(new URL('./hang', import.meta.url)), root, { recursive: true });
  const raw = await cargo({ testTimeoutMs: 3000 }).run({
    root,
    timeoutMs: 120_000,
    signal: new AbortController().signal,
    logger: silentLogger,
    workDir: root,
    onTestResult: (t) => streamed.push(t),
  });
  result = RunResultSchema.parse(raw);
}, 240_000);
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('a test that never ends, with testTimeoutMs 3000', () => {
  it('is stopped and reported as a timeout by name, with the option to raise; the run is failed, not timed out', () => {
    expect(result.status).toBe('failed');
    const hung = result.tests.find((t) => t.id === 'src/lib.rs::tests::waits_forever');
    expect(hung).toMatchObject({ status: 'timeout', file: 'src/lib.rs', line: 9 });
    expect(hung!.message).toMatch(/reported no result for 3000 ms \(the runner option "testTimeoutMs"\)/);
  });

  it('runs every other test, in the stopped binary and in the binaries after it', () => {
    const status = Object.fromEntries(result.tests.map((t) => [t.id, t.status]));
    expect(status).toEqual({
      'src/lib.rs::tests::quick': 'passed',
      'src/lib.rs::tests::waits_forever': 'timeout',
      'tests/after.rs::runs_after_the_hang': 'passed',
    });
    expect(streamed.map((t) => t.id).sort()).toEqual(Object.keys(status).sort());
  });
});
