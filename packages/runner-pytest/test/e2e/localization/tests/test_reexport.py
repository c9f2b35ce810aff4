from geometry import scale


def test_scale():
    assert scale([(1, 2)], 3) == [(3, 6)]
