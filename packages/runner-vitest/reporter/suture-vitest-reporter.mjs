// Vitest reporter shipped with @suture/runner-vitest, built on Vitest's reported-task API (3.0 and
// newer): onTestModuleCollected, onTestCaseReady, onTestCaseResult. It runs in Vitest's main
// process, never in a worker, so a test that blocks its worker does not block it. It appends one
// JSON line per event to a file the runner reads while Vitest runs. Writes are synchronous so
// that the last event before a stop is on disk.
import { appendFileSync } from 'node:fs';

/** A file and the Vitest project it runs in (a `test.projects` entry), when it has a name. */
function where(module) {
  const project = module.project && module.project.name;
  return { file: module.moduleId, ...(project ? { project } : {}) };
}

/** A test's titles from the outermost describe to its own name. */
function namesOf(test) {
  const names = [test.name];
  for (let p = test.parent; p && p.type === 'suite'; p = p.parent) names.unshift(p.name);
  return names;
}

/** What the runner keeps of an error Vitest serialised from the worker. */
function errorOf(e) {
  if (!e || typeof e !== 'object') return { message: String(e) };
  const frames = Array.isArray(e.stacks)
    ? e.stacks.map((s) => ({ file: s.file, line: s.line, column: s.column, method: s.method || '' }))
    : undefined;
  return {
    name: typeof e.name === 'string' ? e.name : 'Error',
    message: typeof e.message === 'string' ? e.message : String(e.message ?? ''),
    ...(typeof e.stack === 'string' ? { stack: e.stack } : {}),
    ...(frames ? { frames } : {}),
    ...(typeof e.diff === 'string' ? { diff: e.diff } : {}),
    ...(typeof e.expected === 'string' ? { expected: e.expected } : {}),
    ...(typeof e.actual === 'string' ? { actual: e.actual } : {}),
  };
}

function lineOf(test) {
  return test.location && typeof test.location.line === 'number' ? { line: test.location.line } : {};
}

/** Timeout Vitest gives the test (its own third argument, or the project's testTimeout). */
function timeoutOf(test) {
  const t = test.task && test.task.timeout;
  return typeof t === 'number' && t > 0 ? { timeout: t } : {};
}

/** A reporter object that writes to `eventsFile`. */
export function sutureReporter(eventsFile) {
  const emit = (event) => appendFileSync(eventsFile, `${JSON.stringify({ ...event, at: Date.now() })}\n`);
  return {
    onTestRunStart(specifications) {
      const files = specifications.map((s) => where({ moduleId: s.moduleId, project: s.project }));
      emit({ event: 'run-start', files });
    },
    onTestModuleStart(module) {
      emit({ event: 'file-start', ...where(module) });
    },
    onTestModuleCollected(module) {
      // every test of the file, skipped ones too, in the order Vitest collected them: the runner
      // tells tests of one full name apart by their place in this list, and the task id
      const tests = [...module.children.allTests()].map((t) => ({
        id: t.id,
        names: namesOf(t),
        ...lineOf(t),
        mode: t.options && t.options.mode,
      }));
      emit({ event: 'collected', ...where(module), tests, errors: module.errors().map(errorOf) });
    },
    onTestCaseReady(test) {
      emit({
        event: 'test-start',
        ...where(test.module),
        id: test.id,
        names: namesOf(test),
        ...lineOf(test),
        ...timeoutOf(test),
      });
    },
    onTestCaseResult(test) {
      const r = test.result();
      const d = typeof test.diagnostic === 'function' ? test.diagnostic() : undefined;
      emit({
        event: 'test-end',
        ...where(test.module),
        id: test.id,
        names: namesOf(test),
        ...lineOf(test),
        state: r.state,
        mode: test.options && test.options.mode,
        ...(d && typeof d.duration === 'number' ? { durationMs: d.duration } : {}),
        errors: (r.errors ?? []).map(errorOf),
      });
    },
    onTestModuleEnd(module) {
      emit({
        event: 'file-end',
        ...where(module),
        state: module.state(),
        errors: module.errors().map(errorOf),
      });
    },
    onTestRunEnd(modules, errors, reason) {
      // every module's final state: one whose collection failed is not always given onTestModuleEnd
      const files = (modules ?? []).map((m) => ({
        ...where(m),
        state: m.state(),
        errors: m.errors().map(errorOf),
      }));
      emit({ event: 'run-end', reason, errors: (errors ?? []).map(errorOf), files });
    },
  };
}
