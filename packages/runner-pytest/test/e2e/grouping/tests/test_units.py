import pytest

from grocer.units import to_grams


def test_kilograms():
    assert to_grams(2, "kg") == 2000


@pytest.mark.parametrize("unit,grams", [("g", 3), ("lb", 1360.8)])
def test_units(unit, grams):
    assert to_grams(3, unit) == pytest.approx(grams)
