"""Prices and discounts."""


def bulk_discount(units):
    """10% off for orders of 10 units or more."""
    if units > 10:
        return 0.10
    return 0.0


def order_total(unit_price, units):
    return round(unit_price * units * (1 - bulk_discount(units)), 2)
