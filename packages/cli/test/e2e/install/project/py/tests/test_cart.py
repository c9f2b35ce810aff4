from shop.cart import cart_total


def test_cart_total():
    assert cart_total([2, 3]) == 5


def test_empty_cart():
    assert cart_total([]) == 0
