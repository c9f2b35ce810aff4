from shop.pricing import bulk_discount


def test_discount_at_ten_units():
    assert bulk_discount(10) == 0.10


def test_no_discount_below_ten():
    assert bulk_discount(9) == 0.0
