def bulk_discount(units):
    """10% off for 10 units or more."""
    if units > 10:
        return 0.10
    return 0.0
