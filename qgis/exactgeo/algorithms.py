"""The exactgeo algorithms: one per operation of the tool's table
(`exactgeo --operations`: segtri, 3D segments x triangles; redblue, 2D
segments x segments; inside, points in closed solids; ...), each running
the exactgeo tool.  Everything an algorithm says or asks for (its id,
title, help, the inputs' labels and geometry types, 3D or not, the
options that apply) comes from its operation's entry.

Outputs: QGIS 3.22 keeps one geometry type per layer, and the tool's
contacts layer of segtri and redblue mixes points (kinds proper and
touch) with lines (kind coplanar in 3D, overlap in 2D).  So an operation
whose records can be lines (its entry's "output" lists "line") has two
feature sinks with the same fields: OUTPUT, the point contacts (PointZ
for segtri), and OUTPUT_LINES, the line contacts (LineStringZ for
segtri); an operation of points only (inside) has OUTPUT alone.
Together they hold exactly the features of the tool's layer, in its
order.

Options beyond the common ones, each where the entry says it applies:
OUTSIDE (-outside) where the kinds include "outside", SKIP_INVALID
(-skip-invalid) where an input must be closed surfaces ("closed"),
VERIFY (--verify) where the operation has a check ("verify").

An operation of one input (delaunay: its entry lists one input, and its
"output" is ["polygon"]) takes INPUT instead of A and B, copies no
fields, has no grid, and writes OUTPUT, one Polygon (PolygonZ when the
points have Z) per triangle, with the fields of the tool's layer (v0, v1,
v2: the FIDs of its points).
"""
from osgeo import ogr

from qgis.PyQt.QtCore import QVariant
from qgis.core import (
    QgsFeature,
    QgsFeatureSink,
    QgsField,
    QgsFields,
    QgsGeometry,
    QgsProcessing,
    QgsProcessingAlgorithm,
    QgsProcessingException,
    QgsProcessingOutputNumber,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterNumber,
    QgsProcessingUtils,
    QgsVectorFileWriter,
    QgsWkbTypes,
)

from . import tool

ENGINES = ['auto', 'seq', 'cpu', 'gpu']

# OGR field types that map one to one; the rest are copied as text.
_TYPES = {
    ogr.OFTInteger: QVariant.Int,
    ogr.OFTInteger64: QVariant.LongLong,
    ogr.OFTReal: QVariant.Double,
    ogr.OFTString: QVariant.String,
}

# Formats the tool reads directly (no export of the QGIS layer needed).
_READABLE = sorted(set(QgsVectorFileWriter.supportedFormatExtensions()) |
                   {'gpkg', 'shp', 'fgb', 'geojson', 'gml', 'kml', 'sqlite',
                    'gdb', 'tab', 'mif', 'csv', 'json'})


# The geometry words of --operations and the layer types they take.
_LAYER_TYPES = {
    'line': QgsProcessing.TypeVectorLine,
    'polygon': QgsProcessing.TypeVectorPolygon,
    'point': QgsProcessing.TypeVectorPoint,
}


