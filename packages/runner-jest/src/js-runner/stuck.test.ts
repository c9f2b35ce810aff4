import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requestStacks, stuckIn, stuckReport, type ProcessStack } from './stuck.js';

const ROOT = '/p';

/** An inline source map whose generated line 3, column 0 is line 8, column 2 of `source`. */
function inlineMap(source: string): string {
  const map = { version: 3, sources: [source], names: [], mappings: ';;AAOE' };
  return `data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
}

const stack: ProcessStack = {
  pid: 7,
  frames: [
    { functionName: 'hot', url: '/p/node_modules/lib/index.js', line: 4, column: 9 },
    {
      functionName: 'spin',
      url: 'file:///p/src/loop.ts',
      line: 3,
      column: 1,
      sourceMapURL: inlineMap('loop.ts'),
    },
    { functionName: '', url: '/p/__tests__/loop.test.ts', line: 5, column: 3 },
    {
      functionName: 'processTicksAndRejections',
      url: 'node:internal/process/task_queues',
      line: 95,
      column: 5,
    },
  ],
};

describe('stuckIn', () => {
  it('names the innermost frame in the project, through the inline source map', () => {
    const stuck = stuckIn(ROOT, '/p/__tests__/loop.test.ts', [stack]);
    expect(stuck).toMatchObject({ at: { file: 'src/loop.ts', line: 8, column: 3, fn: 'spin' } });
    expect('trace' in stuck && stuck.trace.split('\n')).toEqual([
      '    at hot (node_modules/lib/index.js:4:9)',
      '    at spin (src/loop.ts:8:3)',
      '    at __tests__/loop.test.ts:5:3',
      '    at processTicksAndRejections (node:internal/process/task_queues:95:5)',
    ]);
    expect(stuckReport(stuck)).toMatchObject({
      sentence: ' When it was stopped it was at src/loop.ts:8 in spin().',
      details: { stuckAt: { file: 'src/loop.ts', line: 8, column: 3, function: 'spin' } },
    });
  });

  it('takes the stack of the process that ran the test file, not another worker', () => {
    const idle: ProcessStack = {
      pid: 8,
      frames: [{ functionName: 'other', url: '/p/src/other.ts', line: 1, column: 1 }],
    };
    expect(stuckIn(ROOT, '/p/__tests__/loop.test.ts', [idle, stack])).toMatchObject({ at: { fn: 'spin' } });
    const none = stuckIn(ROOT, '/p/__tests__/loop.test.ts', [idle]);
    expect(none).toMatchObject({ error: expect.stringMatching(/could not be taken/) });
    expect(stuckReport(none)).toEqual({
      sentence: expect.stringMatching(/^ Where it was stuck is not known: /),
      details: { stuckAt: null },
    });
  });
});

describe('stuckIn, with the stack the paused code printed', () => {
  const text = [
    'Error: suture-stuck',
    '    at eval (eval at spin (/p/src/loop.ts:12:3), <anonymous>:4:23)',
    '    at eval (eval at spin (/p/src/loop.ts:12:3), <anonymous>:5:3)',
    // a source-map hook may name a frame after the function it calls
    '    at settle (/p/src/loop.ts:12:3)',
    '    at new Promise (<anonymous>)',
    '    at Object.spin (/p/__tests__/loop.test.ts:9:3)',
  ].join('\n');
  const unmapped: ProcessStack = {
    pid: 7,
    text,
    frames: [
      { functionName: 'spin', url: 'file:///p/src/loop.ts', line: 6, column: 3 },
      { functionName: '', url: '/p/__tests__/loop.test.ts', line: 5, column: 3 },
    ],
  };

  it('takes the places it printed for frames no inline map places, with the names of the frames', () => {
    expect(stuckIn(ROOT, '/p/__tests__/loop.test.ts', [unmapped])).toEqual({
      at: { file: 'src/loop.ts', line: 12, column: 3, fn: 'spin' },
      trace: '    at spin (src/loop.ts:12:3)\n    at __tests__/loop.test.ts:9:3',
    });
  });

  it('keeps the place an inline map gives', () => {
    const stuck = stuckIn(ROOT, '/p/__tests__/loop.test.ts', [
      { ...stack, frames: stack.frames.slice(1), text },
    ]);
    expect(stuck).toMatchObject({ at: { file: 'src/loop.ts', line: 8, fn: 'spin' } });
  });
});

describe('requestStacks', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('asks in its folder and returns once a stack of each file has come, or at its bound without one', async () => {
    dir = await mkdtemp(join(tmpdir(), 'stuck-'));
    const asked = requestStacks(dir, ['/p/__tests__/loop.test.ts'], 5_000);
    // an answer that is not JSON, as a process of the tests might leave, is no stack
    await writeFile(join(dir, 'stack-1.json'), '{');
    await writeFile(join(dir, 'stack-7.json'), JSON.stringify(stack));
    expect((await asked).map((s) => s.pid)).toEqual([7]);
    expect(await readdir(dir)).toContain('request');
    expect(await requestStacks(dir, ['/p/__tests__/missing.test.ts'], 50)).toHaveLength(1);
  });
});
