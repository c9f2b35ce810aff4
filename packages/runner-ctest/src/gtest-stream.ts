import { BoundedText } from './bounded-text.js';

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseEnd {
  /** The gtest name: `Suite.Case`, `Prefix/Suite.Case/0`, `Typed/0.Case`. */
  name: string;
  status: CaseStatus;
  ms?: number;
  /** The case's transcript from its RUN line to its result line, for the failure's message. */
  transcript: string;
}

// Unanchored at the start: output a test prints without a newline runs into GoogleTest's next line.
const RUN = /\[ RUN {6}\] (\S+)\s*$/;
const OK = /\[ {7}OK \] (\S+) \((\d+) ms\)\s*$/;
// `, where GetParam() = 3` follows a parametrized case; the summary repeats the names without a time
const FAILED = /\[ {2}FAILED {2}\] (\S+?)(?:, where .*?)? \((\d+) ms\)\s*$/;
const SKIPPED = /\[ {2}SKIPPED \] (\S+) \((\d+) ms\)\s*$/;
const SUMMARY = /^\[==========\] \d+ tests? from \d+ test (?:suites?|cases?) ran\./;

function caseEnd(text: string): { name: string; status: CaseStatus; ms: number; at: number } | undefined {
  for (const [re, status] of [
    [OK, 'passed'],
    [FAILED, 'failed'],
    [SKIPPED, 'skipped'],
  ] as const) {
    const m = re.exec(text);
    if (m) return { name: m[1]!, status, ms: Number(m[2]), at: m.index };
  }
  return undefined;
}

/**
 * Follows one GoogleTest program's transcript line by line: which case is running since when, and
 * each case's result as its line arrives. Results in the closing summary are not read twice.
 */
export class GtestStream {
  /** The program printed a GoogleTest transcript. */
  seen = false;
  /** The case that started and has not ended, if any. */
  current: { name: string; since: number; text: BoundedText } | undefined;
  /** When the last case ended (or the program started): a gap is timed from here. */
  idleSince: number;
  /** Every case that ended, with its status (the transcripts go to the caller only). */
  readonly ended = new Map<string, CaseStatus>();
  private summary = false;

  constructor(now = Date.now()) {
    this.idleSince = now;
  }

  /** Reads one line; returns the case it ended, if any. */
  line(text: string, now = Date.now()): CaseEnd | undefined {
    if (this.summary) return undefined;
    if (text.startsWith('[==========] ')) {
      this.seen = true;
      if (SUMMARY.test(text)) this.summary = true;
      return undefined;
    }
    if (text.includes('[ RUN      ] ')) {
      const run = RUN.exec(text);
      if (run) {
        this.seen = true;
        this.current = { name: run[1]!, since: now, text: new BoundedText(64 * 1024, 192 * 1024) };
        this.current.text.push(`[ RUN      ] ${run[1]!}`);
        return undefined;
      }
    }
    const end = text.includes('] ') ? caseEnd(text) : undefined;
    if (end && (this.current || this.seen)) {
      const lead = text.slice(0, end.at);
      if (lead) this.current?.text.push(lead);
      const head = this.current?.text.toString() ?? `[ RUN      ] ${end.name}`;
      const done: CaseEnd = {
        name: end.name,
        status: end.status,
        ms: end.ms,
        transcript: `${head}\n${text.slice(end.at).trimEnd()}\n`,
      };
      this.ended.set(done.name, done.status);
      this.current = undefined;
      this.idleSince = now;
      return done;
    }
    this.current?.text.push(text);
    return undefined;
  }
}
