from calc.double import double


def test_double():
    assert double(4) == 8
