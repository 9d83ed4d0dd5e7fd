// Live receiver traces: A-scans of every receiver (one component, stacked with offsets, or
// one receiver alone) in a Qt Charts view, and a B-scan image (receivers x time, diverging colours).
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <vector>

#include "scene/result.hpp"

class QChart;
class QLineSeries;
class QValueAxis;
class QChartView;
class QComboBox;
class QLabel;

namespace voxwave::ui {

class BScanView : public QWidget {
    Q_OBJECT
public:
    explicit BScanView(QWidget* parent = nullptr);
    void setImage(const QImage& image) {
        image_ = image;
        update();
    }
    const QImage& image() const { return image_; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    QImage image_;
};

class TracePanel : public QWidget {
    Q_OBJECT
public:
    explicit TracePanel(QWidget* parent = nullptr);

    void reset(const std::vector<std::string>& names, double dt);
    // samples: [(n * receivers + r) * 3 + c] for n = first .. first + count - 1.
    void append(std::int64_t first, const std::vector<double>& samples);
    // Draws what has arrived now. append redraws at most every 150 ms (Qt Charts is the slow
    // part of a frame, and the eye needs no more); samples it held back are drawn by a timer at
    // the end of those 150 ms, so the chart never lags the data by more than that.
    void flush();
    // A finished run's traces (a result file): the path a live run takes, reset + append + flush.
    void showResult(const voxwave::Result& result);
    std::size_t sampleCount() const { return t_.size(); }
    std::size_t receiverCount() const { return names_.size(); }
    const std::vector<std::string>& receiverNames() const { return names_; }
    double dt() const { return dt_; }
    double time(std::size_t n) const { return t_[n]; }
    // The displacement held for receiver r, sample n, component c (0..2 = x, y, z).
    double sample(std::size_t r, std::size_t n, int c) const { return u_[r][n * 3 + std::size_t(c)]; }
    // The value plotted for receiver r, sample n (component chosen in the panel).
    double value(std::size_t r, std::size_t n) const;
    // How many points the chart holds now (tests: the plots did update). Beyond 1200 samples per
    // receiver the count stays near 2 x 600 per receiver (min/max decimation).
    int plottedPoints() const;
    // The latest time the chart shows (µs; 0 when empty): grows with every redraw of new samples,
    // decimated or not.
    double plottedEndTime() const;
    const BScanView* bscan() const { return bscan_; }
    // CSV: time then one column per receiver and component. Atomic. Throws InputError.
    void exportCsv(const QString& path) const;

public slots:
    void setComponent(int c);  // 0..2 = x, y, z; 3 = magnitude

private:
    void redraw();
    void rebuildSeries();

    std::vector<std::string> names_;
    double dt_ = 0;
    std::vector<double> t_;
    std::vector<std::vector<double>> u_;  // per receiver: n x 3
    int component_ = 2;
    QChart* chart_;
    std::vector<QLineSeries*> series_;  // one per receiver, owned by chart_
    QValueAxis* axis_t_ = nullptr;
    QChartView* view_;
    BScanView* bscan_;
    QComboBox* component_box_;
    QElapsedTimer since_redraw_;
    QTimer pending_redraw_;
};

}  // namespace voxwave::ui
