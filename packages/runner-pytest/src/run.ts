import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { runProcess, type RunContext, type RunResultInput, type TestResult } from '@suture/core';
import { foldEvents, parseEvents } from './events.js';
import { PLUGIN_MODULE, pythonEnv, resolvePython } from './interpreter.js';
import type { ResolvedPytestOptions } from './options.js';

const EXIT_MEANING: Record<number, string> = {
  2: 'pytest was interrupted (exit code 2)',
  3: 'pytest hit an internal error (exit code 3)',
  4: 'pytest usage error (exit code 4)',
  5: 'pytest collected no tests (exit code 5)',
};

function tailLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

/** Test ids and files relative to the project root, whatever pytest printed. */
function relativize(root: string, tests: TestResult[]): void {
  for (const t of tests) {
    if (t.file && isAbsolute(t.file)) t.file = relative(root, t.file);
  }
}

export async function runPytest(options: ResolvedPytestOptions, ctx: RunContext): Promise<RunResultInput> {
  const python = await resolvePython(ctx.root, options.python);
  const eventsFile = join(ctx.workDir, 'pytest-events.jsonl');
  const args = [
    '-m',
    'pytest',
    `--rootdir=${ctx.root}`,
    '-p',
    'no:cacheprovider',
    '-p',
    PLUGIN_MODULE,
    '--continue-on-collection-errors',
    '-q',
    '-o',
    'console_output_style=classic',
    ...options.args,
    ...(ctx.selection ?? []),
  ];
  const proc = await runProcess(python, args, {
    cwd: ctx.root,
    env: pythonEnv(process.env, { ...options.env, SUTURE_PYTEST_EVENTS: eventsFile }),
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  const base = {
    command: proc.command,
    durationMs: proc.durationMs,
    outputTail: proc.output,
    exitCode: proc.exitCode,
    selected: ctx.selection !== undefined,
  };

  if (proc.spawnError) {
    return {
      ...base,
      status: 'error',
      tests: [],
      error: `cannot start ${python}: ${proc.spawnError}; install Python 3 or set the runner option "python"`,
    };
  }
  if (/No module named pytest/.test(proc.output)) {
    return {
      ...base,
      status: 'error',
      tests: [],
      error: `pytest is not installed for ${python}; install it with \`${python} -m pip install pytest\``,
    };
  }
  let text = '';
  try {
    text = await readFile(eventsFile, 'utf8');
  } catch {
    // no events: pytest never loaded the plugin
  }
  const folded = foldEvents(parseEvents(text));
  relativize(ctx.root, folded.tests);
  for (const t of folded.tests) ctx.onTestResult?.(t);

  if (proc.timedOut || proc.aborted) {
    const why = proc.aborted
      ? 'the run was aborted'
      : `killed at the wall-clock limit of ${ctx.timeoutMs} ms`;
    if (folded.running) {
      const t = folded.tests.find((x) => x.id === folded.running);
      if (t) {
        t.status = 'timeout';
        t.message = `${why} while this test was running`;
        t.trace = tailLines(proc.output, 60);
      }
    }
    return {
      ...base,
      status: 'timeout',
      tests: folded.tests,
      diagnostics: folded.diagnostics,
      error: folded.running ? `${why} while running ${folded.running}` : why,
    };
  }
  const code = proc.exitCode ?? -1;
  if (code === 0) return { ...base, status: 'passed', tests: folded.tests, diagnostics: folded.diagnostics };
  if (code === 1 || (code === 2 && (folded.tests.length > 0 || folded.diagnostics.length > 0))) {
    return { ...base, status: 'failed', tests: folded.tests, diagnostics: folded.diagnostics };
  }
  if (code === 5 && folded.diagnostics.length > 0) {
    return { ...base, status: 'failed', tests: folded.tests, diagnostics: folded.diagnostics };
  }
  const meaning =
    EXIT_MEANING[code] ??
    (proc.signal ? `pytest was killed by ${proc.signal}` : `pytest exited with code ${code}`);
  return {
    ...base,
    status: 'error',
    tests: folded.tests,
    diagnostics: folded.diagnostics,
    error: `${meaning}:\n${tailLines(proc.output, 15)}`,
  };
}
