#include "imaging/make_image_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <exception>
#include <optional>

#include "core/errors.hpp"
#include "imaging/image_window.hpp"
#include "scene/rasterise.hpp"
#include "scene/scene_io.hpp"
#include "wave/probe_scan.hpp"
#include "wave/sector_imaging.hpp"

namespace voxwave::ui {
namespace {
QDoubleSpinBox* optional_box(QWidget* parent, const QString& name, double max, int decimals, const QString& suffix,
                             const QString& automatic, const QString& tip) {
    auto* b = new QDoubleSpinBox(parent);
    b->setObjectName(name);
    b->setRange(0, max);
    b->setDecimals(decimals);
    b->setSuffix(suffix);
    b->setSpecialValueText(automatic);  // 0 shows as "auto (...)": the engine's default
    b->setToolTip(tip);
    return b;
}

// The image of `a` by the dialog's method ("" picks TFM for an FMC, compounding for a PWI).
Image image_of(const ArrayAcquisition& a, const std::string& method, const ImagingRequest& r, const std::string& source,
               const ProgressFn& progress) {
    return make_image_by_method(a, method, r, source, progress, nullptr, "Method");
}

}  // namespace

MakeImageDialog::MakeImageDialog(const QString& acquisition, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Make image"));
    setObjectName("make-image-dialog");
    path_ = new QLineEdit(this);
    path_->setObjectName("acquisition-path");
    path_->setToolTip(tr("An HDF5 file with /fmc (full matrix capture) or /pwi (plane waves)"));
    auto* browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, tr("FMC or PWI acquisition"), QSettings().value("dirs/results").toString(), tr("HDF5 (*.h5 *.hdf5)"));
        if (!p.isEmpty()) setAcquisitionPath(p);
    });
    connect(path_, &QLineEdit::editingFinished, this, &MakeImageDialog::describeFile);
    file_info_ = new QLabel(this);
    file_info_->setObjectName("acquisition-info");
    method_ = new QComboBox(this);
    method_->setObjectName("image-method");
    method_->addItem(tr("From the file (TFM for an FMC, compounding for a PWI)"), "");
    method_->addItem(tr("TFM (total focusing)"), "tfm");
    method_->addItem(tr("Plane-wave compounding"), "pwi");
    method_->addItem(tr("Sector scan (PWI: each steered plane wave's own line)"), "sector");
    method_->setToolTip(
        tr("TFM sums every element pair; compounding sums every plane wave; a sector scan images "
           "each steered plane wave along its own line, drawn as a fan"));
    mode_ = new QComboBox(this);
    mode_->setObjectName("image-mode");
    mode_->addItem(tr("LL: P down, P back"), "LL");
    mode_->addItem(tr("TT: S down, S back"), "TT");
    mode_->addItem(tr("LT: P down, S back"), "LT");
    mode_->setToolTip(tr("Wave type of the transmit and receive legs; TT and LT need the S-wave speed"));
    backend_ = new QComboBox(this);
    backend_->setObjectName("image-backend");
    for (const char* b : {"auto", "cpu", "cuda"}) backend_->addItem(b, b);
    pixel_ = optional_box(this, "image-pixel", 10, 3, tr(" mm"), tr("auto (a quarter wavelength)"),
                          tr("Pixel size; auto: a quarter of the shortest wavelength of the mode"));
    vp_ = optional_box(this, "image-vp", 20000, 0, tr(" m/s"), tr("auto (the file's vp, else 5900)"),
                       tr("P-wave speed; auto: the file's vp attribute, else steel's 5900 m/s"));
    vs_ = optional_box(this, "image-vs", 20000, 0, tr(" m/s"), tr("auto (the file's vs)"),
                       tr("S-wave speed for TT and LT; auto: the file's vs attribute"));
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(path_, 1);
    file_row->addWidget(browse);
    file_fields_ = new QWidget(this);
    auto* file_form = new QFormLayout(file_fields_);
    file_form->setContentsMargins(0, 0, 0, 0);
    file_form->addRow(tr("Acquisition:"), file_row);
    file_form->addRow(QString(), file_info_);

    source_ = new QComboBox(this);
    source_->setObjectName("image-source");
    source_->addItem(tr("An acquisition file"), "file");
    source_->addItem(tr("Simulate the scene's array probe, then image"), "simulate");
    source_->setToolTip(tr("Image an FMC or PWI file, or simulate one from the open scene first"));
    sim_probe_ = new QComboBox(this);
    sim_probe_->setObjectName("sim-probe");
    sim_probe_->setToolTip(tr("The scene's array probe that fires (where the scene places it)"));
    sim_type_ = new QComboBox(this);
    sim_type_->setObjectName("sim-type");
    sim_type_->addItem(tr("FMC: each element fires alone, all receive"), "fmc");
    sim_type_->addItem(tr("PWI: one plane wave per angle"), "pwi");
    sim_angles_ = new QLineEdit(QSettings().value("imaging/pwi_angles", "-20, -10, 0, 10, 20").toString(), this);
    sim_angles_->setObjectName("sim-angles");
    sim_angles_->setToolTip(
        tr("Plane-wave angles in degrees from the normal, towards +array axis, each in (-90, 90), "
           "separated by commas or spaces"));
    sim_fields_ = new QWidget(this);
    auto* sim_form = new QFormLayout(sim_fields_);
    sim_form->setContentsMargins(0, 0, 0, 0);
    sim_form->addRow(tr("Probe:"), sim_probe_);
    sim_form->addRow(tr("Acquisition:"), sim_type_);
    sim_form->addRow(tr("Angles (deg):"), sim_angles_);
    connect(source_, &QComboBox::currentIndexChanged, this, &MakeImageDialog::updateSource);
    connect(sim_type_, &QComboBox::currentIndexChanged, this, &MakeImageDialog::updateSource);

    auto* form = new QFormLayout;
    form->addRow(tr("Source:"), source_);
    form->addRow(file_fields_);
    form->addRow(sim_fields_);
    form->addRow(tr("Method:"), method_);
    form->addRow(tr("Mode:"), mode_);
    form->addRow(tr("Pixel:"), pixel_);
    form->addRow(tr("P-wave speed:"), vp_);
    form->addRow(tr("S-wave speed:"), vs_);
    form->addRow(tr("Backend:"), backend_);
    progress_ = new QProgressBar(this);
    progress_->setObjectName("image-progress");
    make_ = new QPushButton(tr("Make image"), this);
    make_->setObjectName("make-image");
    make_->setDefault(true);
    cancel_ = new QPushButton(tr("Cancel"), this);
    auto* close = new QPushButton(tr("Close"), this);
    connect(make_, &QPushButton::clicked, this, &MakeImageDialog::start);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    bind_job_controls(job_, this, {make_}, cancel_, progress_, tr("Cannot make the image"));
    connect(&job_, &BackgroundJob::failed, this, [this](const QString& m) { error_ = m; });
    connect(&job_, &BackgroundJob::finished, this, [this] {
        image_ = pending_;
        error_.clear();
        const QString title = simulating() ? tr("%1 of %2 (%3)")
                                                 .arg(sim_type_->currentData().toString().toUpper(),
                                                      sim_probe_->currentText(), scene_name_)
                                           : QFileInfo(acquisitionPath()).fileName();
        window_ = show_image_window(image_, title, parentWidget());
        emit imageReady();
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(progress_, 1);
    buttons->addWidget(make_);
    buttons->addWidget(cancel_);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    setAcquisitionPath(acquisition);
    updateSource();
}

void MakeImageDialog::setScene(const Scene& scene, const QString& name) {
    scene_ = scene;
    scene_name_ = name;
    sim_probe_->clear();
    for (const ProbeSpec& p : scene.probes)
        if (p.is_array()) sim_probe_->addItem(QString::fromStdString(p.name));
    auto* model = qobject_cast<QStandardItemModel*>(source_->model());
    const bool can = sim_probe_->count() > 0;
    if (model) model->item(1)->setEnabled(can);
    source_->setItemData(1,
                         can ? tr("Fire the probe as an FMC or PWI, record every element, then image")
                             : tr("The scene has no array probe"),
                         Qt::ToolTipRole);
    if (!can) source_->setCurrentIndex(0);
    updateSource();
}

bool MakeImageDialog::simulating() const { return source_->currentData().toString() == "simulate"; }

void MakeImageDialog::updateSource() {
    file_fields_->setVisible(!simulating());
    sim_fields_->setVisible(simulating());
    sim_angles_->setEnabled(sim_type_->currentData().toString() == "pwi");
}

ScanSpec MakeImageDialog::simulatedScan() const {
    ScanSpec s;
    s.probe = sim_probe_->currentText().toStdString();
    if (s.probe.empty()) throw InputError("", "Probe", "the scene has no array probe");
    s.type = sim_type_->currentData().toString().toStdString();
    if (s.type != "pwi") return s;
    const QStringList words = sim_angles_->text().split(QRegularExpression("[,;\\s]+"), Qt::SkipEmptyParts);
    for (const QString& w : words) {
        bool ok = false;
        const double a = w.toDouble(&ok);
        if (!ok) throw InputError("", "Angles", "'" + w.toStdString() + "' is not a number");
        s.angles.push_back(a);
    }
    return s;
}

QString MakeImageDialog::acquisitionPath() const { return path_->text().trimmed(); }

void MakeImageDialog::setAcquisitionPath(const QString& path) {
    path_->setText(path);
    describeFile();
}

void MakeImageDialog::describeFile() {
    const QString p = acquisitionPath();
    if (p.isEmpty()) {
        file_info_->setText(tr("Choose an FMC or PWI file (a scan's result, or any HDF5 file with /fmc or /pwi)"));
        return;
    }
    try {
        const ArrayAcquisition a = read_array_acquisition_h5(p.toStdString());
        file_info_->setText(tr("%1: %2 transmissions × %3 elements × %4 samples, pitch %5 mm")
                                .arg(QString(to_string(a.type)).toUpper())
                                .arg(a.n_tx)
                                .arg(a.n_rx)
                                .arg(a.sample_count())
                                .arg(a.pitch * 1e3, 0, 'g', 3));
    } catch (const std::exception& e) {
        file_info_->setText(QString::fromStdString(e.what()));
    }
}

ImagingRequest MakeImageDialog::request() const {
    ImagingRequest r;
    r.mode = parse_imaging_mode(mode_->currentData().toString().toStdString(), "Mode");
    r.backend = parse_backend(backend_->currentData().toString().toStdString(), "Backend");
    r.pixel = pixel_->value() * 1e-3;
    r.vp = vp_->value();
    r.vs = vs_->value();
    return r;
}

void MakeImageDialog::start() {
    if (job_.busy()) return;
    const std::string path = acquisitionPath().toStdString();
    const std::string method = method_->currentData().toString().toStdString();
    ImagingRequest r = request();
    if (simulating()) {
        QSettings().setValue("imaging/pwi_angles", sim_angles_->text());
        Scene scene = scene_;
        const std::string label = scene_name_.toStdString();
        std::optional<ScanSpec> scan;
        std::exception_ptr bad;  // a bad field fails the job, so it reports as every failure does
        try {
            scan = simulatedScan();
        } catch (const InputError&) {
            bad = std::current_exception();
        }
        job_.start([this, scene, scan, bad, label, method, r](const ProgressFn& progress) mutable {
            // Simulating, then imaging: the bar runs through the shots' steps, then the image's rows.
            if (bad) std::rethrow_exception(bad);
            scene.scan = *scan;
            validate_scene(scene, label);
            const VoxelGrid model = rasterise(scene);
            const Result result = run_probe_scan(scene, model, label, progress);
            pending_ = image_of(scan_array_acquisition(scene, model, result, label), method, r, label, progress);
        });
        return;
    }
    job_.start([this, path, method, r](const ProgressFn& progress) mutable {
        if (path.empty()) throw InputError("", "Acquisition", "choose an FMC or PWI file");
        pending_ = image_of(read_array_acquisition_h5(path), method, r,
                            QFileInfo(QString::fromStdString(path)).fileName().toStdString(), progress);
    });
}

}  // namespace voxwave::ui
