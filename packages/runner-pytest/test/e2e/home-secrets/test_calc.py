import os

from calc import add


def credentials(home):
    path = os.path.join(home, ".aws", "credentials")
    return open(path).read() if os.path.exists(path) else ""


def test_add():
    # What the code under test can read of the user's home: through ~, and by the home's own path.
    seen = credentials(os.path.expanduser("~")) + credentials(os.environ.get("FIXTURE_REAL_HOME", "/nonexistent"))
    print("home is", os.path.expanduser("~"))
    assert "aws_secret_access_key" not in seen, "read the user's credentials: " + seen
    assert add(2, 3) == 5
