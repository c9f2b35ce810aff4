import time

import pytest


@pytest.mark.parametrize("n", [0, 1])
def test_swallows(n):
    while True:
        try:
            time.sleep(0.05)
        except BaseException:
            if n == 1:
                raise
