from geometry import Ruler, bisect


def test_bisect():
    assert bisect([1, 2, 3], 2) == 2


def test_ruler():
    assert Ruler([9, 1, 5]).position(5) == 2
