def to_cm(inches):
    """Inches to centimetres.

    >>> to_cm(2)
    5.08
    """
    return round(inches * 2.54, 2)
