import time


def test_before():
    assert True


def test_sleeps_for_ever():
    time.sleep(10_000)


def test_after():
    assert True
