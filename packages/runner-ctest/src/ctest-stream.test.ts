import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CtestStream, type EntryEnd } from './ctest-stream.js';

// Real `ctest -V -j2` output, captured by test/fixtures/ctest/capture.sh.
const verbose = readFileSync(new URL('../test/fixtures/ctest/verbose.txt', import.meta.url), 'utf8');

function read(
  text: string,
  chunk = text.length,
): {
  ends: EntryEnd[];
  output: Map<string, string[]>;
  timeouts: Map<string, number>;
} {
  const names = new Map<number, string>();
  const ends: EntryEnd[] = [];
  const output = new Map<string, string[]>();
  const timeouts = new Map<string, number>();
  const stream = new CtestStream({
    onStart: (k, name) => names.set(k, name),
    onTimeout: (k, s) => timeouts.set(names.get(k)!, s),
    onOutput: (k, line) => output.set(names.get(k)!, [...(output.get(names.get(k)!) ?? []), line]),
    onEnd: (end) => ends.push(end),
  });
  for (let i = 0; i < text.length; i += chunk) stream.write(text.slice(i, i + chunk));
  stream.end();
  return { ends, output, timeouts };
}

describe('CtestStream', () => {
  it("reads every entry's end with CTest's word for it, whatever its name holds", () => {
    const { ends } = read(verbose);
    expect(Object.fromEntries(ends.map((e) => [e.name, `${e.status}: ${e.detail}`]))).toEqual({
      'Disc.Passes': 'passed: Passed',
      'Disc.Fails': 'failed: Failed',
      'Typed.HasSize<int>': 'passed: Passed',
      'Typed.HasSize<char>': 'passed: Passed',
      'Nums/Param.IsEven/2': 'passed: Passed',
      'Nums/Param.IsEven/3': 'failed: Failed',
      'lib::test': 'failed: Failed',
      regex: 'failed: Failed  Required regular expression not found. Regex=[nope',
      disabled: 'skipped: Not Run (Disabled)',
      skip77: 'skipped: Skipped',
      aborts: 'crashed: Subprocess aborted',
      segv: 'crashed: Exception: SegFault',
      'with space': 'passed: Passed',
      sleeps: 'timeout: Timeout',
    });
    expect(ends.find((e) => e.name === 'with space')!.seconds).toBe(0.22);
  });

  it("gives each entry its own lines, without CTest's header, also when entries interleave", () => {
    const { output } = read(verbose);
    expect(output.get('with space')).toEqual(['X=1', 'partialrest']);
    expect(output.get('Disc.Passes')![0]).toBe('Running main() from ./googletest/src/gtest_main.cc');
    expect(output.get('lib::test')).toContain('no newline[       OK ] Whole.Prints (0 ms)');
    expect(output.get('lib::test')!.some((l) => l.startsWith('Test command'))).toBe(false);
  });

  it("reads each entry's computed timeout: the project's TIMEOUT, else the one given to CTest", () => {
    const { timeouts } = read(verbose);
    expect(timeouts.get('sleeps')).toBe(1);
    expect(timeouts.get('lib::test')).toBe(600);
  });

  it('reads the same from output that arrives in small chunks', () => {
    expect(read(verbose, 7)).toEqual(read(verbose));
  });
});
