import importlib
import os

DEFAULTS = {"SHOP_CURRENCY": "EUR"}
FORMATS = ("csv", "tsv", "semicolon")


class Exporter:
    """Renders rows one by one; each format says how a row is written."""

    separator = ","

    def export(self, rows):
        return [self.render(row) for row in rows]

    def render(self, row):
        raise NotImplementedError

    def header(self):
        return self.separator.join(self.columns())

    def columns(self):
        return ["id", "name"]


def exporter_for(name):
    """The exporter of a format, found by its module's name: shop.<name>_export."""
    if name not in FORMATS:
        raise ValueError(f"no such format: {name}")
    module = importlib.import_module(f"shop.{name}_export")
    return getattr(module, f"{name.capitalize()}Exporter")()


def setting(name):
    return os.environ.get(name, DEFAULTS[name])
