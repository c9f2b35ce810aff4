from geometry.decorators import CALLS
from geometry.transform import clamp


def test_clamp_high():
    assert clamp(15, 0, 10) == 10


def test_clamp_logs():
    clamp(1, 0, 10)
    assert "clamp" in CALLS
