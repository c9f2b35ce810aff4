import os


def test_flaky_once():
    marker = os.environ.get("SHOP_FLAKY_MARKER")
    if marker and not os.path.exists(marker):
        open(marker, "w").close()
        assert False, "first run fails"
