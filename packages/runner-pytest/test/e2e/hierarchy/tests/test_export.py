import pytest

from shop.base import exporter_for, setting
from shop.csv_export import CsvExporter
from shop.tsv_export import TsvExporter


def test_csv_rows():
    exporter = CsvExporter()
    assert exporter.export([(1, "pen")]) == ["1,pen"]


def test_tsv_header():
    exporter = TsvExporter()
    assert exporter.header() == "id\tname"


def test_semicolon_header():
    assert exporter_for("semicolon").header() == "id;name"


def test_unknown_format():
    with pytest.raises(ValueError):
        exporter_for("xml")


def test_currency():
    assert setting("SHOP_CURRENCY") == "EUR"
