PRICES = {"apple": 0.5, "pear": 0.75, "plum": 0.4}


def price_of(item):
    return PRICES[item]
