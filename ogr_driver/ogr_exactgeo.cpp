/*
 * ogr_exactgeo.cpp -- the EXACTGEO vector driver: the thin C++ shim GDAL
 * demands (a driver, a dataset, a layer).  All logic is in C, in
 * xgo_plugin.c, xgo_result.c and xgo_conn.c.
 *
 * Opens an EXACTGEO: connection string or a .xgjob job file (syntax in
 * xgo_conn.h) as a dataset of one layer: the features the exactgeo tool
 * would write, with the same fields and geometries.  Open checks the text
 * and opens both inputs, then runs the job once (so that no error can
 * surface after the open), or shares the result of a dataset already open
 * on the same job (xgo_result.h).  The layer makes each feature from that
 * result's records when it is read; filters are the base class's.  Opening for update is accepted,
 * for QGIS and ogrinfo ask for it by default; every write is refused.
 */
#include <cstdio>

#include <gdal_priv.h>
#include <ogrsf_frmts.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>

#include "xgo_plugin.h"
#include "xgo_result.h"

namespace {

const char *const DRIVER_NAME = "EXACTGEO";

class ExactgeoLayer final : public OGRLayer
{
    xgo_result *m_res;               // one reference, owned
    CPLString m_name;
    OGRFeatureDefn *m_defn;          // the result's
    size_t m_next = 0;               // GetNextFeature's position

    bool Filtered() const
    {
        return m_poFilterGeom != nullptr || m_poAttrQuery != nullptr;
    }

    OGRErr ReadOnly() const
    {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "EXACTGEO: layer '%s' is read-only; write it with ogr2ogr "
                 "or the exactgeo tool", m_name.c_str());
        return OGRERR_UNSUPPORTED_OPERATION;
    }

  public:
    ExactgeoLayer(xgo_result *res, const char *name)
        : m_res(res), m_name(name),
          m_defn(OGRFeatureDefn::FromHandle(xgo_result_defn(res)))
    {
    }

    ~ExactgeoLayer() override { xgo_result_release(m_res); }

    const char *GetName() override { return m_name.c_str(); }
    OGRFeatureDefn *GetLayerDefn() override { return m_defn; }
    void ResetReading() override { m_next = 0; }

    // Each feature is made from the run's records when read (a new one,
    // ours to hand over), numbered 0, 1, ... as the tool's order.
    OGRFeature *GetNextFeature() override
    {
        while (m_next < xgo_result_count(m_res)) {
            OGRFeature *f = OGRFeature::FromHandle(
                xgo_result_feature(m_res, m_next++));
            if (f == nullptr)
                return nullptr;
            if ((m_poFilterGeom == nullptr ||
                 FilterGeometry(f->GetGeomFieldRef(m_iGeomFieldFilter))) &&
                (m_poAttrQuery == nullptr || m_poAttrQuery->Evaluate(f))) {
                m_nFeaturesRead++;
                return f;
            }
            delete f;
        }
        return nullptr;
    }

    OGRFeature *GetFeature(GIntBig fid) override
    {
        if (fid < 0 ||
            static_cast<GUIntBig>(fid) >= xgo_result_count(m_res))
            return nullptr;
        return OGRFeature::FromHandle(
            xgo_result_feature(m_res, static_cast<size_t>(fid)));
    }

    GIntBig GetFeatureCount(int force) override
    {
        if (!Filtered())
            return static_cast<GIntBig>(xgo_result_count(m_res));
        return OGRLayer::GetFeatureCount(force);
    }

    OGRErr GetExtent(OGREnvelope *env, int force) override
    {
        return GetExtent(0, env, force);
    }

    OGRErr GetExtent(int geom_field, OGREnvelope *env, int force) override
    {
        if (geom_field == 0 && !Filtered())
            return xgo_result_extent(m_res, env) ? OGRERR_NONE
                                                 : OGRERR_FAILURE;
        return OGRLayer::GetExtent(geom_field, env, force);
    }

    OGRErr ICreateFeature(OGRFeature *) override { return ReadOnly(); }
    OGRErr ISetFeature(OGRFeature *) override { return ReadOnly(); }
    OGRErr DeleteFeature(GIntBig) override { return ReadOnly(); }

    int TestCapability(const char *cap) override
    {
        // Read-only: no write capability.
        if (EQUAL(cap, OLCFastFeatureCount) || EQUAL(cap, OLCFastGetExtent))
            return !Filtered();
        return EQUAL(cap, OLCRandomRead) || EQUAL(cap, OLCZGeometries) ||
               EQUAL(cap, OLCCurveGeometries);
    }
};

class ExactgeoDataset final : public GDALDataset
{
    ExactgeoLayer *m_layer;

  public:
    ExactgeoDataset(xgo_result *res, const char *name)
        : m_layer(new ExactgeoLayer(res, name))
    {
    }
    ~ExactgeoDataset() override { delete m_layer; }

    int GetLayerCount() override { return 1; }
    OGRLayer *GetLayer(int i) override { return i == 0 ? m_layer : nullptr; }
    int TestCapability(const char *) override { return FALSE; }
};

