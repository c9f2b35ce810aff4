from pkg import compute


def test_compute_2():
    assert compute(2) == 4
