import type { Analyzer } from '../api/plugin.js';
import type { FileModelDetail } from '../analysis/test-model/names.js';

/** The reader that read both versions: the analyzer's own name for it (`tree`, `text`), else `analyzer`. */
export type ModelSource = string;

/**
 * Both versions of a test file, read alike by the analyzer's `testModel`: when the two came from
 * different readers of the analyzer (one version parses, the other does not), one is read again
 * with the other's reader. Undefined when the analyzer reads neither alike: the file is unread.
 */
export function testModels(
  file: string,
  before: string,
  after: string,
  analyzer?: Analyzer,
  reader?: string,
): { old: FileModelDetail; now: FileModelDetail; source: ModelSource } | undefined {
  const read = (content: string, as?: string): FileModelDetail | undefined =>
    analyzer?.testModel?.(file, content, as) as FileModelDetail | undefined;
  const pair = (
    old: FileModelDetail | undefined,
    now: FileModelDetail | undefined,
  ): { old: FileModelDetail; now: FileModelDetail; source: ModelSource } | undefined =>
    old && now && old.reader === now.reader ? { old, now, source: old.reader ?? 'analyzer' } : undefined;
  const old = read(before, reader);
  const now = old && read(after, reader);
  if (!old || !now) return undefined;
  return (
    pair(old, now) ??
    pair(old, old.reader ? read(after, old.reader) : undefined) ??
    pair(now.reader ? read(before, now.reader) : undefined, now)
  );
}
