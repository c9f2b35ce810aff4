"""pytest plugin registered by suture_pytest_launch for @suture/runner-pytest.

Appends one JSON line per event to the run's event file, flushed at once, so that the runner
streams each result as the test finishes and, when the run is killed, still knows which test
was running.
"""
import json
import os
import sys
import threading
from pathlib import Path

import pytest

_MAX_TEXT = 64 * 1024
_MAX_FRAMES = 40


class EventLog:
    """The event file; written from the test's thread and from the timeout watchdog."""

    def __init__(self, path):
        self._path = path
        self._handle = None
        self._lock = threading.Lock()

    def emit(self, event):
        line = json.dumps(event, default=str) + "\n"
        with self._lock:
            if self._handle is None:
                # line-buffered: every event reaches the file before the next test starts
                self._handle = open(self._path, "a", encoding="utf-8", buffering=1)
            self._handle.write(line)

    def close(self):
        with self._lock:
            if self._handle is not None:
                self._handle.close()
                self._handle = None


_MAX_CAPTURED = 2000


def _captured(report):
    """What a failed test printed (stdout, stderr, log), each section's tail, as pytest shows it."""
    parts = []
    for title, content in getattr(report, "sections", []):
        if not content.strip():
            continue
        if len(content) > _MAX_CAPTURED:
            content = "[... earlier output trimmed by suture ...]\n" + _from_line(content[-_MAX_CAPTURED:])
        parts.append("\n" + (" " + title + " ").center(78, "-") + "\n" + content.rstrip("\n"))
    return "".join(parts)


def _from_line(tail):
    """A tail cut at a line start: a line's end (the end of a token) no longer looks like the secret it is."""
    nl = tail.find("\n")
    return tail[nl + 1 :] if 0 <= nl < len(tail) - 1 else tail


def _to_line(head):
    nl = head.rfind("\n")
    return head[:nl] if nl > 0 else head


def clip(text):
    if text is None:
        return None
    text = str(text)
    if len(text) <= _MAX_TEXT:
        return text
    half = _MAX_TEXT // 2
    return _to_line(text[:half]) + "\n[... output trimmed by suture ...]\n" + _from_line(text[-half:])


def trim_frames(frames):
    if len(frames) > _MAX_FRAMES:
        return frames[:5] + frames[-(_MAX_FRAMES - 5):]
    return frames


def _exception_info(excinfo):
    value = excinfo.value
    frames = [
        {"file": str(entry.path), "line": entry.lineno + 1, "function": entry.name}
        for entry in excinfo.traceback
    ]
    info = {"type": excinfo.typename, "message": clip(str(value))[:4000], "frames": trim_frames(frames)}
    name = getattr(value, "name", None)
    if isinstance(name, str):
        info["name"] = name
    obj = getattr(value, "obj", None)
    if obj is not None:
        info["objType"] = type(obj).__name__
        module_name = getattr(obj, "__name__", None)
        if isinstance(module_name, str):
            info["objName"] = module_name
    for attr in ("filename", "lineno", "offset", "msg"):
        if isinstance(value, SyntaxError) and getattr(value, attr, None) is not None:
            info["syntax_" + attr] = getattr(value, attr)
    return info


def _line(location):
    return None if location[1] is None else location[1] + 1


def _inside(path, folder):
    return path == folder or path.startswith(folder + os.sep)


def _installed(path):
    """Is the file in an installation folder (a virtualenv inside the project included)?"""
    parts = path.split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts


