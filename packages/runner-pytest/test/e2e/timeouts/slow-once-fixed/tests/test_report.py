from app.report import checksum


def test_checksum():
    assert checksum(range(5)) == 10
