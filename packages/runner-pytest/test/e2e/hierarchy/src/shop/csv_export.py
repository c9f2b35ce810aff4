from shop.base import Exporter


class CsvExporter(Exporter):
    def render(self, row):
        return ",".join(str(value) for value in row)
