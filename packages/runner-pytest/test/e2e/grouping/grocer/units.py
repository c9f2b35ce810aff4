GRAMS = {"g": 1, "kg": 1000, "lb": 453.6}


def to_grams(quantity, unit):
    return quantity * GRAMS[unit]
