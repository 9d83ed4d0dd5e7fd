// Files that VTK's own readers must read back equal: one wavefield snapshot written as VTKHDF
// ImageData (vtkHDFReader) against the CPU engine's field, and the voxel model exported as .vti
// (vtkXMLImageDataReader) against the model.
#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkHDFReader.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>
#include <vtkXMLImageDataReader.h>

#include "document/model_vti.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "scene/snapshots.hpp"
#include "scene_builders.hpp"
#include "test_util.hpp"
#include "wave/time_stepper_cpu.hpp"
#include "wave/wave_problem.hpp"
#include "wave/wave_run.hpp"

namespace voxwave {
namespace {

// The image's points per axis, origin and spacing (exactly, or within `tolerance`).
void expect_geometry(vtkImageData* image, const std::array<int, 3>& points, const Vec3& origin, double spacing,
                     double tolerance) {
    int dims[3];
    double o[3], d[3];
    image->GetDimensions(dims);
    image->GetOrigin(o);
    image->GetSpacing(d);
    for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(dims[a], points[std::size_t(a)]) << "axis " << a;
        EXPECT_NEAR(o[a], origin[std::size_t(a)], tolerance) << "axis " << a;
        EXPECT_NEAR(d[a], spacing, tolerance) << "axis " << a;
    }
}

TEST(VtkReadback, VtkhdfSnapshotReadByVtkHdfReaderEqualsTheEngineField) {
    test::TempDir dir;
    Scene s = testing::block_scene(6, 5, 4, 1e-3);
    s.sources.push_back({"S", {3e-3, 2e-3, 2e-3}, {0.2, -0.4, 1}, 1e3, testing::ricker(400e3, 2e-6)});
    s.run.steps = 9;
    s.run.dt = 5e-8;
    SnapshotSpec spec;
    spec.times = {4e-7};  // step 8
    spec.region = SnapshotRegion{{1e-3, 0, 1e-3}, {6e-3, 5e-3, 4e-3}};
    spec.stride = 2;
    s.snapshots = spec;
    validate_scene(s, "s.json");
    const WaveProblem p = build_wave_problem(s, "s.json");
    write_result_h5(dir.file("r.h5"), run_wave(p, {}));
    const SnapshotFrame frame = read_snapshot(dir.file("r.h5"), "u", 0);
    write_snapshot_vtkhdf(dir.file("s.vtkhdf"), frame);

    vtkNew<vtkHDFReader> reader;
    ASSERT_TRUE(reader->CanReadFile(dir.file("s.vtkhdf").c_str()));
    reader->SetFileName(dir.file("s.vtkhdf").c_str());
    reader->Update();
    auto* image = vtkImageData::SafeDownCast(reader->GetOutputDataObject(0));
    ASSERT_NE(image, nullptr);
    // Nodes x = 1, 3, 5; y = 0, 2, 4; z = 1, 3 (region and stride 2).
    expect_geometry(image, {3, 3, 2}, {1e-3, 0, 1e-3}, 2e-3, 1e-15);
    vtkDataArray* u = image->GetPointData()->GetArray("u");
    ASSERT_NE(u, nullptr);
    ASSERT_EQ(u->GetNumberOfComponents(), 3);
    ASSERT_EQ(u->GetNumberOfTuples(), 18);

    CpuTimeStepper<double> stepper(p);
    for (std::int64_t n = 0; n < 8; ++n) stepper.step(n);
    const std::vector<double> field = stepper.displacement();
    const std::size_t nn = p.grid.node_count();
    double peak = 0;
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i) {
                // VTK's own point lookup, so the order is VTK's and not the writer's.
                int ijk[3] = {i, j, k};
                const vtkIdType id = image->ComputePointId(ijk);
                const std::size_t node = p.grid.node_index(1 + 2 * i, 2 * j, 1 + 2 * k);
                for (int c = 0; c < 3; ++c) {
                    const double want = field[std::size_t(c) * nn + node];
                    EXPECT_EQ(u->GetComponent(id, c), want) << i << " " << j << " " << k << " c " << c;
                    peak = std::max(peak, std::fabs(want));
                }
            }
    EXPECT_GT(peak, 0);
}

TEST(VtkReadback, VtiModelReadByVtkXmlReaderEqualsTheModel) {
    test::TempDir dir;
    VoxelGrid g;
    g.n = {7, 5, 3};
    g.spacing = 0.0025;
    g.origin = {-0.01, 0.002, 0.5};
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 5; ++j)
            for (int i = 0; i < 7; ++i) g.ids.push_back(MaterialId((i * 3 + j * 5 + k * 7) % 4));
    const std::vector<Material> materials = {
        testing::concrete(), testing::steel(), {"air gap", 1.2, 343, 0, "#ffffff", ""}};
    ui::write_model_vti(dir.file("m.vti"), g, materials);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"m.vti"});  // no temporary file left

    vtkNew<vtkXMLImageDataReader> reader;
    reader->SetFileName(dir.file("m.vti").c_str());
    reader->Update();
    vtkImageData* image = reader->GetOutput();
    expect_geometry(image, {8, 6, 4}, g.origin, g.spacing, 0);
    vtkDataArray* ids = image->GetCellData()->GetArray("material_id");
    ASSERT_NE(ids, nullptr);
    ASSERT_EQ(ids->GetNumberOfTuples(), vtkIdType(g.element_count()));
    for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 5; ++j)
            for (int i = 0; i < 7; ++i) {
                int ijk[3] = {i, j, k};
                ASSERT_EQ(ids->GetComponent(image->ComputeCellId(ijk), 0), double((i * 3 + j * 5 + k * 7) % 4));
            }
    auto* names = vtkStringArray::SafeDownCast(image->GetFieldData()->GetAbstractArray("material_names"));
    ASSERT_NE(names, nullptr);
    ASSERT_EQ(names->GetNumberOfValues(), 3);
    EXPECT_EQ(names->GetValue(2), "air gap");
}

TEST(VtkReadback, VtiExportToAMissingFolderIsAnInputError) {
    test::TempDir dir;
    VoxelGrid g;
    g.n = {1, 1, 1};
    g.spacing = 1;
    g.ids = {1};
    const InputError e =
        test::catch_input_error([&] { ui::write_model_vti(dir.file("missing/m.vti"), g, {testing::steel()}); });
    EXPECT_EQ(e.file(), dir.file("missing/m.vti"));
}

}  // namespace
}  // namespace voxwave
