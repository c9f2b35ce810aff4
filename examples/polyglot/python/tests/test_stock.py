from inventory.stock import needs_reorder, total_units


def test_total_units():
    assert total_units([{"units": 2}, {"units": 3}]) == 5


def test_needs_reorder():
    assert needs_reorder(3)
    assert not needs_reorder(8)
