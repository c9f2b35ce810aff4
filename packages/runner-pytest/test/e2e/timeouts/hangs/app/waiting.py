import time


def wait_for_ever():
    time.sleep(10_000)
