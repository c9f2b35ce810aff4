import sys


def test_first():
    assert True


def test_loops_forever():
    while True:
        pass


def test_recursion():
    def down(n):
        return down(n + 1)

    sys.setrecursionlimit(500)
    down(0)
