"""Starts pytest for @suture/runner-pytest as `python -m pytest <the project's args>` would.

    python suture_pytest_launch.py CONFIG.json [suture's pytest args] [the project's args]

The code under test sees what it sees under `python -m pytest`: sys.argv holds pytest's
__main__ and the project's own arguments, sys.path starts with the working folder, and the
environment is the project's own (no variable is added to pass suture's settings: they come in
the config file, and suture's plugins are registered as objects). The first `internal`
arguments after the config file are suture's own (rootdir, colour of the report).
"""
import json
import os
import sys

# Exit code when pytest cannot be imported; the runner says how to install it.
EXIT_NO_PYTEST = 97


def main():
    here = os.path.dirname(os.path.realpath(__file__))
    with open(sys.argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    args = sys.argv[2:]
    internal, own = args[: config["internal"]], args[config["internal"] :]

    # `python -m` puts the working folder first where `python script.py` puts the script's
    if sys.path and os.path.realpath(sys.path[0] or ".") == here:
        sys.path.pop(0)
    if not sys.flags.safe_path:
        sys.path.insert(0, os.getcwd())
    try:
        import pytest
    except ImportError as error:
        sys.stderr.write("No module named pytest (%s) for %s\n" % (error, sys.executable))
        return EXIT_NO_PYTEST
    sys.path.insert(0, here)
    try:
        from suture_pytest_plugin import EventLog, SuturePlugin
        from suture_pytest_timeout import Timeouts

        recorder = None
        if config.get("record"):
            from suture_pytest_record import Recorder

            recorder = Recorder(config["record"])
    finally:
        sys.path.remove(here)
    sys.argv = [os.path.join(os.path.dirname(pytest.__file__), "__main__.py")] + own
    # The runner never writes into the project: no __pycache__ next to the sources.
    sys.dont_write_bytecode = True

    log = EventLog(config["events"])
    limits = config.get("limits", {})
    plugins = [
        SuturePlugin(log, config["root"], config.get("cacheDir"), config.get("deselect", [])),
        Timeouts(
            log,
            config["root"],
            limits.get("defaultS"),
            limits.get("perTest", {}),
            limits.get("rerunS"),
            config.get("hung", []),
        ),
    ]
    if recorder is None:
        return pytest.main(internal + own, plugins=plugins)
    # started before pytest imports the project: what runs while it collects is measured too
    recorder.start()
    try:
        return pytest.main(internal + own, plugins=plugins + [recorder])
    finally:
        recorder.write()


if __name__ == "__main__":
    sys.exit(int(main()))
