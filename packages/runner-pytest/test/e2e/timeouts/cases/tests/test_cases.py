import time

import pytest


@pytest.mark.parametrize("n", range(9))
def test_hangs(n):
    while True:
        time.sleep(0.05)
