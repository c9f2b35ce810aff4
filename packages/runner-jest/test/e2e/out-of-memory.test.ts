import { FailureSchema, type FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { gate } from './gate-support.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

// a heap small enough that the bug's endless loop fills it in a second
const SMALL_HEAP = { env: { NODE_OPTIONS: '--max-old-space-size=32' } };
const TEST = '__tests__/cache.test.js::repeats an odd number of times';
const WRONG = 'i !== n; i += 2';
const RIGHT = 'i < n; i += 1';

describe('a Jest process that V8 stops when the heap runs out, in the first and only test file', () => {
  it('is a crash of the test that was running, with V8 words as its evidence', async () => {
    const root = await copy('out-of-memory');
    const result = await run(root, { options: SMALL_HEAP });
    expect(result.status).toBe('failed');
    expect(result.error).toBeUndefined();
    const test = result.tests.find((t) => t.id === TEST);
    expect(test).toMatchObject({ status: 'crashed', file: '__tests__/cache.test.js' });
    expect(test!.message).toMatch(/^ran out of memory: FATAL ERROR: .*JavaScript heap out of memory/);
    const groups = (await jest().analyzer!().analyze(result, project(root))).map((f) =>
      FailureSchema.parse(f),
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ kind: 'crash', tests: [TEST], repairable: true });
    expect(groups[0]!.evidence).toContain('JavaScript heap out of memory');
    // the addresses and timings of V8's garbage collections change from run to run
    expect(groups[0]!.evidence).not.toMatch(/Mark-Compact|0x[0-9a-f]{6,}/);
  }, 120_000);

  it('reaches the fixer with the evidence and the code under test in scope, and heals', async () => {
    const root = await copy('out-of-memory');
    const requests: FixRequest[] = [];
    const report = await gate({
      root,
      options: SMALL_HEAP,
      fixers: [
        scriptedFixer([
          (r) => {
            requests.push(r);
            return {
              verdict: 'edits',
              rationale: 'an odd count is never reached stepping by 2',
              edits: [{ file: 'src/cache.js', search: WRONG, replace: RIGHT }],
            };
          },
        ]),
      ],
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.failure.evidence).toMatch(/FATAL ERROR: .*JavaScript heap out of memory/);
    expect(requests[0]!.failure.evidence).toContain('repeats an odd number of times');
    expect(requests[0]!.scope.entries.map((e) => e.file)).toContain('src/cache.js');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('healed');
  }, 240_000);

  it('is not healed by a fix that leaves the loop endless (the re-run runs out of memory again)', async () => {
    const root = await copy('out-of-memory');
    const report = await gate({
      root,
      options: SMALL_HEAP,
      heal: { maxAttempts: 1 },
      fixers: [
        scriptedFixer([
          {
            verdict: 'edits',
            rationale: 'a wrong fix',
            edits: [{ file: 'src/cache.js', search: WRONG, replace: 'i !== n; i += 4' }],
          },
        ]),
      ],
    });
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).not.toBe('healed');
    expect(report.projects[0]!.status).not.toMatch(/^(completed|recovered|healed)$/);
  }, 240_000);
});
