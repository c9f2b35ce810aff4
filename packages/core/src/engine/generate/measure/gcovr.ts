import { readdir, readFile, rm, access } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { whichPython } from '../../../analysis/python-interpreter.js';
import { toPosix } from '../../../safety/paths.js';
import {
  CoverageError,
  emptyFile,
  type CoverageData,
  type CoverageProbe,
  type CoverageRequest,
} from './probe.js';

interface GcovrLine {
  line_number: number;
  count: number;
  branches?: Array<{ branchno?: number; count: number; source_block_id?: number }>;
  'gcovr/noncode'?: boolean;
}

/** Reads gcovr's JSON report (`gcovr --json`) for the target. */
export function parseGcovr(json: string, root: string, target: readonly string[]): CoverageData {
  const report = JSON.parse(json) as { files?: Array<{ file: string; lines?: GcovrLine[] }> };
  const wanted = new Set(target);
  const data: CoverageData = new Map();
  for (const entry of report.files ?? []) {
    const file = toPosix(relative(root, resolve(root, entry.file)));
    if (!wanted.has(file)) continue;
    const cov = data.get(file) ?? emptyFile();
    for (const line of entry.lines ?? []) {
      if (line['gcovr/noncode']) continue;
      cov.lines.set(line.line_number, (cov.lines.get(line.line_number) ?? 0) + line.count);
      (line.branches ?? []).forEach((b, i) => {
        const key = `${line.line_number}:${b.source_block_id ?? 0}:${b.branchno ?? i}`;
        cov.branches.set(key, (cov.branches.get(key) ?? 0) + b.count);
      });
    }
    data.set(file, cov);
  }
  return data;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function removeCounters(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) await removeCounters(path);
    else if (e.name.endsWith('.gcda')) await rm(path, { force: true });
  }
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * gcov counters through gcovr, for CMake + CTest projects: a build of its own with `--coverage`
 * in the run's cache folder (configured once, built incrementally), the counters cleared before
 * each measurement, CTest run on the wanted entries, then `gcovr --json` over the build.
 */
export function gcovr(options: { cmake?: string; ctest?: string; python?: string } = {}): CoverageProbe {
  const cmake = options.cmake ?? 'cmake';
  const ctest = options.ctest ?? 'ctest';
  return {
    tool: 'gcovr',
    async measure(request: CoverageRequest): Promise<CoverageData> {
      // found as the user's shell finds it, and named absolute in a message that it lacks gcovr
      const python = await whichPython(options.python ?? 'python3', request.env);
      const build = join(request.cacheDir, 'coverage-build');
      const common = {
        cwd: request.root,
        env: request.env,
        timeoutMs: request.timeoutMs,
        signal: request.signal,
      };
      const flags = '--coverage -O0';
      const entries = request.tests?.entries ?? [];
      // a Makefile build knows a target only once CMake ran again after it was added
      if (!(await exists(join(build, 'CMakeCache.txt'))) || entries.length > 0) {
        const configure = await request.audit.run(
          cmake,
          [
            '-S',
            request.root,
            '-B',
            build,
            '-DCMAKE_BUILD_TYPE=Debug',
            `-DCMAKE_CXX_FLAGS=${flags}`,
            `-DCMAKE_C_FLAGS=${flags}`,
            '-DCMAKE_EXE_LINKER_FLAGS=--coverage',
            '-DCMAKE_SHARED_LINKER_FLAGS=--coverage',
          ],
          common,
          'configure the coverage build',
        );
        if (configure.spawnError)
          throw new CoverageError(`cannot start ${cmake}: ${configure.spawnError}; install cmake`);
        if (configure.exitCode !== 0)
          throw new CoverageError(
            `the coverage build does not configure: ${configure.output.trim().slice(-800)}`,
          );
      }
      const targets = entries.flatMap((e) => ['--target', e]);
      const built = await request.audit.run(
        cmake,
        ['--build', build, '--parallel', '2', ...targets],
        common,
        entries.length ? `coverage build of ${entries.join(', ')}` : 'coverage build',
      );
      if (built.exitCode !== 0)
        throw new CoverageError(`the coverage build failed: ${built.output.trim().slice(-800)}`);
      await removeCounters(build);
      const select = entries.length
        ? ['-R', `^(${entries.map(escapeRegex).join('|')})$`]
        : ['-E', '^suture_gen_'];
      await request.audit.run(
        ctest,
        ['--test-dir', build, '--output-on-failure', ...select],
        common,
        'coverage test run',
      );
      const out = join(request.workDir, 'gcovr.json');
      const filters = request.target.flatMap((f) => [
        '--filter',
        `${escapeRegex(resolve(request.root, f))}$`,
      ]);
      const report = await request.audit.run(
        python,
        [
          '-m',
          'gcovr',
          '--root',
          request.root,
          // a header of a system library has no working folder gcov can name; the target does
          '--gcov-ignore-errors=no_working_dir_found',
          '--json',
          out,
          ...filters,
          build,
        ],
        common,
        'coverage report',
      );
      if (/No module named gcovr/.test(report.output))
        throw new CoverageError(
          `gcovr is not installed for ${python}; install it with \`${python} -m pip install gcovr\``,
        );
      const json = await readFile(out, 'utf8').catch(() => undefined);
      if (json === undefined)
        throw new CoverageError(
          `gcovr wrote no report (exit ${report.exitCode}): ${report.output.trim().slice(-800)}`,
        );
      return parseGcovr(json, request.root, request.target);
    },
  };
}
