// Each painting tool touches exactly the voxels it should; painting through the document is
// undone and redone exactly.
#include <QtTest>
#include <set>

#include "../engine/scene_builders.hpp"
#include "document/edit_commands.hpp"
#include "document/scene_document.hpp"
#include "editing/paint_tools.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

VoxelGrid grid(int nx, int ny, int nz, MaterialId fill = 1) {
    VoxelGrid g;
    g.n = {nx, ny, nz};
    g.spacing = 0.001;
    g.ids.assign(g.element_count(), fill);
    return g;
}

// The (a, b) cells of an XZ slice at layer j, as a set, from element indices.
std::set<std::pair<int, int>> cells_xz(const VoxelGrid& g, const std::vector<std::size_t>& idx, int j) {
    std::set<std::pair<int, int>> out;
    for (std::size_t e : idx) {
        const int i = int(e % g.n[0]), jj = int((e / g.n[0]) % g.n[1]), k = int(e / (std::size_t(g.n[0]) * g.n[1]));
        if (jj != j) out.insert({-1, -1});  // off the slice: must never happen
        out.insert({i, k});
    }
    return out;
}

// 10 x 4 x 6 mm of concrete at 1 mm, steel in the table.
Scene two_material_scene() { return testing::concrete_block_with_steel(10, 4, 6, 1e-3); }

}  // namespace

class TestPaintTools : public QObject {
    Q_OBJECT
private slots:
    void brushSizes() {
        const VoxelGrid g = grid(10, 4, 8);
        const SliceRef s{SlicePlane::XZ, 2};
        using C = std::set<std::pair<int, int>>;
        QCOMPARE(cells_xz(g, brush_cells(g, s, {4, 4}, 1), 2), (C{{4, 4}}));
        // Size 3: every cell centre within 1.5 cells: the full 3 x 3 block.
        C three;
        for (int a = 3; a <= 5; ++a)
            for (int b = 3; b <= 5; ++b) three.insert({a, b});
        QCOMPARE(cells_xz(g, brush_cells(g, s, {4, 4}, 3), 2), three);
        // Size 4: centred on the corner (3.5, 3.5), radius 2: a 4 x 4 block minus its corners.
        C four;
        for (int a = 2; a <= 5; ++a)
            for (int b = 2; b <= 5; ++b)
                if (!((a == 2 || a == 5) && (b == 2 || b == 5))) four.insert({a, b});
        QCOMPARE(cells_xz(g, brush_cells(g, s, {4, 4}, 4), 2), four);
        // Clipped at the slice edge, never outside the grid.
        QCOMPARE(cells_xz(g, brush_cells(g, s, {0, 0}, 3), 2), (C{{0, 0}, {1, 0}, {0, 1}, {1, 1}}));
    }

    void rectangleEllipseLine() {
        const VoxelGrid g = grid(10, 4, 8);
        const SliceRef s{SlicePlane::XZ, 1};
        using C = std::set<std::pair<int, int>>;
        QCOMPARE(cells_xz(g, rectangle_cells(g, s, {3, 2}, {1, 1}), 1),
                 (C{{1, 1}, {2, 1}, {3, 1}, {1, 2}, {2, 2}, {3, 2}}));
        // Ellipse in the 5 x 3 box (0..4, 0..2): centre (2, 1), radii 2.5 and 1.5.
        C ell;
        for (int a = 0; a <= 4; ++a)
            for (int b = 0; b <= 2; ++b) {
                const double x = (a - 2) / 2.5, y = (b - 1) / 1.5;
                if (x * x + y * y <= 1) ell.insert({a, b});
            }
        QCOMPARE(ell.size(), std::size_t(11));  // the 15 cells minus the 4 corners
        QCOMPARE(cells_xz(g, ellipse_cells(g, s, {0, 0}, {4, 2}), 1), ell);
        // A line from (0,0) to (4,2): one cell per column, each within half a cell of b = a / 2,
        // and both ends included.
        const auto line = cells_xz(g, line_cells(g, s, {0, 0}, {4, 2}, 1), 1);
        QCOMPARE(line.size(), std::size_t(5));
        std::set<int> columns;
        for (auto [a, b] : line) {
            columns.insert(a);
            QVERIFY(std::abs(b - a / 2.0) <= 0.5);
        }
        QCOMPARE(columns.size(), std::size_t(5));
        QVERIFY(line.count({0, 0}) && line.count({4, 2}));
    }

    void floodFillStopsAtOtherMaterials() {
        VoxelGrid g = grid(6, 3, 5);
        // A ring of material 2 around the cell (2, 2) on layer 1 of the XZ plane.
        const SliceRef s{SlicePlane::XZ, 1};
        for (auto [a, b] : {std::pair{1, 1}, {2, 1}, {3, 1}, {1, 2}, {3, 2}, {1, 3}, {2, 3}, {3, 3}})
            g.ids[slice_element_index(g, s, a, b)] = 2;
        QCOMPARE(fill_cells(g, s, {2, 2}).size(), std::size_t(1));       // the enclosed cell alone
        QCOMPARE(fill_cells(g, s, {0, 0}).size(), std::size_t(30 - 9));  // everything outside the ring
        QCOMPARE(fill_cells(g, s, {1, 1}).size(), std::size_t(8));       // the ring itself
        QVERIFY(fill_cells(g, s, {7, 0}).empty());                       // outside the slice
    }

    void otherPlanesIndexTheRightElements() {
        const VoxelGrid g = grid(5, 4, 3);
        QCOMPARE(slice_element_index(g, {SlicePlane::XY, 2}, 3, 1), g.element_index(3, 1, 2));
        QCOMPARE(slice_element_index(g, {SlicePlane::YZ, 4}, 3, 1), g.element_index(4, 3, 1));
        QCOMPARE(slice_element_extent(g, SlicePlane::YZ), (std::array<int, 3>{4, 3, 5}));
    }

    void paintUndoRedo() {
        SceneDocument doc;
        doc.reset(two_material_scene());
        const std::vector<MaterialId> before = doc.model().ids;
        const SliceRef s{SlicePlane::XZ, 2};
        const auto cells = rectangle_cells(doc.model(), s, {2, 1}, {4, 3});
        auto* cmd = new PaintVoxelsCommand(&doc, cells, 2, "rect");
        QVERIFY(!cmd->empty());
        doc.undoStack()->push(cmd);
        QVERIFY(doc.painted());
        QVERIFY(doc.isModified());
        std::size_t changed = 0;
        for (std::size_t i = 0; i < before.size(); ++i)
            if (doc.model().ids[i] != before[i]) {
                ++changed;
                QVERIFY(std::find(cells.begin(), cells.end(), i) != cells.end());
                QCOMPARE(int(doc.model().ids[i]), 2);
            }
        QCOMPARE(changed, std::size_t(9));
        const auto after = doc.model().ids;
        doc.undoStack()->undo();
        QVERIFY(doc.model().ids == before);
        QVERIFY(!doc.painted());
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        QVERIFY(doc.model().ids == after);
        // Painting what is already there changes nothing and is not an undo step.
        PaintVoxelsCommand same(&doc, cells, 2, "again");
        QVERIFY(same.empty());
    }
};

QTEST_MAIN(TestPaintTools)
#include "test_paint_tools.moc"
