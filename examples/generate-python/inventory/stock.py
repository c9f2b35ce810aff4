"""Stock levels of a small shop, item by item."""


class OutOfStock(Exception):
    """An order asks for more than is on the shelf."""


def reserve(stock, item, qty):
    """Takes qty of item off the shelf: the whole quantity or nothing."""
    if qty <= 0:
        raise ValueError("qty must be positive")
    have = stock.get(item, 0)
    if have < qty:
        raise OutOfStock(item)
    stock[item] = have - qty
    return stock[item]


def restock(stock, item, qty, capacity=100):
    """Puts qty of item on the shelf, up to its capacity; returns what did not fit."""
    if qty < 0:
        raise ValueError("qty must not be negative")
    room = capacity - stock.get(item, 0)
    added = min(qty, room)
    stock[item] = stock.get(item, 0) + added
    return qty - added


def needs_reorder(stock, item, minimum):
    """True when the shelf holds fewer than minimum of item."""
    return stock.get(item, 0) < minimum
