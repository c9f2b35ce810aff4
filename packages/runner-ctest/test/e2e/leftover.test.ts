import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RunResultSchema } from '@suture/core';
import { processGone, silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, tempDir } from './support.js';

afterAll(cleanup);

describe('a helper process left running by a passing CTest test', () => {
  it('is stopped once its test has ended, long before the per-test limit, so CTest ends the test as passed instead of waiting out the run', async () => {
    const root = await copy('leftover');
    const warnings: string[] = [];
    const result = RunResultSchema.parse(
      // a limit the run never reaches: only the look at the ended test can stop the helper in time
      await ctest({ parallel: 2, testTimeoutMs: 900_000 }).run({
        root,
        workDir: await tempDir('leftover-work'),
        // the helper sleeps 600 s: a run that waited for it would end at this limit, as a timeout
        timeoutMs: 240_000,
        signal: new AbortController().signal,
        logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) },
      }),
    );
    const [pid, stdout] = (await readFile(join(root, 'build-suture', 'helper.pid'), 'utf8'))
      .trim()
      .split(' ');
    // the scenario is real: the helper's stdout is the pipe CTest reads the test's output from
    expect(stdout).toMatch(/^(pipe|socket):/);
    expect(result.status).toBe('passed');
    expect(Object.fromEntries(result.tests.map((t) => [t.id, t.status]))).toEqual({
      serves: 'passed',
      after: 'passed',
    });
    expect(warnings).toEqual([
      'CTest entry serves ended but left a process running that held its output open, which CTest waits for; suture stopped sleep 600',
    ]);
    expect(await processGone(Number(pid), 10_000)).toBe(true);
  }, 300_000);
});
