from inventory.stock import needs_reorder


def test_needs_reorder_below_the_minimum():
    assert needs_reorder({"tea": 2}, "tea", 3)


def test_no_reorder_at_the_minimum():
    assert not needs_reorder({"tea": 3}, "tea", 3)
