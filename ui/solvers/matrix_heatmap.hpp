// A dense matrix as an image: log10 |a_ij| through the sequential colour map (zeros dark) with
// its colour bar, so the block structure of a high-order element matrix shows at a glance.
#pragma once

#include <QImage>
#include <QWidget>
#include <vector>

#include "views/color_bar.hpp"

namespace voxwave::ui {

class MatrixHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit MatrixHeatmap(QWidget* parent = nullptr);
    // n x n, row-major.
    void setMatrix(const std::vector<double>& a, int n);
    const QImage& image() const { return image_; }
    // Its colour bar (log10 |a_ij|, the map the image is drawn in), as last painted.
    const ColorBar& colorBar() const { return bar_; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QImage image_;
    double lo_ = 0, hi_ = 0;  // log10 range shown
    ColorBar bar_;
};

}  // namespace voxwave::ui
