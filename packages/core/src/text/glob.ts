import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';

let loaded: typeof Picomatch | undefined;

/**
 * picomatch, loaded on first use: most gates match no glob (a green run checks no fix's paths),
 * and loading it cost every `suture` start some milliseconds.
 */
export function picomatch(glob: Picomatch.Glob, options?: Picomatch.PicomatchOptions): Picomatch.Matcher {
  loaded ??= createRequire(import.meta.url)('picomatch') as typeof Picomatch;
  return loaded(glob, options);
}
