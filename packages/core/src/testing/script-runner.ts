import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Failure, FailureInput, FailureKind, Location, ScopeInput } from '../api/contracts/failure.js';
import type { RunResult, RunResultInput, TestResult } from '../api/contracts/run-result.js';
import { groupFailures, type FailureCase } from '../analysis/group-failures.js';
import { runProcess } from '../safety/process/run-process.js';
import { API_VERSION, type Analyzer, type ProjectInfo, type RunContext, type Runner } from '../api/plugin.js';
import { braceTestModel } from '../analysis/test-model/brace-text.js';
import { withTextForms } from '../analysis/test-model/form-text.js';

/**
 * A small real runner for engine tests: every `tests/*.test.mjs` file is one test, run with
 * `node` as its own process. Exit 0 passes; anything else fails with the error's message, the
 * file and line of the innermost project frame. A test that prints `SUTURE_INFRA:` is reported
 * as an infrastructure failure (a service it needs is down), which no fixer may touch.
 */
export interface ScriptRunnerOptions {
  /** Folder of the test files, relative to the project root. Default `tests`. */
  testDir?: string;
  /** Extra environment for the test processes. */
  env?: Record<string, string>;
}

const TEST_SUFFIX = '.test.mjs';
const INFRA_MARK = 'SUTURE_INFRA:';
const TAIL = 64 * 1024;

