import pytest


@pytest.fixture
def basket():
    return {"apple": 2, "pear": 1}
