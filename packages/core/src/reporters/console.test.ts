import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestStatus } from '../api/contracts/run-result.js';
import { colourEnabled } from './console-colour.js';
import { consoleReporter, type ConsoleStream } from './console.js';
import { sampleReport } from './sample-report.test-support.js';

const SGR = /\x1b\[\d+m/;

let runsDir: string;
beforeEach(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'suture-console-'));
});
afterEach(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

function capture(isTTY: boolean, columns = 120): { stream: ConsoleStream; chunks: string[]; text(): string } {
  const chunks: string[] = [];
  return {
    stream: { isTTY, columns, write: (c: string) => chunks.push(c) },
    chunks,
    text: () => chunks.join(''),
  };
}

/** What a terminal shows once the escape codes are played: the last text of each line. */
function screen(text: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  for (const part of text.split(/(\x1b\[\d*[A-Za-z]|\r|\n)/)) {
    if (part === '\n') lines[++row] ??= '';
    else if (part === '\r') continue;
    else if (part === '\x1b[2K') lines[row] = '';
    else if (part === '\x1b[1A') row--;
    else if (!part.startsWith('\x1b')) lines[row] += part;
  }
  return lines.slice(0, row + 1);
}

async function previousRun(tests: number): Promise<string> {
  const report = sampleReport();
  report.projects[0]!.rounds[0]!.tests = Array.from({ length: tests }, (_, i) => ({
    id: `t${i}`,
    status: 'passed' as TestStatus,
  }));
  await mkdir(join(runsDir, '20260101-000000-aaaa'), { recursive: true });
  await writeFile(join(runsDir, '20260101-000000-aaaa', 'report.json'), JSON.stringify(report));
  return join(runsDir, '20260102-000000-bbbb');
}

const start = (runDir: string) => ({
  runId: 'x',
  root: '/repo',
  runDir,
  mode: 'check' as const,
  projects: ['py'],
});
const failure = sampleReport().projects[0]!.failures[1]!.failure;

describe('console colour', () => {
  it('follows NO_COLOR, FORCE_COLOR, the TTY and TERM', () => {
    const tty = { isTTY: true };
    expect(colourEnabled(tty, { TERM: 'xterm-256color' })).toBe(true);
    expect(colourEnabled(tty, { TERM: 'xterm-256color', NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled(tty, { TERM: 'xterm-256color', NO_COLOR: '' })).toBe(true);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled(tty, {})).toBe(false);
    expect(colourEnabled({ isTTY: false }, { TERM: 'xterm-256color' })).toBe(false);
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { TERM: 'xterm', FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('the live console view on a TTY', () => {
  it('shows tests done of the last run, the attempt under way, colour, and lines scrolling above', async () => {
    const out = capture(true);
    const r = consoleReporter({}, out.stream, { TERM: 'xterm-256color' });
    await r.onRunStart!(start(await previousRun(4)));
    r.onProjectStart!({ project: 'py', runner: '@suture/runner-pytest' });
    r.onTestResult!({ project: 'py', test: { id: 'a', status: 'passed' } });
    r.onTestResult!({ project: 'py', test: { id: 'b', status: 'failed' } });
    r.onTestResult!({ project: 'py', test: { id: 'c', status: 'passed' } });
    let shown = screen(out.text());
    expect(shown[shown.length - 1]).toBe('py: 2 passed, 1 failed · 3/4 tests [█████████░░░]');
    expect(shown).toContain('▶ py: running @suture/runner-pytest');
    expect(out.text()).toMatch(/\x1b\[32m2 passed\x1b\[39m/);

    r.onRoundEnd!({ project: 'py', round: sampleReport().projects[0]!.rounds[0]! });
    r.onAttemptStart!({ project: 'py', failure, attempt: 1, fixer: 'hints' });
    shown = screen(out.text());
    expect(shown[shown.length - 1]).toBe(
      `py: 0 passed, 0 failed · 0/1 tests [░░░░░░░░░░░░] · attempt 1 on "${failure.title}" with hints`,
    );
    expect(shown[shown.length - 2]).toBe(`  py: attempt 1 on "${failure.title}" with hints`);
    r.onTestResult!({ project: 'py', test: { id: 'tests/test_a.py::test_logic', status: 'passed' } });
    expect(screen(out.text()).at(-1)).toMatch(/1\/1 tests \[█{12}\] · attempt 1/);

    r.onProjectEnd!({ project: sampleReport().projects[0]! });
    shown = screen(out.text());
    expect(shown.at(-1)).toBe('');
    expect(shown.join('\n')).toMatch(/■ py: failed_after_repair/);
    expect(shown.join('\n')).not.toMatch(/tests \[/);
  });

  it('keeps a line per running project and cuts them to the terminal width', async () => {
    const out = capture(true, 40);
    const r = consoleReporter({}, out.stream, { TERM: 'xterm' });
    await r.onRunStart!({ ...start(join(runsDir, 'r1')), projects: ['py', 'cpp'] });
    r.onProjectStart!({ project: 'py', runner: 'pytest' });
    r.onProjectStart!({ project: 'cpp', runner: 'ctest' });
    r.onTestResult!({ project: 'py', test: { id: 'a', status: 'passed' } });
    r.onTestResult!({ project: 'cpp', test: { id: 'b', status: 'skipped' } });
    const shown = screen(out.text());
    expect(shown.slice(-2)).toEqual([
      'py: 1 passed, 0 failed · 1 tests',
      'cpp: 0 passed, 0 failed, 1 skipped · 1…',
    ]);
    expect(shown.slice(-2).every((l) => l.length <= 39)).toBe(true);
  });

  it('draws a big suite a bounded number of times and still ends on its last count', async () => {
    const out = capture(true);
    const r = consoleReporter({}, out.stream, { NO_COLOR: '1', TERM: 'xterm' });
    await r.onRunStart!(start(await previousRun(5000)));
    r.onProjectStart!({ project: 'py', runner: 'pytest' });
    const before = out.chunks.length;
    for (let i = 0; i < 4999; i++)
      r.onTestResult!({ project: 'py', test: { id: `t${i}`, status: 'passed' } });
    expect(out.chunks.length - before).toBeLessThan(120);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(screen(out.text()).at(-1)).toMatch(/^py: 4999 passed, 0 failed · 4999\/5000 tests/);
    expect(out.text()).not.toMatch(SGR);
  });
});

describe('the console when piped or in CI', () => {
  it('prints plain lines: no live block, colour only when forced', async () => {
    for (const [isTTY, env] of [
      [false, { TERM: 'xterm-256color' }],
      [true, { CI: 'true', TERM: 'xterm-256color' }],
    ] as const) {
      const out = capture(isTTY);
      const r = consoleReporter({}, out.stream, env);
      await r.onRunStart!(start(join(runsDir, 'r1')));
      r.onProjectStart!({ project: 'py', runner: 'pytest' });
      r.onTestResult!({ project: 'py', test: { id: 'a', status: 'passed' } });
      r.onAttemptStart!({ project: 'py', failure, attempt: 1, fixer: 'hints' });
      expect(out.text()).not.toContain('\r');
      expect(out.text()).not.toContain('tests [');
      expect(out.text()).toContain(`  py: attempt 1 on "${failure.title}" with hints\n`);
      if (!isTTY) expect(out.text()).not.toMatch(SGR);
    }
    const forced = capture(false);
    const r = consoleReporter({}, forced.stream, { FORCE_COLOR: '1' });
    await r.onRunEnd!(sampleReport(), { runDir: join(runsDir, 'r1'), root: '/repo' });
    expect(forced.text()).toMatch(/\x1b\[31mfailures remain\x1b\[39m: 5 tests/);
    expect(forced.text()).not.toContain('\r');
  });
});

describe('the console progress in a log', () => {
  it('prints the counts of a running project every progressIntervalMs, and stops when the projects end', async () => {
    vi.useFakeTimers();
    try {
      const out = capture(false);
      const r = consoleReporter({ progressIntervalMs: 1000 }, out.stream, {});
      await r.onRunStart!(start(join(runsDir, 'r1')));
      r.onProjectStart!({ project: 'py', runner: 'pytest' });
      vi.advanceTimersByTime(1000);
      // nothing ran yet: nothing to say
      expect(out.text()).not.toContain('so far');
      r.onTestResult!({ project: 'py', test: { id: 'a', status: 'passed' } });
      r.onTestResult!({ project: 'py', test: { id: 'b', status: 'failed' } });
      r.onTestResult!({ project: 'py', test: { id: 'c', status: 'skipped' } });
      vi.advanceTimersByTime(1000);
      expect(out.text()).toContain('  py: 1 passed, 1 failed, 1 skipped so far · 2 s\n');
      // between runs it waits; during an attempt it says which
      r.onRoundEnd!({ project: 'py', round: sampleReport().projects[0]!.rounds[0]! });
      const ended = out.text().length;
      vi.advanceTimersByTime(1000);
      expect(out.text().slice(ended)).not.toContain('so far');
      r.onAttemptStart!({ project: 'py', failure, attempt: 1, fixer: 'claude' });
      vi.advanceTimersByTime(1000);
      expect(out.text()).toContain(
        `  py: 0 passed, 0 failed so far · 4 s · attempt 1 on "${failure.title}" with claude\n`,
      );
      r.onProjectEnd!({ project: sampleReport().projects[0]! });
      const after = out.text().length;
      vi.advanceTimersByTime(5000);
      expect(out.text().slice(after)).not.toContain('so far');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('prints none on a live terminal, nor with progressIntervalMs 0', async () => {
    vi.useFakeTimers();
    try {
      for (const [isTTY, options] of [
        [true, {}],
        [false, { progressIntervalMs: 0 }],
      ] as const) {
        const out = capture(isTTY);
        const r = consoleReporter(options, out.stream, { TERM: 'xterm' });
        await r.onRunStart!(start(join(runsDir, 'r1')));
        r.onProjectStart!({ project: 'py', runner: 'pytest' });
        r.onTestResult!({ project: 'py', test: { id: 'a', status: 'passed' } });
        vi.advanceTimersByTime(60_000);
        expect(out.text()).not.toContain('so far');
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the console summary', () => {
  it('in check mode, says a healed group still fails in the tree and where its validated fix is', async () => {
    const out = capture(false);
    const r = consoleReporter({}, out.stream, {});
    const runDir = join(runsDir, 'r1');
    await r.onRunEnd!(sampleReport(), { runDir, root: '/repo' });
    const shown = relative(process.cwd(), runDir);
    const fixes = join(shown.startsWith('..') ? runDir : shown, 'fixes.patch');
    expect(out.text()).toContain(
      `failures remain: 5 tests, 3 failure group(s), 1 still failing with a validated fix available (not applied: ${fixes}), 2 still failing,`,
    );
    expect(out.text()).not.toMatch(/\d healed/);
  });

  it('in fix mode, counts the heals as healed', async () => {
    const out = capture(false);
    const r = consoleReporter({}, out.stream, {});
    await r.onRunEnd!({ ...sampleReport(), mode: 'fix' }, { runDir: join(runsDir, 'r1'), root: '/repo' });
    expect(out.text()).toMatch(/failures remain: 5 tests, 3 failure group\(s\), 1 healed, 2 still failing/);
    expect(out.text()).not.toContain('validated fix available');
  });
});
