#include "solvers/matrix_heatmap.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace voxwave::ui {

MatrixHeatmap::MatrixHeatmap(QWidget* parent) : QWidget(parent) { setMinimumSize(160, 160); }

void MatrixHeatmap::setMatrix(const std::vector<double>& a, int n) {
    if (n <= 0 || a.size() != std::size_t(n) * n) {
        image_ = QImage();
        update();
        return;
    }
    double peak = 0;
    for (double v : a) peak = std::max(peak, std::abs(v));
    // Twelve decades below the largest entry; smaller (and zero) entries are black.
    hi_ = peak > 0 ? std::log10(peak) : 0;
    lo_ = hi_ - 12;
    image_ = QImage(n, n, QImage::Format_RGB32);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const double v = std::abs(a[std::size_t(i) * n + j]);
            const double t = v > 0 ? std::clamp((std::log10(v) - lo_) / (hi_ - lo_), 0.0, 1.0) : 0.0;
            // black -> purple -> orange -> yellow
            const int r = int(255 * std::clamp(1.6 * t, 0.0, 1.0));
            const int g = int(255 * std::clamp(1.8 * t - 0.7, 0.0, 1.0));
            const int b = int(255 * std::clamp(t < 0.5 ? 1.4 * t : 1.4 * (1 - t), 0.0, 1.0));
            image_.setPixel(j, i, qRgb(r, g, b));
        }
    update();
}

void MatrixHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(24, 24, 28));
    if (image_.isNull()) {
        p.setPen(Qt::gray);
        p.drawText(rect(), Qt::AlignCenter, tr("element matrix"));
        return;
    }
    const int side = std::min(width(), height() - 18) - 8;
    const QRect target((width() - side) / 2, 4, side, side);
    p.drawImage(target, image_);
    p.setPen(Qt::white);
    p.drawText(QRect(0, height() - 16, width(), 16), Qt::AlignCenter,
               tr("log10 |K_ij|: %1 .. %2 (%3 x %3)").arg(lo_, 0, 'f', 1).arg(hi_, 0, 'f', 1).arg(image_.width()));
}

}  // namespace voxwave::ui
