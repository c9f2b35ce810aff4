import pytest

from shop.cart import Cart
from shop.pricing import tax


def test_subtotal(cart):
    cart.add("pen", 2, qty=3)
    assert cart.subtotal() == 6


def test_total_with_discount(cart):
    cart.add("desk", 200)
    assert cart.total() == 170


@pytest.mark.parametrize("amount,expected", [(10, 2), (5, 2), ("x[y]", 0)])
def test_tax(amount, expected):
    if isinstance(amount, str):
        return
    assert tax(amount) == expected


class TestCart:
    def test_empty(self):
        assert Cart().subtotal() == 0

    def test_skip(self):
        pytest.skip("not today")
