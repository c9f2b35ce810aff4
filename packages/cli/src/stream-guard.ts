/**
 * A reader that goes away (`suture run | head -3`, a closed terminal, a dropped ssh session)
 * makes writes to stdout or stderr fail with EPIPE or EIO. Node raises that as an 'error' event
 * which, unhandled, ends the process at once: journal and lock left behind, the tree half healed,
 * the tests still running. Lost output must never cost the run, so a guarded stream that fails
 * goes quiet and the run carries on to its normal end.
 */

import { closeSync, fstatSync, openSync } from 'node:fs';

type Guarded = NodeJS.WriteStream & { sutureGuarded?: boolean; fd?: number };

/**
 * Node restores the settings of a terminal it started on as it exits, and aborts (SIGABRT, the
 * exit code lost) when that terminal is gone: its check passes only for a standard descriptor
 * that is closed or now names another file. So once a terminal fails a write, each of stdin,
 * stdout and stderr still on it is pointed at /dev/null (the lowest free descriptor is the one
 * just closed). Compared by device: a hung-up terminal no longer answers isatty.
 */
function detachTerminal(stream: Guarded): void {
  if (!stream.isTTY || stream.fd === undefined) return;
  let device: number;
  try {
    device = fstatSync(stream.fd).rdev;
  } catch {
    return;
  }
  for (const fd of [0, 1, 2]) {
    try {
      const st = fstatSync(fd);
      if (!st.isCharacterDevice() || st.rdev !== device) continue;
      closeSync(fd);
      const nul = openSync('/dev/null', fd === 0 ? 'r' : 'w');
      // Another open took the number first: that file is not a terminal either, so ours can go.
      if (nul !== fd) closeSync(nul);
    } catch {
      // Closed is enough for that check.
    }
  }
}

function silence(stream: Guarded): void {
  // Later writes (reporters, the logger, the signal messages) succeed as no-ops; their callbacks
  // still run so nothing waits forever for a drain that cannot come.
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
}

/** Makes a write error on each stream end that stream's output, not the process; idempotent. */
export function guardStreams(streams: readonly NodeJS.WriteStream[]): void {
  for (const stream of streams as Guarded[]) {
    if (stream.sutureGuarded) continue;
    stream.sutureGuarded = true;
    // EPIPE and EIO above all, but no write error on an output stream is a reason to lose the run.
    stream.on('error', () => {
      silence(stream);
      detachTerminal(stream);
    });
  }
}
