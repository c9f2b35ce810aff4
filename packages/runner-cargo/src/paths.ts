import { sep } from 'node:path';

/** A path with POSIX separators. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
