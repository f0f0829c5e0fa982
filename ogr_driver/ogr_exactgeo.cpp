/*
 * ogr_exactgeo.cpp -- the EXACTGEO vector driver: the thin C++ shim GDAL
 * demands (a driver, a dataset, a layer).  All logic is in C, in
 * xgo_plugin.c and xgo_conn.c.
 *
 * Opens an EXACTGEO: connection string or a .xgjob job file (syntax in
 * xgo_conn.h) as a read-only dataset of one layer: the contacts the
 * exactgeo tool would write, with the same fields and geometries.  Open
 * checks the text and opens both inputs, then runs the intersection
 * once into a MEM dataset, to which the layer delegates reading,
 * counting and filters (so no error can surface after the open).
 */
#include <gdal_priv.h>
#include <ogrsf_frmts.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>

#include "xgo_plugin.h"

namespace {

const char *const DRIVER_NAME = "EXACTGEO";

class ExactgeoLayer final : public OGRLayer
{
    struct xgo_pjob m_job;           // owned; freed in the destructor
    CPLString m_name;
    bool m_tried = false;            // the run happened (or failed)
    GDALDataset *m_mem = nullptr;    // the run's result, owned
    OGRLayer *m_res = nullptr;       // its layer, owned by m_mem
    OGRFeatureDefn *m_empty = nullptr; // the definition after a failure

  public:
    // Runs the job once; false after a failure (reported by CPLError).
    bool Ready()
    {
        if (!m_tried) {
            char err[1024] = "";
            GDALDatasetH mem = nullptr;
            m_tried = true;
            if (xgo_pjob_run(&m_job, &mem, err, sizeof err) != XG_OK) {
                CPLError(CE_Failure, CPLE_AppDefined, "EXACTGEO: %s", err);
                return false;
            }
            m_mem = GDALDataset::FromHandle(mem);
            m_res = m_mem->GetLayerByName(m_name);
            if (!m_res) {
                CPLError(CE_Failure, CPLE_AppDefined,
                         "EXACTGEO: the run made no layer '%s'",
                         m_name.c_str());
                return false;
            }
            if (m_poFilterGeom)
                m_res->SetSpatialFilter(m_iGeomFieldFilter, m_poFilterGeom);
        }
        return m_res != nullptr;
    }

    explicit ExactgeoLayer(struct xgo_pjob *job)
        : m_job(*job), m_name(xgo_pjob_layer_name(job))
    {
        *job = {};  // ownership moves here
    }

    ~ExactgeoLayer() override
    {
        if (m_mem)
            GDALClose(GDALDataset::ToHandle(m_mem));
        if (m_empty)
            m_empty->Release();
        xgo_pjob_free(&m_job);
    }

    const char *GetName() override { return m_name.c_str(); }

    OGRFeatureDefn *GetLayerDefn() override
    {
        if (Ready())
            return m_res->GetLayerDefn();
        if (!m_empty) {
            m_empty = new OGRFeatureDefn(m_name);
            m_empty->SetGeomType(wkbNone);
            m_empty->Reference();
        }
        return m_empty;
    }

    void ResetReading() override
    {
        if (Ready())
            m_res->ResetReading();
    }

    OGRFeature *GetNextFeature() override
    {
        return Ready() ? m_res->GetNextFeature() : nullptr;
    }

    OGRFeature *GetFeature(GIntBig fid) override
    {
        return Ready() ? m_res->GetFeature(fid) : nullptr;
    }

    GIntBig GetFeatureCount(int force) override
    {
        return Ready() ? m_res->GetFeatureCount(force) : 0;
    }

    OGRErr GetExtent(OGREnvelope *env, int force) override
    {
        return Ready() ? m_res->GetExtent(env, force) : OGRERR_FAILURE;
    }

    OGRErr GetExtent(int geom_field, OGREnvelope *env, int force) override
    {
        return Ready() ? m_res->GetExtent(geom_field, env, force)
                       : OGRERR_FAILURE;
    }

