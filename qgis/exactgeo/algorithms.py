"""The exactgeo algorithms: one per operation of the tool's table
(`exactgeo --operations`: segtri, 3D segments x triangles; redblue, 2D
segments x segments; inside, points in closed solids; delaunay, the
Delaunay triangulation of points), each running the exactgeo tool.
Everything an algorithm says or asks for (its id, title, help, the
inputs' labels and geometry types, 3D or not, the options that apply,
the name of its count output) comes from its operation's entry.

Outputs: QGIS 3.22 keeps one geometry type per layer, and the tool's
contacts layer of segtri and redblue mixes points (kinds proper and
touch) with lines (kind coplanar in 3D, overlap in 2D).  So an operation
whose records can be lines (its entry's "output" lists "line") has two
feature sinks with the same fields: OUTPUT, the point contacts (PointZ
for segtri), and OUTPUT_LINES, the line contacts (LineStringZ for
segtri); an operation of points only (inside) has OUTPUT alone, and so
has one of lines only (its "output" is ["line"]: OUTPUT holds them).
Together they hold exactly the features of the tool's layer, in its
order.  The number of records written is the output named after the
entry's "records" (CONTACTS, RECORDS, TRIANGLES).

Parameters, each where the entry's "options" lists its key: A_FIELDS and
B_FIELDS (acopy, bcopy), GRID (grid), THREADS (threads), MAX_MEMORY
(max_memory), OUTSIDE (outside: -outside), SKIP_INVALID (skip_invalid:
-skip-invalid), VERIFY (verify: --verify), TIN (tin: --tin; QGIS 3.22 has
no TIN type, so the one feature is a MultiPolygon of the triangles, in
order); ENGINE always.

An operation of one input (delaunay: its entry lists one input, and its
"output" is ["polygon"]) takes INPUT instead of A and B and writes
OUTPUT, one Polygon (PolygonZ when the points have Z) per triangle, with
the fields of the tool's layer (v0, v1, v2: the FIDs of its points).

Inputs go to the tool as their files where it can read the whole layer
there, else exported with their own feature ids (inputs.py), so that the
output's ids name the user's features; the tool's messages then name the
QGIS layer, not the temporary file.
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
    QgsProcessingParameterString,
    QgsProcessingUtils,
    QgsWkbTypes,
)

from . import tool
from .inputs import tool_input

ENGINES = ['auto', 'seq', 'cpu', 'gpu']

# The tool's flags for the boolean parameters, by option key.
_FLAGS = {'outside': '-outside', 'skip_invalid': '-skip-invalid',
          'verify': '--verify', 'tin': '--tin'}

# OGR field types that map one to one; the rest are copied as text.
_TYPES = {
    ogr.OFTInteger: QVariant.Int,
    ogr.OFTInteger64: QVariant.LongLong,
    ogr.OFTReal: QVariant.Double,
    ogr.OFTString: QVariant.String,
}

# The geometry words of --operations and the layer types they take.
_LAYER_TYPES = {
    'line': QgsProcessing.TypeVectorLine,
    'polygon': QgsProcessing.TypeVectorPolygon,
    'point': QgsProcessing.TypeVectorPoint,
}


# The options an older tool's entry (without "options") implies.
def _implied_options(op):
    keys = {'engine', 'threads'}
    if len(op['inputs']) > 1:
        keys |= {'acopy', 'bcopy', 'grid'}
    if 'outside' in op['kinds']:
        keys.add('outside')
    if any(i.get('closed') for i in op['inputs']):
        keys.add('skip_invalid')
    if op.get('verify'):
        keys.add('verify')
    return keys


class OperationAlgorithm(QgsProcessingAlgorithm):
    """The algorithm of one operation (a dict of `exactgeo --operations`)."""

    def __init__(self, op):
        super().__init__()
        self._op = op
        self.OP = op['name']            # the tool's sub-command
        self.DIM = op['dim']
        self.ONE = len(op['inputs']) == 1    # one input: INPUT, no B
        self.NAMES = ['INPUT'] if self.ONE else ['A', 'B']
        self.TYPES, self.HELP = [], []
        for name, i in zip(self.NAMES, op['inputs']):
            self.TYPES.append([_LAYER_TYPES[g] for g in i['geometry']])
            self.HELP.append('{} ({})'.format(i['noun'], i['accepts'])
                             if self.ONE else '{} {} ({})'.format(
                                 i['noun'], name, i['accepts']))
        # what the entry says of the output (an older tool's entry,
        # without "output", mixes points and lines)
        output = op.get('output', ['point', 'line'])
        self.POLYGONS = output == ['polygon']   # triangles
        self.ONLY_LINES = output == ['line']    # segments: one sink
        self.LINES = 'line' in output and not self.ONLY_LINES
        self.OPTIONS = set(op.get('options', _implied_options(op)))
        # the tool's output layer, as its -nln names it, and what one
        # feature of it is
        self.LAYER = op.get('layer',
                            'triangles' if self.POLYGONS else 'contacts')
        records = op.get('records', 'contacts')
        self.COUNT = records.upper().replace(' ', '_')
        self.COUNT_LABEL = 'Number of {} written'.format(records)

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
        if not kinds:   # records of no kind (lines only)
            return ('{}.  Fields {}.  Runs the exactgeo tool.'.format(
                self._op['contract'], ', '.join(self._op['fields'])))
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
        return 'Exact geometry'

    def groupId(self):  # noqa: N802
        return 'exact'

    def createInstance(self):  # noqa: N802
        return OperationAlgorithm(self._op)

    def initAlgorithm(self, config=None):  # noqa: N802
        for name, types, text in zip(self.NAMES, self.TYPES, self.HELP):
            self.addParameter(QgsProcessingParameterFeatureSource(
                name, text, types))
        for key, name in (('acopy', 'A'), ('bcopy', 'B')):
            if key in self.OPTIONS:
                self.addParameter(QgsProcessingParameterField(
                    name + '_FIELDS', 'Fields of {} to copy'.format(name),
                    parentLayerParameterName=name, allowMultiple=True,
                    optional=True))
        self.addParameter(QgsProcessingParameterEnum(
            'ENGINE', 'Engine', options=ENGINES, defaultValue=0))
        if 'grid' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterNumber(
                'GRID', 'Grid cells per axis (0: chosen from the counts)',
                QgsProcessingParameterNumber.Integer, defaultValue=0,
                minValue=0, maxValue=4096))
        if 'threads' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterNumber(
                'THREADS', 'Threads of the cpu engine (0: all processors)',
                QgsProcessingParameterNumber.Integer, defaultValue=0,
                minValue=0, maxValue=1024))
        if 'max_memory' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterString(
                'MAX_MEMORY', 'Memory the run may take beyond its inputs: '
                'auto (what the machine has available), none (no check), '
                'or a size such as 500M or 2G; a run whose estimate is '
                'larger is refused before it starts', defaultValue='auto'))
        if 'outside' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterBoolean(
                'OUTSIDE', 'Also a record (kind outside, no B) for each '
                'point of A in no solid of B', defaultValue=False))
        if 'skip_invalid' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterBoolean(
                'SKIP_INVALID', 'Skip the features of B that are not closed '
                'surfaces, with a warning (else they fail the run)',
                defaultValue=False))
        if 'verify' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterBoolean(
                'VERIFY', 'Check the result again with exact predicates '
                'before writing it (a finding fails the run)',
                defaultValue=False))
        if 'tin' in self.OPTIONS:
            self.addParameter(QgsProcessingParameterBoolean(
                'TIN', 'One feature holding every triangle, in order (the '
                "tool's TIN; a MultiPolygon in QGIS 3.22, which has no TIN "
                'type), no fields', defaultValue=False))
        if self.POLYGONS:
            self.addParameter(QgsProcessingParameterFeatureSink(
                'OUTPUT', 'Triangles', QgsProcessing.TypeVectorPolygon))
        elif self.ONLY_LINES:
            self.addParameter(QgsProcessingParameterFeatureSink(
                'OUTPUT', 'Output', QgsProcessing.TypeVectorLine))
        else:
            self.addParameter(QgsProcessingParameterFeatureSink(
                'OUTPUT', 'Point contacts' if self.LINES else 'Output',
                QgsProcessing.TypeVectorPoint))
        if self.LINES:
            self.addParameter(QgsProcessingParameterFeatureSink(
                'OUTPUT_LINES', 'Line contacts',
                QgsProcessing.TypeVectorLine, optional=True))
        self.addOutput(QgsProcessingOutputNumber(self.COUNT,
                                                 self.COUNT_LABEL))

    def _flag(self, key, param, parameters, context):
        """The tool's flag for boolean parameter param, where it applies
        and is set ([] otherwise)."""
        if key in self.OPTIONS and self.parameterAsBool(parameters, param,
                                                        context):
            return [_FLAGS[key]]
        return []

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        fields = {}
        for key, name in (('acopy', 'A'), ('bcopy', 'B')):
            if key in self.OPTIONS:
                # the tool splits its lists at commas: so does the export
                fields[name] = [x.strip() for f in self.parameterAsFields(
                    parameters, name + '_FIELDS', context)
                    for x in f.split(',') if x.strip()]
        inputs = [tool_input(self, parameters, name, context, feedback,
                             fields.get(name, ()))
                  for name in self.NAMES]
        src = self.parameterAsSource(parameters, self.NAMES[0], context)
        tmp = QgsProcessingUtils.generateTempFilename(self.LAYER + '.gpkg')
        args = [self.OP, '-progress', '-f', 'GPKG', '-nln', self.LAYER]
        for opt, i in zip(('-al', '-bl'), inputs):
            if i.layer:
                args += [opt, i.layer]
        for opt, name in (('-acopy', 'A'), ('-bcopy', 'B')):
            if fields.get(name):
                args += [opt, ','.join(fields[name])]
        engine = self.parameterAsEnum(parameters, 'ENGINE', context)
        args += ['--engine', ENGINES[engine]]
        if 'grid' in self.OPTIONS:
            grid = self.parameterAsInt(parameters, 'GRID', context)
            if grid > 0:
                args += ['--grid', str(grid)]
        if 'threads' in self.OPTIONS:
            threads = self.parameterAsInt(parameters, 'THREADS', context)
            if threads > 0:
                args += ['--threads', str(threads)]
        if 'max_memory' in self.OPTIONS:
            mem = self.parameterAsString(parameters, 'MAX_MEMORY',
                                         context).strip()
            if mem and mem != 'auto':
                args += ['--max-memory', mem]
        for key, param in (('outside', 'OUTSIDE'),
                           ('skip_invalid', 'SKIP_INVALID'),
                           ('verify', 'VERIFY'), ('tin', 'TIN')):
            args += self._flag(key, param, parameters, context)
        args += [tmp] + [i.path for i in inputs]
        # the tool's messages name the user's layers, not the exports
        names = {i.path: i.label for i in inputs if i.label}
        names[tmp] = 'the output'
        tool.run(args, feedback, 0, 90, names)
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
        tin = False
        if self.POLYGONS:   # Z as the tool wrote it (the points' own)
            gt = lyr.GetGeomType()
            z = bool(ogr.GT_HasZ(gt))
            tin = ogr.GT_Flatten(gt) == ogr.wkbTIN
            if tin:         # QGIS 3.22 has no TIN: its triangles as parts
                kind = QgsWkbTypes.MultiPolygonZ if z else \
                    QgsWkbTypes.MultiPolygon
            else:
                kind = QgsWkbTypes.PolygonZ if z else QgsWkbTypes.Polygon
        elif self.ONLY_LINES:
            kind = QgsWkbTypes.LineStringZ if z else QgsWkbTypes.LineString
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
            if tin:
                g = ogr.ForceToMultiPolygon(g)
            qf = QgsFeature(fields)
            qg = QgsGeometry()
            qg.fromWkb(g.ExportToIsoWkb())
            qf.setGeometry(qg)
            qf.setAttributes([
                None if not f.IsFieldSetAndNotNull(i)
                else f.GetFieldAsString(i) if as_text[i]
                else f.GetField(i)
                for i in range(len(as_text))])
            if self.POLYGONS or self.ONLY_LINES or \
                    ogr.GT_Flatten(g.GetGeometryType()) == ogr.wkbPoint:
                pt_sink.addFeature(qf, QgsFeatureSink.FastInsert)
            elif ln_sink is not None:
                ln_sink.addFeature(qf, QgsFeatureSink.FastInsert)
            # a TIN counts its triangles, as the tool's summary does
            n += g.GetGeometryCount() if tin else 1
            feedback.setProgress(90 + 10 * min(n, total) / total)
        ds = None
        results = {'OUTPUT': pt_id, self.COUNT: n}
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
