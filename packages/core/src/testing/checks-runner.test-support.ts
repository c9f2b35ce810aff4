import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Diagnostic, RunResultInput, TestResult } from '../api/contracts/run-result.js';
import { API_VERSION, type Analyzer, type Runner } from '../api/plugin.js';
import { runProcess } from '../safety/process/run-process.js';

/**
 * A small real runner for the kit's own tests: `checks/*.checks` files hold one test a line,
 * `name: shell command`, passing when the command exits 0. The `defects` switch on the mistakes
 * the kit must catch.
 */
export interface ChecksRunnerOptions {
  shell?: string;
  defects?: { zeroBasedLines?: boolean; ignoresAbort?: boolean; ignoresTimeout?: boolean };
}

interface Check {
  id: string;
  name: string;
  file: string;
  line: number;
  command: string;
}

async function parse(root: string): Promise<{ checks: Check[]; diagnostics: Diagnostic[] }> {
  const names = (await readdir(join(root, 'checks')).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.checks'),
  );
  const checks: Check[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of names.sort()) {
    const file = posix.join('checks', name);
    const lines = (await readFile(join(root, file), 'utf8')).split('\n');
    lines.forEach((text, i) => {
      if (!text.trim() || text.startsWith('#')) return;
      const m = /^([^:]+):\s*(.+)$/.exec(text);
      if (m)
        checks.push({
          id: `${file}::${m[1]!.trim()}`,
          name: m[1]!.trim(),
          file,
          line: i + 1,
          command: m[2]!,
        });
      else
        diagnostics.push({
          source: 'checks',
          severity: 'error',
          message: 'expected "name: command"',
          file,
          line: i + 1,
          notes: [],
          fixIts: [],
          tests: [],
        });
    });
  }
  return { checks, diagnostics };
}

export function checksRunner(options: ChecksRunnerOptions = {}): Runner {
  const shell = options.shell ?? 'sh';
  const defects = options.defects ?? {};
  return {
    name: 'checks-runner',
    apiVersion: API_VERSION,
    language: 'shell',
    supportsSelection: true,
    async detect(dir) {
      return (await parse(dir)).checks.length > 0
        ? { name: 'checks', reason: 'checks/*.checks files' }
        : null;
    },
    async run(ctx): Promise<RunResultInput> {
      const started = Date.now();
      const { checks, diagnostics } = await parse(ctx.root);
      const base = {
        command: `${shell} checks/*.checks`,
        selected: ctx.selection !== undefined,
        diagnostics,
      };
      if (diagnostics.length > 0)
        return { ...base, status: 'failed', tests: [], exitCode: null, durationMs: Date.now() - started };
      const tests: TestResult[] = [];
      let status: 'passed' | 'failed' | 'timeout' | 'error' = 'passed';
      const signal = defects.ignoresAbort ? new AbortController().signal : ctx.signal;
      for (const c of checks.filter((x) => !ctx.selection || ctx.selection.includes(x.id))) {
        const left = ctx.timeoutMs - (Date.now() - started);
        if (ctx.signal.aborted || left <= 0) {
          status = ctx.signal.aborted ? 'error' : 'timeout';
          break;
        }
        const proc = await runProcess(shell, ['-c', c.command], {
          cwd: ctx.root,
          env: process.env,
          timeoutMs: defects.ignoresTimeout ? 3_600_000 : left,
          killGraceMs: 500,
          signal,
        });
        if (proc.spawnError)
          return {
            ...base,
            status: 'error',
            tests: [],
            exitCode: null,
            durationMs: Date.now() - started,
            error: `cannot start ${shell}: ${proc.spawnError}; install a POSIX shell or set the option "shell"`,
          };
        const test: TestResult = {
          id: c.id,
          name: c.name,
          file: c.file,
          line: defects.zeroBasedLines ? c.line - 1 : c.line,
          status: proc.timedOut || proc.aborted ? 'timeout' : proc.exitCode === 0 ? 'passed' : 'failed',
          durationMs: proc.durationMs,
          ...(proc.exitCode ? { message: `exit code ${proc.exitCode}`, trace: proc.output } : {}),
        };
        tests.push(test);
        ctx.onTestResult?.(test);
        if (proc.timedOut || proc.aborted) {
          status = proc.aborted ? 'error' : 'timeout';
          break;
        }
        if (test.status !== 'passed') status = 'failed';
      }
      return {
        ...base,
        status,
        tests,
        exitCode: status === 'passed' ? 0 : 1,
        durationMs: Date.now() - started,
      };
    },
    analyzer: checksAnalyzer,
  };
}

/** One failure per failing check, scoped to its file. */
function checksAnalyzer(): Analyzer {
  return {
    name: 'checks-analyzer',
    apiVersion: API_VERSION,
    async analyze(result) {
      return result.tests
        .filter((t) => t.status !== 'passed' && t.status !== 'skipped')
        .map((t) => ({
          id: t.id,
          kind: t.status === 'timeout' ? ('timeout' as const) : ('assertion' as const),
          title: `${t.name}: ${t.message ?? t.status}`,
          tests: [t.id],
          location: { file: t.file!, line: t.line! },
          evidence: t.trace ?? t.message ?? t.status,
          fingerprint: t.id,
          repairable: true,
        }));
    },
    async scope(failure) {
      return {
        entries: [
          {
            file: failure.location?.file ?? failure.tests[0]!.split('::')[0]!,
            role: 'test' as const,
            reasons: ['holds the check'],
          },
        ],
      };
    },
  };
}
