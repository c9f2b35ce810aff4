"""A shopping cart with a misspelled name, which the hints fixer heals."""


def cart_total(prices):
    total = 0
    for price in prices:
        total += price
    return totl
