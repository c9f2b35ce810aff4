from shop.base import Exporter


class SemicolonExporter(Exporter):
    separator = ";"
