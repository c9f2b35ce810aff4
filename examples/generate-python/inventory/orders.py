from inventory.stock import OutOfStock, reserve


def place(stock, lines):
    """Reserves every line of an order; returns the items that could not be served."""
    missing = []
    for item, qty in lines:
        try:
            reserve(stock, item, qty)
        except OutOfStock:
            missing.append(item)
    return missing
