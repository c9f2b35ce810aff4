import os
import signal

from app.waiting import wait_for_ever


def test_sleeps():
    wait_for_ever()


def test_spins():
    while True:
        pass


def test_swallows_the_timeout():
    while True:
        try:
            wait_for_ever()
        except BaseException:
            pass


def test_crashes():
    os.kill(os.getpid(), signal.SIGSEGV)


def test_quick():
    assert True
