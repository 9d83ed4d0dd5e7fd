#include "panels/probes_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.hpp"
#include "document/edit_commands.hpp"
#include "probe/probe_footprint.hpp"
#include "scene/scene_io.hpp"
#include "views/probe_drawing.hpp"
#include "views/view_theme.hpp"
#include "wave/wave_problem.hpp"

namespace voxwave::ui {

namespace {

// The grid axes as directions, in the order of the direction boxes' items.
const std::pair<const char*, Vec3> kAxes[] = {{"+x", {1, 0, 0}},  {"-x", {-1, 0, 0}}, {"+y", {0, 1, 0}},
                                              {"-y", {0, -1, 0}}, {"+z", {0, 0, 1}},  {"-z", {0, 0, -1}}};

QComboBox* axis_box(const QString& name, const QString& tip) {
    auto* b = new QComboBox;
    b->setObjectName(name);
    for (const auto& [label, v] : kAxes) b->addItem(QString::fromLatin1(label));
    b->setToolTip(tip);
    return b;
}

// Selects the item of `v`; a direction off the grid axes (a file may say so: validate_scene
// judges it) gets an item of its own so that the box still shows it.
void show_axis(QComboBox* b, const Vec3& v) {
    while (b->count() > int(std::size(kAxes))) b->removeItem(b->count() - 1);
    for (int i = 0; i < int(std::size(kAxes)); ++i)
        if (kAxes[i].second == v) {
            b->setCurrentIndex(i);
            return;
        }
    b->addItem(QStringLiteral("(%1, %2, %3)").arg(v[0]).arg(v[1]).arg(v[2]));
    b->setCurrentIndex(b->count() - 1);
}

Vec3 axis_of(const QComboBox* b, const Vec3& shown) {
    const int i = b->currentIndex();
    return i >= 0 && i < int(std::size(kAxes)) ? kAxes[i].second : shown;
}

QDoubleSpinBox* number(const QString& name, const QString& suffix, double lo, double hi, int decimals,
                       const QString& tip) {
    auto* s = new QDoubleSpinBox;
    s->setObjectName(name);
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setSuffix(suffix);
    s->setToolTip(tip);
    s->setKeyboardTracking(false);
    return s;
}

const char* const kWavelets[] = {"ricker", "tone_burst", "bandpass"};
const WaveletType kWaveletTypes[] = {WaveletType::Ricker, WaveletType::ToneBurst, WaveletType::Bandpass};
const char* const kLaws[] = {"none", "steer", "focus", "custom"};

QString unique_name(const std::vector<ProbeSpec>& probes, const QString& base) {
    for (int k = 1;; ++k) {
        const QString name = base + QString::number(k);
        if (std::none_of(probes.begin(), probes.end(),
                         [&](const ProbeSpec& p) { return p.name == name.toStdString(); }))
            return name;
    }
}

// Where a new probe sits: the middle of the face of the model's box it looks into from, moved
// along its normal onto the first material the middle column meets (the specimen's surface),
// its normal into the model.
Vec3 face_centre(const Scene& s, const VoxelGrid& g, const Vec3& normal) {
    Vec3 c{};
    int axis = -1;
    for (int a = 0; a < 3; ++a) {
        c[a] = s.grid.origin[a] + 0.5 * s.grid.size[a];
        if (normal[a] < 0) c[a] = s.grid.origin[a] + s.grid.size[a];
        if (normal[a] > 0) c[a] = s.grid.origin[a];
        if (normal[a] != 0) axis = a;
    }
    if (axis < 0 || g.ids.empty()) return c;
    std::array<int, 3> ijk{};
    for (int a = 0; a < 3; ++a) ijk[a] = std::clamp(int((c[a] - g.origin[a]) / g.spacing), 0, g.n[a] - 1);
    const int n = g.n[axis];
    for (int k = 0; k < n; ++k) {
        ijk[axis] = normal[axis] > 0 ? k : n - 1 - k;
        if (g.at(ijk[0], ijk[1], ijk[2]) != kVoidId) {
            c[axis] = g.origin[axis] + (normal[axis] > 0 ? ijk[axis] : ijk[axis] + 1) * g.spacing;
            break;
        }
    }
    return c;
}

// The smallest extent of the model's box across `normal` (the face a new probe sits on).
double face_width(const Scene& s, const Vec3& normal) {
    double w = 1e300;
    for (int a = 0; a < 3; ++a)
        if (normal[a] == 0) w = std::min(w, s.grid.size[a]);
    return w;
}

}  // namespace

QComboBox* choice_box(const QString& object_name, const QStringList& items, const QString& tip) {
    auto* b = new QComboBox;
    b->setObjectName(object_name);
    b->addItems(items);
    b->setToolTip(tip);
    return b;
}

QSpinBox* count_box(const QString& object_name, int lo, int hi, const QString& tip) {
    auto* b = new QSpinBox;
    b->setObjectName(object_name);
    b->setRange(lo, hi);
    b->setKeyboardTracking(false);
    b->setToolTip(tip);
    return b;
}

void shrinkable(QWidget* w) {
    w->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    w->setMinimumWidth(w->fontMetrics().horizontalAdvance(QStringLiteral("-888.8 mm")));
}

double spin_box_si_value(const QDoubleSpinBox* box, double original, double scale) {
    const double shown = QString::number(original * scale, 'f', box->decimals()).toDouble();
    return box->value() == shown ? original : box->value() / scale;
}

QLabel* panel_error_label(const QString& object_name) {
    auto* label = new QLabel;
    label->setObjectName(object_name);
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #e04040;"));
    label->hide();
    return label;
}

void show_panel_error(QLabel* label, QString& last, const QString& message) {
    last = message;
    label->setText(message);
    label->setVisible(!message.isEmpty());
}

ProbeLaw probe_law(const Scene& scene, const VoxelGrid& model, std::size_t index) {
    ProbeSpec spec = scene.probes.at(index);
    spec.receive = true;  // the channels carry the law
    const std::string field = "probes[" + std::to_string(index) + "]";
    const ProbeFootprint face = probe_footprint(spec, model, "", field);
    ProbeLaw law;
    law.velocity = spec.delay_law.velocity ? *spec.delay_law.velocity : probe_law_velocity(spec, face, scene.materials);
    if (spec.wedge && face.material != kVoidId) law.wedge_velocity = scene.materials[face.material - 1].vp;
    WaveProblem p;
    p.grid = model;
    p.materials = scene.materials;
    add_probe(p, spec, spec.center, index, "");
    law.delays = p.probes.back().delays;
    return law;
}

DelayLawPreview::DelayLawPreview(QWidget* parent) : QWidget(parent) {
    setObjectName("probe-law-preview");
    setToolTip(
        tr("Left: when each element fires (us after the first), the elements in their order along the "
           "array axis; grey: outside the active aperture. Right: the face (seen across the array) and "
           "the beam's direction in the specimen, its angle from the normal."));
}

void DelayLawPreview::set(std::vector<double> delays, double beam_angle, int active_first, int active_count) {
    delays_ = std::move(delays);
    beam_angle_ = beam_angle;
    active_first_ = active_first;
    active_count_ = active_count;
    update();
}

void DelayLawPreview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const ViewColors& theme = view_colors();
    p.fillRect(rect(), theme.background);
    const QFontMetrics fm = p.fontMetrics();
    const int beam_w = std::min(width() / 3, height());
    const QRect bars(fm.horizontalAdvance(QStringLiteral("0.000")) + 8, fm.height() + 6,
                     width() - beam_w - fm.horizontalAdvance(QStringLiteral("0.000")) - 20,
                     height() - 2 * fm.height() - 12);
    p.setPen(theme.text);
    p.drawText(QRect(0, 0, width() - beam_w, fm.height() + 4), Qt::AlignCenter, tr("delay per element (us)"));
    const double top = delays_.empty() ? 0 : *std::max_element(delays_.begin(), delays_.end());
    const double scale = top > 0 ? top : 1e-6;
    p.setPen(theme.grid);
    p.drawLine(bars.bottomLeft(), bars.bottomRight());
    p.drawLine(bars.bottomLeft(), bars.topLeft());
    p.drawText(QRect(0, bars.top() - fm.height() / 2, bars.left() - 4, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
               QString::number(scale * 1e6, 'f', 3));
    p.drawText(QRect(0, bars.bottom() - fm.height() / 2, bars.left() - 4, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
    const int n = int(delays_.size());
    p.drawText(QRect(bars.left(), bars.bottom() + 2, bars.width(), fm.height()), Qt::AlignCenter,
               n > 1 ? tr("element 1 .. %1").arg(n) : tr("one element"));
    const int first = active_count_ > 0 ? active_first_ : 0, count = active_count_ > 0 ? active_count_ : n;
    for (int e = 0; e < n; ++e) {
        const double w = double(bars.width()) / std::max(1, n);
        const double h = delays_[std::size_t(e)] / scale * bars.height();
        const bool active = e >= first && e < first + count;
        const QRectF bar(bars.left() + e * w + 0.15 * w, bars.bottom() - std::max(1.0, h), 0.7 * w, std::max(1.0, h));
        p.fillRect(bar, active ? QColor(230, 140, 40) : QColor(150, 150, 150));
    }
    // The beam: the face seen edge-on at the top, the normal dashed, the beam an arrow.
    const QPointF c(width() - beam_w / 2.0, fm.height() + 10);
    const double len = height() - fm.height() - 24;
    p.setPen(QPen(theme.text, 3));
    p.drawLine(c - QPointF(beam_w * 0.3, 0), c + QPointF(beam_w * 0.3, 0));
    p.setPen(QPen(theme.grid, 1, Qt::DashLine));
    p.drawLine(c, c + QPointF(0, len));
    const double a = beam_angle_ * std::numbers::pi / 180;
    const QPointF tip = c + QPointF(std::sin(a), std::cos(a)) * len;
    p.setPen(QPen(QColor(235, 70, 60), 2));
    p.drawLine(c, tip);
    const QPointF back = (c - tip) / std::max(1e-9, std::hypot((c - tip).x(), (c - tip).y())) * 9;
    const QPointF side(-back.y() * 0.5, back.x() * 0.5);
    p.setBrush(QColor(235, 70, 60));
    p.drawPolygon(QPolygonF({tip, tip + back + side, tip + back - side}));
    p.setPen(theme.text);
    p.drawText(QRect(int(c.x()) - beam_w / 2, 0, beam_w, fm.height() + 4), Qt::AlignCenter,
               tr("beam %1°").arg(beam_angle_, 0, 'f', 1));
}

ProbesPanel::ProbesPanel(SceneDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* lay = new QVBoxLayout(this);
    list_ = new QListWidget;
    list_->setObjectName("probe-list");
    list_->setMaximumHeight(90);
    list_->setToolTip(tr("The scene's probes: contact transducers on a surface of the model. Pick one to edit it."));
    lay->addWidget(list_);
    auto* buttons = new QGridLayout;  // two rows: the left docks are narrow
    auto* add_piston = new QPushButton(tr("Add piston"));
    add_piston->setObjectName("probe-add-piston");
    add_piston->setToolTip(tr("A 10 mm 2.25 MHz disk transducer on the middle of the model's top face"));
    auto* add_array = new QPushButton(tr("Add array"));
    add_array->setObjectName("probe-add-array");
    add_array->setToolTip(
        tr("A 16-element 2.25 MHz linear array (0.6 mm pitch) on the middle of the model's top face"));
    auto* library = new QPushButton(tr("Library"));
    library->setObjectName("probe-library");
    library->setToolTip(tr("Add a probe from the probe library (assets/probes): disks, arrays, an angle-beam wedge"));
    auto* menu = new QMenu(library);
    for (const ProbeSpec& p : libraryProbes())
        menu->addAction(QString::fromStdString(p.name), this, [this, p] { addFromLibrary(p); });
    library->setMenu(menu);
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName("probe-remove");
    remove->setToolTip(tr("Remove the selected probe (a scan of it goes too)"));
    buttons->addWidget(add_piston, 0, 0);
    buttons->addWidget(add_array, 0, 1);
    buttons->addWidget(library, 1, 0);
    buttons->addWidget(remove, 1, 1);
    lay->addLayout(buttons);
    connect(add_piston, &QPushButton::clicked, this, &ProbesPanel::addPiston);
    connect(add_array, &QPushButton::clicked, this, &ProbesPanel::addArray);
    connect(remove, &QPushButton::clicked, this, &ProbesPanel::removeCurrent);

    editor_ = new QWidget;
    form_ = new QFormLayout(editor_);
    form_->setContentsMargins(0, 0, 0, 0);
    name_ = new QLineEdit;
    name_->setObjectName("probe-name");
    name_->setToolTip(tr("The probe's name: its group in the result file (/probes/NAME) and what the scan names"));
    type_ = new QComboBox;
    type_->setObjectName("probe-type");
    type_->addItems({QStringLiteral("piston"), QStringLiteral("array")});
    type_->setToolTip(tr("piston: one element (a disk or a rectangle); array: a linear phased array"));
    const QString mm_tip = tr("Millimetres, in the model's coordinates");
    // The unit in the row's label: three boxes share the narrow dock, and a value such as
    // "12.000" must show whole.
    cx_ = number("probe-center-x", "", -1e5, 1e5, 3, mm_tip);
    cy_ = number("probe-center-y", "", -1e5, 1e5, 3, mm_tip);
    cz_ = number("probe-center-z", "", -1e5, 1e5, 3, mm_tip);
    auto* centre = new QHBoxLayout;
    for (auto* s : {cx_, cy_, cz_}) {
        shrinkable(s);
        centre->addWidget(s);
    }
    cx_->setToolTip(
        tr("Centre of the active face on a surface of the model (x, y, z, mm); on a wedge, the point of "
           "the specimen's surface under the face. Drag the probe in the slice editor (Move) to move it."));
    normal_ = axis_box("probe-normal", tr("Into the specimen: the 0-degree beam direction, along a grid axis"));
    shape_ =
        choice_box("probe-shape", {QStringLiteral("disk"), QStringLiteral("rect")},
                   tr("A piston's face: a disk (diameter) or a rectangle (width along the array axis, length across)"));
    diameter_ = number("probe-diameter", " mm", 0, 1e4, 3, tr("The disk's diameter"));
    width_ = number("probe-width", " mm", 0, 1e4, 3, tr("The rectangle's width along the array axis"));
    length_ = number("probe-length", " mm", 0, 1e4, 3, tr("The rectangle's length across the array axis"));
    axis_ = axis_box("probe-axis", tr("Along which the elements are laid out (a rectangle's width): in the face"));
    elements_ = count_box("probe-elements", 1, 1024, tr("Number of elements of the array"));
    pitch_ = number("probe-pitch", " mm", 0, 1e3, 3, tr("Centre-to-centre distance of neighbouring elements"));
    element_width_ = number("probe-element-width", " mm", 0, 1e3, 3,
                            tr("Each element's width along the array axis (at most the pitch)"));
    elevation_ = number("probe-elevation", " mm", 0, 1e4, 3, tr("Each element's length across the array axis"));
    mode_ = choice_box("probe-mode", {QStringLiteral("normal"), QStringLiteral("shear")},
                       tr("normal: the face pushes along the normal (a P-wave probe); shear: it pulls along the "
                          "polarization in the face (a shear-wave contact probe)"));
    polarization_ = axis_box("probe-polarization", tr("Shear mode: the traction's direction, in the face"));
    amplitude_ = new QLineEdit;
    amplitude_->setObjectName("probe-amplitude");
    amplitude_->setValidator(new QDoubleValidator(amplitude_));
    amplitude_->setToolTip(tr("The traction on the face, Pa"));
    wavelet_ = new QComboBox;
    wavelet_->setObjectName("probe-wavelet");
    for (const char* w : kWavelets) wavelet_->addItem(QString::fromLatin1(w));
    wavelet_->setToolTip(tr("The pulse each element sends, the same wavelets as the point sources"));
    frequency_ = number("probe-frequency", " kHz", 0, 1e6, 1, tr("Centre frequency (ricker, tone burst)"));
    cycles_ = number("probe-cycles", "", 0, 1000, 1, tr("Cycles of the tone burst"));
    f_low_ = number("probe-f-low", " kHz", 0, 1e6, 1, tr("Band-pass pulse: lower edge"));
    f_high_ = number("probe-f-high", " kHz", 0, 1e6, 1, tr("Band-pass pulse: upper edge"));
    wavelet_delay_ = number("probe-wavelet-delay", " us", 0, 1e6, 3, tr("Start of the pulse (0: automatic)"));
    law_ = new QComboBox;
    law_->setObjectName("probe-law");
    for (const char* l : kLaws) law_->addItem(QString::fromLatin1(l));
    law_->setToolTip(
        tr("none: every element at once; steer: a plane wave at the angle; focus: converging on a point "
           "at the depth on the steered ray; custom: the delays given. On a wedge the law is computed "
           "through it (Fermat's principle)."));
    law_angle_ = number("probe-law-angle", QString::fromUtf8("°"), -180, 180, 2,
                        tr("Beam angle in the specimen from the normal, towards +array axis (between -90 and 90)"));
    law_depth_ = number("probe-law-depth", " mm", 0, 1e5, 3, tr("Focus: depth of the focal point along the normal"));
    law_velocity_ = number("probe-law-velocity", " m/s", 0, 1e5, 0,
                           tr("Wave speed of the law in the specimen; default: vp (vs in shear) of the material under "
                              "the probe"));
    law_velocity_->setSpecialValueText(tr("default"));
    law_delays_ = new QLineEdit;
    law_delays_->setObjectName("probe-law-delays");
    law_delays_->setToolTip(tr("Custom law: one delay per element in us, separated by commas or spaces"));
    wedge_box_ = new QGroupBox(tr("Wedge"));
    wedge_box_->setObjectName("probe-wedge");
    wedge_box_->setCheckable(true);
    wedge_box_->setToolTip(
        tr("An angle-beam wedge under an array: a block of the wedge material painted on the surface, "
           "the probe on its top and its slope realised by the delay law"));
    auto* wf = new QFormLayout(wedge_box_);
    wedge_material_ = new QComboBox;
    wedge_material_->setObjectName("probe-wedge-material");
    wedge_material_->setToolTip(tr("The wedge's material, one of the scene's (the library's rexolite is the usual)"));
    wedge_angle_ = number("probe-wedge-angle", QString::fromUtf8("°"), -180, 180, 2,
                          tr("The wedge's slope: the incidence in the wedge"));
    wedge_height_ = number("probe-wedge-height", " mm", 0, 1e4, 3, tr("Thickness of the block under the face"));
    wedge_length_ = number("probe-wedge-length", " mm", 0, 1e4, 3,
                           tr("Along the array axis; 0: the aperture plus the beam's shift through the block"));
    wedge_width_ = number("probe-wedge-width", " mm", 0, 1e4, 3, tr("Across the array axis; 0: the elevation"));
    wedge_length_->setSpecialValueText(tr("default"));
    wedge_width_->setSpecialValueText(tr("default"));
    wf->addRow(tr("Material"), wedge_material_);
    wf->addRow(tr("Angle"), wedge_angle_);
    wf->addRow(tr("Height"), wedge_height_);
    wf->addRow(tr("Length"), wedge_length_);
    wf->addRow(tr("Width"), wedge_width_);
    active_first_ = new QSpinBox;
    active_first_->setObjectName("probe-active-first");
    active_first_->setRange(0, 1023);
    active_first_->setToolTip(tr("Active sub-aperture: the first element that fires and listens (0-based)"));
    active_count_ = new QSpinBox;
    active_count_->setObjectName("probe-active-count");
    active_count_->setRange(0, 1024);
    active_count_->setSpecialValueText(tr("all"));
    active_count_->setToolTip(tr("Active sub-aperture: how many elements (all: every element)"));
    for (auto* s : {active_first_, active_count_}) s->setKeyboardTracking(false);
    active_row_ = new QWidget;
    auto* active = new QHBoxLayout(active_row_);
    active->setContentsMargins(0, 0, 0, 0);
    active->addWidget(active_first_);
    active->addWidget(active_count_);
    transmit_ = new QCheckBox(tr("transmit"));
    transmit_->setObjectName("probe-transmit");
    receive_ = new QCheckBox(tr("receive"));
    receive_->setObjectName("probe-receive");
    transmit_->setToolTip(tr("The probe loads its face with the traction (its elements delayed by the law)"));
    receive_->setToolTip(tr("The probe records the mean particle velocity over each element's face"));
    auto* roles = new QHBoxLayout;
    roles->addWidget(transmit_);
    roles->addWidget(receive_);

    form_->addRow(tr("Name"), name_);
    form_->addRow(tr("Type"), type_);
    form_->addRow(tr("Centre (mm)"), centre);
    form_->addRow(tr("Normal"), normal_);
    form_->addRow(tr("Shape"), shape_);
    form_->addRow(tr("Diameter"), diameter_);
    form_->addRow(tr("Width"), width_);
    form_->addRow(tr("Length"), length_);
    form_->addRow(tr("Array axis"), axis_);
    form_->addRow(tr("Elements"), elements_);
    form_->addRow(tr("Pitch"), pitch_);
    form_->addRow(tr("Element width"), element_width_);
    form_->addRow(tr("Elevation"), elevation_);
    form_->addRow(tr("Mode"), mode_);
    form_->addRow(tr("Polarization"), polarization_);
    form_->addRow(tr("Amplitude (Pa)"), amplitude_);
    form_->addRow(tr("Wavelet"), wavelet_);
    form_->addRow(tr("Frequency"), frequency_);
    form_->addRow(tr("Cycles"), cycles_);
    form_->addRow(tr("Low edge"), f_low_);
    form_->addRow(tr("High edge"), f_high_);
    form_->addRow(tr("Pulse delay"), wavelet_delay_);
    form_->addRow(tr("Delay law"), law_);
    form_->addRow(tr("Law angle"), law_angle_);
    form_->addRow(tr("Focal depth"), law_depth_);
    form_->addRow(tr("Law speed"), law_velocity_);
    form_->addRow(tr("Delays (us)"), law_delays_);
    form_->addRow(wedge_box_);
    // A short label: the form's widest label and its widest field (the centre's three boxes) side
    // by side must fit the dock's default 360 px; the boxes' tooltips say first and count.
    form_->addRow(tr("Active"), active_row_);
    form_->labelForField(active_row_)
        ->setToolTip(tr("The active sub-aperture: the first element (0-based) and how many fire and listen"));
    form_->addRow(tr("Role"), roles);
    lay->addWidget(editor_);
    error_ = panel_error_label("probe-error");
    lay->addWidget(error_);
    preview_ = new DelayLawPreview;
    lay->addWidget(preview_);
    lay->addStretch(1);

    for (auto* s : {cx_,           cy_,
                    cz_,           diameter_,
                    width_,        length_,
                    pitch_,        element_width_,
                    elevation_,    frequency_,
                    cycles_,       f_low_,
                    f_high_,       wavelet_delay_,
                    law_angle_,    law_depth_,
                    law_velocity_, wedge_angle_,
                    wedge_height_, wedge_length_,
                    wedge_width_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ProbesPanel::edited);
    for (auto* s : {elements_, active_first_, active_count_})
        connect(s, &QSpinBox::valueChanged, this, &ProbesPanel::edited);
    for (auto* b : {type_, normal_, shape_, axis_, mode_, polarization_, wavelet_, law_, wedge_material_})
        connect(b, &QComboBox::activated, this, &ProbesPanel::edited);
    for (auto* e : {name_, amplitude_, law_delays_})
        connect(e, &QLineEdit::editingFinished, this, &ProbesPanel::edited);
    for (auto* c : {transmit_, receive_}) connect(c, &QCheckBox::toggled, this, &ProbesPanel::edited);
    connect(wedge_box_, &QGroupBox::toggled, this, &ProbesPanel::edited);
    connect(list_, &QListWidget::currentRowChanged, this, [this] {
        if (!refreshing_) refresh();
    });
    connect(doc_, &SceneDocument::sceneChanged, this, &ProbesPanel::refresh);
    connect(doc_, &SceneDocument::documentReset, this, &ProbesPanel::refresh);
    refresh();
}

std::vector<ProbeSpec> ProbesPanel::libraryProbes() {
    std::vector<ProbeSpec> out;
    const QDir dir(QStringLiteral(VOXWAVE_ASSETS_DIR "/probes"));
    for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        try {
            for (ProbeSpec& p : read_probe_library(dir.filePath(f).toStdString())) out.push_back(std::move(p));
        } catch (const InputError&) {
            // A broken library file offers nothing; the CLI's tests keep the shipped ones readable.
        }
    }
    return out;
}

int ProbesPanel::currentProbe() const {
    const int r = list_->currentRow();
    return r >= 0 && r < int(doc_->scene().probes.size()) ? r : -1;
}

void ProbesPanel::setCurrentProbe(int index) { list_->setCurrentRow(index); }

void ProbesPanel::showError(const QString& message) {
    show_panel_error(error_, last_error_, message);
    if (!message.isEmpty()) emit failed(message);
}

void ProbesPanel::refresh() {
    refreshing_ = true;
    const auto& probes = doc_->scene().probes;
    const int keep = list_->currentRow();
    list_->clear();
    for (const ProbeSpec& p : probes) {
        QString text = QString::fromStdString(p.name) + "  (" +
                       (p.is_array() ? tr("%1-element array").arg(p.elements) : QString::fromStdString(p.shape)) + ")";
        if (p.wedge) text += tr(" on a wedge");
        list_->addItem(text);
    }
    if (!probes.empty()) list_->setCurrentRow(std::clamp(keep, 0, int(probes.size()) - 1));
    const int i = currentProbe();
    editor_->setEnabled(i >= 0);
    wedge_material_->clear();
    for (const Material& m : doc_->scene().materials) wedge_material_->addItem(QString::fromStdString(m.name));
    if (i >= 0) writeForm(probes[std::size_t(i)]);
    refreshing_ = false;
    updatePreview();
}

void ProbesPanel::writeForm(const ProbeSpec& p) {
    const bool was = refreshing_;
    refreshing_ = true;
    const QList<QWidget*> all = editor_->findChildren<QWidget*>();
    for (QWidget* w : all) w->blockSignals(true);
    wedge_box_->blockSignals(true);
    name_->setText(QString::fromStdString(p.name));
    type_->setCurrentIndex(p.is_array() ? 1 : 0);
    cx_->setValue(p.center[0] * 1e3);
    cy_->setValue(p.center[1] * 1e3);
    cz_->setValue(p.center[2] * 1e3);
    show_axis(normal_, p.normal);
    shape_->setCurrentIndex(p.shape == "rect" ? 1 : 0);
    diameter_->setValue(p.diameter * 1e3);
    width_->setValue(p.width * 1e3);
    length_->setValue(p.length * 1e3);
    show_axis(axis_, p.array_axis);
    elements_->setValue(p.elements);
    pitch_->setValue(p.pitch * 1e3);
    element_width_->setValue(p.element_width * 1e3);
    elevation_->setValue(p.elevation * 1e3);
    mode_->setCurrentIndex(p.mode == "shear" ? 1 : 0);
    show_axis(polarization_, p.polarization);
    amplitude_->setText(QString::number(p.amplitude, 'g', 12));
    const auto w = std::find(std::begin(kWaveletTypes), std::end(kWaveletTypes), p.wavelet.type);
    wavelet_->setCurrentIndex(w == std::end(kWaveletTypes) ? -1 : int(w - std::begin(kWaveletTypes)));
    frequency_->setValue(p.wavelet.frequency * 1e-3);
    cycles_->setValue(p.wavelet.cycles);
    f_low_->setValue(p.wavelet.f_low * 1e-3);
    f_high_->setValue(p.wavelet.f_high * 1e-3);
    wavelet_delay_->setValue(p.wavelet.delay * 1e6);
    const auto l = std::find(std::begin(kLaws), std::end(kLaws), p.delay_law.type);
    law_->setCurrentIndex(l == std::end(kLaws) ? -1 : int(l - std::begin(kLaws)));
    law_angle_->setValue(p.delay_law.angle);
    law_depth_->setValue(p.delay_law.depth * 1e3);
    law_velocity_->setValue(p.delay_law.velocity.value_or(0));
    QStringList d;
    for (double v : p.delay_law.delays) d << QString::number(v * 1e6, 'g', 12);
    law_delays_->setText(d.join(", "));
    wedge_box_->setChecked(p.wedge.has_value());
    const WedgeSpec ws = p.wedge.value_or(WedgeSpec{});
    wedge_material_->setCurrentIndex(wedge_material_->findText(QString::fromStdString(ws.material)));
    wedge_angle_->setValue(ws.angle);
    wedge_height_->setValue(ws.height * 1e3);
    wedge_length_->setValue(ws.length * 1e3);
    wedge_width_->setValue(ws.width * 1e3);
    active_first_->setValue(p.active_first);
    active_count_->setValue(p.active_count);
    transmit_->setChecked(p.transmit);
    receive_->setChecked(p.receive);
    for (QWidget* w2 : all) w2->blockSignals(false);
    wedge_box_->blockSignals(false);
    updateRows(p);
    refreshing_ = was;
}

void ProbesPanel::updateRows(const ProbeSpec& p) {
    const bool array = p.is_array(), piston = !array;
    form_->setRowVisible(shape_, piston);
    form_->setRowVisible(diameter_, piston && p.shape != "rect");
    form_->setRowVisible(width_, piston && p.shape == "rect");
    form_->setRowVisible(length_, piston && p.shape == "rect");
    for (QWidget* w : std::initializer_list<QWidget*>{elements_, pitch_, element_width_, elevation_})
        form_->setRowVisible(w, array);
    form_->setRowVisible(active_row_, array);
    form_->setRowVisible(polarization_, p.mode == "shear");
    const WaveletType t = p.wavelet.type;
    form_->setRowVisible(frequency_, t == WaveletType::Ricker || t == WaveletType::ToneBurst);
    form_->setRowVisible(cycles_, t == WaveletType::ToneBurst);
    form_->setRowVisible(f_low_, t == WaveletType::Bandpass);
    form_->setRowVisible(f_high_, t == WaveletType::Bandpass);
    const std::string& law = p.delay_law.type;
    form_->setRowVisible(law_, array);
    form_->setRowVisible(law_angle_, array && (law == "steer" || law == "focus"));
    form_->setRowVisible(law_depth_, array && law == "focus");
    form_->setRowVisible(law_velocity_, array && (law == "steer" || law == "focus"));
    form_->setRowVisible(law_delays_, array && law == "custom");
    form_->setRowVisible(wedge_box_, array);
}

ProbeSpec ProbesPanel::readForm(const ProbeSpec& from) const {
    ProbeSpec p = from;
    p.name = name_->text().trimmed().toStdString();
    p.type = type_->currentIndex() == 1 ? "array" : "piston";
    p.center = {spin_box_si_value(cx_, from.center[0], 1e3), spin_box_si_value(cy_, from.center[1], 1e3),
                spin_box_si_value(cz_, from.center[2], 1e3)};
    p.normal = axis_of(normal_, from.normal);
    p.shape = shape_->currentIndex() == 1 ? "rect" : "disk";
    p.diameter = spin_box_si_value(diameter_, from.diameter, 1e3);
    p.width = spin_box_si_value(width_, from.width, 1e3);
    p.length = spin_box_si_value(length_, from.length, 1e3);
    p.array_axis = axis_of(axis_, from.array_axis);
    p.elements = elements_->value();
    p.pitch = spin_box_si_value(pitch_, from.pitch, 1e3);
    p.element_width = spin_box_si_value(element_width_, from.element_width, 1e3);
    p.elevation = spin_box_si_value(elevation_, from.elevation, 1e3);
    p.mode = mode_->currentIndex() == 1 ? "shear" : "normal";
    p.polarization = axis_of(polarization_, from.polarization);
    bool ok = false;
    const double amplitude = amplitude_->text().toDouble(&ok);
    if (ok && amplitude_->text() != QString::number(from.amplitude, 'g', 12)) p.amplitude = amplitude;
    if (wavelet_->currentIndex() >= 0) p.wavelet.type = kWaveletTypes[wavelet_->currentIndex()];
    p.wavelet.frequency = spin_box_si_value(frequency_, from.wavelet.frequency, 1e-3);
    p.wavelet.cycles = spin_box_si_value(cycles_, from.wavelet.cycles, 1);
    p.wavelet.f_low = spin_box_si_value(f_low_, from.wavelet.f_low, 1e-3);
    p.wavelet.f_high = spin_box_si_value(f_high_, from.wavelet.f_high, 1e-3);
    p.wavelet.delay = spin_box_si_value(wavelet_delay_, from.wavelet.delay, 1e6);
    if (law_->currentIndex() >= 0) p.delay_law.type = kLaws[law_->currentIndex()];
    p.delay_law.angle = spin_box_si_value(law_angle_, from.delay_law.angle, 1);
    p.delay_law.depth = spin_box_si_value(law_depth_, from.delay_law.depth, 1e3);
    const double c = spin_box_si_value(law_velocity_, from.delay_law.velocity.value_or(0), 1);
    p.delay_law.velocity = c > 0 ? std::optional<double>(c) : std::nullopt;
    p.delay_law.delays.clear();
    QStringList shown;
    for (double v : from.delay_law.delays) shown << QString::number(v * 1e6, 'g', 12);
    if (law_delays_->text() == shown.join(", "))
        p.delay_law.delays = from.delay_law.delays;
    else
        for (const QString& s :
             law_delays_->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
            p.delay_law.delays.push_back(s.toDouble() * 1e-6);
    if (wedge_box_->isChecked()) {
        const WedgeSpec old_wedge = from.wedge.value_or(WedgeSpec{});
        WedgeSpec w;
        w.material = wedge_material_->currentText().toStdString();
        w.angle = spin_box_si_value(wedge_angle_, old_wedge.angle, 1);
        w.height = spin_box_si_value(wedge_height_, old_wedge.height, 1e3);
        w.length = spin_box_si_value(wedge_length_, old_wedge.length, 1e3);
        w.width = spin_box_si_value(wedge_width_, old_wedge.width, 1e3);
        p.wedge = w;
    } else {
        p.wedge.reset();
    }
    p.active_first = active_first_->value();
    p.active_count = active_count_->value();
    p.transmit = transmit_->isChecked();
    p.receive = receive_->isChecked();
    return p;
}

void ProbesPanel::edited() {
    if (refreshing_) return;
    const int i = currentProbe();
    if (i < 0) return;
    auto probes = doc_->scene().probes;
    const ProbeSpec before = probes[std::size_t(i)];
    ProbeSpec after = readForm(before);
    // A new wedge starts from a usable block: the first material and a shallow slope.
    if (after.wedge && !before.wedge && after.wedge->height <= 0) {
        const auto& m = doc_->scene().materials;
        // The library's wedge plastic when the scene has it, else the first material.
        const bool has_rexolite =
            std::any_of(m.begin(), m.end(), [](const Material& x) { return x.name == "rexolite"; });
        if (has_rexolite) after.wedge->material = "rexolite";
        if (after.wedge->material.empty() && !m.empty()) after.wedge->material = m.front().name;
        after.wedge->angle = after.wedge->angle > 0 ? after.wedge->angle : 30;
        after.wedge->height = 5 * doc_->scene().grid.spacing;
    }
    // A piston made an array (or back) starts from the library's usual sizes where it has none.
    if (after.is_array() && !before.is_array()) {
        if (after.pitch <= 0) after.pitch = 0.0006;
        if (after.element_width <= 0) after.element_width = 0.0005;
        if (after.elevation <= 0) after.elevation = 0.006;
        if (after.elements <= 1) after.elements = 16;
    }
    if (!after.is_array() && before.is_array()) {
        after.wedge.reset();
        after.delay_law = {};
        if (after.shape == "disk" && after.diameter <= 0) after.diameter = 0.010;
    }
    if (after == before) return;
    probes[std::size_t(i)] = after;
    std::optional<ScanSpec> scan = doc_->scene().scan;
    if (scan && scan->probe == before.name) scan->probe = after.name;
    const QString err =
        push_probes_edit(doc_, probes, scan, tr("Edit probe %1").arg(QString::fromStdString(after.name)));
    if (!err.isEmpty()) {
        writeForm(before);
        updatePreview();
    }
    showError(err);
}

void ProbesPanel::add(ProbeSpec probe, const QString& what, std::vector<Material> extra_materials) {
    auto probes = doc_->scene().probes;
    probes.push_back(std::move(probe));
    QUndoStack* undo = doc_->undoStack();
    if (!extra_materials.empty()) {
        auto materials = doc_->scene().materials;
        materials.insert(materials.end(), extra_materials.begin(), extra_materials.end());
        undo->beginMacro(what);
        undo->push(new SetMaterialsCommand(doc_, materials, what));
    }
    const QString err = push_probes_edit(doc_, probes, doc_->scene().scan, what);
    if (!extra_materials.empty()) {
        undo->endMacro();
        if (!err.isEmpty()) undo->undo();  // the materials came only for this probe
    }
    if (err.isEmpty()) setCurrentProbe(int(probes.size()) - 1);
    showError(err);
}

// A new probe named base + a number, on the middle of the model's top face, sending the
// library's 2.25 MHz three-cycle tone burst at 1 MPa.
ProbeSpec ProbesPanel::newProbe(const QString& base, const std::string& type) const {
    ProbeSpec p;
    p.name = unique_name(doc_->scene().probes, base).toStdString();
    p.type = type;
    p.normal = {0, 0, -1};
    p.center = face_centre(doc_->scene(), doc_->model(), p.normal);
    p.amplitude = 1e6;
    p.wavelet.type = WaveletType::ToneBurst;
    p.wavelet.frequency = 2.25e6;
    p.wavelet.cycles = 3;
    return p;
}

void ProbesPanel::addPiston() {
    ProbeSpec p = newProbe(QStringLiteral("P"), "piston");
    p.shape = "disk";
    // The library's 10 mm disk, or half the face where that is smaller.
    p.diameter = std::min(0.010, 0.5 * face_width(doc_->scene(), p.normal));
    add(p, tr("Add piston %1").arg(QString::fromStdString(p.name)));
}

void ProbesPanel::addArray() {
    ProbeSpec p = newProbe(QStringLiteral("PA"), "array");
    // The library's 16-element 0.6 mm array, fewer elements and a shorter elevation where the
    // face is smaller (the aperture at most half the box along the axis).
    p.pitch = 0.0006;
    p.element_width = 0.0005;
    p.elements = std::clamp(int(0.5 * doc_->scene().grid.size[0] / p.pitch), 1, 16);
    p.elevation = std::min(0.006, 0.5 * face_width(doc_->scene(), p.normal));
    add(p, tr("Add array %1").arg(QString::fromStdString(p.name)));
}

void ProbesPanel::addFromLibrary(const ProbeSpec& probe) {
    ProbeSpec p = probe;
    const QString base = QString::fromStdString(p.name);
    if (std::any_of(doc_->scene().probes.begin(), doc_->scene().probes.end(),
                    [&](const ProbeSpec& q) { return q.name == p.name; }))
        p.name = unique_name(doc_->scene().probes, base + "-").toStdString();
    p.center = face_centre(doc_->scene(), doc_->model(), p.normal);
    std::vector<Material> extra;
    const auto& known = doc_->scene().materials;
    if (p.wedge &&
        std::none_of(known.begin(), known.end(), [&](const Material& m) { return m.name == p.wedge->material; })) {
        try {
            for (const Material& m : load_material_library(VOXWAVE_ASSETS_DIR "/materials/library.json"))
                if (m.name == p.wedge->material) extra.push_back(m);
        } catch (const InputError&) {
            // validate_scene names the unknown material below
        }
    }
    add(p, tr("Add probe %1 from the library").arg(QString::fromStdString(p.name)), extra);
}

void ProbesPanel::removeCurrent() {
    const int i = currentProbe();
    if (i < 0) return;
    auto probes = doc_->scene().probes;
    const std::string name = probes[std::size_t(i)].name;
    probes.erase(probes.begin() + i);
    std::optional<ScanSpec> scan = doc_->scene().scan;
    if (scan && scan->probe == name) scan.reset();
    showError(push_probes_edit(doc_, probes, scan, tr("Remove probe %1").arg(QString::fromStdString(name))));
}

void ProbesPanel::updatePreview() {
    const int i = currentProbe();
    if (i < 0) {
        preview_->set({}, 0, 0, 0);
        return;
    }
    const ProbeSpec& p = doc_->scene().probes[std::size_t(i)];
    try {
        const ProbeLaw law = probe_law(doc_->scene(), doc_->model(), std::size_t(i));
        preview_->set(law.delays, probe_beam_angle(p, law.wedge_velocity, law.velocity), p.active_first,
                      p.active_count);
    } catch (const std::exception&) {
        preview_->set(std::vector<double>(std::size_t(p.element_count()), 0.0), probe_beam_angle(p), p.active_first,
                      p.active_count);
    }
}

}  // namespace voxwave::ui
