"""The exactgeo Processing provider: one algorithm per tool operation,
as the tool lists them (`exactgeo --operations`)."""
from qgis.core import Qgis, QgsMessageLog, QgsProcessingException, \
    QgsProcessingProvider

from .algorithms import algorithms
from . import tool


class ExactgeoProvider(QgsProcessingProvider):
    def id(self):
        return 'exactgeo'

    def name(self):
        return 'exactgeo'

    def longName(self):  # noqa: N802
        return 'exactgeo exact geometry ({})'.format(tool.program())

    def loadAlgorithms(self):  # noqa: N802
        try:
            found = algorithms()
        except QgsProcessingException as e:
            # no tool, no operations: say why where QGIS shows it
            QgsMessageLog.logMessage(str(e), 'exactgeo', Qgis.Critical)
            return
        for alg in found:
            self.addAlgorithm(alg)
