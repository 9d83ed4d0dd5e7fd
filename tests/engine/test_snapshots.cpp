// Wavefield snapshots (run.snapshots): the XDMF file parses, every dataset it references exists
// with the stated shape, and the snapshot read through it equals the CPU engine's own field at
// the nodes and steps the test computes itself; the scene key's rules and round trip.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "core/hdf5_util.hpp"
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

using test::catch_input_error;
using test::expect_error;

// A small XML reader written for this test (elements, attributes, text; no entities beyond the
// declaration and doctype XDMF files start with), so the file is checked by a parser that does
// not share code with the writer.
struct XmlNode {
    std::string name, text;
    std::map<std::string, std::string> attributes;
    std::vector<std::unique_ptr<XmlNode>> children;
    std::vector<const XmlNode*> all(const std::string& child) const {
        std::vector<const XmlNode*> out;
        for (const auto& c : children)
            if (c->name == child) out.push_back(c.get());
        return out;
    }
    const XmlNode& one(const std::string& child) const {
        const auto list = all(child);
        if (list.size() != 1) throw std::runtime_error("expected one <" + child + "> in <" + name + ">");
        return *list[0];
    }
};

class XmlReader {
public:
    explicit XmlReader(std::string text) : s_(std::move(text)) {}

    std::unique_ptr<XmlNode> document() {
        skip_prolog();
        auto root = element();
        skip_space();
        if (pos_ != s_.size()) fail("text after the root element");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error("XML: " + what + " at offset " + std::to_string(pos_));
    }
    void skip_space() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    void skip_prolog() {
        for (skip_space(); s_.compare(pos_, 2, "<?") == 0 || s_.compare(pos_, 2, "<!") == 0; skip_space()) {
            const std::size_t end = s_.find('>', pos_);
            if (end == std::string::npos) fail("unclosed declaration");
            pos_ = end + 1;
        }
    }
    std::string name() {
        const std::size_t start = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
        if (pos_ == start) fail("expected a name");
        return s_.substr(start, pos_ - start);
    }
    std::unique_ptr<XmlNode> element() {
        if (s_[pos_] != '<') fail("expected '<'");
        ++pos_;
        auto node = std::make_unique<XmlNode>();
        node->name = name();
        for (skip_space(); s_[pos_] != '>' && s_[pos_] != '/'; skip_space()) {
            const std::string key = name();
            if (s_[pos_++] != '=' || s_[pos_++] != '"') fail("expected =\"");
            const std::size_t end = s_.find('"', pos_);
            if (end == std::string::npos) fail("unclosed attribute");
            if (!node->attributes.emplace(key, s_.substr(pos_, end - pos_)).second) fail("repeated attribute " + key);
            pos_ = end + 1;
        }
        if (s_[pos_] == '/') {
            if (s_[++pos_] != '>') fail("expected '>'");
            ++pos_;
            return node;
        }
        ++pos_;
        while (true) {
            const std::size_t lt = s_.find('<', pos_);
            if (lt == std::string::npos) fail("unclosed <" + node->name + ">");
            node->text += s_.substr(pos_, lt - pos_);
            pos_ = lt;
            if (s_.compare(pos_, 2, "</") == 0) {
                pos_ += 2;
                if (name() != node->name) fail("mismatched end tag of <" + node->name + ">");
                if (s_[pos_++] != '>') fail("expected '>'");
                return node;
            }
            node->children.push_back(element());
        }
    }
    std::string s_;
    std::size_t pos_ = 0;
};

std::vector<double> numbers(const std::string& text) {
    std::istringstream in(text);
    std::vector<double> out;
    for (double v; in >> v;) out.push_back(v);
    return out;
}

std::vector<hsize_t> dimensions(const std::string& text) {
    std::vector<hsize_t> out;
    for (double v : numbers(text)) out.push_back(static_cast<hsize_t>(v));
    return out;
}

