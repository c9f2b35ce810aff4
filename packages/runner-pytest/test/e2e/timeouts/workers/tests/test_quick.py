def test_one():
    assert 1 + 1 == 2


def test_two():
    assert "a" * 2 == "aa"
