from pkg import compute


def test_compute_1():
    assert compute(1) == 2
