from shop.base import Exporter


class TsvExporter(Exporter):
    separator = "\t"

    def render(self, row):
        return self.separator.join(str(value) for value in row)
