import type { FixRequest } from '@suture/core';
import { sampleFixRequest } from '@suture/core/testing';

/** A fix request as the engine builds it for a failing Jest assertion. */
export function fixRequest(over: Partial<FixRequest> = {}): FixRequest {
  return sampleFixRequest({
    project: { name: 'shop', root: '/repo/shop', language: 'javascript' },
    failure: {
      id: 'shop:f1',
      kind: 'assertion',
      title: 'expect(received).toBe(expected): Expected 90, Received 100',
      tests: ['__tests__/cart.test.js::total applies the discount from 100'],
      location: { file: '__tests__/cart.test.js', line: 4 },
      frames: [{ file: 'src/pricing.js', line: 2, symbol: 'discount' }],
      evidence: 'Expected: 90\nReceived: 100\n    at Object.toBe (__tests__/cart.test.js:4:40)',
      fingerprint: 'f1',
      repairable: true,
    },
    scope: {
      entries: [
        {
          file: 'src/pricing.js',
          symbols: ['discount'],
          role: 'source',
          reasons: ['called by the test (depth 2)'],
        },
      ],
    },
    sources: [
      {
        file: 'src/pricing.js',
        startLine: 1,
        endLine: 3,
        text: 'function discount(amount) {\n  return amount > 100 ? amount * 0.1 : 0;\n}\n',
        reason: 'called by the test',
      },
    ],
    ...over,
  });
}
