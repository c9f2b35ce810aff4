import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@suture/core';
import { requireToolchain } from '@suture/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { debuggerFrames, parseBacktrace } from './crash-backtrace.js';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('parseBacktrace', () => {
  it("reads gdb's frames inside the project, innermost first, paths made project-relative", () => {
    const text = [
      'Program received signal SIGSEGV, Segmentation fault.',
      '0x0000555555557ee1 in parse_object (item=0x555555562120 <item>, input_buffer=0x7fffffffe5f0) at /p/tests/../cJSON.c:1751',
      '1751\t        head->prev = current_item;',
      '#0  0x0000555555557ee1 in parse_object (item=0x555555562120 <item>, input_buffer=0x7fffffffe5f0) at /p/tests/../cJSON.c:1751',
      '#1  0x000055555555aa1e in assert_parse_object (json=0x55555555e45b "{}") at /p/tests/parse_object.c:72',
      '#2  0x00007ffff7c29d90 in __libc_start_call_main (main=...) at ../sysdeps/nptl/libc_start_call_main.h:58',
      '#3  Geom::Ruler::measure (this=0x7ffe) at /p/src/ruler.cpp:9',
      '#4  0x0000555555558000 in gen_main () at /p/build-suture/generated.c:3',
    ].join('\n');
    expect(parseBacktrace(text, '/p', 'build-suture')).toEqual([
      { file: 'cJSON.c', line: 1751, fn: 'parse_object' },
      { file: 'tests/parse_object.c', line: 72, fn: 'assert_parse_object' },
      { file: 'src/ruler.cpp', line: 9, fn: 'measure' },
    ]);
  });
});

describe('debuggerFrames', () => {
  it('finds where a stack overflow of some hundred thousand frames stopped, from its innermost frames', async (ctx) => {
    requireToolchain(ctx, { command: 'gdb', install: 'apt-get install gdb' });
    requireToolchain(ctx, { command: 'cc', install: 'apt-get install gcc' });
    const root = await mkdtemp(join(tmpdir(), 'suture-cpp-overflow-'));
    temps.push(root);
    await mkdir(join(root, 'src'));
    await mkdir(join(root, 'build-suture'));
    await writeFile(
      join(root, 'src/depth.c'),
      [
        '#include <stdio.h>',
        'int depth(int n) {',
        '  if (n == -1) return 0;',
        '  return depth(n + 1) + 1;',
        '}',
        'int main(void) {',
        '  printf("%d\\n", depth(0));',
        '  return 0;',
        '}',
        '',
      ].join('\n'),
    );
    const program = join(root, 'build-suture', 'depth');
    const built = await runProcess('cc', ['-g', '-O0', '-o', program, join(root, 'src/depth.c')], {
      cwd: root,
      timeoutMs: 60_000,
    });
    expect(built.exitCode, built.output).toBe(0);
    const frames = await debuggerFrames(root, 'build-suture', [program], root);
    expect(frames?.[0]).toMatchObject({ file: 'src/depth.c', fn: 'depth' });
    // the innermost frames only: every one of them in the recursion, none of main's
    expect(frames).toHaveLength(64);
    expect(new Set(frames!.map((f) => f.fn))).toEqual(new Set(['depth']));
  }, 120_000);
});
