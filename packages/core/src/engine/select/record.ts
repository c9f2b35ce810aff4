import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { RunResult } from '../../api/contracts/run-result.js';
import type { Recording, SelectionRecord } from '../../api/contracts/selection.js';
import { sha256 } from '../../safety/atomic.js';
import { toPosix } from '../../safety/paths.js';
import { formatRanges, parseRanges } from './lines.js';

export interface RecordInput {
  repoRoot: string;
  projectRoot: string;
  project: string;
  runner: string;
  toolchain: string;
  recording: Recording;
  result: RunResult;
  /** The commit the run saw and the files that differed from it. */
  tree?: { commit: string; dirty: Record<string, string> };
  recordedAt: string;
}

export type BuiltRecord = { record: SelectionRecord; blobs: Map<string, Buffer> } | { refused: string };

/**
 * A selection record from a green run's recording. Refused, so that no record says less than the
 * run did, when the run did not pass, when a test the run reported has no recording (it ran in a
 * process the recording does not reach), or when a recorded file changed while the tests ran. A
 * test that ran no line of the repository (a doctest of the standard library) keeps its own file:
 * a change there selects it.
 */
export async function buildRecord(input: RecordInput): Promise<BuiltRecord> {
  const { recording, result } = input;
  if (recording.unavailable) return { refused: recording.unavailable };
  if (result.status !== 'passed') return { refused: `the run ${result.status}: only a green run records` };
  const repoPath = (p: string): string | undefined => {
    const rel = relative(input.repoRoot, isAbsolute(p) ? p : resolve(input.projectRoot, p));
    return rel.startsWith('..') || isAbsolute(rel) ? undefined : toPosix(rel);
  };
  const files: SelectionRecord['files'] = {};
  const hashes = new Map<string, string>();
  const blobs = new Map<string, Buffer>();
  for (const [path, info] of Object.entries(recording.files)) {
    const file = repoPath(path);
    if (!file) continue;
    const bytes = await readFile(join(input.repoRoot, file)).catch(() => undefined);
    if (!bytes || sha256(bytes) !== info.sha256) return { refused: `${file} changed while the tests ran` };
    files[file] = {
      [info.sha256]: { shared: info.shared, ...(info.code !== undefined ? { code: info.code } : {}) },
    };
    hashes.set(file, info.sha256);
    blobs.set(info.sha256, bytes);
  }
  // The record keeps the ids as the runner gave them (the report's may be redacted): they are
  // what a later selection hands back to the runner.
  const results = new Map(result.tests.map((t) => [t.id, t]));
  const failing = result.tests.find((t) => t.status !== 'passed' && t.status !== 'skipped');
  if (failing) return { refused: `${failing.id} ${failing.status}` };
  if (recording.tests.length < results.size)
    return {
      refused: `${results.size - recording.tests.length} test(s) the run reported have no recording: they ran where the recording does not reach`,
    };
  const tests: SelectionRecord['tests'] = {};
  for (const rec of recording.tests) {
    const t = results.get(rec.id);
    const ran: SelectionRecord['tests'][string]['ran'] = {};
    for (const [path, lines] of Object.entries(rec.lines)) {
      const file = repoPath(path);
      const hash = file && hashes.get(file);
      if (!file || !hash) continue;
      ran[file] = { sha256: hash, lines: formatRanges(parseRanges(lines)) };
    }
    const ownPath = rec.file ?? t?.file;
    const own = ownPath ? repoPath(ownPath) : undefined;
    if (own && !ran[own] && hashes.has(own)) ran[own] = { sha256: hashes.get(own)!, lines: '' };
    tests[rec.id] = {
      recordedAt: input.recordedAt,
      ...(own ? { file: own } : {}),
      ...(rec.opaque ? { opaque: true } : {}),
      ran,
    };
  }
  return {
    record: {
      version: 1,
      project: input.project,
      runner: input.runner,
      toolchain: input.toolchain,
      trees: input.tree ? [input.tree] : [],
      tests,
      files,
    },
    blobs,
  };
}
