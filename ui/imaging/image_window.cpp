#include "imaging/image_window.hpp"

#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "core/errors.hpp"
#include "sim/background_job.hpp"
#include "views/image_view.hpp"

namespace voxwave::ui {

ImageWindow::ImageWindow(const Image& image, const QString& title, QWidget* parent) : QWidget(parent, Qt::Window) {
    setWindowTitle(tr("Image — %1").arg(title));
    setObjectName("image-window");
    view_ = new ImageView(this);
    view_->setImage(image);
    range_ = new QDoubleSpinBox(this);
    range_->setObjectName("image-range-db");
    range_->setRange(6, 120);
    range_->setDecimals(0);
    range_->setSingleStep(6);
    range_->setSuffix(tr(" dB"));
    range_->setToolTip(tr("Dynamic range of the colour scale: black is this far below the image's maximum"));
    range_->setValue(QSettings().value("imaging/range_db", 40.0).toDouble());
    view_->setRangeDb(range_->value());
    connect(range_, &QDoubleSpinBox::valueChanged, this, [this](double db) {
        view_->setRangeDb(db);
        QSettings().setValue("imaging/range_db", db);
    });
    info_ = new QLabel(this);
    info_->setObjectName("image-info");
    info_->setText(tr("%1 %2, vp %3 m/s%4, pixel %5 mm, %6 × %7 pixels, %8")
                       .arg(QString::fromStdString(image.method).toUpper(), QString::fromStdString(image.mode))
                       .arg(image.vp, 0, 'f', 0)
                       .arg(image.vs > 0 ? tr(", vs %1 m/s").arg(image.vs, 0, 'f', 0) : QString())
                       .arg(image.pixel * 1e3, 0, 'g', 3)
                       .arg(image.n_lateral())
                       .arg(image.n_depth())
                       .arg(QString::fromStdString(image.backend)));
    auto* save = new QPushButton(tr("Save image..."), this);
    save->setToolTip(tr("Write the image as HDF5 (/image/values, /image/lateral, /image/depth)"));
    connect(save, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Save image"), QString(), tr("HDF5 image (*.h5)"));
        if (!p.isEmpty()) saveTo(p);
    });
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Range:"), this));
    controls->addWidget(range_);
    controls->addWidget(info_, 1);
    controls->addWidget(save);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);
    resize(720, 600);
}

bool ImageWindow::saveTo(const QString& path) {
    try {
        write_image_h5(path.toStdString(), view_->image());
        return true;
    } catch (const std::exception& e) {
        warn_without_blocking(this, tr("Cannot save image"), QString::fromStdString(e.what()));
        return false;
    }
}

ImageWindow* show_image_window(const Image& image, const QString& title, QWidget* parent) {
    auto* w = new ImageWindow(image, title, parent);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    return w;
}

}  // namespace voxwave::ui
