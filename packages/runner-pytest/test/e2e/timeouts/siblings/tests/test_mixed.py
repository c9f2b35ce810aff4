import time

import pytest


def wait():
    while True:
        time.sleep(0.05)


@pytest.mark.parametrize("n", [0, 1, 2])
def test_case(n):
    if n == 1:
        time.sleep(0.1)
        assert sum(range(10)) == 45
        return
    wait()


@pytest.mark.timeout(2)
def test_declared():
    wait()


def test_later():
    wait()
