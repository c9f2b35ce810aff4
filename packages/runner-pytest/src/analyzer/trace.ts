import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { runProcess } from '@suture/core';
import { resolvePython } from '@suture/core/analysis';

/** How to start the project's pytest: the runner's own interpreter and environment. */
export interface TraceOptions {
  python?: string;
  env?: Record<string, string>;
}

/** Whether a test (or one subtest of it) passed, and the project functions it entered (file, first line). */
export interface TracedRun {
  passed: boolean;
  entered: Array<[string, number]>;
  /**
   * The project classes of the objects a method ran on when the method is not their own class's
   * (file, qualified class name): `Exporter.export` running on a CsvExporter names the subclass,
   * whose file holds its attributes and overrides.
   */
  receivers?: Array<[string, string]>;
}

/**
 * For each test that ran, what it ran; a test made of subtests (a loop over data files under
 * `subtests.test` or unittest's `subTest`) also has each subtest's own run, whose outcomes tell
 * apart the code of the cases that failed far better than the one test that ran them all.
 */
export type Trace = Map<string, TracedTest>;

/** A test's run and, when it is made of subtests, each subtest's. */
export type TracedTest = TracedRun & { subtests: TracedRun[] };

/** Subtests kept per test, by outcome: the first ones, enough for a spectrum and a bounded trace. */
const MAX_SUBTESTS = { passed: 200, failed: 50 };

/**
 * A pytest plugin that records, per test, the code objects entered in files under the project
 * root. `sys.settrace` sees only the 'call' of each frame (the local tracer is None), so the cost
 * is one Python call per function call, paid by the few tests traced, never by the gate's runs.
 */
const PLUGIN = `
import json, os, sys, threading
import pytest

_ROOT = os.path.realpath(os.environ["SUTURE_TRACE_ROOT"]) + os.sep
_OUT = os.environ["SUTURE_TRACE_OUT"]
_SKIP = (os.sep + "site-packages" + os.sep, os.sep + ".venv" + os.sep, os.sep + "venv" + os.sep)
_MAX_SUBTESTS = {True: ${MAX_SUBTESTS.passed}, False: ${MAX_SUBTESTS.failed}}
_results = {}
_seen = set()
_sub = set()
_files = {}
_classes = {}
_receivers = set()
_sub_receivers = set()


def _project_path(filename):
    real = _files.get(filename)
    if real is None:
        # "<frozen os>", "<string>": code with no file, which realpath would place in the cwd
        real = "" if filename.startswith("<") else os.path.realpath(filename)
        if not real.startswith(_ROOT) or any(s in real for s in _SKIP):
            real = ""
        _files[filename] = real
    return real


def _receiver(frame, code):
    # the class of the object a method runs on, when it is a project class other than the method's
    first = code.co_varnames[0]
    if first not in ("self", "cls"):
        return None
    obj = frame.f_locals.get(first)
    cls = obj if first == "cls" and isinstance(obj, type) else type(obj)
    key = _classes.get(cls)
    if key is None:
        module = sys.modules.get(getattr(cls, "__module__", ""), None)
        real = _project_path(getattr(module, "__file__", None) or "<none>")
        key = (real, cls.__qualname__) if real else ()
        _classes[cls] = key
    own = getattr(code, "co_qualname", "")
    if not key or own.rsplit(".", 1)[0] == key[1]:
        return None
    return key


def _tracer(frame, event, arg):
    code = frame.f_code
    real = _project_path(code.co_filename)
    if real:
        _seen.add((real, code.co_firstlineno))
        _sub.add((real, code.co_firstlineno))
        if code.co_argcount:
            try:
                key = _receiver(frame, code)
            except Exception:
                key = None
            if key:
                _receivers.add(key)
                _sub_receivers.add(key)
    return None


def _traced():
    sys.settrace(_tracer)
    threading.settrace(_tracer)
    try:
        yield
    finally:
        sys.settrace(None)
        threading.settrace(None)


# the phases only: pytest's own report of a failure, traced, can cost more than the test itself
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _traced()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    _sub.clear()
    _sub_receivers.clear()
    yield from _traced()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield from _traced()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _seen.clear()
    _receivers.clear()
    _results[item.nodeid] = {"passed": True, "entered": [], "receivers": [], "subtests": []}
    try:
        yield
    finally:
        _results[item.nodeid]["entered"] = sorted(_seen)
        _results[item.nodeid]["receivers"] = sorted(_receivers)


def pytest_runtest_logreport(report):
    result = _results.get(report.nodeid)
    if result is None:
        return
    if report.failed:
        result["passed"] = False
    # a subtest (pytest's subtests, unittest's subTest) ran what was entered since the one before
    if getattr(report, "context", None) is not None and report.when == "call" and not report.skipped:
        passed = not report.failed
        if sum(1 for s in result["subtests"] if s["passed"] == passed) < _MAX_SUBTESTS[passed]:
            result["subtests"].append(
                {"passed": passed, "entered": sorted(_sub), "receivers": sorted(_sub_receivers)}
            )
        _sub.clear()
        _sub_receivers.clear()


def pytest_sessionfinish(session, exitstatus):
    with open(_OUT, "w") as out:
        json.dump(_results, out)
`;

/**
 * Runs the given tests once more under a function tracer and returns what each entered. Undefined
 * when the run failed to produce a trace (no pytest, a timeout): the ranking then goes without.
 */
export async function traceTests(
  root: string,
  ids: readonly string[],
  options: TraceOptions,
  timeoutMs: number,
): Promise<Trace | undefined> {
  if (ids.length === 0 || timeoutMs <= 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'suture-trace-'));
  try {
    await writeFile(join(dir, 'suture_trace_plugin.py'), PLUGIN);
    const out = join(dir, 'trace.json');
    const env = { ...process.env, ...options.env };
    const python = await resolvePython(root, options.python, env);
    const r = await runProcess(
      python,
      [
        '-m',
        'pytest',
        '-p',
        'suture_trace_plugin',
        '-p',
        'no:cacheprovider',
        '-q',
        '--no-header',
        '--tb=no',
        ...ids,
      ],
      {
        cwd: root,
        env: {
          ...env,
          PYTHONPATH: [dir, env.PYTHONPATH].filter(Boolean).join(delimiter),
          PYTHONDONTWRITEBYTECODE: '1',
          SUTURE_TRACE_ROOT: root,
          SUTURE_TRACE_OUT: out,
        },
        timeoutMs,
        tailBytes: 16 * 1024,
      },
    );
    if (r.timedOut || r.spawnError) return undefined;
    const raw = JSON.parse(await readFile(out, 'utf8')) as Record<
      string,
      TracedRun & { subtests?: TracedRun[] }
    >;
    const real = await realpath(root);
    const rel = (file: string): string => relative(real, file).split('\\').join('/');
    const relativeRun = (t: TracedRun): TracedRun => ({
      passed: t.passed,
      entered: t.entered.map(([file, line]) => [rel(file), line]),
      receivers: (t.receivers ?? []).map(([file, cls]) => [rel(file), cls]),
    });
    const trace: Trace = new Map();
    for (const [id, t] of Object.entries(raw))
      trace.set(id, { ...relativeRun(t), subtests: (t.subtests ?? []).map(relativeRun) });
    return trace;
  } catch {
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