// A 6 x 5 x 4 block at 1 mm with a point force inside, 12 steps, snapshots every 5 steps (n = 5
// and 10) of u and v in the region [1, 5] x [0.5, 4] x [0, 3] mm at stride 2: nodes x = 1, 3, 5;
// y = 1, 3; z = 0, 2.
Scene snapshot_scene() {
    Scene s = testing::block_scene(6, 5, 4, 1e-3);
    s.sources.push_back({"S", {3e-3, 2e-3, 2e-3}, {0.3, 0.2, 1}, 1e3, testing::ricker(400e3, 2e-6)});
    s.run.steps = 12;
    s.run.dt = 5e-8;
    SnapshotSpec spec;
    spec.every = 5;
    spec.fields = {"v", "u"};
    spec.region = SnapshotRegion{{1e-3, 0.5e-3, 0}, {5e-3, 4e-3, 3e-3}};
    spec.stride = 2;
    s.snapshots = spec;
    validate_scene(s, "snap.json");
    return s;
}

constexpr int kNodes[3][3] = {{1, 3, 5}, {1, 3, -1}, {0, 2, -1}};  // sampled node indices per axis

TEST(Snapshots, XdmfReferencesEveryDatasetAndOneSnapshotEqualsTheEngineField) {
    test::TempDir dir;
    const Scene scene = snapshot_scene();
    const WaveProblem p = build_wave_problem(scene, "snap.json");
    Result r = run_wave(p, {});
    ASSERT_EQ(r.snapshots.steps, (std::vector<std::int64_t>{5, 10}));
    const std::string h5 = dir.file("run.h5");
    write_result_h5(h5, r);

    // The engine's own fields after 9, 10 and 11 steps.
    CpuTimeStepper<double> stepper(p);
    std::vector<double> u9, u10, u11;
    for (std::int64_t n = 0; n < 11; ++n) {
        if (n == 9) u9 = stepper.displacement();
        if (n == 10) u10 = stepper.displacement();
        stepper.step(n);
    }
    u11 = stepper.displacement();
    const std::size_t nn = p.grid.node_count();

    const auto doc = XmlReader(test::read_file(dir.file("run.xmf"))).document();
    ASSERT_EQ(doc->name, "Xdmf");
    const XmlNode& series = doc->one("Domain").one("Grid");
    EXPECT_EQ(series.attributes.at("CollectionType"), "Temporal");
    const auto grids = series.all("Grid");
    ASSERT_EQ(grids.size(), 2u);
    h5::File file = h5::File::open_read(h5);
    double peak = 0;
    for (std::size_t s = 0; s < grids.size(); ++s) {
        const XmlNode& g = *grids[s];
        EXPECT_DOUBLE_EQ(std::stod(g.one("Time").attributes.at("Value")), double(5 * (s + 1)) * 5e-8);
        EXPECT_EQ(dimensions(g.one("Topology").attributes.at("Dimensions")), (std::vector<hsize_t>{2, 2, 3}));
        const auto items = g.one("Geometry").all("DataItem");
        ASSERT_EQ(items.size(), 2u);
        const std::vector<double> origin = numbers(items[0]->text), spacing = numbers(items[1]->text);
        ASSERT_EQ(origin.size(), 3u);  // z, y, x
        EXPECT_NEAR(origin[0], 0.0, 1e-15);
        EXPECT_NEAR(origin[1], 1e-3, 1e-15);
        EXPECT_NEAR(origin[2], 1e-3, 1e-15);
        for (double d : spacing) EXPECT_NEAR(d, 2e-3, 1e-15);
        const auto attributes = g.all("Attribute");
        ASSERT_EQ(attributes.size(), 2u);
        for (const XmlNode* a : attributes) {
            const XmlNode& item = a->one("DataItem");
            const std::string ref = item.text.substr(item.text.find_first_not_of(" \n"));
            const std::size_t colon = ref.find(':');
            ASSERT_NE(colon, std::string::npos) << ref;
            EXPECT_EQ(ref.substr(0, colon), "run.h5");
            const std::string dataset = ref.substr(colon + 1, ref.find_last_not_of(" \n") - colon);
            ASSERT_TRUE(file.has_dataset(dataset)) << dataset;
            EXPECT_EQ(file.dims(dataset), dimensions(item.attributes.at("Dimensions"))) << dataset;
            EXPECT_EQ(file.dims(dataset), (std::vector<hsize_t>{2, 2, 3, 3})) << dataset;
            if (s != 1) continue;
            // The second snapshot (n = 10), read through the XDMF reference.
            const std::string field = a->attributes.at("Name");
            const std::vector<double> values = file.read_doubles(dataset);
            std::size_t v = 0;
            for (int k = 0; k < 2; ++k)
                for (int j = 0; j < 2; ++j)
                    for (int i = 0; i < 3; ++i, ++v) {
                        const std::size_t node = p.grid.node_index(kNodes[0][i], kNodes[1][j], kNodes[2][k]);
                        for (int c = 0; c < 3; ++c) {
                            const std::size_t at = std::size_t(c) * nn + node;
                            const double want = field == "u" ? u10[at] : (u11[at] - u9[at]) / (2 * p.dt);
                            EXPECT_EQ(values[v * 3 + c], want) << field << " node " << node << " c " << c;
                            peak = std::max(peak, std::fabs(want));
                        }
                    }
        }
    }
    EXPECT_GT(peak, 0) << "the wave must have reached the region by step 10";
}

