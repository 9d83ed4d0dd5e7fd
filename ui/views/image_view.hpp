// An array image (TFM, plane-wave compounding) in dB below its maximum: lateral across and depth
// down, both in mm at one scale (a circle stays round), the array's elements drawn along the top,
// the sequential colour map of the dB scan views with its colour bar (docs/architecture.md#imaging).
#pragma once

#include <QImage>
#include <QWidget>
#include <vector>

#include "views/color_bar.hpp"
#include "wave/tfm_imaging.hpp"

namespace voxwave::ui {

class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);
    void setImage(const Image& image);
    const Image& image() const { return image_; }
    // The dB scale's dynamic range: the colour map spans [-range, 0] dB below the image maximum.
    void setRangeDb(double db);
    double rangeDb() const { return range_db_; }
    // One colour per image pixel (row 0 the shallowest), as painted.
    const QImage& raster() const { return raster_; }
    // Where the pixels are drawn, with one mm-per-pixel scale on both axes.
    QRect plotRect() const;
    // The screen point of a lateral / depth position (m).
    QPointF toScreen(double lateral, double depth) const;
    // The elements' rectangles along the top (empty before an image is set).
    std::vector<QRect> elementRects() const;
    ColorBar colourBar() const;
    QString lateralTitle() const;
    QString depthTitle() const;
    // The tick labels and titles drawn by the last paint (tests: none overlap).
    const std::vector<QRect>& labelRects() const { return labels_; }
    QSize sizeHint() const override { return {640, 520}; }
    QSize minimumSizeHint() const override { return {260, 200}; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

private:
    void rebuildRaster();
    // The physical extent drawn: pixel edges, m.
    double lateralLo() const;
    double lateralHi() const;
    double depthLo() const;
    double depthHi() const;

    Image image_;
    double peak_ = 0;
    double range_db_ = 40;
    QImage raster_;
    std::vector<QRect> labels_;
};

}  // namespace voxwave::ui
