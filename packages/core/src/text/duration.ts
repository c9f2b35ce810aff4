/** A limit as people write it: `180 s` for whole seconds, `250 ms` otherwise. */
export function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
