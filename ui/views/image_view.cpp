#include "views/image_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/painted_axis.hpp"
#include "views/scan_views.hpp"

namespace voxwave::ui {
namespace {
// The scan views' dark palette: the colour bar writes in white, and the image's dB map starts at black.
const QColor kBackground(24, 24, 28), kText(205, 205, 210), kElement(170, 170, 185);
constexpr int kArrayStrip = 12;  // px above the plot for the elements
}  // namespace

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setToolTip(tr("Envelope image in dB below its maximum; the array's elements along the top"));
}

void ImageView::setImage(const Image& image) {
    image_ = image;
    peak_ = 0;
    for (double v : image_.values) peak_ = std::max(peak_, v);
    rebuildRaster();
}

void ImageView::setRangeDb(double db) {
    range_db_ = std::clamp(db, 1.0, 200.0);
    rebuildRaster();
}

void ImageView::rebuildRaster() {
    const int nl = int(image_.n_lateral()), nd = int(image_.n_depth());
    raster_ = QImage();
    if (nl > 0 && nd > 0) {
        raster_ = QImage(nl, nd, QImage::Format_RGB32);
        for (int d = 0; d < nd; ++d) {
            auto* row = reinterpret_cast<QRgb*>(raster_.scanLine(d));
            for (int l = 0; l < nl; ++l)
                row[l] =
                    scan_colour(scan_level(image_.at(std::size_t(d), std::size_t(l)), peak_, true, range_db_), true);
        }
    }
    update();
}

double ImageView::lateralLo() const { return image_.lateral.front() - image_.pixel / 2; }
double ImageView::lateralHi() const { return image_.lateral.back() + image_.pixel / 2; }
double ImageView::depthLo() const { return image_.depth.front() - image_.pixel / 2; }
double ImageView::depthHi() const { return image_.depth.back() + image_.pixel / 2; }

QRect ImageView::plotRect() const {
    const QFontMetrics fm = fontMetrics();
    const int left = 2 * fm.height() + fm.horizontalAdvance("-00.0") + 8;
    const int top = fm.height() + kArrayStrip + 6;
    const int bottom = 2 * fm.height() + 12;
    ColorBar bar = colourBar();
    const int right = bar.widthNeeded(fm) + 16;
    QRect area(left, top, std::max(10, width() - left - right), std::max(10, height() - top - bottom));
    if (raster_.isNull()) return area;
    const double w = lateralHi() - lateralLo(), h = depthHi() - depthLo();
    const double scale = std::min(area.width() / w, area.height() / h);
    const int pw = std::max(1, int(std::lround(w * scale))), ph = std::max(1, int(std::lround(h * scale)));
    return {area.left(), area.top(), pw, ph};
}

QPointF ImageView::toScreen(double lateral, double depth) const {
    const QRect plot = plotRect();
    return {plot.left() + (lateral - lateralLo()) / (lateralHi() - lateralLo()) * plot.width(),
            plot.top() + (depth - depthLo()) / (depthHi() - depthLo()) * plot.height()};
}

std::vector<QRect> ImageView::elementRects() const {
    std::vector<QRect> rects;
    if (raster_.isNull()) return rects;
    const QRect plot = plotRect();
    const double px_per_m = plot.width() / (lateralHi() - lateralLo());
    // Each element as wide as its share of the aperture (less a gap), at least 2 px.
    const auto n = image_.element_lateral.size();
    double pitch = 0;
    if (n > 1) {
        const auto [lo, hi] = std::minmax_element(image_.element_lateral.begin(), image_.element_lateral.end());
        pitch = (*hi - *lo) / double(n - 1);
    }
    const int w = std::max(2, int(0.8 * pitch * px_per_m));
    for (double lat : image_.element_lateral) {
        const int x = int(std::lround(toScreen(lat, 0).x()));
        rects.emplace_back(x - w / 2, plot.top() - kArrayStrip - 2, w, kArrayStrip);
    }
    return rects;
}

ColorBar ImageView::colourBar() const {
    ColorBar bar;
    bar.set(&sequential_color_map(), -range_db_, 0, tr("amplitude"), "dB");
    return bar;
}

QString ImageView::lateralTitle() const {
    return fit_ticks(lateralLo(), lateralHi(), tr("lateral"), "m", plotRect().width(), true, fontMetrics()).title;
}

QString ImageView::depthTitle() const {
    return fit_ticks(depthLo(), depthHi(), tr("depth"), "m", plotRect().height(), false, fontMetrics()).title;
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), kBackground);
    labels_.clear();
    const QRect plot = plotRect();
    p.setPen(kText);
    if (raster_.isNull()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No image: File > Make image... or Open image..."));
        return;
    }
    p.drawImage(plot, raster_);
    p.setPen(QPen(kText, 1));
    p.drawRect(plot.adjusted(0, 0, -1, -1));
    p.setPen(Qt::NoPen);
    p.setBrush(kElement);
    for (const QRect& r : elementRects())
        if (r.right() >= plot.left() - 2 && r.left() <= plot.right() + 2) p.drawRect(r);
    p.setBrush(Qt::NoBrush);
    p.setPen(kText);
    const QFontMetrics fm = fontMetrics();
    const QRect bounds = rect();
    const AxisTicks lat = fit_ticks(lateralLo(), lateralHi(), tr("lateral"), "m", plot.width(), true, fm);
    const AxisTicks dep = fit_ticks(depthLo(), depthHi(), tr("depth"), "m", plot.height(), false, fm);
    draw_axis(p, lat, plot, lateralLo(), lateralHi(), Qt::BottomEdge, false, bounds, labels_);
    labels_.push_back(draw_axis_title(
        p, lat.title, QRect(plot.left(), plot.bottom() + fm.height() + 6, plot.width(), fm.height() + 4), false));
    draw_axis(p, dep, plot, depthLo(), depthHi(), Qt::LeftEdge, true, bounds, labels_);
    labels_.push_back(draw_axis_title(p, dep.title, QRect(0, plot.top(), fm.height() + 4, plot.height()), true));
    ColorBar bar = colourBar();
    bar.layout(QRect(plot.right() + 12, plot.top() - fm.height() - 4, bar.widthNeeded(fm),
                     plot.height() + fm.height() + 4 + fm.height() / 2),
               fm);
    bar.paint(p);
    for (const QRect& r : bar.labelRects(fm)) labels_.push_back(r);
}

void ImageView::mouseMoveEvent(QMouseEvent* e) {
    const QRect plot = plotRect();
    const QPoint at = e->position().toPoint();
    if (raster_.isNull() || !plot.contains(at)) return;
    const int l = std::clamp(int((at.x() - plot.left()) * raster_.width() / plot.width()), 0, raster_.width() - 1);
    const int d = std::clamp(int((at.y() - plot.top()) * raster_.height() / plot.height()), 0, raster_.height() - 1);
    const double v = image_.at(std::size_t(d), std::size_t(l));
    const double db = v > 0 && peak_ > 0 ? 20 * std::log10(v / peak_) : -INFINITY;
    QToolTip::showText(e->globalPosition().toPoint(),
                       tr("lateral %1 mm, depth %2 mm: %3 dB")
                           .arg(image_.lateral[std::size_t(l)] * 1e3, 0, 'f', 2)
                           .arg(image_.depth[std::size_t(d)] * 1e3, 0, 'f', 2)
                           .arg(db, 0, 'f', 1),
                       this);
}

}  // namespace voxwave::ui
