def test_before():
    assert True
