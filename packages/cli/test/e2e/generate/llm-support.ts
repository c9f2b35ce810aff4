import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutoRunReportSchema, type AutoRunReport } from '@suture/core';
import { BIN, cliEnv, workspace, type CliResult } from '../cli-support.js';
import { FIXTURES } from './support.js';

/**
 * Runs the built `suture` as a user would, with room for a whole auto-run (builds, coverage runs,
 * flake runs, the claude binary's start) on a loaded machine.
 */
export function generate(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: cliEnv(env), timeout: 540_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

/** A model's answer that creates `file` with `content`, with every field the answer schema requires. */
export function createAnswer(file: string, content: string): Record<string, unknown> {
  return {
    verdict: 'edits',
    rationale: 'one test per branch',
    edits: [{ file, search: null, replace: null, content }],
    bug: null,
    diagnosis: null,
  };
}

/** A copy of an LLM fixture (under the repository, so plugins resolve) with `config` as its suture.config.json. */
export async function llmProject(fixture: string, config: Record<string, unknown>): Promise<string> {
  const root = await workspace(join(FIXTURES, fixture));
  await writeFile(join(root, 'suture.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return root;
}

/** The auto-run report a `--json` run printed, said with the run's output when it did not. */
export function reportOf(r: CliResult): AutoRunReport {
  try {
    return AutoRunReportSchema.parse(JSON.parse(r.stdout));
  } catch (error) {
    throw new Error(
      `no report on stdout (exit ${r.code}): ${(error as Error).message}\n${r.stdout}\n${r.stderr}`,
    );
  }
}

/** Verdicts by file, as the filter decided them. */
export const verdicts = (report: AutoRunReport): Record<string, string> =>
  Object.fromEntries(report.tests.map((t) => [t.file, t.verdict]));

export const read = (root: string, file: string): Promise<string> => readFile(join(root, file), 'utf8');
