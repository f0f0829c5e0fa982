"""exactgeo for QGIS: a Processing provider that runs the exactgeo tool."""


def classFactory(iface):  # noqa: N802 (QGIS's name)
    from .plugin import ExactgeoPlugin
    return ExactgeoPlugin(iface)
