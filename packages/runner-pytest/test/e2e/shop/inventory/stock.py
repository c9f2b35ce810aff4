def total_units(items):
    total = 0
    for item in items:
        total += item["units"]
    return totl
