import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '@suture/runner-jest';
import { runAutoRun } from '@suture/core/internal';
import { cleanup, workspace } from '../cli-support.js';
import {
  FIXTURES,
  autoRunOptions,
  gateProject,
  importFixer,
  scriptedGenerator,
  tree,
  type Script,
} from './support.js';

afterAll(cleanup);

const counter = join(tmpdir(), `suture-flaky-jest-${process.pid}-${Date.now()}`);

const test = (name: string, body: string): string =>
  `const { clamp, sign } = require('../../src/ops');\n\ntest('${name}', () => {\n${body}\n});\n`;

/** One file per branch of the filter, and on the second attempt a test of what is still uncovered. */
const mix: Script = (request, attempt) => {
  if (attempt === 2) {
    const lines = request.feedback?.uncovered.find((u) => u.file === 'src/ops.js')?.lines ?? [];
    if (!lines.some((l) => l >= 8)) return [];
    return [
      {
        file: '__tests__/gen/sign.test.js',
        content: test('sign', '  expect([sign(3), sign(-3), sign(0)]).toEqual([1, -1, 0]);'),
      },
    ];
  }
  return [
    { file: '__tests__/gen/low.test.js', content: test('low', '  expect(clamp(-1, 0, 10)).toBe(0);') },
    { file: '__tests__/gen/broken.test.js', content: test('broken', '  expect(clamp(1, 0, 2).toBe(1);') },
    {
      file: '__tests__/gen/healed.test.js',
      content: test('high', "  expect(clamp(path.basename('/a/b/20').length + 10, 0, 10)).toBe(10);"),
    },
    { file: '__tests__/gen/fails.test.js', content: test('wrong', '  expect(clamp(5, 0, 10)).toBe(6);') },
    {
      file: '__tests__/gen/flaky.test.js',
      content: test(
        'sometimes',
        [
          "  const fs = require('fs');",
          // the runs' own temp folder: the real /tmp is read-only in the sandbox
          `  const file = require('path').join(require('os').tmpdir(), ${JSON.stringify(basename(counter))});`,
          "  const n = (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0) + 1;",
          '  fs.writeFileSync(file, String(n));',
          '  expect(n % 2).toBe(1);',
        ].join('\n'),
      ),
    },
    { file: '__tests__/gen/same.test.js', content: test('again', '  expect(clamp(7, 0, 10)).toBe(7);') },
  ];
};

describe('auto-run with real Jest and Istanbul coverage', () => {
  it('keeps exactly the files that build, pass three runs and add coverage', async () => {
    const root = await workspace(join(FIXTURES, 'jest'));
    const before = await tree(root);
    const { generator, requests } = scriptedGenerator('javascript', mix);
    const fixer = importFixer(/path is not defined/, 'path.basename', "const path = require('path');");
    const report = await runAutoRun(
      autoRunOptions(root, gateProject('js', root, jest()), {
        source: { kind: 'generator', generator },
        target: ['src/ops.js'],
        fixers: [fixer],
      }),
    );
    expect(report.error).toBeUndefined();
    expect(Object.fromEntries(report.tests.map((x) => [x.file, x.verdict]))).toEqual({
      '__tests__/gen/low.test.js': 'kept',
      '__tests__/gen/broken.test.js': 'does-not-compile',
      '__tests__/gen/healed.test.js': 'kept',
      '__tests__/gen/fails.test.js': 'fails',
      '__tests__/gen/flaky.test.js': 'flaky',
      '__tests__/gen/same.test.js': 'no-coverage',
      '__tests__/gen/sign.test.js': 'kept',
    });
    const healed = report.tests.find((x) => x.file === '__tests__/gen/healed.test.js')!;
    expect(
      healed.attempts.some(
        (a) => a.verdict === 'healed' && a.diff?.includes("+const path = require('path');"),
      ),
    ).toBe(true);
    expect(requests[1]!.feedback?.uncovered.map((u) => u.file)).toEqual(['src/ops.js']);
    expect(report.settings.coverageTool).toBe('istanbul');
    expect(report.coverage.after.lines.covered).toBe(report.coverage.after.lines.total);
    expect(report.coverage.after.branches.covered).toBeGreaterThan(report.coverage.before.branches.covered);
    const after = await tree(root);
    expect(Object.keys(after).sort()).toEqual(
      [
        ...Object.keys(before),
        '__tests__/gen/healed.test.js',
        '__tests__/gen/low.test.js',
        '__tests__/gen/sign.test.js',
      ].sort(),
    );
    for (const f of Object.keys(before)) expect(after[f]).toBe(before[f]);
  }, 600_000);
});
