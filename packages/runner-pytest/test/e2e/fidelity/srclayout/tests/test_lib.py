import mathlib


def test_imports_the_source():
    assert mathlib.origin() == "source"
