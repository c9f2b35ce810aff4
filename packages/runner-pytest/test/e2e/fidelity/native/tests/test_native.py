import json
import os
import sys

import pytest

from app import render


def test_records_what_it_sees():
    path = os.environ.get("SEEN_FILE")
    assert path, "the e2e test sets SEEN_FILE"
    seen = {
        "argv": sys.argv,
        "path": sys.path,
        "env": dict(os.environ),
        "cwd": os.getcwd(),
    }
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(seen, handle)


def test_colour_follows_the_environment():
    assert render("ok") == "\x1b[32mok\x1b[0m"


@pytest.mark.parametrize("a,b", [(1, 1), ("x[y]", "x[y]")])
def test_param(a, b):
    assert a == b


class TestGroup:
    def test_method(self):
        assert "abc".upper() == "ABC"


@pytest.mark.skip(reason="not today")
def test_skip():
    raise AssertionError("skipped tests do not run")


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert 1 == 2


def test_cache(cache):
    cache.set("suture/e2e", 41)
    assert cache.get("suture/e2e", None) == 41


def test_excluded_by_args():
    pass
