def test_runs():
    assert 1 + 1 == 2
