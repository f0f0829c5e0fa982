"""Registers the exactgeo Processing provider while the plugin is loaded."""
from qgis.core import QgsApplication

from .provider import ExactgeoProvider


class ExactgeoPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None

    def initProcessing(self):  # noqa: N802 (QGIS's name)
        # Called by QGIS and by qgis_process (hasProcessingProvider=yes).
        if self.provider is None:
            self.provider = ExactgeoProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self):  # noqa: N802
        self.initProcessing()

    def unload(self):
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
