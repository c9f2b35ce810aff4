"""Per-test time limits for @suture/runner-pytest.

At a test's limit, SIGALRM raises TestTimeout where the test is (the sleep, the loop), so pytest
reports it, runs its teardown and goes on to the next test. A test that does not come back from
that (a loop in C code, a handler that swallows the exception) is stopped by a watchdog thread a
little later: it writes the test's stack to the event file and ends the process, and the runner
starts a new one for the tests that are left. Either way the stack of the test's thread at the
limit, as faulthandler prints it, says where the test was stuck.

Once a test reaches its limit, the other cases of its test function and the other tests of its
file get the re-run limit at most: a file whose cases all hang costs one limit and then a short
one per case, not one limit per case. The tests that reached their limit in earlier processes of
the same run come in the config, so a restart keeps this.
"""
import os
import signal
import sys
import threading
import time
import traceback

import pytest

from suture_pytest_plugin import trim_frames

# The runner knows this exit code: the watchdog stopped a test, start again with the rest.
EXIT_STOPPED = 70


class TestTimeout(BaseException):
    """A BaseException, so that `except Exception` in the test does not swallow it."""

    __test__ = False


def _declared(item):
    """A limit the project declares itself: pytest-timeout's marker, option or ini value."""
    values = []
    marker = item.get_closest_marker("timeout")
    if marker is not None:
        values.append(marker.kwargs.get("timeout", marker.args[0] if marker.args else None))
    values.append(item.config.getoption("timeout", None))
    try:
        values.append(item.config.getini("timeout"))
    except (ValueError, KeyError):
        pass
    seconds = []
    for value in values:
        try:
            if value is not None and float(value) > 0:
                seconds.append(float(value))
        except (TypeError, ValueError):
            pass
    return max(seconds) if seconds else None


def function_of(nodeid):
    """The test function of a nodeid: without its `[params]` part (names before it have no `[`)."""
    path, sep, rest = nodeid.partition("::")
    return path + sep + rest.split("[", 1)[0]


def file_of(nodeid):
    return nodeid.partition("::")[0]


# the shortest limit of a sibling once its family has hung twice
REPEATED_MIN_S = 1.0


