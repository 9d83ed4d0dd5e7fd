// Sources and receivers, edited exactly in tables (positions in mm), with a preview of the
// selected source's wavelet and its spectrum, and receiver lines (N receivers between two
// points) for B-scans. Every edit is an undo command.
#pragma once

#include <QWidget>

#include "core/errors.hpp"
#include "document/scene_document.hpp"

class QTableWidget;
class QChartView;
class QChart;

namespace voxwave::ui {

class SourcesPanel : public QWidget {
    Q_OBJECT
public:
    explicit SourcesPanel(SceneDocument* doc, QWidget* parent = nullptr);
    QTableWidget* sourceTable() const { return sources_; }
    QTableWidget* receiverTable() const { return receivers_; }

public slots:
    void refresh();
    void addSourceAt(const voxwave::Vec3& position);
    void addReceiverAt(const voxwave::Vec3& position);
    // N receivers evenly spaced from a to b (both included), named <prefix>1..N.
    void addReceiverLine(const voxwave::Vec3& a, const voxwave::Vec3& b, int count, const QString& prefix);
    void removeSelected();
    void showReceiverLineDialog();

signals:
    // A value typed into a table was refused: the message names the row as shown and the value in
    // the table's unit; the table is back to the document's values.
    void failed(const QString& message);

private:
    // An error of validate_scene about a source or receiver, worded for the table row at fault
    // (`edited`, `row` and `col`: the cell just typed into).
    QString tableError(const voxwave::InputError& e, const QTableWidget* edited, int row, int col) const;
    void sourceEdited(int row, int column);
    void receiverEdited(int row, int column);
    void updatePreview();

    SceneDocument* doc_;
    QTableWidget* sources_;
    QTableWidget* receivers_;
    QChart* wavelet_chart_;
    QChart* spectrum_chart_;
    bool refreshing_ = false;
};

// Columns of the source table.
enum SourceColumn {
    kSrcName,
    kSrcX,
    kSrcY,
    kSrcZ,
    kSrcDx,
    kSrcDy,
    kSrcDz,
    kSrcAmp,
    kSrcType,
    kSrcF1,
    kSrcF2,
    kSrcDelay,
    kSrcColumns
};
enum ReceiverColumn { kRecName, kRecX, kRecY, kRecZ, kRecColumns };

}  // namespace voxwave::ui
