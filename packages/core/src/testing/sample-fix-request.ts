import type { z } from 'zod';
import { FixRequestSchema, type EditPolicy, type FixRequest } from '../api/contracts/fix.js';
import type { FixerContext } from '../api/plugin.js';
import { formatIssues } from '../host/format-issues.js';
import { silentLogger } from './conformance-utils.js';

type FixRequestInput = z.input<typeof FixRequestSchema>;

/** The edit policy of the sample request, the config's defaults: a case's `policy` changes only the keys it names. */
const SAMPLE_POLICY: Readonly<EditPolicy> = {
  editable: 'both',
  allowedPaths: ['**'],
  deniedPaths: [],
  allowTestWeakening: false,
  allowNewFiles: false,
  maxFilesPerAttempt: 5,
};

/**
 * A fix request as the engine builds it, for a fixer's tests: one failing pytest assertion (the
 * discount in `shop/pricing.py` starts above 10 units instead of at 10), the default edit policy
 * and the first of three attempts. `over` replaces top-level fields, so a test can bring its own
 * project, failure, scope and sources and keep the rest; its `policy` is laid over the default
 * one, so `{ allowNewFiles: true }` is enough. A field that does not fit the schema throws an
 * error naming its key, what it holds and what it should.
 */
export function sampleFixRequest(over: Partial<FixRequestInput> = {}): FixRequest {
  const { policy, ...rest } = over;
  const input = {
    project: { name: 'shop', root: '/repo/shop', language: 'python' },
    failure: {
      id: 'shop:f1',
      kind: 'assertion',
      title: 'AssertionError: assert 0 == 0.1',
      tests: ['tests/test_pricing.py::test_discount_at_ten_units'],
      location: { file: 'tests/test_pricing.py', line: 5, symbol: 'test_discount_at_ten_units' },
      frames: [{ file: 'shop/pricing.py', line: 3, symbol: 'discount' }],
      evidence:
        '>       assert discount(10) == 0.1\nE       assert 0 == 0.1\n\ntests/test_pricing.py:5: AssertionError',
      fingerprint: 'f1',
      repairable: true,
    },
    scope: {
      entries: [
        {
          file: 'shop/pricing.py',
          symbols: ['discount'],
          role: 'source',
          reasons: ['called by the test (depth 1)'],
        },
      ],
    },
    sources: [
      {
        file: 'shop/pricing.py',
        startLine: 1,
        endLine: 4,
        text: 'def discount(units):\n    if units > 10:\n        return 0.1\n    return 0\n',
        reason: 'called by the test',
      },
    ],
    history: [],
    attempt: 1,
    maxAttempts: 3,
    tokenBudget: 12000,
    ...rest,
    policy: { ...SAMPLE_POLICY, ...policy },
  };
  const parsed = FixRequestSchema.safeParse(input);
  if (!parsed.success)
    throw new Error(
      `the fix request is not a valid FixRequest:\n${formatIssues(parsed.error, input)
        .map((l) => `  - ${l}`)
        .join('\n')}`,
    );
  return parsed.data;
}

/** The context the engine passes to `propose`: a signal nobody aborts, a silent logger, the sample's project root. */
export function sampleFixerContext(over: Partial<FixerContext> = {}): FixerContext {
  return { signal: new AbortController().signal, logger: silentLogger, root: '/repo/shop', ...over };
}
