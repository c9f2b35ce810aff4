export type EntryStatus = 'passed' | 'failed' | 'timeout' | 'crashed' | 'skipped' | 'notrun';

export interface EntryEnd {
  /** CTest's test number in this run. */
  number: number;
  name: string;
  status: EntryStatus;
  /** CTest's own words: `Passed`, `Failed`, `Exception: SegFault`, `Subprocess aborted`. */
  detail: string;
  seconds?: number;
}

export interface CtestStreamHandlers {
  /** An entry started (`Start k: name`). */
  onStart?(number: number, name: string): void;
  /** CTest's `Test timeout computed to be: N` for the entry. */
  onTimeout?(number: number, seconds: number): void;
  /** A line the entry's process printed. */
  onOutput?(number: number, line: string): void;
  onEnd?(end: EntryEnd): void;
}

const START = /^\s+Start\s+(\d+): (.*)$/;
const END = /^\s*\d+\/\d+ Test\s+#(\d+): (.*)$/;
const PREFIXED = /^(\d+): ?(.*)$/;
const HEADER =
  /^(?:Test command: |Working Directory: |Environment variables: ?$| \S+=|Resource Groups:|Test timeout computed to be: )/;

/** What CTest's word for an ended entry means. */
export function entryStatus(text: string): EntryStatus {
  if (/^Passed\b/.test(text)) return 'passed';
  if (/Timeout/.test(text)) return 'timeout';
  if (/Exception/.test(text)) return 'crashed';
  if (/Not Run \(Disabled\)/.test(text)) return 'skipped';
  if (/Not Run/.test(text)) return 'notrun';
  if (/Skipped/.test(text)) return 'skipped';
  return 'failed';
}

/**
 * Reads `ctest --verbose` output line by line while CTest runs. With -V every line an entry prints
 * comes as `k: line` (k its test number, also under -j, where entries interleave), after a header
 * (command, working directory, environment, timeout) and before its `n/m Test #k: name ... Status
 * x sec` line; so each entry's output is whole when its end line arrives.
 */
export class CtestStream {
  private readonly names = new Map<number, string>();
  private readonly inHeader = new Set<number>();
  private pending = '';

  constructor(private readonly on: CtestStreamHandlers) {}

  /** Feeds a chunk of output; lines are handled as they complete. */
  write(chunk: string): void {
    const text = this.pending + chunk;
    const lines = text.split('\n');
    this.pending = lines.pop()!;
    for (const line of lines) this.line(line.replace(/\r$/, ''));
  }

  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
  }

  /** Entries that started and have not ended, by number. */
  running(): Map<number, string> {
    return new Map(this.names);
  }

  private line(line: string): void {
    const prefixed = PREFIXED.exec(line);
    if (prefixed && this.names.has(Number(prefixed[1]))) {
      const k = Number(prefixed[1]);
      const text = prefixed[2]!;
      if (this.inHeader.has(k)) {
        if (HEADER.test(text)) {
          const timeout = /^Test timeout computed to be: ([\d.]+)/.exec(text);
          if (timeout) {
            this.inHeader.delete(k);
            this.on.onTimeout?.(k, Number(timeout[1]));
          }
          return;
        }
        this.inHeader.delete(k);
      }
      this.on.onOutput?.(k, text);
      return;
    }
    const start = START.exec(line);
    if (start) {
      const k = Number(start[1]);
      this.names.set(k, start[2]!);
      this.inHeader.add(k);
      this.on.onStart?.(k, start[2]!);
      return;
    }
    const end = END.exec(line);
    if (end) this.ended(Number(end[1]), end[2]!);
  }

  private ended(k: number, rest: string): void {
    const known = this.names.get(k);
    // the name is known from its Start line; an entry CTest never started (disabled, a failed
    // fixture) is named by the text before its dots
    const name = known ?? /^(.*?)\s\.+/.exec(rest)?.[1] ?? rest.split(/\s+\.{2,}|\*{3}/)[0]!.trim();
    const after = (known && rest.startsWith(known) ? rest.slice(known.length) : rest.slice(name.length))
      .replace(/^\s*\.*\s*/, '')
      .trim();
    const sec = /\s([\d.]+) sec$/.exec(after);
    const words = (sec ? after.slice(0, sec.index) : after).trim();
    // `Subprocess aborted***Exception:` names the signal before the marker
    const detail = /^(.+?)\*\*\*Exception:$/.exec(words)?.[1] ?? words.replace(/^\*\*\*/, '');
    this.names.delete(k);
    this.inHeader.delete(k);
    this.on.onEnd?.({
      number: k,
      name,
      status: entryStatus(after),
      detail,
      ...(sec ? { seconds: Number(sec[1]) } : {}),
    });
  }
}
