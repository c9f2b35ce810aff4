import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { resolvePython } from '../../../analysis/python-interpreter.js';
import { toPosix } from '../../../safety/paths.js';
import {
  CoverageError,
  emptyFile,
  type CoverageData,
  type CoverageProbe,
  type CoverageRequest,
} from './probe.js';

interface CoveragePyFile {
  executed_lines?: number[];
  missing_lines?: number[];
  executed_branches?: Array<[number, number]>;
  missing_branches?: Array<[number, number]>;
}

/** Reads `coverage json` output into project-relative line and branch hits of the target. */
export function parseCoveragePy(json: string, root: string, target: readonly string[]): CoverageData {
  const files = (JSON.parse(json) as { files?: Record<string, CoveragePyFile> }).files ?? {};
  const wanted = new Set(target);
  const data: CoverageData = new Map();
  for (const [name, report] of Object.entries(files)) {
    const file = toPosix(relative(root, resolve(root, name)));
    if (!wanted.has(file)) continue;
    const cov = emptyFile();
    for (const line of report.missing_lines ?? []) cov.lines.set(line, 0);
    for (const line of report.executed_lines ?? []) cov.lines.set(line, 1);
    for (const [from, to] of report.missing_branches ?? []) cov.branches.set(`${from}>${to}`, 0);
    for (const [from, to] of report.executed_branches ?? []) cov.branches.set(`${from}>${to}`, 1);
    data.set(file, cov);
  }
  return data;
}

/**
 * coverage.py over pytest: `python -m coverage run --branch -m pytest`, then `coverage json`.
 * `--source` names the target's folders so a target no test imports yet still counts its lines.
 */
export function coveragePy(options: { python?: string } = {}): CoverageProbe {
  return {
    tool: 'coverage.py',
    async measure(request: CoverageRequest): Promise<CoverageData> {
      const python = await resolvePython(request.root, options.python, request.env);
      const dataFile = join(request.workDir, '.coverage');
      const sources = [...new Set(request.target.map((f) => dirname(join(request.root, f))))];
      const env = { ...request.env, COVERAGE_FILE: dataFile, PYTHONDONTWRITEBYTECODE: '1' };
      const common = { cwd: request.root, env, timeoutMs: request.timeoutMs, signal: request.signal };
      const run = await request.audit.run(
        python,
        [
          '-m',
          'coverage',
          'run',
          '--branch',
          `--data-file=${dataFile}`,
          `--source=${sources.join(',')}`,
          '-m',
          'pytest',
          '-q',
          '-p',
          'no:cacheprovider',
          ...(request.tests?.files ?? []),
        ],
        common,
        request.tests ? `coverage of ${request.tests.files.join(', ')}` : 'coverage of the existing tests',
      );
      if (/No module named coverage/.test(run.output))
        throw new CoverageError(
          `coverage.py is not installed for ${python}; install it with \`${python} -m pip install coverage\``,
        );
      if (run.spawnError) throw new CoverageError(`cannot start ${python}: ${run.spawnError}`);
      if (run.timedOut) throw new CoverageError(`the coverage run exceeded ${request.timeoutMs} ms`);
      const out = join(request.workDir, 'coverage.json');
      const report = await request.audit.run(
        python,
        ['-m', 'coverage', 'json', `--data-file=${dataFile}`, '-o', out],
        common,
        'coverage report',
      );
      const json = await readFile(out, 'utf8').catch(() => undefined);
      if (json === undefined)
        throw new CoverageError(
          `coverage.py wrote no report (exit ${report.exitCode}): ${report.output.trim().slice(-500) || run.output.trim().slice(-500)}`,
        );
      return parseCoveragePy(json, request.root, request.target);
    },
  };
}
