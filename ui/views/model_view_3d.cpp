#include "views/model_view_3d.hpp"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellPicker.h>
#include <vtkColorTransferFunction.h>
#include <vtkCubeSource.h>
#include <vtkDiscreteFlyingEdges3D.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkPlane.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTexture.h>
#include <vtkUnsignedCharArray.h>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <set>

#include "boundary/absorbing_layer_boxes.hpp"
#include "core/errors.hpp"
#include "views/color_bar.hpp"
#include "views/probe_drawing.hpp"
#include "views/vtk_widget.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

struct ModelView3D::Pipeline {
    std::vector<vtkSmartPointer<vtkActor>> surfaces;
    std::vector<bool> is_background;
    std::vector<vtkSmartPointer<vtkActor>> glyphs;
    int probe_actors = 0;  // of the glyphs, the probes' outlines
    std::vector<vtkSmartPointer<vtkActor>> layers;
    vtkSmartPointer<vtkPlane> clip = vtkSmartPointer<vtkPlane>::New();
    bool clipping = false;
    double background_opacity = 0.25;
    // The live field's three planes (XY, XZ, YZ): made once, their images refilled each update.
    struct FieldPlane {
        vtkSmartPointer<vtkPoints> points = vtkSmartPointer<vtkPoints>::New();
        vtkSmartPointer<vtkFloatArray> tcoords = vtkSmartPointer<vtkFloatArray>::New();
        vtkSmartPointer<vtkImageData> image = vtkSmartPointer<vtkImageData>::New();
        vtkSmartPointer<vtkActor> actor = vtkSmartPointer<vtkActor>::New();
    };
    std::array<FieldPlane, 3> field;
    vtkSmartPointer<vtkColorTransferFunction> field_lut = vtkSmartPointer<vtkColorTransferFunction>::New();
    std::vector<vtkSmartPointer<vtkActor>> field_planes;  // those shown now
    double field_peak = 0;
};