class SuturePlugin:
    def __init__(self, log, root, cache_dir=None, deselect=()):
        self._log = log
        self._root = os.path.realpath(root)
        self._cache_dir = cache_dir
        self._deselect = set(deselect)
        self._durations = {}
        self._shadows_seen = set()

    @pytest.hookimpl(trylast=True)
    def pytest_configure(self, config):
        # The cache (the `cache` fixture, --lf) works as usual, but writes into the run's folder,
        # not into the project. An `-o cache_dir=` would warn, or fail under strict config, when
        # the project turns the cache plugin off.
        cache = getattr(config, "cache", None)
        if cache is None or not self._cache_dir:
            return
        try:
            config.cache = type(cache)(Path(self._cache_dir), config, _ispytest=True)
        except TypeError:
            pass  # a pytest older than 6.2 keeps its own cache

    def pytest_collection_modifyitems(self, config, items):
        # a restarted run leaves out the tests the earlier process already finished
        if not self._deselect:
            return
        kept = [item for item in items if item.nodeid not in self._deselect]
        dropped = [item for item in items if item.nodeid in self._deselect]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    def pytest_collection_finish(self, session):
        self._log.emit({"event": "collected", "nodeids": [item.nodeid for item in session.items]})
        self._report_shadowed()

    def pytest_runtest_logstart(self, nodeid, location):
        self._log.emit({"event": "start", "nodeid": nodeid, "file": location[0], "line": _line(location)})

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if call.excinfo is not None and report.failed:
            report.suture_exc = _exception_info(call.excinfo)

    def pytest_runtest_logreport(self, report):
        phases = self._durations.setdefault(report.nodeid, {})
        phases[report.when] = report.duration
        if not (report.passed and report.when != "call"):
            self._log.emit(self._report_event(report))
        if report.when == "teardown":
            self._durations.pop(report.nodeid, None)
            self._log.emit(
                {
                    "event": "end",
                    "nodeid": report.nodeid,
                    "duration": sum(phases.values()),
                    "setup": phases.get("setup", 0.0),
                }
            )

    def _report_event(self, report):
        event = {
            "event": "report",
            "nodeid": report.nodeid,
            "when": report.when,
            "outcome": report.outcome,
            "duration": report.duration,
            "file": report.location[0],
            "line": _line(report.location),
            "wasxfail": hasattr(report, "wasxfail"),
        }
        if report.failed or report.skipped:
            event["longrepr"] = clip(report.longreprtext + _captured(report) if report.failed else report.longreprtext)
        exc = getattr(report, "suture_exc", None)
        if exc is not None:
            event["exception"] = exc
        timeout = getattr(report, "suture_timeout", None)
        if timeout is not None:
            event["timeout"] = timeout
        return event

    def pytest_collectreport(self, report):
        if report.failed:
            self._log.emit({"event": "collect-error", "nodeid": report.nodeid, "longrepr": clip(report.longreprtext)})

    def pytest_sessionfinish(self, session, exitstatus):
        self._report_shadowed()
        self._log.emit({"event": "finish", "exitstatus": int(exitstatus)})
        self._log.close()

    def _report_shadowed(self):
        """Project modules imported from somewhere else: an installed copy shadows the source."""
        stdlib = getattr(sys, "stdlib_module_names", ())
        for name, module in list(sys.modules.items()):
            if "." in name or name in stdlib or name in self._shadows_seen:
                continue
            loaded = getattr(module, "__file__", None)
            if not loaded:
                continue
            sources = self._sources(name)
            if not sources:
                continue
            real = os.path.realpath(loaded)
            if any(_inside(real, source) for source in sources):
                continue
            # a module the project makes from its own files under another name (toolz's tlz
            # builds itself from toolz) is the source, not an installed copy of it
            if _inside(real, self._root) and not _installed(real):
                continue
            self._shadows_seen.add(name)
            self._log.emit(
                {
                    "event": "shadowed",
                    "module": name,
                    "loaded": real,
                    "source": os.path.relpath(sources[0], self._root),
                }
            )

    def _sources(self, name):
        found = []
        for base in (self._root, os.path.join(self._root, "src")):
            package = os.path.join(base, name)
            if os.path.isfile(os.path.join(package, "__init__.py")):
                found.append(package)
            elif os.path.isfile(package + ".py"):
                found.append(package + ".py")
        return found
