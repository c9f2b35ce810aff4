import type { Location } from '../api/contracts/failure.js';

/** Most frames a failure carries: past the first few, a trace repeats the way in, not the cause. */
const MAX_FRAMES = 12;

/**
 * A trace's project frames, innermost first, with each function kept once (its innermost frame)
 * and at most 12 of them: a deep recursion is one frame of the recursive function, not hundreds
 * of copies that crowd the cause out of a fixer's request.
 */
export function distinctFrames(frames: readonly Location[]): Location[] {
  const seen = new Set<string>();
  const out: Location[] = [];
  for (const f of frames) {
    const key = `${f.file}\0${f.symbol ?? `:${f.line ?? ''}`}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
    if (out.length >= MAX_FRAMES) break;
  }
  return out;
}
