import { access, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { toPosix } from '../../../safety/paths.js';
import {
  CoverageError,
  emptyFile,
  type CoverageData,
  type CoverageProbe,
  type CoverageRequest,
} from './probe.js';

interface Position {
  line: number;
}
interface IstanbulFile {
  path?: string;
  statementMap?: Record<string, { start: Position }>;
  s?: Record<string, number>;
  b?: Record<string, number[]>;
}

/** Reads Istanbul's `coverage-final.json` (Jest's `json` coverage reporter) for the target. */
export function parseIstanbul(json: string, root: string, target: readonly string[]): CoverageData {
  const files = JSON.parse(json) as Record<string, IstanbulFile>;
  const wanted = new Set(target);
  const data: CoverageData = new Map();
  for (const [name, report] of Object.entries(files)) {
    const file = toPosix(relative(root, resolve(root, report.path ?? name)));
    if (!wanted.has(file)) continue;
    const cov = emptyFile();
    // a line's hits are its busiest statement's: a line is covered when any statement on it ran
    for (const [id, where] of Object.entries(report.statementMap ?? {})) {
      const hits = report.s?.[id] ?? 0;
      cov.lines.set(where.start.line, Math.max(cov.lines.get(where.start.line) ?? 0, hits));
    }
    for (const [id, arms] of Object.entries(report.b ?? {}))
      arms.forEach((hits, arm) => cov.branches.set(`${id}:${arm}`, hits));
    data.set(file, cov);
  }
  return data;
}

/** The project's own Jest, `node_modules/jest/bin/jest.js` walking up from the root, as the runner finds it. */
async function jestBin(root: string): Promise<string> {
  for (let dir = root; ; dir = dirname(dir)) {
    const script = join(dir, 'node_modules', 'jest', 'bin', 'jest.js');
    if (
      await access(script).then(
        () => true,
        () => false,
      )
    )
      return script;
    if (dirname(dir) === dir) break;
  }
  throw new CoverageError(
    `jest is not installed for ${root}; install it with \`npm install --save-dev jest\``,
  );
}

async function isEsm(root: string): Promise<boolean> {
  const text = await readFile(join(root, 'package.json'), 'utf8').catch(() => '{}');
  return (JSON.parse(text) as { type?: string }).type === 'module';
}

/** Jest's own `--coverage` (Istanbul), with the `json` reporter into the run's scratch folder. */
export function istanbulJest(): CoverageProbe {
  return {
    tool: 'istanbul',
    async measure(request: CoverageRequest): Promise<CoverageData> {
      const bin = await jestBin(request.root);
      const out = join(request.workDir, 'coverage');
      const env: NodeJS.ProcessEnv = { ...request.env, CI: 'true' };
      if (await isEsm(request.root))
        env.NODE_OPTIONS = [env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' ');
      const tests = request.tests?.files ?? [];
      const run = await request.audit.run(
        process.execPath,
        [
          bin,
          '--ci',
          '--watchman=false',
          '--coverage',
          '--coverageReporters=json',
          `--coverageDirectory=${out}`,
          ...request.target.map((f) => `--collectCoverageFrom=${f}`),
          '--passWithNoTests',
          ...(tests.length ? ['--runTestsByPath', ...tests] : []),
        ],
        { cwd: request.root, env, timeoutMs: request.timeoutMs, signal: request.signal },
        request.tests ? `coverage of ${tests.join(', ')}` : 'coverage of the existing tests',
      );
      if (run.timedOut) throw new CoverageError(`the coverage run exceeded ${request.timeoutMs} ms`);
      const json = await readFile(join(out, 'coverage-final.json'), 'utf8').catch(() => undefined);
      if (json === undefined)
        throw new CoverageError(
          `jest --coverage wrote no report (exit ${run.exitCode}): ${run.output.trim().slice(-500)}`,
        );
      return parseIstanbul(json, request.root, request.target);
    },
  };
}
