import { openSync, writeSync } from 'node:fs';

/**
 * Crash-trial instrumentation, off unless `SUTURE_PHASE_LOG` names a file. Each point of the
 * write path (journal, atomic writes, test runs, restore) is appended to that file with a
 * synchronous write, so a harness that SIGKILLs the process can read the last point it passed
 * and count which phases its kills landed in. `SUTURE_PHASE_HOLD=point=ms,point#3=ms` makes the
 * process sleep at a point (every time, or only the third time it is reached), widening windows
 * of microseconds (between a temp file and its rename) so an external kill can land in them.
 * Nothing else changes: the same code runs either way.
 */
let fd: number | undefined | null = null;
let holds: Map<string, number> | undefined;
const reached = new Map<string, number>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function open(): number | undefined {
  const file = process.env.SUTURE_PHASE_LOG;
  if (!file) return undefined;
  holds = new Map();
  for (const item of (process.env.SUTURE_PHASE_HOLD ?? '').split(',')) {
    const [point, ms] = item.split('=');
    if (point && Number(ms) > 0) holds.set(point, Number(ms));
  }
  return openSync(file, 'a');
}

/** Records that the process reached `point` (a no-op unless SUTURE_PHASE_LOG is set). */
export function phase(point: string): void {
  if (fd === null) fd = open();
  if (fd === undefined) return;
  writeSync(fd, `${point}\n`);
  const n = (reached.get(point) ?? 0) + 1;
  reached.set(point, n);
  const ms = holds?.get(point) ?? holds?.get(`${point}#${n}`);
  if (ms) Atomics.wait(sleeper, 0, 0, ms);
}
