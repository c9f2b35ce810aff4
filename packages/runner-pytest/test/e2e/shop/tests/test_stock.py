from inventory.stock import total_units


def test_total_units():
    assert total_units([{"units": 2}, {"units": 3}]) == 5
