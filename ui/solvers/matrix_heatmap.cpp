#include "solvers/matrix_heatmap.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include "views/color_bar.hpp"

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
            image_.setPixel(j, i, qcolor_at(sequential_color_map(), t).rgb());
        }
    bar_.set(&sequential_color_map(), lo_, hi_, tr("log10 |K_ij|"), QString());
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
    // The matrix at the left, its colour bar at the right, the size under both.
    const QFontMetrics fm = fontMetrics();
    const int bar_w = bar_.widthNeeded(fm);
    const int side = std::max(8, std::min(width() - bar_w - 8, height() - fm.height() - 8) - 8);
    const QRect target((width() - bar_w - side) / 2, 4, side, side);
    p.drawImage(target, image_);
    bar_.layout(QRect(width() - bar_w, 4, bar_w, side), fm);
    bar_.paint(p);
    p.setPen(Qt::white);
    p.drawText(QRect(0, target.bottom() + 4, width() - bar_w, fm.height()), Qt::AlignCenter,
               tr("element matrix, %1 x %1").arg(image_.width()));
}

}  // namespace voxwave::ui
