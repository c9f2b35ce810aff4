import type { TestResult } from '@suture/core';
import { describe, expect, it } from 'vitest';
import { CargoFold, doctestPlace } from './libtest.js';

const OUTPUT = `{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"calc","src_path":"/p/src/lib.rs"},"executable":null,"fresh":true}
{"reason":"build-finished","success":true}
     Running unittests src/lib.rs (target/debug/deps/calc-1)

running 3 tests
test tests::slow ... ignored, needs a server
test tests::adds ... ok
test tests::subtracts ... FAILED

failures:

---- tests::subtracts stdout ----
test result: this line is the test's own output

thread 'tests::subtracts' (1) panicked at src/lib.rs:30:9:
assertion \`left == right\` failed
  left: 8
 right: 2
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::subtracts

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests calc

running 1 test
test src/lib.rs - add (line 7) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;

function fold(chunks: string[]): { tests: TestResult[]; streamed: string[]; fold: CargoFold } {
  const streamed: string[] = [];
  const f = new CargoFold(
    { projectRoot: '/p', workspaceRoot: '/p' },
    (_s, name) => (name === 'tests::subtracts' ? { file: 'src/lib.rs', line: 29 } : undefined),
    (crate) => (crate === 'calc' ? '' : undefined),
    (t) => streamed.push(`${t.id} ${t.status}`),
  );
  for (const c of chunks) f.write(c);
  f.end();
  return { tests: [...f.tests.values()], streamed, fold: f };
}

describe('CargoFold', () => {
  it("reads libtest's stable output: results, ignore reasons, a failure's section and its panic place, doctests", () => {
    const { tests, streamed } = fold([OUTPUT]);
    expect(tests.map((t) => [t.id, t.status])).toEqual([
      ['src/lib.rs::tests::slow', 'skipped'],
      ['src/lib.rs::tests::adds', 'passed'],
      ['src/lib.rs::tests::subtracts', 'failed'],
      ['src/lib.rs - add (line 7)', 'passed'],
    ]);
    const failed = tests[2]!;
    expect(failed).toMatchObject({
      file: 'src/lib.rs',
      line: 29,
      details: { panicFile: 'src/lib.rs', panicLine: 30 },
    });
    expect(failed.message).toBe('assertion `left == right` failed\n  left: 8\n right: 2');
    // the test's own "test result:" line inside its captured output does not end the section
    expect(failed.trace).toContain("test result: this line is the test's own output");
    expect(tests[0]!.message).toBe('needs a server');
    expect(tests[3]).toMatchObject({ file: 'src/lib.rs', line: 7 });
    // a failure is streamed once its section is complete, after the results that came before it
    expect(streamed).toEqual([
      'src/lib.rs::tests::slow skipped',
      'src/lib.rs::tests::adds passed',
      'src/lib.rs::tests::subtracts failed',
      'src/lib.rs - add (line 7) passed',
    ]);
  });

  it('reads the same output cut into pieces anywhere', () => {
    const pieces = OUTPUT.match(/[^]{1,7}/g)!;
    expect(fold(pieces).tests.map((t) => [t.id, t.status, t.message])).toEqual(
      fold([OUTPUT]).tests.map((t) => [t.id, t.status, t.message]),
    );
  });

  it('names the test a one-thread libtest has started and not finished', () => {
    const { fold: f } = fold([]);
    f.write(
      '     Running tests/api.rs (target/debug/deps/api-2)\n\nrunning 2 tests\ntest api_adds ... ok\ntest api_waits ... ',
    );
    expect(f.pending).toBe('tests/api.rs::api_waits');
  });

  it('reads a doctest id as its file and the line of its code block', () => {
    expect(doctestPlace('crates/core/src/lib.rs - Cart::total (line 12)')).toEqual({
      file: 'crates/core/src/lib.rs',
      line: 12,
    });
    expect(doctestPlace('src/lib.rs::tests::adds')).toBeUndefined();
  });
});
