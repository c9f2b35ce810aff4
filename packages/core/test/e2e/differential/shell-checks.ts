import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure, FailureInput, RunResultInput, ScopeInput, TestResult } from '../../../src/index.js';
import { runProcess, type Analyzer, type RunContext, type Runner } from '../../../src/index.js';

/**
 * A third party's runner, written against core's public contracts only: each `tests/*.t` is a
 * shell check (`sh tests/x.t`, exit 0 passes, the last line it prints is the message), the code
 * under test is `src/*.sh`. Its analyzer knows tests from code and nothing of the checks' language:
 * no `testModel`, so no reader of suture's can tell what a check asserts.
 */
export function shellChecks(): Runner {
  return {
    name: 'shell-checks',
    apiVersion: 1,
    language: 'shell',
    supportsSelection: true,
    async run(ctx: RunContext): Promise<RunResultInput> {
      const started = Date.now();
      const all = (await readdir(join(ctx.root, 'tests')))
        .filter((n) => n.endsWith('.t'))
        .sort()
        .map((n) => `tests/${n}`);
      const files = ctx.selection ? all.filter((f) => ctx.selection!.includes(f)) : all;
      const tests: TestResult[] = [];
      for (const file of files) {
        if (ctx.signal.aborted) break;
        const test = await check(ctx, file);
        tests.push(test);
        ctx.onTestResult?.(test);
      }
      const aborted = ctx.signal.aborted;
      const failed = tests.some((t) => t.status !== 'passed');
      return {
        status: aborted ? 'error' : failed ? 'failed' : 'passed',
        tests,
        exitCode: failed || aborted ? 1 : 0,
        command: `sh ${files.join(' ')}`,
        durationMs: Date.now() - started,
        selected: ctx.selection !== undefined,
        ...(aborted ? { error: 'the run was interrupted' } : {}),
      };
    },
    analyzer: shellAnalyzer,
  };
}

async function check(ctx: RunContext, file: string): Promise<TestResult> {
  // through runProcess, as docs/runner.md asks: the engine runs it in the workspace and sandbox
  const proc = await runProcess('sh', [file], {
    cwd: ctx.root,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  const message = proc.output.trim().split('\n').pop() || undefined;
  const failed = proc.exitCode !== 0;
  return {
    id: file,
    name: file,
    file,
    line: 1,
    status: failed ? 'failed' : 'passed',
    durationMs: proc.durationMs,
    ...(failed && message ? { message } : {}),
  };
}

export function shellAnalyzer(): Analyzer {
  const isTestFile = (file: string): boolean => file.startsWith('tests/');
  return {
    name: 'shell-checks-analyzer',
    apiVersion: 1,
    isTestFile,
    async analyze(result): Promise<FailureInput[]> {
      return result.tests
        .filter((t) => t.status !== 'passed' && t.status !== 'skipped')
        .map((t) => ({
          id: '',
          kind: 'assertion',
          title: `${t.id}: ${t.message ?? t.status}`,
          tests: [t.id],
          location: { file: t.id, line: 1 },
          evidence: t.message ?? t.status,
          fingerprint: createHash('sha256').update(t.id).digest('hex').slice(0, 16),
          repairable: true,
        }));
    },
    async scope(failure: Failure): Promise<ScopeInput> {
      return {
        entries: [
          ...failure.tests.map((file) => ({ file, role: 'test' as const, reasons: ['the failing check'] })),
          { file: 'src/calc.sh', role: 'source' as const, reasons: ['sourced by the check'] },
        ],
      };
    },
  };
}
