from .decorators import logged


def scale(points, factor):
    return [(x * factor, y * factor) for x, y in points]


@logged
def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value
