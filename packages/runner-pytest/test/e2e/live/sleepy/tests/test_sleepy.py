import os
import time

import pytest

# The runner's e2e test creates this file when the first result reaches it.
FLAG = os.path.join(os.path.dirname(__file__), os.pardir, "first-result-seen")


@pytest.mark.parametrize("n", range(3))
def test_sleeps(n):
    time.sleep(1)


def test_last_waits_for_the_first_result():
    for _ in range(600):
        if os.path.exists(FLAG):
            return
        time.sleep(0.05)
    pytest.fail("no result reached the runner while the run went on")
