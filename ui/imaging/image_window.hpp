// A window that shows one array image (ImageView) with its dB range, what it was made from, and
// Save image... (docs/architecture.md#imaging). Opened by File > Open image..., by opening an
// image file, and by Make image....
#pragma once

#include <QWidget>

#include "wave/tfm_imaging.hpp"

class QDoubleSpinBox;
class QLabel;

namespace voxwave::ui {

class ImageView;

class ImageWindow : public QWidget {
    Q_OBJECT
public:
    // `title`: the file or acquisition the image belongs to.
    ImageWindow(const Image& image, const QString& title, QWidget* parent = nullptr);
    ImageView* view() const { return view_; }
    QDoubleSpinBox* rangeBox() const { return range_; }
    // Writes the image (voxwave-image HDF5); false with a warning over the window on failure.
    bool saveTo(const QString& path);

private:
    ImageView* view_;
    QDoubleSpinBox* range_;
    QLabel* info_;
};

// A window for `image`, shown, deleted when closed.
ImageWindow* show_image_window(const Image& image, const QString& title, QWidget* parent);

}  // namespace voxwave::ui
