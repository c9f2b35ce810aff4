import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** What GoogleTest's own report says of one case. */
export interface CaseReport {
  status: 'passed' | 'failed' | 'skipped' | 'notrun';
  /** The first failure's text, when it failed. */
  message?: string;
}

/** Each binary's cases (by basename, then gtest name `Suite.Case`) as its report files hold them. */
export type GtestReports = Map<string, Map<string, CaseReport>>;

/**
 * The environment that makes every GoogleTest program of a run write its own report into `dir`:
 * GoogleTest writes `<binary>.json` (then `<binary>_1.json`, ...) when the program ends, from
 * its own records, whatever the program printed. Two programs that start at the same moment may
 * pick the same name, so a case missing from the files is not yet a case that did not finish.
 */
export function reportEnv(dir: string): Record<string, string> {
  return { GTEST_OUTPUT: `json:${dir}/` };
}

interface JsonCase {
  name: string;
  status?: string;
  result?: string;
  failures?: Array<{ failure?: string }>;
}

function caseReport(c: JsonCase): CaseReport {
  if (c.status === 'NOTRUN') return { status: 'notrun' };
  const failure = c.failures?.find((f) => f.failure)?.failure;
  if (c.failures && c.failures.length > 0)
    return { status: 'failed', ...(failure ? { message: failure.slice(0, 2000) } : {}) };
  return { status: c.result === 'SKIPPED' ? 'skipped' : 'passed' };
}

/** The binary a report file is of: `name.json` or `name_<n>.json`, the longest known name first. */
function binaryOf(file: string, binaries: readonly string[]): string | undefined {
  return binaries.find(
    (b) => file === `${b}.json` || (file.startsWith(`${b}_`) && /^\d+\.json$/.test(file.slice(b.length + 1))),
  );
}

/** Which of two reports of one case wins: a failure over a result, a result over not run. */
const RANK: Record<CaseReport['status'], number> = { notrun: 0, skipped: 1, passed: 1, failed: 2 };

/**
 * Reads the report files of `dirs` for the binaries named (by path or basename). A file that
 * cannot be read or parsed (two programs wrote it at once) adds nothing; a case in any file counts,
 * a failure over a result.
 */
export async function readGtestReports(
  dirs: readonly string[],
  binaries: Iterable<string>,
): Promise<GtestReports> {
  const names = [...new Set([...binaries].map((b) => basename(b)))].sort((a, b) => b.length - a.length);
  const out: GtestReports = new Map();
  for (const dir of dirs) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) {
      const binary = binaryOf(file, names);
      if (!binary) continue;
      let doc: { testsuites?: Array<{ name: string; testsuite?: JsonCase[] }> };
      try {
        doc = JSON.parse(await readFile(join(dir, file), 'utf8')) as typeof doc;
      } catch {
        continue;
      }
      const cases = out.get(binary) ?? new Map<string, CaseReport>();
      out.set(binary, cases);
      for (const suite of doc.testsuites ?? [])
        for (const c of suite.testsuite ?? []) {
          const name = `${suite.name}.${c.name}`;
          const report = caseReport(c);
          if (RANK[report.status] >= RANK[cases.get(name)?.status ?? 'notrun']) cases.set(name, report);
        }
    }
  }
  return out;
}
