"""The exactgeo Processing provider: one algorithm per tool operation."""
from qgis.core import QgsProcessingProvider

from .algorithms import SegTriAlgorithm, RedBlueAlgorithm
from . import tool


class ExactgeoProvider(QgsProcessingProvider):
    def id(self):
        return 'exactgeo'

    def name(self):
        return 'exactgeo'

    def longName(self):  # noqa: N802
        return 'exactgeo exact intersections ({})'.format(tool.program())

    def loadAlgorithms(self):  # noqa: N802
        self.addAlgorithm(SegTriAlgorithm())
        self.addAlgorithm(RedBlueAlgorithm())
