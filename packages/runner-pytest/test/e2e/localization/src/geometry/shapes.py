__all__ = ["area", "perimeter", "bisect", "Ruler"]


def area(width, height):
    return width * height


def perimeter(width, height):
    return 2 * (width + height)


def _bisect_right(values, x):
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < values[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


bisect = _bisect_right


class Ruler:
    def __init__(self, marks):
        self.marks = sorted(marks)

    def position_right(self, x):
        return _bisect_right(self.marks, x)

    position = position_right
