import { describe, expect, it } from 'vitest';
import { EventFold, foldEvents, parseEvents } from './events.js';

const lines = (...events: unknown[]): string =>
  events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n');
const start = { event: 'start', nodeid: 't.py::test_a', file: 't.py', line: 3 };
const failed = {
  event: 'report',
  nodeid: 't.py::test_a',
  when: 'call',
  outcome: 'failed',
  duration: 0.01,
  file: 't.py',
  line: 3,
  wasxfail: false,
  longrepr: 'E   assert 1 == 2',
};

describe('parseEvents', () => {
  it('keeps the events of the plugin, a null text included', () => {
    const events = parseEvents(
      lines(
        start,
        { ...failed, longrepr: null },
        { event: 'collect-error', nodeid: 'u.py', longrepr: null },
        { event: 'finish', exitstatus: 1 },
      ),
    );
    expect(events.map((e) => e.event)).toEqual(['start', 'report', 'collect-error', 'finish']);
    expect(foldEvents(events).tests).toEqual([
      expect.objectContaining({ id: 't.py::test_a', status: 'failed' }),
    ]);
  });

  it('drops lines that are cut short or not of its shape, and folds the rest', () => {
    const text = lines(
      'null',
      '42',
      '"text"',
      '[]',
      { event: 'report', nodeid: 7 },
      { event: 'unknown' },
      start,
      failed,
      '{"event": "finish", "exitst',
    );
    const folded = foldEvents(parseEvents(text));
    expect(folded.tests.map((t) => [t.id, t.status])).toEqual([['t.py::test_a', 'failed']]);
    expect(folded.exitStatus).toBeUndefined();
  });
});

describe('EventFold', () => {
  const where = { file: 'app/wait.py', line: 5, function: 'wait' };
  const timeout = {
    limitS: 2,
    source: 'default',
    hard: false,
    where,
    stack:
      'Stack of the test\'s thread at the limit (most recent call first):\n  File "app/wait.py", line 5 in wait',
    frames: [{ file: 'app/wait.py', line: 5, function: 'wait' }],
  };

  it('hands over each test when its last phase ends, with its whole duration', () => {
    const fold = new EventFold('/p');
    const finished = parseEvents(
      lines(
        { event: 'collected', nodeids: ['t.py::test_a', 't.py::test_b'] },
        start,
        { ...failed, outcome: 'passed', longrepr: null },
        { event: 'end', nodeid: 't.py::test_a', duration: 1.5, setup: 1.2 },
        { ...start, nodeid: 't.py::test_b' },
      ),
    ).flatMap((e) => fold.push(e) ?? []);
    expect(finished).toEqual([
      expect.objectContaining({ id: 't.py::test_a', status: 'passed', durationMs: 1500 }),
    ]);
    expect(fold.setupMs.get('t.py::test_a')).toBe(1200);
    expect(fold.running).toBe('t.py::test_b');
    expect(fold.collected).toEqual(['t.py::test_a', 't.py::test_b']);
  });

  it('makes a test past its limit a timeout located where it was stuck, in the words of the runner', () => {
    const fold = new EventFold('/p', (id, info) => `${id} past ${info.limitS} s at ${info.where?.file}`);
    for (const e of parseEvents(lines(start, { ...failed, timeout }))) fold.push(e);
    expect(fold.tests.get('t.py::test_a')).toMatchObject({
      status: 'timeout',
      message: 't.py::test_a past 2 s at app/wait.py',
      details: {
        exception: { type: 'Timeout', frames: [where] },
        timeout: { limitMs: 2000, source: 'default', stoppedProcess: false },
      },
    });
    expect(fold.tests.get('t.py::test_a')!.trace).toMatch(/^Stack of the test's thread[\s\S]*assert 1 == 2$/);
  });

  it('finishes a test the watchdog stopped, so a restarted process leaves it out', () => {
    const fold = new EventFold('/p');
    const events = parseEvents(
      lines(start, { event: 'stopped', nodeid: 't.py::test_a', timeout: { ...timeout, hard: true } }),
    );
    const finished = events.flatMap((e) => fold.push(e) ?? []);
    expect(finished.map((t) => [t.id, t.status])).toEqual([['t.py::test_a', 'timeout']]);
    expect(fold.stopped).toBe('t.py::test_a');
    expect(fold.running).toBeUndefined();
  });

  it('keeps the modules that were imported from outside the project', () => {
    const fold = new EventFold('/p');
    const shadow = { event: 'shadowed', module: 'lib', loaded: '/site/lib/__init__.py', source: 'src/lib' };
    for (const e of parseEvents(lines(shadow))) fold.push(e);
    expect(fold.shadowed).toEqual([{ module: 'lib', loaded: '/site/lib/__init__.py', source: 'src/lib' }]);
  });
});
