"""Tests that would see another thread of the test process run: each counts the objects the
garbage collector tracks, spins longer than the interpreter's switch interval (5 ms), and counts
again. Under plain pytest nothing else runs in the process, so the counts are equal."""
import gc
import time

import pytest


@pytest.mark.parametrize("n", range(60))
def test_nothing_else_runs(n):
    gc.disable()
    try:
        before = len(gc.get_objects())
        end = time.perf_counter() + 0.01
        while time.perf_counter() < end:
            pass
        assert len(gc.get_objects()) == before
    finally:
        gc.enable()