class Timeouts:
    def __init__(self, log, root, default_s, per_test, rerun_s=None, hung=()):
        self._log = log
        self._root = os.path.realpath(root)
        self._plugin_dir = os.path.dirname(os.path.realpath(__file__))
        self._default_s = default_s
        self._per_test = per_test
        self._main = threading.main_thread().ident
        self._cond = threading.Condition()
        self._watch = None  # (nodeid, (seconds, source, sibling), monotonic deadline)
        self._test = None  # (item, (seconds, source, sibling), monotonic deadline) while a test runs with alarms
        self._stack = None  # the stack captured by the alarm, for the report
        self._watchdog = None
        self._sleeping_until = float("inf")  # the deadline the watchdog sleeps until
        self._seen = None  # the last watch the watchdog read
        self._rerun_s = rerun_s
        # the tests of each test function and of each file that reached their limit, first first
        self._hung_functions = {}
        self._hung_files = {}
        for nodeid in hung:
            self._remember(nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config):
        # pytest-xdist runs the tests in worker processes, where this plugin (an object given to
        # pytest.main) is not loaded: say so, since a test that hangs there is stopped only by
        # the run's own limit
        workers = getattr(config.option, "numprocesses", None)
        if workers and getattr(config.option, "dist", "no") != "no" and (self._default_s or self._per_test):
            self._log.emit({"event": "xdist", "workers": str(workers)})

    def limit(self, item):
        """(seconds, source, sibling) for this test, or (None, None, None) when it has no limit.
        sibling: (scope, nodeid, repeated) of the test whose hang gave this one the re-run limit;
        repeated: how many of its family had hung, when that made the limit a fifth of it."""
        declared = _declared(item)
        ours = self._per_test.get(item.nodeid, self._default_s)
        if declared is not None and (ours is None or declared > ours):
            return declared, "declared", None
        if ours is None:
            return None, None, None
        sibling = None if declared is not None else self._sibling(item.nodeid)
        if sibling is not None and self._rerun_s < ours:
            # once two of the family hung (the first at its whole limit, one more at this one),
            # the rest would likely hang too: a fifth of rerunTimeoutMs, 1 s at least, where shorter
            repeated_s = max(REPEATED_MIN_S, self._rerun_s / 5)
            if sibling[2] >= 2 and repeated_s < self._rerun_s:
                return repeated_s, "sibling", sibling
            return self._rerun_s, "sibling", (sibling[0], sibling[1], None)
        return ours, "derived" if item.nodeid in self._per_test else "default", None

    def _sibling(self, nodeid):
        """(scope, first nodeid, how many of the family hung) of the test's family, or None."""
        if self._rerun_s is None:
            return None
        hung = self._hung_functions.get(function_of(nodeid))
        if hung:
            return ("function", hung[0], len(hung))
        hung = self._hung_files.get(file_of(nodeid))
        return ("file", hung[0], len(hung)) if hung else None

    def _remember(self, nodeid):
        for family, key in ((self._hung_functions, function_of(nodeid)), (self._hung_files, file_of(nodeid))):
            hung = family.setdefault(key, [])
            if nodeid not in hung:
                hung.append(nodeid)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        seconds, source, sibling = self.limit(item)
        if seconds is None:
            yield
            return
        alarm = self._can_alarm(item)
        deadline = time.monotonic() + seconds
        limit = (seconds, source, sibling)
        self._test = (item, limit, deadline) if alarm else None
        # with an alarm, the watchdog leaves time for the exception and the teardown it starts
        grace = min(30.0, max(5.0, seconds / 4)) if alarm else 0.0
        self._arm((item.nodeid, limit, deadline + grace))
        try:
            yield
        finally:
            self._arm(None)
            self._test = None
            self._stack = None

    # The alarm is set in each phase only: pytest catches what a phase raises, while a
    # TestTimeout raised between phases (in a report hook) would end the whole session.
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        yield from self._phase()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        yield from self._phase()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        yield from self._phase()

    def _phase(self):
        # after the alarm went off, teardown runs without one: the watchdog still bounds it
        if self._test is None or self._stack is not None:
            yield
            return
        item, limit, deadline = self._test
        previous = signal.signal(signal.SIGALRM, self._alarm(item, limit))
        signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if call.excinfo is not None and call.excinfo.errisinstance(TestTimeout) and self._stack is not None:
            report.suture_timeout = self._stack

    def _can_alarm(self, item):
        if not hasattr(signal, "setitimer") or threading.get_ident() != self._main:
            return False
        if item.config.pluginmanager.hasplugin("timeout"):
            return False  # pytest-timeout owns SIGALRM; the watchdog still stops a hang
        return signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)

    def _alarm(self, item, limit):
        def on_alarm(signum, frame):
            __tracebackhide__ = True
            self._stack = self._describe(frame, limit, hard=False)
            self._remember(item.nodeid)
            raise TestTimeout("%s ran past its limit of %g s" % (item.nodeid, limit[0]))

        return on_alarm

    def _arm(self, watch):
        """Hands the watchdog the running test's deadline. The watchdog sleeps until the earliest
        deadline it was given and is woken only when a new one comes before that; then this waits
        until it sleeps again. So it never runs while a test's code does (tests that count
        objects, threads' activity or allocations see what they see under plain pytest), except
        when a deadline it slept for passes: at most once per limit."""
        with self._cond:
            self._watch = watch
            if watch is None:
                return  # the watchdog finds no test, or a later one, when it wakes
            if self._watchdog is None:
                self._watchdog = threading.Thread(target=self._run, name="suture-timeout", daemon=True)
                self._watchdog.start()
            elif watch[2] >= self._sleeping_until:
                return
            else:
                self._cond.notify()
            while self._seen is not watch:
                self._cond.wait()

    def _run(self):
        with self._cond:
            while True:
                watch = self._watch
                left = None if watch is None else watch[2] - time.monotonic()
                if left is not None and left <= 0:
                    self._stop(watch)
                self._sleeping_until = float("inf") if watch is None else watch[2]
                self._seen = watch
                self._cond.notify_all()
                self._cond.wait(left)

    def _stop(self, watch):
        nodeid, limit, _ = watch
        frame = sys._current_frames().get(self._main)
        stack = self._describe(frame, limit, hard=True)
        self._log.emit({"event": "stopped", "nodeid": nodeid, "timeout": stack})
        self._log.close()
        sys.stderr.flush()
        os._exit(EXIT_STOPPED)

    def _describe(self, frame, limit, hard):
        """The test thread's stack from the outermost project frame in (pytest's own frames
        around it say nothing), and its innermost frame in project code."""
        entries = traceback.extract_stack(frame) if frame is not None else []
        inside = [i for i, e in enumerate(entries) if self._in_project(os.path.realpath(e.filename))]
        if inside:
            entries = entries[inside[0] :]
        shown = [self._shown(e.filename) for e in entries]
        where = None
        if inside:
            last = entries[inside[-1] - inside[0]]
            where = {"file": self._shown(last.filename), "line": last.lineno, "function": last.name}
        lines = ["Stack of the test's thread at the limit (most recent call first):"]
        lines += ['  File "%s", line %s in %s' % (f, e.lineno, e.name) for f, e in reversed(list(zip(shown, entries)))]
        seconds, source, sibling = limit
        info = {
            "limitS": seconds,
            "source": source,
            "hard": hard,
            "where": where,
            "stack": "\n".join(lines),
            "frames": trim_frames(
                [{"file": f, "line": e.lineno, "function": e.name} for f, e in zip(shown, entries)]
            ),
        }
        if sibling is not None:
            info["sibling"] = {"scope": sibling[0], "nodeid": sibling[1]}
            if sibling[2] is not None:
                info["sibling"]["repeated"] = sibling[2]
        return info

    def _shown(self, filename):
        path = os.path.realpath(filename)
        return os.path.relpath(path, self._root) if self._in_project(path) else filename

    def _in_project(self, path):
        if not path.startswith(self._root + os.sep) or path.startswith(self._plugin_dir + os.sep):
            return False
        parts = path.split(os.sep)
        return "site-packages" not in parts and "dist-packages" not in parts
