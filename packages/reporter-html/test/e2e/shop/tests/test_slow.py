import os
import time

import pytest


@pytest.mark.parametrize("n", range(6))
def test_takes_a_moment(n):
    time.sleep(0.15)


def test_waits_for_the_page():
    # The browser test writes this file once the page has shown a test as done: the run cannot
    # finish before the page saw it move.
    gate = os.environ.get("SHOP_PAGE_GATE")
    if not gate:
        return
    deadline = time.time() + 30
    while not os.path.exists(gate):
        assert time.time() < deadline, "the page never showed a finished test"
        time.sleep(0.05)
