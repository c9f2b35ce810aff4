import pytest

from grocer.basket import cheapest, total
from grocer.prices import price_of


def test_total(basket):
    assert total(basket) == 1.75


def test_cheapest():
    assert cheapest(["apple", "plum"]) == "plum"


@pytest.mark.parametrize("item,expected", [("apple", 0.5), ("pear", 0.75), ("plum", 0.4)])
def test_price(item, expected):
    assert price_of(item) == expected
