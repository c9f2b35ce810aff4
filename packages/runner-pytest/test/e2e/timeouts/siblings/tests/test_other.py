import time


def test_alone():
    while True:
        time.sleep(0.05)