class OperationAlgorithm(QgsProcessingAlgorithm):
    """The algorithm of one operation (a dict of `exactgeo --operations`)."""

    def __init__(self, op):
        super().__init__()
        self._op = op
        self.OP = op['name']            # the tool's sub-command
        self.DIM = op['dim']
        self.ONE = len(op['inputs']) == 1    # one input: INPUT, no B
        a = op['inputs'][0]
        self.A_TYPES = [_LAYER_TYPES[g] for g in a['geometry']]
        self.A_HELP = '{} ({})'.format(a['noun'], a['accepts']) \
            if self.ONE else '{} A ({})'.format(a['noun'], a['accepts'])
        if not self.ONE:
            b = op['inputs'][1]
            self.B_TYPES = [_LAYER_TYPES[g] for g in b['geometry']]
            self.B_HELP = '{} B ({})'.format(b['noun'], b['accepts'])
        # what the entry says of the output and the options (an older
        # tool's entry, without "output", mixes points and lines)
        output = op.get('output', ['point', 'line'])
        self.POLYGONS = output == ['polygon']   # triangles
        self.LINES = 'line' in output
        self.OUTSIDE = 'outside' in op['kinds']
        self.SKIP_INVALID = any(i.get('closed') for i in op['inputs'])
        self.VERIFY = bool(op.get('verify'))
        # the tool's output layer, as its -nln names it
        self.LAYER = 'triangles' if self.POLYGONS else 'contacts'

    def name(self):
        return self._op['name']

    def displayName(self):  # noqa: N802
        return self._op['title']

    def shortHelpString(self):  # noqa: N802
        if self.POLYGONS:
            return ('{}: one triangle (polygon, counter-clockwise) per '
                    'feature, fields {}: the FIDs of its three points.  '
                    'Points at the same (x, y) are merged into the one of '
                    'lowest FID.  Runs the exactgeo tool.'.format(
                        self._op['contract'],
                        ', '.join(self._op['fields'])))
        kinds = self._op['kinds']
        if self.LINES:  # the line kind comes last
            what = '{} (points) or {} (lines)'.format(
                ', '.join(kinds[:-1]), kinds[-1])
        else:
            what = '{} or {} (points)'.format(', '.join(kinds[:-1]),
                                              kinds[-1])
        return ('{}: kind {}.  Fields {} and the copied attributes.  Runs '
                'the exactgeo tool.'.format(self._op['contract'], what,
                                           ', '.join(self._op['fields'])))

    def group(self):
        return 'Exact intersections'

    def groupId(self):  # noqa: N802
        return 'exact'

    def createInstance(self):  # noqa: N802
        return OperationAlgorithm(self._op)

    def initAlgorithm(self, config=None):  # noqa: N802
        if self.ONE:
            self._init_one()
            return
        self.addParameter(QgsProcessingParameterFeatureSource(
            'A', self.A_HELP, self.A_TYPES))
        self.addParameter(QgsProcessingParameterFeatureSource(
            'B', self.B_HELP, self.B_TYPES))
        self.addParameter(QgsProcessingParameterField(
            'A_FIELDS', 'Fields of A to copy', parentLayerParameterName='A',
            allowMultiple=True, optional=True))
        self.addParameter(QgsProcessingParameterField(
            'B_FIELDS', 'Fields of B to copy', parentLayerParameterName='B',
            allowMultiple=True, optional=True))
        self.addParameter(QgsProcessingParameterEnum(
            'ENGINE', 'Engine', options=ENGINES, defaultValue=0))
        self.addParameter(QgsProcessingParameterNumber(
            'GRID', 'Grid cells per axis (0: chosen from the counts)',
            QgsProcessingParameterNumber.Integer, defaultValue=0,
            minValue=0, maxValue=4096))
        if self.OUTSIDE:
            self.addParameter(QgsProcessingParameterBoolean(
                'OUTSIDE', 'Also a record (kind outside, no B) for each '
                'point of A in no solid of B', defaultValue=False))
        if self.SKIP_INVALID:
            self.addParameter(QgsProcessingParameterBoolean(
                'SKIP_INVALID', 'Skip the features of B that are not closed '
                'surfaces, with a warning (else they fail the run)',
                defaultValue=False))
        self.addParameter(QgsProcessingParameterFeatureSink(
            'OUTPUT', 'Point contacts' if self.LINES else 'Output',
            QgsProcessing.TypeVectorPoint))
        if self.LINES:
            self.addParameter(QgsProcessingParameterFeatureSink(
                'OUTPUT_LINES', 'Line contacts',
                QgsProcessing.TypeVectorLine, optional=True))
        self.addOutput(QgsProcessingOutputNumber('CONTACTS',
                                                 'Number of contacts'))

    def _init_one(self):
        """The parameters of an operation of one input (delaunay)."""
        self.addParameter(QgsProcessingParameterFeatureSource(
            'INPUT', self.A_HELP, self.A_TYPES))
        self.addParameter(QgsProcessingParameterEnum(
            'ENGINE', 'Engine', options=ENGINES, defaultValue=0))
        if self.VERIFY:
            self.addParameter(QgsProcessingParameterBoolean(
                'VERIFY', 'Check the result again with exact predicates '
                'before writing it (a finding fails the run)',
                defaultValue=False))
        self.addParameter(QgsProcessingParameterFeatureSink(
            'OUTPUT', 'Triangles' if self.POLYGONS else 'Output',
            QgsProcessing.TypeVectorPolygon if self.POLYGONS
            else QgsProcessing.TypeVectorPoint))
        self.addOutput(QgsProcessingOutputNumber(
            'COUNT', 'Number of features written'))

    def _input(self, parameters, name, context, feedback):
        """The input's file and layer, as the tool takes them.  A file the
        tool can read goes as it is (so a_fid and b_fid are its FIDs); a
        selection, a filter or another provider's layer is exported to a
        temporary GeoPackage first."""
        path, layer = self.parameterAsCompatibleSourceLayerPathAndLayerName(
            parameters, name, context, _READABLE, 'gpkg', feedback)
        if not path:
            raise QgsProcessingException(
                self.invalidSourceError(parameters, name))
        return path, layer

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        if self.ONE:
            return self._process_one(parameters, context, feedback)
        a_path, a_layer = self._input(parameters, 'A', context, feedback)
        b_path, b_layer = self._input(parameters, 'B', context, feedback)
        a_src = self.parameterAsSource(parameters, 'A', context)
        tmp = QgsProcessingUtils.generateTempFilename('contacts.gpkg')

        args = [self.OP, '-progress', '-f', 'GPKG', '-nln', 'contacts']
        if a_layer:
            args += ['-al', a_layer]
        if b_layer:
            args += ['-bl', b_layer]
        a_fields = self.parameterAsFields(parameters, 'A_FIELDS', context)
        b_fields = self.parameterAsFields(parameters, 'B_FIELDS', context)
        if a_fields:
            args += ['-acopy', ','.join(a_fields)]
        if b_fields:
            args += ['-bcopy', ','.join(b_fields)]
        engine = self.parameterAsEnum(parameters, 'ENGINE', context)
        args += ['--engine', ENGINES[engine]]
        grid = self.parameterAsInt(parameters, 'GRID', context)
        if grid > 0:
            args += ['--grid', str(grid)]
        if self.OUTSIDE and self.parameterAsBool(parameters, 'OUTSIDE',
                                                 context):
            args += ['-outside']
        if self.SKIP_INVALID and self.parameterAsBool(
                parameters, 'SKIP_INVALID', context):
            args += ['-skip-invalid']
        args += [tmp, a_path, b_path]
        tool.run(args, feedback, 0, 90)

        return self._copy(tmp, parameters, context, feedback,
                          a_src.sourceCrs())

    def _process_one(self, parameters, context, feedback):
        """Runs an operation of one input (delaunay) and copies its
        layer into OUTPUT."""
        path, layer = self._input(parameters, 'INPUT', context, feedback)
        src = self.parameterAsSource(parameters, 'INPUT', context)
        tmp = QgsProcessingUtils.generateTempFilename(self.LAYER + '.gpkg')
        args = [self.OP, '-progress', '-f', 'GPKG', '-nln', self.LAYER]
        if layer:
            args += ['-al', layer]
        engine = self.parameterAsEnum(parameters, 'ENGINE', context)
        args += ['--engine', ENGINES[engine]]
        if self.VERIFY and self.parameterAsBool(parameters, 'VERIFY',
                                                context):
            args += ['--verify']
        args += [tmp, path]
        tool.run(args, feedback, 0, 90)
        return self._copy(tmp, parameters, context, feedback,
                          src.sourceCrs())

    def _copy(self, tmp, parameters, context, feedback, crs):
        """Copies the tool's layer into the sinks, in its order."""
        ds = ogr.Open(tmp)
        if ds is None or ds.GetLayerByName(self.LAYER) is None:
            raise QgsProcessingException(
                'exactgeo: cannot read the tool\'s output ' + tmp)
        lyr = ds.GetLayerByName(self.LAYER)
        defn = lyr.GetLayerDefn()
        fields = QgsFields()
        for i in range(defn.GetFieldCount()):
            fd = defn.GetFieldDefn(i)
            fields.append(QgsField(fd.GetName(),
                                   _TYPES.get(fd.GetType(), QVariant.String)))
        as_text = [defn.GetFieldDefn(i).GetType() not in _TYPES
                   for i in range(defn.GetFieldCount())]
        z = self.DIM == 3
        if self.POLYGONS:   # Z as the tool wrote it (the points' own)
            z = bool(ogr.GT_HasZ(lyr.GetGeomType()))
            kind = QgsWkbTypes.PolygonZ if z else QgsWkbTypes.Polygon
        else:
            kind = QgsWkbTypes.PointZ if z else QgsWkbTypes.Point
        pt_sink, pt_id = self.parameterAsSink(
            parameters, 'OUTPUT', context, fields, kind, crs)
        ln_sink, ln_id = None, None
        if self.LINES:
            ln_sink, ln_id = self.parameterAsSink(
                parameters, 'OUTPUT_LINES', context, fields,
                QgsWkbTypes.LineStringZ if z else QgsWkbTypes.LineString,
                crs)
        if pt_sink is None:
            raise QgsProcessingException(
                self.invalidSinkError(parameters, 'OUTPUT'))

        total = max(1, lyr.GetFeatureCount())
        n = 0
        for f in lyr:
            if feedback.isCanceled():
                break
            g = f.GetGeometryRef()
            qf = QgsFeature(fields)
            qg = QgsGeometry()
            qg.fromWkb(g.ExportToIsoWkb())
            qf.setGeometry(qg)
            qf.setAttributes([
                None if not f.IsFieldSetAndNotNull(i)
                else f.GetFieldAsString(i) if as_text[i]
                else f.GetField(i)
                for i in range(len(as_text))])
            if self.POLYGONS or \
                    ogr.GT_Flatten(g.GetGeometryType()) == ogr.wkbPoint:
                pt_sink.addFeature(qf, QgsFeatureSink.FastInsert)
            elif ln_sink is not None:
                ln_sink.addFeature(qf, QgsFeatureSink.FastInsert)
            n += 1
            feedback.setProgress(90 + 10 * n / total)
        ds = None
        if self.ONE:
            return {'OUTPUT': pt_id, 'COUNT': n}
        results = {'OUTPUT': pt_id, 'CONTACTS': n}
        if ln_sink is not None:
            results['OUTPUT_LINES'] = ln_id
        return results


def algorithms():
    """One algorithm per operation the tool lists whose inputs QGIS can
    offer (every input takes some layer type)."""
    return [OperationAlgorithm(op) for op in tool.operations()
            if all(i['geometry'] and
                   all(g in _LAYER_TYPES for g in i['geometry'])
                   for i in op['inputs'])]