ModelView3D::ModelView3D(SceneDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), p_(std::make_unique<Pipeline>()) {
    // The per-mapper offsets below only apply in polygon-offset mode (a global VTK setting).
    vtkMapper::SetResolveCoincidentTopologyToPolygonOffset();
    for (auto& fp : p_->field) {
        fp.points->SetNumberOfPoints(4);
        fp.tcoords->SetNumberOfComponents(2);
        fp.tcoords->SetNumberOfTuples(4);
        auto quad = vtkSmartPointer<vtkCellArray>::New();
        const vtkIdType corners[4] = {0, 1, 2, 3};
        quad->InsertNextCell(4, corners);
        auto poly = vtkSmartPointer<vtkPolyData>::New();
        poly->SetPoints(fp.points);
        poly->SetPolys(quad);
        poly->GetPointData()->SetTCoords(fp.tcoords);
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputData(poly);
        mapper->ScalarVisibilityOff();
        // The XY plane through a source on the top face lies in the model's surface: drawn a
        // little nearer the camera, it wins the depth test instead of speckling with the surface.
        mapper->SetRelativeCoincidentTopologyPolygonOffsetParameters(-2, -2);
        auto texture = vtkSmartPointer<vtkTexture>::New();
        texture->SetInputData(fp.image);
        texture->SetLookupTable(p_->field_lut);
        texture->SetColorModeToMapScalars();
        texture->InterpolateOn();
        texture->EdgeClampOn();
        fp.actor->SetMapper(mapper);
        fp.actor->SetTexture(texture);
        fp.actor->GetProperty()->LightingOff();
    }
    view_ = new VtkWidget;
    opacity_ = new QSlider(Qt::Horizontal);
    opacity_->setRange(0, 100);
    opacity_->setValue(25);
    opacity_->setToolTip(tr("Opacity of the background material"));
    clip_axis_ = new QComboBox;
    clip_axis_->addItems({tr("no clip"), tr("clip x"), tr("clip y"), tr("clip z")});
    clip_pos_ = new QSlider(Qt::Horizontal);
    clip_pos_->setRange(0, 100);
    clip_pos_->setValue(50);
    clip_axis_->setToolTip(tr("Cut the model open: hide everything beyond a plane across x, y or z"));
    clip_pos_->setToolTip(tr("Where the cut lies along its axis (0 - 100 % of the model)"));
    wavefield_ = new QCheckBox(tr("Wavefield"));
    wavefield_->setToolTip(tr("The live field on three planes through the source, refreshed a few times a second"));
    layers_ = new QCheckBox(tr("Layers"));
    layers_->setChecked(true);
    layers_->setToolTip(tr("The absorbing layers of the Boundary panel as see-through boxes: PML blue, sponge orange"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(wavefield_);
    bar->addWidget(layers_);
    bar->addWidget(new QLabel(tr("Opacity")));
    bar->addWidget(opacity_);
    bar->addWidget(clip_axis_);
    bar->addWidget(clip_pos_);
    // The field planes' colour bar beside the view, shown with them.
    field_bar_ = new ColorBarWidget;
    field_bar_->setObjectName("3d-color-bar");
    field_bar_->hide();
    auto* views = new QHBoxLayout;
    views->setSpacing(0);
    views->addWidget(view_, 1);
    views->addWidget(field_bar_);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addLayout(views, 1);
    lay->addLayout(bar);
    connect(wavefield_, &QCheckBox::toggled, this, &ModelView3D::setWavefieldEnabled);
    connect(opacity_, &QSlider::valueChanged, this, [this](int v) { setBackgroundOpacity(v / 100.0); });
    auto clip_changed = [this] { setClip(clip_axis_->currentIndex() - 1, clip_pos_->value() / 100.0); };
    connect(clip_axis_, &QComboBox::currentIndexChanged, this, clip_changed);
    connect(clip_pos_, &QSlider::valueChanged, this, clip_changed);
    connect(layers_, &QCheckBox::toggled, this, &ModelView3D::setLayersShown);
    connect(doc_, &SceneDocument::modelChanged, this, &ModelView3D::rebuildModel);
    connect(doc_, &SceneDocument::modelChanged, this, &ModelView3D::rebuildLayers);
    connect(doc_, &SceneDocument::sceneChanged, this, &ModelView3D::rebuildGlyphs);
    connect(doc_, &SceneDocument::sceneChanged, this, &ModelView3D::rebuildLayers);
    connect(doc_, &SceneDocument::documentReset, this, [this] {
        reset_camera_ = true;
        rebuildModel();
        rebuildGlyphs();
        rebuildLayers();
    });
    rebuildModel();
    rebuildGlyphs();
    rebuildLayers();
    view_->setClickHandler([this](QPointF px) {
        if (place_mode_ == 0) return false;
        Vec3 pos{};
        if (!pickModelPoint(px, pos)) return true;  // a click beside the model places nothing
        if (place_mode_ == 1) emit placeSourceRequested(pos);
        if (place_mode_ == 2) emit placeReceiverRequested(pos);
        return true;
    });
}

ModelView3D::~ModelView3D() = default;

GlView* ModelView3D::vtkView() const { return view_; }
int ModelView3D::vtkPaintCount() const { return view_->paintCount(); }

bool ModelView3D::pickModelPoint(QPointF px, Vec3& node_position) const {
    view_->syncSizeNow();
    const double dpr = view_->devicePixelRatioF();
    auto picker = vtkSmartPointer<vtkCellPicker>::New();
    picker->SetTolerance(0.0005);
    picker->PickFromListOn();
    for (const auto& a : p_->surfaces) picker->AddPickList(a);
    if (!picker->Pick(px.x() * dpr, (view_->height() - px.y()) * dpr, 0, view_->renderer()) || picker->GetCellId() < 0)
        return false;
    double w[3];
    picker->GetPickPosition(w);
    const VoxelGrid& g = doc_->model();
    const auto node = nearest_node(g, {w[0], w[1], w[2]});
    node_position = g.node_position(node[0], node[1], node[2]);
    return true;
}

int ModelView3D::surfaceCount() const { return int(p_->surfaces.size()); }
int ModelView3D::glyphCount() const { return int(p_->glyphs.size()); }
int ModelView3D::layerActorCount() const { return int(p_->layers.size()); }

int ModelView3D::probeActorCount() const { return p_->probe_actors; }

std::vector<std::array<double, 6>> ModelView3D::layerActorBounds() const {
    std::vector<std::array<double, 6>> out;
    for (const auto& a : p_->layers) {
        std::array<double, 6> b{};
        a->GetBounds(b.data());
        out.push_back(b);
    }
    return out;
}
int ModelView3D::wavefieldPlaneCount() const { return int(p_->field_planes.size()); }
double ModelView3D::wavefieldPeak() const { return p_->field_peak; }
bool ModelView3D::wavefieldEnabled() const { return wavefield_->isChecked(); }

void ModelView3D::setWavefieldEnabled(bool on) {
    if (wavefield_->isChecked() != on) {
        wavefield_->setChecked(on);  // emits toggled, which comes back here
        return;
    }
    if (!on) field_bar_->hide();  // shown with the first field that has a scale
    if (!on) {
        for (auto& a : p_->field_planes) view_->renderer()->RemoveActor(a);
        p_->field_planes.clear();
        p_->field_peak = 0;
        view_->update();
    } else if (p_->field_planes.empty()) {
        // The planes show at once, blank, where a run's field will be (through the first
        // source): their first frame compiles the textured-plane shaders (~100 ms in software
        // GL), which otherwise happened in the middle of a run, its longest stall.
        const VoxelGrid& g = doc_->model();
        std::array<int, 3> node{g.n[0] / 2, g.n[1] / 2, g.n[2] / 2};
        if (!doc_->scene().sources.empty()) node = nearest_node(g, doc_->scene().sources.front().position);
        const auto blank = [](int w, int h) {
            SliceImage s;
            s.width = w;
            s.height = h;
            s.values.assign(std::size_t(w) * std::size_t(h), 0.0f);
            return s;
        };
        setWavefield({blank(g.n[0] + 1, g.n[1] + 1), blank(g.n[0] + 1, g.n[2] + 1), blank(g.n[1] + 1, g.n[2] + 1)},
                     {node[2], node[1], node[0]});
    }
    emit wavefieldToggled(on);
}

void ModelView3D::setWavefield(const std::vector<SliceImage>& slices, const std::array<int, 3>& nodes) {
    if (!wavefield_->isChecked() || slices.size() != 3) return;
    vtkRenderer* ren = view_->renderer();
    for (auto& a : p_->field_planes) ren->RemoveActor(a);
    p_->field_planes.clear();
    const VoxelGrid& g = doc_->model();
    const double ds = g.spacing;
    const auto o = g.origin;
    double peak = 0;
    std::vector<const SliceImage*> planes;
    for (const auto& sl : slices) {
        peak = std::max(peak, double(sl.max_abs()));
        planes.push_back(&sl);
    }
    p_->field_peak = peak;
    // The 2D view's colour map (blue - white - red about zero for a component, black - yellow
    // for a magnitude), saturating at the 99th percentile of |value| as the 2D view does.
    const double level = abs_quantile(planes, kColourScaleQuantile);
    const double top = std::max(level, 1e-30);
    const bool signed_field = int(field_quantity_) < int(SliceQuantity::DisplacementMagnitude);
    const ColorMap& map = signed_field ? diverging_color_map() : sequential_color_map();
    const double lo = signed_field ? -top : 0.0;
    p_->field_lut->RemoveAllPoints();
    for (std::size_t i = 0; i < map.stops.size(); ++i) {
        const auto& c = map.stops[i];
        p_->field_lut->AddRGBPoint(lo + (top - lo) * double(i) / double(map.stops.size() - 1), c[0], c[1], c[2]);
    }
    field_bar_->set(&map, lo, top, slice_quantity_symbol(field_quantity_), slice_quantity_unit(field_quantity_));
    field_bar_->setVisible(level > 0);  // the blank planes before a run's first frame have no scale
    for (int p = 0; p < 3; ++p) {
        const SliceImage& sl = slices[std::size_t(p)];
        if (sl.width < 2 || sl.height < 2) continue;
        Pipeline::FieldPlane& fp = p_->field[std::size_t(p)];
        // Corners of the plane: XY at z = nodes[0], XZ at y = nodes[1], YZ at x = nodes[2].
        const double w = (sl.width - 1) * ds, h = (sl.height - 1) * ds;
        double origin[3] = {o[0], o[1], o[2]};
        if (p == 0) origin[2] += nodes[0] * ds;
        if (p == 1) origin[1] += nodes[1] * ds;
        if (p == 2) origin[0] += nodes[2] * ds;
        const int a = p == 2 ? 1 : 0, b = p == 0 ? 1 : 2;  // the plane's two axes
        // One textured quad per plane, not a quad per node: the node grid's tens of thousands
        // of triangles doubled the 3D view's software-GL frame during a run. Texel centres sit
        // on the nodes (texture coordinates from half a texel in), so the colours are where the
        // per-node colouring put them, interpolated linearly between nodes as before.
        const double su = 0.5 / sl.width, sv = 0.5 / sl.height;
        const double uv[4][2] = {{su, sv}, {1 - su, sv}, {1 - su, 1 - sv}, {su, 1 - sv}};
        const double step[4][2] = {{0, 0}, {w, 0}, {w, h}, {0, h}};
        for (int c = 0; c < 4; ++c) {
            double x[3] = {origin[0], origin[1], origin[2]};
            x[a] += step[c][0];
            x[b] += step[c][1];
            fp.points->SetPoint(c, x);
            fp.tcoords->SetTuple2(c, uv[c][0], uv[c][1]);
        }
        fp.points->Modified();
        fp.tcoords->Modified();
        // The slice is row-major with rows along the plane's second axis: the image's x and y.
        fp.image->SetDimensions(sl.width, sl.height, 1);
        auto values = vtkSmartPointer<vtkFloatArray>::New();
        values->SetNumberOfTuples(vtkIdType(sl.values.size()));
        std::copy(sl.values.begin(), sl.values.end(), values->GetPointer(0));
        fp.image->GetPointData()->SetScalars(values);
        fp.image->Modified();
        ren->AddActor(fp.actor);
        p_->field_planes.push_back(fp.actor);
    }
    view_->update();
}

void ModelView3D::rebuildModel() {
    vtkRenderer* ren = view_->renderer();
    for (auto& a : p_->surfaces) ren->RemoveActor(a);
    p_->surfaces.clear();
    p_->is_background.clear();
    const VoxelGrid& g = doc_->model();
    if (g.ids.empty()) return;
    // Voxel centres become the points of an image padded with void, so every surface closes.
    auto img = vtkSmartPointer<vtkImageData>::New();
    img->SetDimensions(g.n[0] + 2, g.n[1] + 2, g.n[2] + 2);
    img->SetSpacing(g.spacing, g.spacing, g.spacing);
    img->SetOrigin(g.origin[0] - 0.5 * g.spacing, g.origin[1] - 0.5 * g.spacing, g.origin[2] - 0.5 * g.spacing);
    auto ids = vtkSmartPointer<vtkUnsignedCharArray>::New();
    ids->SetNumberOfTuples(vtkIdType(g.n[0] + 2) * (g.n[1] + 2) * (g.n[2] + 2));
    ids->Fill(0);
    std::set<int> present;
    for (int k = 0; k < g.n[2]; ++k)
        for (int j = 0; j < g.n[1]; ++j)
            for (int i = 0; i < g.n[0]; ++i) {
                const MaterialId m = g.at(i, j, k);
                ids->SetValue(
                    vtkIdType(i + 1) + vtkIdType(g.n[0] + 2) * (vtkIdType(j + 1) + vtkIdType(g.n[1] + 2) * (k + 1)), m);
                if (m) present.insert(m);
            }
    img->GetPointData()->SetScalars(ids);
    const int background = doc_->materialId(doc_->scene().background);
    for (int m : present) {
        auto fe = vtkSmartPointer<vtkDiscreteFlyingEdges3D>::New();
        fe->SetInputData(img);
        fe->SetValue(0, m);
        fe->ComputeScalarsOff();
        fe->Update();
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputConnection(fe->GetOutputPort());
        if (p_->clipping) mapper->AddClippingPlane(p_->clip);
        auto actor = vtkSmartPointer<vtkActor>::New();
        actor->SetMapper(mapper);
        const QColor c(QString::fromStdString(doc_->scene().materials[m - 1].color));
        actor->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
        const bool bg = m == background;
        actor->GetProperty()->SetOpacity(bg ? p_->background_opacity : 1.0);
        ren->AddActor(actor);
        p_->surfaces.push_back(actor);
        p_->is_background.push_back(bg);
    }
    if (reset_camera_) {
        reset_camera_ = false;
        const auto ext = g.extent();
        const Vec3 centre{g.origin[0] + ext[0] / 2, g.origin[1] + ext[1] / 2, g.origin[2] + ext[2] / 2};
        view_->beforeNextRender([ren, centre] {
            // z up (the paper's source sits on the top face), seen from the front-left, above.
            vtkCamera* cam = ren->GetActiveCamera();
            cam->SetFocalPoint(centre[0], centre[1], centre[2]);
            cam->SetPosition(centre[0] - 0.8, centre[1] - 1.6, centre[2] + 0.9);
            cam->SetViewUp(0, 0, 1);
            ren->ResetCamera();
            // ResetCamera fits the bounding sphere to the narrower of the two view angles (VTK 9.1
            // reads the aspect ratio), so a tall view needs no extra step back.
            ren->ResetCameraClippingRange();
        });
    }
    view_->update();
}

void ModelView3D::rebuildGlyphs() {
    vtkRenderer* ren = view_->renderer();
    for (auto& a : p_->glyphs) ren->RemoveActor(a);
    p_->glyphs.clear();
    const VoxelGrid& g = doc_->model();
    const double r = std::max(1.5 * g.spacing, 0.008 * std::max({g.extent()[0], g.extent()[1], g.extent()[2]}));
    const auto add = [&](const Vec3& pos, double red, double green, double blue) {
        auto s = vtkSmartPointer<vtkSphereSource>::New();
        s->SetCenter(pos[0], pos[1], pos[2]);
        s->SetRadius(r);
        s->SetThetaResolution(16);
        s->SetPhiResolution(12);
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputConnection(s->GetOutputPort());
        auto actor = vtkSmartPointer<vtkActor>::New();
        actor->SetMapper(mapper);
        actor->GetProperty()->SetColor(red, green, blue);
        ren->AddActor(actor);
        p_->glyphs.push_back(actor);
    };
    for (const auto& s : doc_->scene().sources) add(s.position, 0.92, 0.27, 0.23);
    for (const auto& rc : doc_->scene().receivers) add(rc.position, 0.27, 0.82, 0.43);
    // Probes: the face's outline and elements as lines, the beam as a line from the face's centre.
    const double arrow = 0.15 * std::max({g.extent()[0], g.extent()[1], g.extent()[2]});
    p_->probe_actors = 0;
    for (const ProbeSpec& probe : doc_->scene().probes) {
        const ProbeDrawing d = probe_drawing(probe);
        auto points = vtkSmartPointer<vtkPoints>::New();
        auto lines = vtkSmartPointer<vtkCellArray>::New();
        const auto loop = [&](const Vec3* c, std::size_t n) {
            const vtkIdType first = points->GetNumberOfPoints();
            for (std::size_t k = 0; k < n; ++k) points->InsertNextPoint(c[k][0], c[k][1], c[k][2]);
            lines->InsertNextCell(vtkIdType(n + 1));
            for (std::size_t k = 0; k <= n; ++k) lines->InsertCellPoint(first + vtkIdType(k % n));
        };
        loop(d.outline.data(), d.outline.size());
        if (probe.is_array())
            for (const auto& e : d.elements) loop(e.data(), e.size());
        const vtkIdType c0 = points->InsertNextPoint(d.face_center[0], d.face_center[1], d.face_center[2]);
        const vtkIdType c1 =
            points->InsertNextPoint(d.face_center[0] + arrow * d.beam[0], d.face_center[1] + arrow * d.beam[1],
                                    d.face_center[2] + arrow * d.beam[2]);
        lines->InsertNextCell(2);
        lines->InsertCellPoint(c0);
        lines->InsertCellPoint(c1);
        auto poly = vtkSmartPointer<vtkPolyData>::New();
        poly->SetPoints(points);
        poly->SetLines(lines);
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputData(poly);
        auto actor = vtkSmartPointer<vtkActor>::New();
        actor->SetMapper(mapper);
        actor->GetProperty()->SetColor(1.0, 0.59, 0.16);
        actor->GetProperty()->SetLineWidth(3);
        actor->PickableOff();
        ren->AddActor(actor);
        p_->glyphs.push_back(actor);
        ++p_->probe_actors;
    }
    view_->update();
}

void ModelView3D::rebuildLayers() {
    vtkRenderer* ren = view_->renderer();
    for (auto& a : p_->layers) ren->RemoveActor(a);
    p_->layers.clear();
    const VoxelGrid& g = doc_->model();
    if (!layers_->isChecked() || g.ids.empty()) {
        view_->update();
        return;
    }
    BoundaryConditions bc;
    try {
        bc = boundary_conditions(doc_->scene().boundary);
    } catch (const InputError&) {
        view_->update();  // the document's scene is validated; nothing to draw for one that is not
        return;
    }
    for (const AbsorbingLayerBox& box : absorbing_layer_boxes(bc, g)) {
        auto cube = vtkSmartPointer<vtkCubeSource>::New();
        cube->SetBounds(box.lo[0], box.hi[0], box.lo[1], box.hi[1], box.lo[2], box.hi[2]);
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputConnection(cube->GetOutputPort());
        if (p_->clipping) mapper->AddClippingPlane(p_->clip);
        auto actor = vtkSmartPointer<vtkActor>::New();
        actor->SetMapper(mapper);
        vtkProperty* prop = actor->GetProperty();
        if (box.type == AbsorbingType::Pml)
            prop->SetColor(0.27, 0.67, 1.0);
        else
            prop->SetColor(1.0, 0.59, 0.16);
        prop->SetOpacity(0.18);
        prop->EdgeVisibilityOn();
        prop->SetEdgeColor(prop->GetColor());
        prop->LightingOff();
        actor->PickableOff();  // clicks place sources on the model, not on the layers
        ren->AddActor(actor);
        p_->layers.push_back(actor);
    }
    view_->update();
}

void ModelView3D::setLayersShown(bool on) {
    if (layers_->isChecked() != on) {
        layers_->setChecked(on);  // emits toggled, which comes back here
        return;
    }
    rebuildLayers();
}

void ModelView3D::setBackgroundOpacity(double opacity) {
    p_->background_opacity = opacity;
    for (std::size_t i = 0; i < p_->surfaces.size(); ++i)
        if (p_->is_background[i]) p_->surfaces[i]->GetProperty()->SetOpacity(opacity);
    view_->update();
}

void ModelView3D::setClip(int axis, double fraction) {
    p_->clipping = axis >= 0;
    if (p_->clipping) {
        const VoxelGrid& g = doc_->model();
        double o[3] = {g.origin[0], g.origin[1], g.origin[2]};
        double n[3] = {0, 0, 0};
        o[axis] += fraction * g.extent()[axis];
        n[axis] = -1;  // keep the part below the plane
        p_->clip->SetOrigin(o);
        p_->clip->SetNormal(n);
    }
    for (auto& a : p_->layers) {
        a->GetMapper()->RemoveAllClippingPlanes();
        if (p_->clipping) a->GetMapper()->AddClippingPlane(p_->clip);
    }
    for (auto& a : p_->surfaces) {
        a->GetMapper()->RemoveAllClippingPlanes();
        if (p_->clipping) a->GetMapper()->AddClippingPlane(p_->clip);
    }
    view_->update();
}

}  // namespace voxwave::ui
