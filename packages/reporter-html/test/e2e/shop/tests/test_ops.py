from calc.ops import add, discount, mean


def test_add():
    assert add(2, 3) == 5


def test_discount_over_100():
    assert discount(200) == 180


def test_no_discount_at_100():
    assert discount(100) == 100


def test_mean():
    assert mean([1, 2, 3]) == 2
