def test_after():
    assert True
