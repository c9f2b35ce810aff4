from pkg import compute


def test_compute_3():
    assert compute(3) == 6
