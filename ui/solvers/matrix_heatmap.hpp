// A dense matrix as an image: log10 |a_ij| through a sequential colormap (zeros dark), so the
// block structure of a high-order element matrix shows at a glance.
#pragma once

#include <QImage>
#include <QWidget>
#include <vector>

namespace voxwave::ui {

class MatrixHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit MatrixHeatmap(QWidget* parent = nullptr);
    // n x n, row-major.
    void setMatrix(const std::vector<double>& a, int n);
    const QImage& image() const { return image_; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QImage image_;
    double lo_ = 0, hi_ = 0;  // log10 range shown
};

}  // namespace voxwave::ui
