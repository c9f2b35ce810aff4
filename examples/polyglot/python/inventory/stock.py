"""Stock levels."""


def total_units(items):
    """Sum the units of every line item."""
    total = 0
    for item in items:
        total += item["units"]
    return totl


def needs_reorder(units, threshold=5):
    return units < threshold
