"""Records which lines each test runs, for suture's selection by change (`suture run --changed`).

suture_pytest_launch starts it before pytest imports anything of the project, so code that runs
while pytest collects (imports, module and class bodies) is measured too, outside any test. The
only thing the tests can see of it is coverage.py's tracer: nothing is written into the project,
coverage reads no configuration file of the project, and no data file is kept. Per test the
context is the pytest node id, set around its setup, call and teardown; a fixture wider than a
function (module, class, package, session scope) gets a context of its own, which counts for
every test that uses it. A test that starts a process (the audit events of subprocess and the os
spawn and exec functions) is marked opaque: the recording cannot follow it there. A source file a
test opens (the audit event of open: reading it as text, inspect.getsource) counts as run whole by
that test.

The recording is one JSON file (suture's RecordingSchema): per test, the lines of each file it
ran, widened to whole statements; per file, the sha256 of the bytes that ran, the lines that run
for every test that loads the file (module-level code, signatures, decorators, class bodies, and
whatever ran outside a test), and the lines that hold code.
"""
import ast
import hashlib
import json
import os
import sys

import pytest

_FIXTURE = "suture-fixture:"
_SPAWN_EVENTS = frozenset(
    ["subprocess.Popen", "os.system", "os.posix_spawn", "os.spawn", "os.exec", "os.fork", "os.forkpty"]
)


def _ranges(lines):
    out, run = [], None
    for n in sorted(lines):
        if run and n == run[1] + 1:
            run[1] = n
        else:
            run = [n, n]
            out.append(run)
    return ",".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out)


def line_roles(source):
    """(shared lines, code lines, line -> the statement span holding it) of a module's source."""
    tree = ast.parse(source)
    shared, code, span = set(), set(), {}

    def mark(first, last, in_function):
        last = max(first, last)
        for n in range(first, last + 1):
            code.add(n)
            span.setdefault(n, (first, last))
            if not in_function:
                shared.add(n)

    def header(node, in_function, extra=()):
        starts = [node.lineno] + [d.lineno for d in extra]
        body = getattr(node, "body", None)
        last = body[0].lineno - 1 if body and isinstance(body, list) and body[0].lineno > node.lineno else node.lineno
        mark(min(starts), last, in_function)

    def visit(body, in_function):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                header(node, in_function, node.decorator_list)
                visit(node.body, True)
            elif isinstance(node, ast.ClassDef):
                header(node, in_function, node.decorator_list)
                visit(node.body, in_function)
            elif any(isinstance(getattr(node, f, None), list) for f in ("body", "handlers", "cases")):
                header(node, in_function)
                for field in ("body", "orelse", "finalbody"):
                    part = getattr(node, field, None)
                    if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
                        visit(part, in_function)
                for handler in getattr(node, "handlers", []):
                    header(handler, in_function)
                    visit(handler.body, in_function)
                for case in getattr(node, "cases", []):
                    mark(case.pattern.lineno, case.body[0].lineno - 1, in_function)
                    visit(case.body, in_function)
            else:
                mark(node.lineno, node.end_lineno or node.lineno, in_function)

    visit(tree.body, False)
    return shared, code, span


