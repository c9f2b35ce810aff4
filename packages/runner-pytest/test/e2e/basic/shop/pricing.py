def discount(amount):
    # 10% off above 100
    if amount > 100:
        return round(amount * 0.9, 2)
    return amount


def tax(amount):
    return round(amount * 0.2, 2)
