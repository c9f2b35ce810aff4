import { readFile } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import type { Edit } from '../../api/contracts/fix.js';
import type { Attempt } from '../../api/contracts/report.js';
import type { Failure } from '../../api/contracts/failure.js';
import type { Reporter } from '../../api/plugin.js';
import { toPosix } from '../../safety/paths.js';

/** A failed attempt's patch as it would stand on its own: the bytes it leaves in each file. */
export interface AttemptPatch {
  project: string;
  failure: Failure;
  attempt: Attempt;
  /** Repository-relative file -> [content before the attempt, content after it]. */
  files: Array<{ file: string; before: Buffer | undefined; after: string }>;
}

export interface Collector {
  reporter: Reporter;
  /** Patches that were applied, re-run and did not pass: the closest candidates when none passes. */
  attempts: AttemptPatch[];
}

export const FAILING: ReadonlySet<string> = new Set(['failed', 'error', 'timeout', 'crashed']);

async function readOptional(path: string): Promise<Buffer | undefined> {
  return readFile(path).catch(() => undefined);
}

/** The file after an attempt's edits, or undefined when an edit no longer applies. */
function applyEdits(before: string | undefined, edits: readonly Edit[]): string | undefined {
  let text = before;
  for (const edit of edits) {
    if ('content' in edit) {
      text = edit.content;
      continue;
    }
    const at = text?.indexOf(edit.search) ?? -1;
    if (text === undefined || at < 0) return undefined;
    text = text.slice(0, at) + edit.replace + text.slice(at + edit.search.length);
  }
  return text;
}

/**
 * A reporter that follows the heal's gate: it says where the gate is (for progress
 * notifications) and keeps each patch that was applied but did not heal, read at the end of its
 * attempt, when the engine has put the files back as they were before it.
 */
export function collect(
  copyRoot: string,
  projectRoots: ReadonlyMap<string, string>,
  progress: (message: string) => void = () => undefined,
): Collector {
  const attempts: AttemptPatch[] = [];
  const reporter: Reporter = {
    name: 'suture:heal-collector',
    apiVersion: 1,
    onRunStart: (e) => progress(`analyse: running the tests of ${e.projects.join(', ')}`),
    onRoundEnd: (e) => {
      const failing = e.round.tests.filter((t) => FAILING.has(t.status)).length;
      if (e.round.kind === 'initial')
        progress(`analyse: ${e.project}: ${e.round.tests.length} tests, ${failing} failing`);
      if (e.round.kind === 'regression')
        progress(`verify: ${e.project}: whole-suite re-run, ${failing} failing`);
    },
    onAttemptStart: (e) =>
      progress(`patch: ${e.project}: attempt ${e.attempt} by ${e.fixer} on "${e.failure.title}"`),
    onAttemptEnd: async (e) => {
      progress(`verify: ${e.project}: attempt ${e.attempt.attempt} ${e.attempt.verdict}`);
      if (e.attempt.verdict !== 'failed-validation' || e.attempt.edits.length === 0) return;
      const root = projectRoots.get(e.project);
      if (!root) return;
      const prefix = toPosix(relative(copyRoot, root));
      const byFile = new Map<string, Edit[]>();
      for (const edit of e.attempt.edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
      const files: AttemptPatch['files'] = [];
      for (const [file, edits] of byFile) {
        const before = await readOptional(join(root, file));
        const after = applyEdits(before?.toString('utf8'), edits);
        if (after === undefined) return;
        files.push({ file: prefix ? posix.join(prefix, file) : file, before, after });
      }
      attempts.push({ project: e.project, failure: e.failure, attempt: e.attempt, files });
    },
  };
  return { reporter, attempts };
}
