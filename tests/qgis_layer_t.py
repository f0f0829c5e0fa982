"""qgis_layer_t.py -- QGIS loads EXACTGEO layers through its "ogr"
provider, as "Add vector layer" does: a connection string and a .xgjob
job file, and an inside job (points in solids) whose layer has the
tool's features and kinds, and a delaunay job whose layer is the tool's
triangles (PolygonZ, fields v0, v1, v2).  Prints one "ok - ..." or "not
ok - ..." line per check; qgis_layer_t.sh numbers them and then checks
how QGIS exited.
Usage: python3 qgis_layer_t.py CONNECTION JOBFILE TOOL_OUTPUT.gpkg
                               INSIDE_CONNECTION INSIDE_TOOL_OUTPUT.gpkg
                               DELAUNAY_CONNECTION DELAUNAY_TOOL_OUTPUT.gpkg"""
import sys
from qgis.core import (NULL, QgsApplication, QgsProject, QgsVectorLayer,
                       QgsWkbTypes)


def ok(cond, what):
    print(('ok' if cond else 'not ok'), '-', what, flush=True)


conn, job, ref, in_conn, in_ref, dt_conn, dt_ref = sys.argv[1:8]
app = QgsApplication([], False)
app.initQgis()
want = QgsVectorLayer(ref, 'ref', 'ogr').featureCount()
layers = []
for name, uri in (('a connection string', conn), ('a .xgjob file', job)):
    lyr = QgsVectorLayer(uri, name, 'ogr')
    ok(lyr.isValid() and lyr.providerType() == 'ogr',
       '%s loads as a valid ogr layer' % name)
    n = lyr.featureCount()
    got = sum(1 for f in lyr.getFeatures() if f.hasGeometry())
    ok(want > 0 and n == want == got,
       '%s: featureCount %d, %d features read, the tool wrote %d'
       % (name, n, got, want))
    ok(not lyr.extent().isEmpty(), '%s: an extent' % name)
    ok(not lyr.dataProvider().capabilities() &
       lyr.dataProvider().AddFeatures, '%s: not editable' % name)
    layers.append(lyr)

# inside: the same records as the tool's, kinds and all
lyr = QgsVectorLayer(in_conn, 'inside', 'ogr')
ok(lyr.isValid() and lyr.providerType() == 'ogr',
   'an inside connection string loads as a valid ogr layer')


def records(layer):
    def value(v):  # a NULL field comes as QGIS's NULL, not None
        return None if v == NULL else v
    return [(value(f['a_fid']), value(f['a_part']), value(f['b_fid']),
             f['kind'], f.geometry().asWkt(17)) for f in layer.getFeatures()]


# a layer outside the project must go before exitQgis(), or the
# interpreter's exit frees it after QGIS is gone (a crash)
got, want = records(lyr), records(QgsVectorLayer(in_ref, 'tool', 'ogr'))
ok(len(want) > 0 and got == want,
   'inside: %d records read, equal to the tool\'s %d (fids, kinds, points)'
   % (len(got), len(want)))
kinds = sorted(set(r[3] for r in got))
ok(kinds == ['boundary', 'inside', 'outside'],
   'inside: kinds %s' % ', '.join(kinds))
ok(all((r[2] is None) == (r[3] == 'outside') for r in got),
   'inside: b_fid is NULL exactly on the outside records')
layers.append(lyr)

# delaunay: the triangles as the tool wrote them
lyr = QgsVectorLayer(dt_conn, 'delaunay', 'ogr')
ok(lyr.isValid() and lyr.wkbType() == QgsWkbTypes.PolygonZ and
   [f.name() for f in lyr.fields()][-3:] == ['v0', 'v1', 'v2'],
   'a delaunay connection string loads as a PolygonZ layer with v0, v1, v2')


def triangles(layer):
    return [(f['v0'], f['v1'], f['v2'], f.geometry().asWkt(17))
            for f in layer.getFeatures()]


got, want = triangles(lyr), triangles(QgsVectorLayer(dt_ref, 'tool', 'ogr'))
ok(len(want) > 0 and got == want,
   'delaunay: %d triangles read, equal to the tool\'s %d (FIDs, rings)'
   % (len(got), len(want)))
layers.append(lyr)
QgsProject.instance().addMapLayers(layers)
app.exitQgis()
