import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { runProcess, type RunContext, type RunResultInput, type TestResult } from '@suture/core';
import { nodeFlags, usesNativeEsm } from './esm.js';
import { namePattern, parseId, testId } from './ids.js';
import type { ResolvedJestOptions } from './options.js';
import { REPORTER, resolveJest } from './resolve-jest.js';
import { foldResults, readJestJson } from './results.js';
import { locateTests } from './test-locations.js';

function tail(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** The test that started and never ended, from the reporter's event lines. */
async function runningTest(
  eventsFile: string,
  root: string,
): Promise<{ id: string; file: string } | undefined> {
  const text = await readFile(eventsFile, 'utf8').catch(() => '');
  const open = new Map<string, { id: string; file: string }>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let e: { event: string; file: string; fullName?: string };
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    const file = relative(root, e.file);
    if (e.event === 'start' && e.fullName !== undefined)
      open.set(`${file}\0${e.fullName}`, { id: testId(file, e.fullName), file });
    if (e.event === 'end' && e.fullName !== undefined) open.delete(`${file}\0${e.fullName}`);
  }
  return [...open.values()].pop();
}

export async function runJest(options: ResolvedJestOptions, ctx: RunContext): Promise<RunResultInput> {
  const jest = await resolveJest(ctx.root, options.jestBin);
  const base = { selected: ctx.selection !== undefined };
  if (!jest) {
    return {
      ...base,
      status: 'error',
      tests: [],
      exitCode: null,
      command: 'jest',
      durationMs: 0,
      error: `Jest is not installed for ${ctx.root}: install it with \`npm install -D jest\` (or set the runner option "jestBin")`,
    };
  }
  const outputFile = join(ctx.workDir, 'jest-results.json');
  const eventsFile = join(ctx.workDir, 'jest-events.jsonl');
  const selection = ctx.selection?.map(parseId) ?? [];
  const env = { ...process.env, ...options.env };
  const esm = options.esm === 'auto' ? await usesNativeEsm(ctx.root) : options.esm;
  const args = [
    ...nodeFlags(esm, env.NODE_OPTIONS),
    jest.script,
    '--json',
    `--outputFile=${outputFile}`,
    '--ci',
    '--no-colors',
    '--watchman=false',
    '--reporters=default',
    `--reporters=${REPORTER}`,
    ...(options.config ? [`--config=${resolve(ctx.root, options.config)}`] : []),
    ...options.args,
    ...(selection.length > 0
      ? [
          '--runTestsByPath',
          ...new Set(selection.map((s) => s.file)),
          `--testNamePattern=${namePattern(selection.map((s) => s.fullName))}`,
        ]
      : []),
  ];
  const proc = await runProcess(process.execPath, args, {
    cwd: ctx.root,
    env: { ...env, SUTURE_JEST_EVENTS: eventsFile, CI: 'true' },
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  const common = {
    ...base,
    command: proc.command.replace(process.execPath, 'node'),
    durationMs: proc.durationMs,
    outputTail: proc.output,
    exitCode: proc.exitCode,
  };

  const raw = await readFile(outputFile, 'utf8').catch(() => undefined);
  const report = raw === undefined ? undefined : readJestJson(raw);
  const json = report && 'json' in report ? report.json : undefined;

  if (proc.timedOut || proc.aborted) {
    const why = proc.aborted
      ? 'the run was aborted'
      : `killed at the wall-clock limit of ${ctx.timeoutMs} ms`;
    const running = await runningTest(eventsFile, ctx.root);
    const tests: TestResult[] = json
      ? foldResults(json, ctx.root, await locateTests(json.testResults)).tests
      : [];
    if (running && !tests.some((t) => t.id === running.id)) {
      tests.push({
        id: running.id,
        name: parseId(running.id).fullName,
        file: running.file,
        status: 'timeout',
        message: `${why} while this test was running (a synchronous loop Jest's own timeout cannot stop)`,
        trace: tail(proc.output, 40),
      });
    }
    return {
      ...common,
      status: 'timeout',
      tests,
      error: running ? `${why} while running ${running.id}` : why,
    };
  }
  if (!json) {
    const validation =
      /Validation Error|Unknown option|is not a valid|Error: Could not locate module|Can't find a root directory|Multiple configurations found/.exec(
        proc.output,
      );
    const what = proc.spawnError
      ? `cannot start node: ${proc.spawnError}`
      : report && 'error' in report
        ? report.error
        : validation
          ? 'Jest configuration error'
          : 'Jest crashed before writing its JSON report';
    return { ...common, status: 'error', tests: [], error: `${what}:\n${tail(proc.output, 25)}` };
  }
  const { tests, diagnostics } = foldResults(json, ctx.root, await locateTests(json.testResults));
  for (const t of tests) ctx.onTestResult?.(t);
  // tests outside the selection are reported by Jest as skipped: keep only what was asked for
  const kept =
    selection.length > 0
      ? tests.filter((t) => ctx.selection!.includes(t.id) || t.status !== 'skipped')
      : tests;
  const failed = kept.some((t) => t.status !== 'passed' && t.status !== 'skipped') || diagnostics.length > 0;
  if (!failed && kept.length === 0) {
    return {
      ...common,
      status: 'error',
      tests: kept,
      diagnostics,
      error: `Jest ran no test${selection.length ? ' matching the selection' : ''}:\n${tail(proc.output, 10)}`,
    };
  }
  return { ...common, status: failed ? 'failed' : 'passed', tests: kept, diagnostics };
}

export function isInside(root: string, file: string): boolean {
  const rel = relative(root, isAbsolute(file) ? file : join(root, file));
  return !rel.startsWith('..') && !isAbsolute(rel);
}