TEST(Snapshots, ReadSnapshotAndStrideOneGivesTheWholeGrid) {
    test::TempDir dir;
    Scene scene = snapshot_scene();
    scene.snapshots->region.reset();
    scene.snapshots->stride = 1;
    scene.snapshots->every = 0;
    scene.snapshots->times = {2.6e-7, 5.4e-7};  // steps 5 and 11 (round(t / dt))
    scene.snapshots->fields = {"u"};
    const WaveProblem p = build_wave_problem(scene, "snap.json");
    Result r = run_wave(p, {});
    write_result_h5(dir.file("whole.h5"), r);
    EXPECT_EQ(snapshot_count(dir.file("whole.h5")), 2u);
    const SnapshotFrame f = read_snapshot(dir.file("whole.h5"), "u", 1);
    EXPECT_EQ(f.step, 11);
    EXPECT_EQ(f.grid.count, (std::array<int, 3>{7, 6, 5}));
    CpuTimeStepper<double> stepper(p);
    for (std::int64_t n = 0; n < 11; ++n) stepper.step(n);
    const std::vector<double> u = stepper.displacement();
    const std::size_t nn = p.grid.node_count();
    ASSERT_EQ(f.values.size(), nn * 3);
    for (std::size_t node = 0; node < nn; ++node)
        for (int c = 0; c < 3; ++c) ASSERT_EQ(f.values[node * 3 + c], u[std::size_t(c) * nn + node]);
    expect_error(catch_input_error([&] { read_snapshot(dir.file("whole.h5"), "v", 0); }), dir.file("whole.h5"),
                 "/snapshots/v/0", "missing dataset");
    expect_error(catch_input_error([&] { read_snapshot(dir.file("whole.h5"), "u", 2); }), dir.file("whole.h5"),
                 "/snapshots", "no snapshot 2");
}

TEST(Snapshots, SceneKeyRoundTrips) {
    const Scene s = snapshot_scene();
    const Scene back = parse_scene_json(scene_to_json_text(s), "back.json", "");
    ASSERT_TRUE(back.snapshots.has_value());
    EXPECT_EQ(*back.snapshots, *s.snapshots);
    EXPECT_EQ(back, s);
}

std::string scene_with_snapshots(const std::string& snapshots) {
    return R"({"format": "voxwave-scene", "version": 1,
      "grid": {"size": [0.006, 0.005, 0.004], "spacing": 0.001},
      "materials": [{"name": "steel", "density": 7850, "vp": 5900, "vs": 3200}], "background": "steel",
      "sources": [{"position": [0.003, 0.002, 0.002], "wavelet": {"type": "ricker", "frequency": 4e5}}],
      "run": {"steps": 12, "dt": 5e-8, "backend": "cpu", "snapshots": )" +
           snapshots + "}}";
}

