from grocer.prices import price_of


def total(items):
    return round(sum(price_of(item) * count for item, count in items.items()), 2)


def cheapest(items):
    return min(items, key=price_of)
