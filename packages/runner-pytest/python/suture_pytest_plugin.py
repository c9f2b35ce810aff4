"""pytest plugin loaded by @suture/runner-pytest with ``-p suture_pytest_plugin``.

Appends one JSON line per event to the file named by SUTURE_PYTEST_EVENTS, flushed at once, so
that when the run is killed at its time limit the runner still knows which test was running.
"""
import json
import os

import pytest

_PATH = os.environ.get("SUTURE_PYTEST_EVENTS")
_MAX_TEXT = 64 * 1024
_MAX_FRAMES = 40


_handle = None


def _emit(event):
    global _handle
    if not _PATH:
        return
    if _handle is None:
        # line-buffered: every event reaches the file before the next test starts
        _handle = open(_PATH, "a", encoding="utf-8", buffering=1)
    _handle.write(json.dumps(event, default=str) + "\n")


def _clip(text):
    if text is None:
        return None
    text = str(text)
    if len(text) <= _MAX_TEXT:
        return text
    half = _MAX_TEXT // 2
    return text[:half] + "\n[... output trimmed by suture ...]\n" + text[-half:]


def _exception_info(excinfo):
    value = excinfo.value
    frames = []
    for entry in excinfo.traceback:
        frames.append({"file": str(entry.path), "line": entry.lineno + 1, "function": entry.name})
    if len(frames) > _MAX_FRAMES:
        frames = frames[:5] + frames[-(_MAX_FRAMES - 5):]
    info = {"type": excinfo.typename, "message": _clip(str(value))[:4000], "frames": frames}
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


def pytest_runtest_logstart(nodeid, location):
    _emit({"event": "start", "nodeid": nodeid, "file": location[0], "line": None if location[1] is None else location[1] + 1})


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.excinfo is not None and report.failed:
        report.suture_exc = _exception_info(call.excinfo)
    return report


def pytest_runtest_logreport(report):
    if report.passed and report.when != "call":
        # passing setup/teardown phases carry nothing the runner needs except the end of the test
        if report.when == "teardown":
            _emit({"event": "end", "nodeid": report.nodeid})
        return
    event = {
        "event": "report",
        "nodeid": report.nodeid,
        "when": report.when,
        "outcome": report.outcome,
        "duration": report.duration,
        "file": report.location[0],
        "line": None if report.location[1] is None else report.location[1] + 1,
        "wasxfail": hasattr(report, "wasxfail"),
    }
    if report.failed or report.skipped:
        event["longrepr"] = _clip(report.longreprtext)
    exc = getattr(report, "suture_exc", None)
    if exc is not None:
        event["exception"] = exc
    _emit(event)


def pytest_collectreport(report):
    if report.failed:
        _emit({"event": "collect-error", "nodeid": report.nodeid, "longrepr": _clip(report.longreprtext)})


def pytest_sessionfinish(session, exitstatus):
    _emit({"event": "finish", "exitstatus": int(exitstatus)})
    if _handle is not None:
        _handle.close()