void expect_scene_error(const std::string& snapshots, const std::string& field, const std::string& reason) {
    SCOPED_TRACE(snapshots);
    expect_error(catch_input_error([&] {
                     const Scene s = parse_scene_json(scene_with_snapshots(snapshots), "bad.json", "");
                     build_wave_problem(s, "bad.json");
                 }),
                 "bad.json", field, reason);
}

TEST(Snapshots, BadSpecsNameTheFieldInOneLine) {
    expect_scene_error(R"({"every": 5, "fields": ["w"]})", "run.snapshots.fields[0]", "unknown field 'w'");
    expect_scene_error(R"({"every": 5, "fields": ["u", "u"]})", "run.snapshots.fields[1]", "named twice");
    expect_scene_error(R"({"every": 5, "fields": []})", "run.snapshots.fields", "at least one");
    expect_scene_error(R"({"every": 5, "stride": 0})", "run.snapshots.stride", "from 1");
    expect_scene_error(R"({"every": 5, "times": [1e-7]})", "run.snapshots", "not both");
    expect_scene_error(R"({"fields": ["u"]})", "run.snapshots", "either every");
    expect_scene_error(R"({"every": -2})", "run.snapshots.every", ">= 1");
    expect_scene_error(R"({"times": [2e-7, 1e-7]})", "run.snapshots.times[1]", "ascend");
    expect_scene_error(R"({"every": 5, "region": {"min": [0, 0, 0], "max": [0.007, 0.004, 0.003]}})",
                       "run.snapshots.region.max", "outside the model box along x");
    expect_scene_error(R"({"every": 5, "region": {"min": [0.002, 0, 0], "max": [0.001, 0.004, 0.003]}})",
                       "run.snapshots.region.max", "greater than min");
    expect_scene_error(R"({"every": 5, "region": {"min": [0.0012, 0, 0], "max": [0.0018, 0.004, 0.003]}})",
                       "run.snapshots.region", "no grid node along x");
    expect_scene_error(R"({"every": 5, "region": {"min": [0, 0, 0]}})", "run.snapshots.region.max",
                       "missing required key");
    expect_scene_error(R"({"every": 5, "colour": "red"})", "run.snapshots.colour", "unknown key");
    // Rules that need the run's dt and steps.
    expect_scene_error(R"({"every": 12})", "run.snapshots.every", "the run has 12 steps");
    expect_scene_error(R"({"times": [6e-7]})", "run.snapshots.times[0]", "after the run's last sample");
    expect_scene_error(R"({"times": [1e-7, 1.1e-7]})", "run.snapshots.times[1]", "same step");
}

TEST(Snapshots, StepsAndStridesAsRequested) {
    VoxelGrid g;
    g.n = {10, 8, 6};
    g.spacing = 0.5;
    g.origin = {-1, 0, 2};
    SnapshotSpec spec;
    spec.every = 3;
    spec.stride = 3;
    const SnapshotSeries s = plan_snapshots(spec, g, 0.1, 11, "f.json");
    EXPECT_EQ(s.steps, (std::vector<std::int64_t>{3, 6, 9}));
    // Nodes 0..10, 0..8, 0..6 at stride 3: 0,3,6,9 / 0,3,6 / 0,3,6.
    EXPECT_EQ(s.grid.count, (std::array<int, 3>{4, 3, 3}));
    EXPECT_DOUBLE_EQ(s.grid.spacing, 1.5);
    EXPECT_EQ(s.grid.origin, (Vec3{-1, 0, 2}));
    const std::vector<std::size_t> nodes = snapshot_nodes(s.grid, g);
    ASSERT_EQ(nodes.size(), 36u);
    EXPECT_EQ(nodes[1], g.node_index(3, 0, 0));
    EXPECT_EQ(nodes[4], g.node_index(0, 3, 0));
    EXPECT_EQ(nodes.back(), g.node_index(9, 6, 6));
}

}  // namespace
}  // namespace voxwave
