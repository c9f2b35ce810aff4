import { describe, expect, it } from 'vitest';
import { parseBacktrace } from './crash-backtrace.js';

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