    // Filters: kept by the base class too (so that GetSpatialFilter
    // answers), applied by the MEM layer.
    void SetSpatialFilter(OGRGeometry *geom) override
    {
        SetSpatialFilter(0, geom);
    }

    void SetSpatialFilter(int geom_field, OGRGeometry *geom) override
    {
        m_iGeomFieldFilter = geom_field;
        InstallFilter(geom);
        if (Ready())
            m_res->SetSpatialFilter(geom_field, geom);
    }

    OGRErr SetAttributeFilter(const char *where) override
    {
        if (!Ready())
            return OGRERR_FAILURE;
        return m_res->SetAttributeFilter(where);
    }

    int TestCapability(const char *cap) override
    {
        // Read-only: no write capability, whatever MEM could do.
        if (EQUAL(cap, OLCRandomRead) || EQUAL(cap, OLCFastFeatureCount) ||
            EQUAL(cap, OLCFastGetExtent) || EQUAL(cap, OLCStringsAsUTF8) ||
            EQUAL(cap, OLCFastSpatialFilter) ||
            EQUAL(cap, OLCZGeometries) || EQUAL(cap, OLCCurveGeometries))
            return Ready() ? m_res->TestCapability(cap) : FALSE;
        return FALSE;
    }
};

class ExactgeoDataset final : public GDALDataset
{
    ExactgeoLayer *m_layer;

  public:
    explicit ExactgeoDataset(struct xgo_pjob *job)
        : m_layer(new ExactgeoLayer(job))
    {
    }
    ~ExactgeoDataset() override { delete m_layer; }

    bool Run() { return m_layer->Ready(); }

    int GetLayerCount() override { return 1; }
    OGRLayer *GetLayer(int i) override { return i == 0 ? m_layer : nullptr; }
    int TestCapability(const char *) override { return FALSE; }
};

bool IsJobFile(GDALOpenInfo *info)
{
    return info->fpL != nullptr &&
           EQUAL(CPLGetExtension(info->pszFilename), XGO_JOB_EXT) &&
           xgo_conn_is_job(reinterpret_cast<const char *>(info->pabyHeader),
                           static_cast<size_t>(info->nHeaderBytes));
}

// Claims only what is ours: the prefix, or a job file with its magic.
int Identify(GDALOpenInfo *info)
{
    return xgo_conn_has_prefix(info->pszFilename) || IsJobFile(info);
}

GDALDataset *Open(GDALOpenInfo *info)
{
    if (!(info->nOpenFlags & GDAL_OF_VECTOR) || !Identify(info))
        return nullptr;
    if (info->eAccess == GA_Update) {
        CPLError(CE_Failure, CPLE_NotSupported,
                 "EXACTGEO: the contacts layer is read-only; write it with "
                 "ogr2ogr or the exactgeo tool");
        return nullptr;
    }
    struct xgo_pjob job = {};
    char err[1024] = "";
    const char *engine = CSLFetchNameValue(info->papszOpenOptions, "ENGINE");
    const char *grid = CSLFetchNameValue(info->papszOpenOptions, "GRID");
    if (xgo_pjob_open(&job, info->pszFilename, !xgo_conn_has_prefix(
                          info->pszFilename), engine, grid, err,
                      sizeof err) != XG_OK) {
        CPLError(CE_Failure, CPLE_OpenFailed, "EXACTGEO: %s", err);
        return nullptr;
    }
    auto *ds = new ExactgeoDataset(&job);
    ds->SetDescription(info->pszFilename);
    // Run now, once: an error found while reading the inputs (a bad
    // filter, a CRS mismatch, a NaN) then fails the open, so that
    // ogr2ogr and ogrinfo exit non-zero rather than write an empty layer.
    if (!ds->Run()) {
        delete ds;
        return nullptr;
    }
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
    drv->SetMetadataItem(GDAL_DMD_LONGNAME,
                         "exactgeo exact intersections (segtri, redblue)");
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