// A file named *.xgjob is ours whatever its first line: Open then says
// what that line should be, rather than GDAL's "not recognized".
bool IsJobFile(GDALOpenInfo *info)
{
    return info->fpL != nullptr &&
           EQUAL(CPLGetExtension(info->pszFilename), XGO_JOB_EXT);
}

// Claims only what is ours: the prefix, or the job file extension.
int Identify(GDALOpenInfo *info)
{
    return xgo_conn_has_prefix(info->pszFilename) || IsJobFile(info);
}

GDALDataset *Open(GDALOpenInfo *info)
{
    // GA_Update is accepted (ogrinfo without -ro and QGIS ask for it):
    // the layer refuses each write instead, with the reason.
    if (!(info->nOpenFlags & GDAL_OF_VECTOR) || !Identify(info))
        return nullptr;
    struct xgo_pjob job = {};
    char err[1024] = "";
    char **oo = info->papszOpenOptions;
    const char *engine = CSLFetchNameValue(oo, "ENGINE");
    const char *grid = CSLFetchNameValue(oo, "GRID");
    if (xgo_pjob_open(&job, info->pszFilename, !xgo_conn_has_prefix(
                          info->pszFilename), engine, grid, err,
                      sizeof err) != XG_OK) {
        CPLError(CE_Failure, CPLE_OpenFailed, "EXACTGEO: %s", err);
        return nullptr;
    }
    // Run now, once: an error found while reading the inputs (a bad
    // filter, a CRS mismatch, a NaN) then fails the open, so that
    // ogr2ogr and ogrinfo exit non-zero rather than write an empty layer.
    // GDAL's Open takes no progress callback: PROGRESS=YES draws a bar on
    // stderr instead.
    int tick = -1;
    bool bar = CPLTestBool(CSLFetchNameValueDef(
        oo, "PROGRESS", CPLGetConfigOption("EXACTGEO_PROGRESS", "NO")));
    xgo_result *res = nullptr;
    int rc = xgo_result_get(&job, bar ? xgo_progress_stderr : nullptr, &tick,
                            &res, err, sizeof err);
    CPLString name(xgo_pjob_layer_name(&job));
    xgo_pjob_free(&job);
    if (tick >= 0 && tick < 40)     // a failed run: end the bar's line
        fputc('\n', stderr);
    if (rc != XG_OK) {
        CPLError(CE_Failure, CPLE_AppDefined, "EXACTGEO: %s", err);
        return nullptr;
    }
    auto *ds = new ExactgeoDataset(res, name);
    ds->SetDescription(info->pszFilename);
    return ds;
}

} // namespace

// GDAL's loader looks for RegisterOGREXACTGEO in ogr_EXACTGEO.so, then
// GDALRegisterMe; GDALRegister_EXACTGEO is the name for static linking.
extern "C" void GDALRegister_EXACTGEO();
extern "C" void RegisterOGREXACTGEO();
extern "C" void GDALRegisterMe();

// Registers the driver once, and only into the GDAL it was built for.
void GDALRegister_EXACTGEO()
{
    if (!GDAL_CHECK_VERSION(DRIVER_NAME))
        return;
    if (GDALGetDriverByName(DRIVER_NAME) != nullptr)
        return;

    auto *drv = new GDALDriver();
    drv->SetDescription(DRIVER_NAME);
    drv->SetMetadataItem(GDAL_DCAP_VECTOR, "YES");
    // the operations of the table, as ogrinfo --formats lists them
    char ops[256];
    xgo_op_list(ops, sizeof ops);
    drv->SetMetadataItem(GDAL_DMD_LONGNAME,
                         CPLSPrintf("exactgeo exact geometry (%s)", ops));
    drv->SetMetadataItem(GDAL_DMD_EXTENSION, XGO_JOB_EXT);
    drv->SetMetadataItem(GDAL_DMD_CONNECTION_PREFIX, XGO_CONN_PREFIX);
    drv->SetMetadataItem(GDAL_DCAP_Z_GEOMETRIES, "YES");
    drv->SetMetadataItem(
        GDAL_DMD_OPENOPTIONLIST,
        "<OpenOptionList>"
        "  <Option name='ENGINE' type='string-select' "
        "description='Engine (overrides engine= of the job)' default='auto'>"
        "    <Value>auto</Value><Value>seq</Value><Value>cpu</Value>"
        "    <Value>gpu</Value>"
        "  </Option>"
        "  <Option name='GRID' type='string' "
        "description='Grid cells: N or NX,NY,NZ (overrides grid= of the "
        "job); default: chosen from the element counts'/>"
        "  <Option name='PROGRESS' type='boolean' "
        "description='Draw the progress of the job, which runs during the "
        "open, on stderr (or set the config option EXACTGEO_PROGRESS)' "
        "default='NO'/>"
        "</OpenOptionList>");
    drv->pfnIdentify = Identify;
    drv->pfnOpen = Open;
    GetGDALDriverManager()->RegisterDriver(drv);
}

void RegisterOGREXACTGEO()
{
    GDALRegister_EXACTGEO();
}

void GDALRegisterMe()
{
    GDALRegister_EXACTGEO();
}
