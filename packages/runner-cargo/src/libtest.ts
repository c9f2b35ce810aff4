import { resolve } from 'node:path';
import type { Diagnostic, TestResult } from '@suture/core';
import { diagnosticKey, parseCargoLine, type PathBase } from './cargo-json.js';
import { projectPath } from './metadata.js';

/** The test binary cargo is running: a target's (`src/lib.rs`) or a crate's doctests. */
export interface Section {
  kind: 'unit' | 'doc';
  /** The target's root file (unit), or the package folder the doctests' names are relative to (doc). */
  key: string;
  /** What libtest said it would run (`running 3 tests`). */
  announced?: number;
  reported: Set<string>;
  /** Set at libtest's `test result:` line. */
  done: boolean;
}

/** Where a libtest name is defined, as the analyzer read the crate. */
export type Locate = (section: Section, name: string) => { file: string; line: number } | undefined;

const RESULT = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;
const RUNNING = /^\s+Running (?:unittests )?(\S.*?) \((.+)\)$/;
const DOCTESTS = /^\s+Doc-tests (\S+)$/;
const OVERTIME = /^test (.+?) has been running for over \d+ seconds$/;
const HEADER = /^---- (.+?) std(?:out|err) ----$/;
const PANIC = /panicked at ([^\n]+?):(\d+):(\d+):\n([^]*?)(?:\nstack backtrace:|\nnote: |\n\n|$)/;
const MAX_TRACE = 16_000;

/** The id suture gives a libtest test: `src/lib.rs::tests::adds`, or a doctest's own name. */
export function testId(section: Section, name: string): string {
  if (section.kind === 'doc') return section.key ? `${section.key}/${name}` : name;
  return `${section.key}::${name}`;
}

/** A doctest's id (`src/lib.rs - add (line 3)`): its file and the line of its code block. */
export function doctestPlace(id: string): { file: string; line: number } | undefined {
  const m = /^(.+?\.rs) - .+ \(line (\d+)\)$/.exec(id);
  return m ? { file: m[1]!, line: Number(m[2]) } : undefined;
}

/**
 * Reads `cargo test --message-format=json` as it comes: cargo's JSON lines (diagnostics, built
 * test binaries), cargo's `Running`/`Doc-tests` lines that open each binary's section, and
 * libtest's stable human output in it (results, the `---- name stdout ----` sections of failures
 * with their panic place).
 */
export class CargoFold {
  readonly tests = new Map<string, TestResult>();
  readonly diagnostics = new Map<string, Diagnostic>();
  readonly sections: Section[] = [];
  /** Tests libtest named as running past 60 s. */
  readonly overtime = new Set<string>();
  buildFailed = false;
  /** When the last result (or section) came: the watchdog's clock. */
  lastProgress = Date.now();
  private current: Section | undefined;
  private failures = false;
  private capture: { id: string; lines: string[] } | undefined;
  private partial = '';

  constructor(
    private readonly base: PathBase,
    private readonly locate: Locate,
    private readonly crateDirs: (crate: string) => string | undefined,
    private readonly emit: (test: TestResult) => void,
    private readonly failing: () => void = () => undefined,
  ) {}

  get section(): Section | undefined {
    return this.current;
  }

  /** The test a serial libtest (`--test-threads=1`) has started and not finished: its line is open. */
  get pending(): string | undefined {
    const m = /^test (.+?) \.\.\. $/.exec(this.partial);
    return m && this.current ? testId(this.current, m[1]!) : undefined;
  }

  write(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line.replace(/\r$/, ''));
  }

  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
    this.flushCapture();
  }

  private line(line: string): void {
    if (line.startsWith('{"reason":')) return this.cargoLine(line);
    const running = RUNNING.exec(line);
    const doc = running ? undefined : DOCTESTS.exec(line);
    if (running || doc) {
      this.closeSection();
      const key = running ? running[1]!.replace(/^\.\//, '') : (this.crateDirs(doc![1]!) ?? '');
      this.current = { kind: running ? 'unit' : 'doc', key, reported: new Set(), done: false };
      this.sections.push(this.current);
      this.lastProgress = Date.now();
      return;
    }
    const s = this.current;
    if (!s) return;
    const announced = /^running (\d+) tests?$/.exec(line);
    if (announced) {
      s.announced = Number(announced[1]);
      return;
    }
    if (this.failures && this.capture) {
      if (line === 'failures:' || HEADER.test(line)) this.flushCapture();
      else {
        this.capture.lines.push(line);
        return;
      }
    }
    const header = HEADER.exec(line);
    if (header && this.failures) {
      this.capture = { id: testId(s, header[1]!), lines: [] };
      return;
    }
    if (line === 'failures:') {
      this.failures = true;
      return;
    }
    const result = RESULT.exec(line);
    if (result) return this.result(s, result[1]!, result[2]!);
    const over = OVERTIME.exec(line);
    if (over) this.overtime.add(testId(s, over[1]!));
    if (line.startsWith('test result:')) this.closeSection();
  }

  private cargoLine(line: string): void {
    const parsed = parseCargoLine(this.base, line);
    if (parsed.type === 'diagnostic')
      this.diagnostics.set(diagnosticKey(parsed.diagnostic), parsed.diagnostic);
    else if (parsed.type === 'build-finished' && !parsed.success) this.buildFailed = true;
  }

  private result(s: Section, name: string, word: string): void {
    const id = testId(s, name);
    s.reported.add(id);
    this.lastProgress = Date.now();
    const place = s.kind === 'doc' ? doctestPlace(id) : this.locate(s, name);
    const status = word === 'ok' ? 'passed' : word === 'FAILED' ? 'failed' : 'skipped';
    const test: TestResult = { id, name, status, ...(place ? { file: place.file, line: place.line } : {}) };
    if (status === 'skipped' && word.includes(', ')) test.message = word.slice(word.indexOf(', ') + 2);
    this.tests.set(id, test);
    if (status === 'failed') this.failing();
    else this.emit(test);
  }

  private flushCapture(): void {
    const c = this.capture;
    this.capture = undefined;
    if (!c) return;
    const test = this.tests.get(c.id);
    if (!test) return;
    const text = c.lines.join('\n').trim();
    test.trace = text.slice(0, MAX_TRACE);
    const panic = PANIC.exec(text);
    test.message = (panic ? panic[4]!.trim() : text.split('\n').slice(0, 4).join('\n')) || 'the test failed';
    if (panic) {
      const file = projectPath(this.base.projectRoot, resolve(this.base.workspaceRoot, panic[1]!));
      test.details = {
        ...test.details,
        panicFile: file,
        panicLine: Number(panic[2]),
        panicColumn: Number(panic[3]),
      };
    }
    if (/did not panic as expected|panic did not contain expected string/.test(text))
      test.details = { ...test.details, shouldPanic: true };
  }

  /** The binary's section ended: its failures are complete, stream them. */
  private closeSection(): void {
    this.flushCapture();
    const s = this.current;
    if (!s) return;
    s.done = true;
    this.failures = false;
    for (const id of s.reported) {
      const t = this.tests.get(id);
      if (t?.status === 'failed') this.emit(t);
    }
    this.current = undefined;
  }

  /** Streams a result the runner decided itself (a test the watchdog stopped). */
  emitTest(test: TestResult): void {
    this.emit(test);
  }

  /** Called when the watchdog stopped the binary: its open failure sections are still failures. */
  interrupt(): void {
    this.flushCapture();
    const s = this.current;
    if (s)
      for (const id of s.reported)
        if (this.tests.get(id)?.status === 'failed') this.emit(this.tests.get(id)!);
    this.current = undefined;
    this.failures = false;
  }
}
