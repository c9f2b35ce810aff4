def add(a, b):
    """The sum of a and b."""
    return a - b


def discount(total):
    """10% off a total over 100."""
    if total > 100:
        return total * 0.95
    return total


def mean(values):
    """The average of a non-empty list."""
    return sum(values) / len(values)