class Recorder:
    """Coverage with a context per test; `write` leaves the recording where the runner asked."""

    def __init__(self, path):
        self._path = path
        self._cwd = os.getcwd()
        self._cov = None
        self._unavailable = None
        self._current = None
        self._fixtures = {}
        self._files = {}
        self._opaque = set()
        self._reads = {}

    def start(self):
        try:
            import coverage
        except ImportError:
            self._unavailable = (
                "coverage.py is not installed for %s; install it (`%s -m pip install coverage`) for suture "
                "to record which lines each test runs" % (sys.executable, sys.executable)
            )
            return
        if coverage.Coverage.current() is not None:
            self._unavailable = "coverage.py already measures this interpreter; a second tracer cannot share it"
            return
        self._cov = coverage.Coverage(data_file=None, config_file=False, branch=False, auto_data=False)
        self._cov.start()
        sys.addaudithook(self._audit)

    def _audit(self, event, args):
        if self._current is None:
            return
        if event == "open" and args and isinstance(args[0], (str, bytes)):
            self._reads.setdefault(self._current, set()).add(args[0])
        elif event in _SPAWN_EVENTS or event.startswith("os.exec"):
            self._opaque.add(self._current)

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config):
        if self._cov is None:
            return
        # pytest-xdist's workers run the tests where this tracer does not reach
        workers = getattr(config.option, "numprocesses", None)
        if workers not in (None, 0, "0"):
            self._unavailable = "the tests run in pytest-xdist's workers (-n %s), where the recording does not reach" % workers
        elif config.pluginmanager.hasplugin("_cov") and getattr(config.option, "cov_source", None):
            self._unavailable = "pytest-cov measures this run; a second tracer cannot share the interpreter"

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        if self._cov is None:
            yield
            return
        self._current = item.nodeid
        self._fixtures[item.nodeid] = list(getattr(item, "fixturenames", []))
        self._files[item.nodeid] = str(getattr(item, "path", "") or "")
        self._cov.switch_context(item.nodeid)
        try:
            yield
        finally:
            self._current = None
            self._cov.switch_context("")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_fixture_setup(self, fixturedef, request):
        if self._cov is None or fixturedef.scope == "function":
            yield
            return
        self._cov.switch_context(_FIXTURE + fixturedef.argname)
        try:
            yield
        finally:
            self._cov.switch_context(self._current or "")

    def write(self):
        if self._unavailable or self._cov is None:
            self._dump({"unavailable": self._unavailable or "coverage did not start"})
            return
        self._cov.stop()
        data = self._cov.get_data()
        files, per_context = {}, {}
        for path in data.measured_files():
            try:
                with open(path, "rb") as handle:
                    raw = handle.read()
            except OSError:
                continue
            try:
                shared, code, span = line_roles(raw)
            except (SyntaxError, ValueError):
                # a file that does not parse: every line counts for every test
                shared, code, span = set(range(1, raw.count(b"\n") + 2)), set(), {}
            for line, contexts in data.contexts_by_lineno(path).items():
                first, last = span.get(line, (line, line))
                for context in contexts:
                    if not context:
                        shared.update(range(first, last + 1))
                        continue
                    per_context.setdefault(context, {}).setdefault(path, set()).update(range(first, last + 1))
            files[path] = {"sha256": hashlib.sha256(raw).hexdigest(), "shared": _ranges(shared), "code": _ranges(code)}
        whole = {}
        for path in files:
            with open(path, "rb") as handle:
                whole[os.path.realpath(path)] = (path, set(range(1, handle.read().count(b"\n") + 2)))
        tests = []
        for nodeid, fixtures in self._fixtures.items():
            lines = {}
            for context in [nodeid] + [_FIXTURE + name for name in fixtures]:
                for path, ran in per_context.get(context, {}).items():
                    lines.setdefault(path, set()).update(ran)
            # a source file the test read as data (inspect.getsource, a test of the file's text):
            # any change to it may change what the test sees
            for read in self._reads.get(nodeid, ()):
                name = os.fsdecode(read)
                hit = whole.get(os.path.realpath(os.path.join(self._cwd, name)))
                if hit:
                    lines.setdefault(hit[0], set()).update(hit[1])
            tests.append(
                {
                    "id": nodeid,
                    **({"file": self._files[nodeid]} if self._files.get(nodeid) else {}),
                    "lines": {path: _ranges(ran) for path, ran in lines.items()},
                    "opaque": nodeid in self._opaque,
                }
            )
        self._dump({"tests": tests, "files": files})

    def _dump(self, payload):
        with open(self._path, "w", encoding="utf-8") as handle:
            json.dump(payload, handle)