async function listTests(root: string, testDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(join(root, testDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((n) => n.endsWith(TEST_SUFFIX))
    .sort()
    .map((n) => posix.join(testDir, n));
}

/** `at fn (file:///x/y.mjs:3:9)` or `at /x/y.mjs:3:9` → project-relative locations, innermost first. */
export function projectFrames(root: string, text: string): Location[] {
  const frames: Location[] = [];
  const re = /^\s*at (?:(.+?) \()?((?:file:\/\/)?\/[^\s:()]+):(\d+):(\d+)\)?\s*$/gm;
  for (const m of text.matchAll(re)) {
    const path = m[2]!.startsWith('file://') ? fileURLToPath(m[2]!) : m[2]!;
    const rel = relative(root, path);
    if (rel.startsWith('..') || isAbsolute(rel) || rel.split(/[\\/]/).includes('node_modules')) continue;
    const symbol = m[1] && !m[1].startsWith('file://') ? m[1].replace(/^async /, '') : undefined;
    frames.push({
      file: rel.split('\\').join('/'),
      line: Number(m[3]),
      column: Number(m[4]),
      ...(symbol ? { symbol } : {}),
    });
  }
  return frames;
}

/** The thrown error's headline: `AssertionError [ERR_ASSERTION]: 4 !== 5` → type and message. */
function errorHeadline(output: string): { type: string; message: string } | undefined {
  const m = /^(\w*(?:Error|Exception))(?: \[[A-Z_]+\])?: (.*)$/m.exec(output);
  if (!m) return undefined;
  // Assertion diffs put the values on the lines after "Expected values to be strictly equal:".
  const after = output.slice(m.index + m[0].length).split('\n');
  const extra: string[] = [];
  for (const line of after) {
    if (/^\s*at /.test(line) || extra.length >= 4) break;
    if (line.trim()) extra.push(line.trim());
  }
  return { type: m[1]!, message: [m[2]!, ...extra].join(' ').trim() };
}

export function scriptRunner(options: ScriptRunnerOptions = {}): Runner {
  const testDir = options.testDir ?? 'tests';
  return {
    name: 'suture:script',
    apiVersion: API_VERSION,
    language: 'javascript',
    supportsSelection: true,
    async run(ctx: RunContext): Promise<RunResultInput> {
      const started = Date.now();
      const all = await listTests(ctx.root, testDir);
      const files = ctx.selection ? all.filter((f) => ctx.selection!.includes(f)) : all;
      const tests: TestResult[] = [];
      let output = '';
      let status: RunResult['status'] = 'passed';
      for (const file of files) {
        const left = ctx.timeoutMs - (Date.now() - started);
        if (left <= 0 || ctx.signal.aborted) {
          status = ctx.signal.aborted ? 'error' : 'timeout';
          break;
        }
        const proc = await runProcess(process.execPath, [file], {
          cwd: ctx.root,
          env: { ...process.env, ...options.env, NODE_NO_WARNINGS: '1' },
          timeoutMs: left,
          killGraceMs: 500,
          signal: ctx.signal,
          tailBytes: TAIL,
        });
        output = `${output}$ node ${file}\n${proc.output}`.slice(-TAIL);
        const test: TestResult = {
          id: file,
          name: file,
          file,
          line: 1,
          status: 'passed',
          durationMs: proc.durationMs,
        };
        if (proc.spawnError)
          return {
            status: 'error',
            tests,
            exitCode: null,
            command: `node ${testDir}/*${TEST_SUFFIX}`,
            durationMs: Date.now() - started,
            error: `could not start node: ${proc.spawnError}`,
          };
        if (proc.timedOut) {
          test.status = 'timeout';
          test.message = `${file} did not finish within the time limit`;
          status = 'timeout';
        } else if (proc.signal) {
          test.status = 'crashed';
          test.message = `${file} was killed by ${proc.signal}`;
        } else if (proc.exitCode !== 0) {
          test.status = 'failed';
          const head = errorHeadline(proc.output);
          test.message = head
            ? `${head.type}: ${head.message}`
            : (proc.output.trim().split('\n').pop() ?? `exit code ${proc.exitCode}`);
          test.trace = proc.output.slice(-8000);
          const frame = projectFrames(ctx.root, proc.output).find((f) => f.file === file);
          if (frame?.line) test.line = frame.line;
          test.details = {
            ...(head ? { errorType: head.type } : {}),
            ...(proc.output.includes(INFRA_MARK) ? { infra: true } : {}),
          };
        }
        if (proc.aborted) {
          status = 'error';
          break;
        }
        tests.push(test);
        ctx.onTestResult?.(test);
      }
      if (status === 'passed' && tests.some((t) => t.status !== 'passed')) status = 'failed';
      return {
        status,
        tests,
        exitCode: status === 'passed' ? 0 : 1,
        command: `node ${ctx.selection ? files.join(' ') : `${testDir}/*${TEST_SUFFIX}`}`,
        durationMs: Date.now() - started,
        outputTail: output,
        selected: ctx.selection !== undefined,
        ...(status === 'error' ? { error: 'the run was interrupted' } : {}),
      };
    },
    analyzer: () => scriptAnalyzer({ testDir }),
  };
}

function kindOf(test: TestResult): FailureKind {
  if (test.details?.['infra']) return 'infra';
  if (test.status === 'timeout') return 'timeout';
  if (test.status === 'crashed') return 'crash';
  const type = test.details?.['errorType'];
  if (type === 'AssertionError') return 'assertion';
  if (type === 'SyntaxError') return 'syntax';
  return 'exception';
}

/** Relative `import ... from './x.mjs'` specifiers of a module, resolved project-relative. */
async function relativeImports(root: string, file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(root, file), 'utf8');
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const m of text.matchAll(
    /\bfrom\s+['"](\.\.?\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.\.?\/[^'"]+)['"]\s*\)/g,
  )) {
    const spec = m[1] ?? m[2]!;
    found.push(posix.normalize(posix.join(posix.dirname(file), spec)));
  }
  return found;
}

export function scriptAnalyzer(options: { testDir?: string } = {}): Analyzer {
  const testDir = options.testDir ?? 'tests';
  const isTest = (file: string): boolean => file.endsWith(TEST_SUFFIX) || file.startsWith(`${testDir}/`);
  return {
    name: 'suture:script-analyzer',
    apiVersion: API_VERSION,
    isTestFile: isTest,
    // node:assert scripts, read by the text rules of the analysis kit: each script is one test
    testModel: (file, content) =>
      isTest(file) && /\.[cm]?js$/.test(file)
        ? { ...withTextForms(braceTestModel(content, 'js')), reader: 'text' }
        : undefined,
    async analyze(result: RunResult, project: ProjectInfo): Promise<FailureInput[]> {
      const cases: FailureCase[] = [];
      for (const test of result.tests) {
        if (test.status === 'passed' || test.status === 'skipped') continue;
        const kind = kindOf(test);
        const frames = projectFrames(project.root, test.trace ?? '');
        const inner = frames[0];
        const message = test.message ?? test.status;
        const type = test.details?.['errorType'];
        cases.push({
          failure: {
            id: '',
            kind,
            title: `${test.id}: ${message.split('\n')[0]}`,
            tests: [test.id],
            location: inner ?? { file: test.file ?? test.id, ...(test.line ? { line: test.line } : {}) },
            frames,
            evidence: (test.trace ?? message).trim(),
            repairable: kind !== 'infra',
            ...(kind === 'infra'
              ? { reason: 'the test reported an unavailable service (SUTURE_INFRA)' }
              : {}),
            details: { ...(test.details ?? {}) },
          },
          ...(typeof type === 'string' ? { type } : {}),
          message,
        });
      }
      // core's one grouping policy, as every first-party analyzer applies it
      return groupFailures(cases).map((f) => ({ ...f, id: `${project.name}:${f.fingerprint}` }));
    },
    async scope(failure: Failure, project: ProjectInfo): Promise<ScopeInput> {
      const entries = new Map<
        string,
        { file: string; role: 'test' | 'source'; reasons: string[]; depth: number; symbols: string[] }
      >();
      const add = (file: string, reason: string, depth: number, symbol?: string): void => {
        const entry = entries.get(file) ?? {
          file,
          role: isTest(file) ? 'test' : 'source',
          reasons: [],
          depth,
          symbols: [],
        };
        if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
        if (symbol && !entry.symbols.includes(symbol)) entry.symbols.push(symbol);
        entry.depth = Math.min(entry.depth, depth);
        entries.set(file, entry);
      };
      for (const test of failure.tests) add(test, 'the failing test', 0);
      failure.frames.forEach((f, i) => add(f.file, `frame ${i + 1} of the stack trace`, 0, f.symbol));
      let frontier = [...entries.keys()];
      for (let depth = 1; depth <= project.scopeDepth && frontier.length > 0; depth++) {
        const next: string[] = [];
        for (const file of frontier) {
          for (const imported of await relativeImports(project.root, file)) {
            if (imported.startsWith('..')) continue;
            if (!entries.has(imported)) next.push(imported);
            add(imported, `imported by ${file} (depth ${depth})`, depth);
          }
        }
        frontier = next;
      }
      return { entries: [...entries.values()], excluded: [] };
    },
  };
}
