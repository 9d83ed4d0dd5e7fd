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
#include <QSettings>
#include <QVBoxLayout>

#include "core/errors.hpp"
#include "imaging/image_window.hpp"

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
    auto* form = new QFormLayout;
    form->addRow(tr("Acquisition:"), file_row);
    form->addRow(QString(), file_info_);
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
        window_ = show_image_window(image_, QFileInfo(acquisitionPath()).fileName(), parentWidget());
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
    job_.start([this, path, method, r](const ProgressFn& progress) mutable {
        if (path.empty()) throw InputError("", "Acquisition", "choose an FMC or PWI file");
        const ArrayAcquisition a = read_array_acquisition_h5(path);
        r.method = !method.empty()                  ? parse_imaging_method(method, "Method")
                   : a.type == AcquisitionType::Pwi ? ImagingMethod::Pwi
                                                    : ImagingMethod::Tfm;
        pending_ = make_image(a, r, QFileInfo(QString::fromStdString(path)).fileName().toStdString(), progress);
    });
}

}  // namespace voxwave::ui
