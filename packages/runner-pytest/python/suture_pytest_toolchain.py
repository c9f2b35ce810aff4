"""Prints, as JSON, what a selection record depends on besides the project's files.

    python suture_pytest_toolchain.py

The interpreter (its path and version) and every installed distribution with its version: a
record made under another toolchain is not used. `coverage` is the version of coverage.py the
recording would use, or null when it is not installed.
"""
import json
import sys

try:
    from importlib import metadata
except ImportError:  # pragma: no cover - Python < 3.8
    metadata = None


def main():
    dists = []
    if metadata is not None:
        for dist in metadata.distributions():
            name = dist.metadata["Name"] if dist.metadata else None
            if name:
                dists.append("%s==%s" % (name.lower(), dist.version))
    try:
        import coverage

        cov = coverage.__version__
    except ImportError:
        cov = None
    json.dump(
        {
            "python": "%s %s" % (sys.executable, sys.version.split()[0]),
            "distributions": sorted(set(dists)),
            "coverage": cov,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
