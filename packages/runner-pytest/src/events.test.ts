import { describe, expect, it } from 'vitest';
import { foldEvents, parseEvents } from './events.js';

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
