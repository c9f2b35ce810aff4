from calc.core import add

CASES = [(2, 3, 5), (1, 1, 2)]


def check(candidate):
    assert candidate(2, 3) == 5
    assert candidate(0, 0) == 0


def test_adds():
    check(add)


def test_table():
    for a, b, want in CASES:
        assert add(a, b) == want
