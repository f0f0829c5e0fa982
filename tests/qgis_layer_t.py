"""qgis_layer_t.py -- QGIS loads EXACTGEO layers through its "ogr"
provider, as "Add vector layer" does: a connection string and a .xgjob
job file.  Prints one "ok - ..." or "not ok - ..." line per check;
qgis_layer_t.sh numbers them and then checks how QGIS exited.
Usage: python3 qgis_layer_t.py CONNECTION JOBFILE TOOL_OUTPUT.gpkg"""
import sys
from qgis.core import QgsApplication, QgsProject, QgsVectorLayer


def ok(cond, what):
    print(('ok' if cond else 'not ok'), '-', what, flush=True)


conn, job, ref = sys.argv[1:4]
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
QgsProject.instance().addMapLayers(layers)
app.exitQgis()
