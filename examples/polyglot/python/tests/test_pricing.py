from inventory.pricing import bulk_discount, order_total


def test_no_discount_for_small_orders():
    assert bulk_discount(9) == 0.0


def test_discount_starts_at_ten_units():
    assert bulk_discount(10) == 0.10


def test_order_total():
    assert order_total(2.0, 20) == 36.0
