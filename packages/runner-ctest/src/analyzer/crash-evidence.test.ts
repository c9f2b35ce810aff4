import { describe, expect, it } from 'vitest';
import { CrashBacktraces } from './crash-backtrace.js';
import { caseOutput, crashEvidence, signalOf } from './crash-evidence.js';

describe('signalOf', () => {
  it("names the signal behind CTest's words for a crash", () => {
    expect(signalOf('Exception: SegFault')).toMatch(/^SIGSEGV/);
    expect(signalOf('Subprocess aborted')).toMatch(/^SIGABRT/);
    expect(signalOf('Exception: Numerical')).toMatch(/^SIGFPE/);
    expect(signalOf('Failed')).toBeUndefined();
  });
});

describe('caseOutput', () => {
  const transcript = [
    '[==========] Running 2 tests from 2 test suites.',
    '[ RUN      ] A.Passes',
    'A says hello',
    '[       OK ] A.Passes (0 ms)',
    '[ RUN      ] B.Crashes',
    'reading element 3',
  ].join('\n');

  it('keeps what the running case printed, not the cases before it', () => {
    expect(caseOutput(transcript, 'B.Crashes')).toBe('reading element 3');
  });

  it('keeps the whole text when the case is unknown or not in it', () => {
    expect(caseOutput(transcript, undefined)).toBe(transcript);
    expect(caseOutput(transcript, 'C.Other')).toBe(transcript);
  });
});

describe('crashEvidence', () => {
  it('says the signal, the running case and why there is no backtrace when the debugger may not run', async () => {
    const text = await crashEvidence(
      {
        id: 'prog::B.Crashes',
        status: 'crashed',
        message: 'crashed: Exception: SegFault',
        trace: '[ RUN      ] B.Crashes\nreading element 3',
        details: { gtest: 'B.Crashes', ctest: 'Exception: SegFault' },
      },
      '/nonexistent',
      new CrashBacktraces(),
      false,
    );
    expect(text.split('\n')[0]).toBe(
      'prog::B.Crashes crashed: Exception: SegFault (SIGSEGV, a segmentation fault: a read or write of memory the program does not own)',
    );
    expect(text).toContain('running the GoogleTest case B.Crashes');
    expect(text).toContain('reading element 3');
    expect(text).toMatch(/Backtrace: none \(only \d+ crashed programs/);
  });
});
