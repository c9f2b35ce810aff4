import { createHash } from 'node:crypto';
import type { Edit } from '../api/contracts/fix.js';
import type { HealConfig } from '../api/contracts/config.js';

/**
 * Why a proposal is too large to be checked, or undefined. Runs before any file is read, any
 * journal entry made or anything stored: a fixer that answers with hundreds of megabytes or ten
 * thousand files must cost a hash, not a journal per file and a report of the same size.
 */
export function oversized(
  edits: readonly Edit[],
  limits: Pick<HealConfig, 'maxProposalBytes' | 'maxFilesPerAttempt'>,
): string | undefined {
  const files = new Set(edits.map((e) => e.file));
  const hash = createHash('sha256');
  let bytes = 0;
  for (const e of edits) {
    for (const part of 'content' in e ? [e.file, e.content] : [e.file, e.search, e.replace]) {
      bytes += Buffer.byteLength(part);
      hash.update(part);
    }
  }
  const over: string[] = [];
  if (bytes > limits.maxProposalBytes) over.push(`heal.maxProposalBytes is ${limits.maxProposalBytes}`);
  if (files.size > limits.maxFilesPerAttempt)
    over.push(`heal.maxFilesPerAttempt is ${limits.maxFilesPerAttempt}`);
  if (over.length === 0) return undefined;
  return `the proposal is too large to check: ${edits.length} edit(s) on ${files.size} file(s), ${bytes} bytes, sha256 ${hash.digest('hex')} (${over.join('; ')}); nothing of it was read, written or kept`;
}
