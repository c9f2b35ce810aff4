/**
 * A reader that goes away (`suture run | head -3`, a closed terminal, a dropped ssh session)
 * makes writes to stdout or stderr fail with EPIPE or EIO. Node raises that as an 'error' event
 * which, unhandled, ends the process at once: journal and lock left behind, the tree half healed,
 * the tests still running. Lost output must never cost the run, so a guarded stream that fails
 * goes quiet and the run carries on to its normal end.
 */

type Guarded = NodeJS.WriteStream & { sutureGuarded?: boolean };

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
    stream.on('error', () => silence(stream));
  }
}
