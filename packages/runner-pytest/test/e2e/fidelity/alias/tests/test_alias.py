import tk


def test_alias():
    assert tk.inc(1) == 2
