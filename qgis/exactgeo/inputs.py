"""How an input layer reaches the exactgeo tool: as its own file where
the tool can read the whole layer there, else exported to a temporary
GeoPackage with the features' own ids as FIDs.

Keeping the ids matters: the output's a_fid, b_fid (and delaunay's v0,
v1, v2) name the input features, and a selection, a subset filter or a
Shapefile's 0-based FIDs must not make them name other features than the
user's.  QGIS's own export renumbers them (1, 2, ... in a new GeoPackage),
so the provider writes the export itself, with OGR.
"""
import os

from osgeo import ogr, osr
from qgis.PyQt.QtCore import QVariant
from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsProcessingException,
    QgsProcessingFeatureSourceDefinition,
    QgsProcessingUtils,
    QgsProviderRegistry,
    QgsWkbTypes,
)

# QGIS field types and the OGR types they are written as; others as text.
_OGR_TYPES = {
    QVariant.Int: ogr.OFTInteger,
    QVariant.UInt: ogr.OFTInteger64,
    QVariant.LongLong: ogr.OFTInteger64,
    QVariant.ULongLong: ogr.OFTInteger64,
    QVariant.Double: ogr.OFTReal,
    QVariant.Bool: ogr.OFTInteger,
    QVariant.String: ogr.OFTString,
}


class Input:
    """One input as the tool takes it: path and layer (None: the file's
    only one), and for messages the user's name for it (label) where the
    path is a temporary export."""

    def __init__(self, path, layer, label=None):
        self.path = path
        self.layer = layer
        self.label = label


def _whole_file(alg, parameters, name, context):
    """The layer's own path and layer name when the tool can read the
    whole layer there (an OGR layer, no selection, no limit, no subset
    filter); else None."""
    definition = parameters.get(name)
    if isinstance(definition, QgsProcessingFeatureSourceDefinition) and (
            definition.selectedFeaturesOnly or definition.featureLimit != -1
            or getattr(definition, 'filterExpression', '')):
        return None
    layer = alg.parameterAsVectorLayer(parameters, name, context)
    if layer is None or layer.providerType() != 'ogr' or \
            layer.subsetString():
        return None
    parts = QgsProviderRegistry.instance().decodeUri('ogr', layer.source())
    path = parts.get('path')
    if not path or not os.path.exists(path):
        return None
    lname = parts.get('layerName') or None
    if lname is None and parts.get('layerId') not in (None, ''):
        ds = ogr.Open(path)
        lyr = ds.GetLayer(int(parts['layerId'])) if ds is not None else None
        if lyr is None:
            return None
        lname = lyr.GetName()
    return Input(path, lname)


def _ogr_type(wkb_type):
    """The OGR geometry type of a QGIS one (the same flat ISO codes)."""
    t = QgsWkbTypes.flatType(wkb_type)
    t = int(t)
    if QgsWkbTypes.hasZ(wkb_type):
        t = ogr.GT_SetZ(t)
    if QgsWkbTypes.hasM(wkb_type):
        t = ogr.GT_SetM(t)
    return t


def _export(alg, parameters, name, context, feedback, fields):
    """The features of parameter name (its selection, filters and all, as
    Processing gives them) in a temporary GeoPackage, each with its own
    id as FID, with the attribute fields named in fields."""
    source = alg.parameterAsSource(parameters, name, context)
    if source is None:
        raise QgsProcessingException(
            alg.invalidSourceError(parameters, name))
    path = QgsProcessingUtils.generateTempFilename(name + '.gpkg')
    ds = ogr.GetDriverByName('GPKG').CreateDataSource(path)
    if ds is None:
        raise QgsProcessingException(
            'exactgeo: cannot create {}'.format(path))
    srs = None
    crs = source.sourceCrs()
    if crs.isValid():
        srs = osr.SpatialReference()
        srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
        if srs.ImportFromWkt(crs.toWkt(
                QgsCoordinateReferenceSystem.WKT_PREFERRED_GDAL)) != 0:
            srs = None
    lyr = ds.CreateLayer(name, srs, _ogr_type(source.wkbType()),
                         ['SPATIAL_INDEX=NO'])
    src_fields = source.fields()
    kept = []
    for f in fields:
        i = src_fields.indexFromName(f)
        if i < 0:
            continue
        fd = ogr.FieldDefn(f, _OGR_TYPES.get(src_fields.at(i).type(),
                                             ogr.OFTString))
        lyr.CreateField(fd)
        kept.append((i, fd.GetType() == ogr.OFTString and
                     src_fields.at(i).type() not in _OGR_TYPES))
    defn = lyr.GetLayerDefn()
    lyr.StartTransaction()
    for feat in source.getFeatures():
        if feedback.isCanceled():
            break
        out = ogr.Feature(defn)
        out.SetFID(feat.id())
        g = feat.geometry()
        if not g.isNull():
            out.SetGeometryDirectly(ogr.CreateGeometryFromWkb(
                bytes(g.asWkb())))
        attrs = feat.attributes()
        for k, (i, as_text) in enumerate(kept):
            v = attrs[i]
            if v is None or (hasattr(v, 'isNull') and v.isNull()):
                out.SetFieldNull(k)
            else:
                out.SetField(k, str(v) if as_text else v)
        if lyr.CreateFeature(out) != 0:
            raise QgsProcessingException(
                'exactgeo: cannot export feature {} of {}'.format(
                    feat.id(), source.sourceName()))
    lyr.CommitTransaction()
    ds = None
    return Input(path, name, "QGIS layer '{}'".format(source.sourceName()))


def tool_input(alg, parameters, name, context, feedback, fields=()):
    """Input parameter name as the tool takes it (an Input): its file
    where the tool can read the whole layer there, else an export of its
    features keeping their ids, with the attribute fields named in
    fields (those the tool copies)."""
    whole = _whole_file(alg, parameters, name, context)
    if whole is not None:
        return whole
    return _export(alg, parameters, name, context, feedback, fields)
