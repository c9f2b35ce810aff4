import pytest

from calc.core import add, mul


def test_adds():
    assert add(2, 3) == 6


@pytest.mark.parametrize("a, b, product", [(1, 1, 1), (2, 3, 7), (3, 4, 12)])
def test_mul(a, b, product):
    assert mul(a, b) == product
