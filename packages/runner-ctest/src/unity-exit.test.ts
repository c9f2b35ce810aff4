import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseOfCrashedEntry, unityCases, unityEndedEarly, UNITY_ENDED_EARLY } from './unity-exit.js';

let dir: string;
let unity: string;
let plain: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'suture-unity-exit-'));
  // stand-ins for built programs: what is searched is the bytes of Unity's summary strings
  unity = join(dir, 'unity_test');
  plain = join(dir, 'plain_test');
  await writeFile(
    unity,
    Buffer.from('\x7fELF...\0-----------------------\0 Tests \0 Failures \0 Ignored \0OK\0'),
  );
  await writeFile(plain, Buffer.from('\x7fELF...\0sum(2, 2) is %d\0'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const passedEnd = { number: 1, name: 'calc', status: 'passed' as const, detail: 'Passed' };
const asEntry: TestResult[] = [{ id: 'calc', name: 'calc', status: 'passed' }];

describe('unityCases', () => {
  it("reads each test's line: PASS, FAIL with its message, IGNORE", () => {
    const out = 't.c:4:test_add:FAIL: Expected 5 Was -1\nt.c:9:test_zero:PASS\nt.c:12:test_later:IGNORE\n';
    expect(unityCases(out)).toEqual([
      { file: 't.c', line: 4, name: 'test_add', status: 'failed', message: 'Expected 5 Was -1' },
      { file: 't.c', line: 9, name: 'test_zero', status: 'passed', message: '' },
      { file: 't.c', line: 12, name: 'test_later', status: 'skipped', message: '' },
    ]);
  });
});

describe('unityEndedEarly', () => {
  it('makes a Unity program that passed without its summary a crash, keeping the tests it reported', async () => {
    const reported: TestResult[] = [{ id: 'calc::test_add', name: 'test_add', status: 'passed' }];
    const out = await unityEndedEarly(reported, 't.c:4:test_add:PASS\n', passedEnd, [unity]);
    expect(out).toEqual([
      reported[0],
      expect.objectContaining({ id: 'calc', status: 'crashed', message: UNITY_ENDED_EARLY }),
    ]);
    expect(await unityEndedEarly(asEntry, '', passedEnd, [unity])).toEqual([
      expect.objectContaining({ id: 'calc', status: 'crashed' }),
    ]);
  });

  it('leaves a program with its summary, a failed entry and a program without Unity as they were', async () => {
    const summary = 't.c:4:test_add:PASS\n\n-----------------------\n1 Tests 0 Failures 0 Ignored \nOK\n';
    expect(await unityEndedEarly(asEntry, summary, passedEnd, [unity])).toBe(asEntry);
    expect(await unityEndedEarly(asEntry, '', { ...passedEnd, status: 'failed' }, [unity])).toBe(asEntry);
    expect(await unityEndedEarly(asEntry, '', passedEnd, [plain])).toBe(asEntry);
    expect(await unityEndedEarly(asEntry, '', passedEnd, [join(dir, 'missing')])).toBe(asEntry);
  });
});

describe('caseOfCrashedEntry', () => {
  it("gives a selected test that never reported the crash of its entry, and nothing for another entry's", () => {
    const tests: TestResult[] = [{ id: 'calc', name: 'calc', status: 'crashed', message: UNITY_ENDED_EARLY }];
    expect(caseOfCrashedEntry('calc::test_add', tests)).toEqual({
      id: 'calc::test_add',
      name: 'test_add',
      status: 'crashed',
      message: UNITY_ENDED_EARLY,
      details: { entry: 'calc' },
    });
    expect(caseOfCrashedEntry('other::test_add', tests)).toBeUndefined();
  });
});
