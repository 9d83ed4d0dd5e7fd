// The Probes panel (docs/architecture.md#probes-and-scans): contact transducers on the model,
// pistons (disk or rectangle) and linear arrays with their mode, wavelet, delay law, wedge and
// active sub-aperture, added, edited and removed, or taken from the probe library
// (assets/probes/*.json). A preview shows the selected probe's delay law (a bar per element, in
// microseconds) and its beam's direction. Every edit is one undo command; one the engine refuses
// shows the engine's own line (the CLI's message) in the panel and leaves the scene as it was.
#pragma once

#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "document/scene_document.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;

namespace voxwave::ui {

// A spin box's value in SI units (it shows SI x scale): `original` itself while the box still
// shows it (a box rounds to its decimals, and an edit of another field must not move this one).
double spin_box_si_value(const QDoubleSpinBox* box, double original, double scale);

// A box of a row of three (x, y, z) that may shrink to a short number, so that the row fits a
// narrow dock.
void shrinkable(QWidget* w);

// A form's combo box of `items` and a count box, named for tests and explained by `tip`.
QComboBox* choice_box(const QString& object_name, const QStringList& items, const QString& tip);
QSpinBox* count_box(const QString& object_name, int lo, int hi, const QString& tip);

// The line under a panel's form where a refusal is shown (red, wrapped, hidden while empty).
QLabel* panel_error_label(const QString& object_name);
// Shows `message` there (empty: hides it) and keeps it in `last`.
void show_panel_error(QLabel* label, QString& last, const QString& message);

// The transmit law of the scene's probe `index` on `model` as a run computes it (element delays,
// s), and the speeds it used (the wedge's vp, 0 without a wedge; the specimen's). Throws InputError
// like add_probe where the probe does not fit.
struct ProbeLaw {
    std::vector<double> delays;
    double wedge_velocity = 0, velocity = 0;
};
ProbeLaw probe_law(const Scene& scene, const VoxelGrid& model, std::size_t index);

// Bars of a law's delays per element (us; elements outside the active aperture grey) beside a
// sketch of the face and the beam's direction at its angle from the normal.
class DelayLawPreview : public QWidget {
    Q_OBJECT
public:
    explicit DelayLawPreview(QWidget* parent = nullptr);
    void set(std::vector<double> delays, double beam_angle, int active_first, int active_count);
    const std::vector<double>& delays() const { return delays_; }
    double beamAngle() const { return beam_angle_; }
    QSize sizeHint() const override { return {320, 150}; }
    QSize minimumSizeHint() const override { return {220, 120}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    std::vector<double> delays_;
    double beam_angle_ = 0;
    int active_first_ = 0, active_count_ = 0;
};

class ProbesPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProbesPanel(SceneDocument* doc, QWidget* parent = nullptr);

    QListWidget* probeList() const { return list_; }
    int currentProbe() const;
    void setCurrentProbe(int index);
    DelayLawPreview* preview() const { return preview_; }
    // The last refusal's message, as shown in the panel (empty when the last edit went in).
    const QString& lastError() const { return last_error_; }
    // The probes of every library file (assets/probes/*.json), in file order.
    static std::vector<ProbeSpec> libraryProbes();

public slots:
    void refresh();
    void addPiston();
    void addArray();
    // A probe of the library, centred on the model's top face (its normal down into it); a wedge
    // material the scene lacks is taken from the material library in the same undo step.
    void addFromLibrary(const voxwave::ProbeSpec& probe);
    void removeCurrent();

signals:
    void failed(const QString& message);

private:
    ProbeSpec newProbe(const QString& base, const std::string& type) const;
    void add(ProbeSpec probe, const QString& what, std::vector<Material> extra_materials = {});
    void edited();
    // The selected probe with the form's values.
    ProbeSpec readForm(const ProbeSpec& from) const;
    void writeForm(const ProbeSpec& p);
    void updateRows(const ProbeSpec& p);
    void updatePreview();
    void showError(const QString& message);

    SceneDocument* doc_;
    QListWidget* list_;
    QFormLayout* form_;
    QLineEdit* name_;
    QComboBox *type_, *normal_, *shape_, *axis_, *mode_, *polarization_, *wavelet_, *law_, *wedge_material_;
    QDoubleSpinBox *cx_, *cy_, *cz_, *diameter_, *width_, *length_, *pitch_, *element_width_, *elevation_;
    QDoubleSpinBox *frequency_, *cycles_, *f_low_, *f_high_, *wavelet_delay_;
    QDoubleSpinBox *law_angle_, *law_depth_, *law_velocity_;
    QDoubleSpinBox *wedge_angle_, *wedge_height_, *wedge_length_, *wedge_width_;
    QLineEdit *amplitude_, *law_delays_;
    QSpinBox *elements_, *active_first_, *active_count_;
    QGroupBox* wedge_box_;
    QCheckBox *transmit_, *receive_;
    QWidget* editor_;
    QWidget* active_row_;
    QLabel* error_;
    DelayLawPreview* preview_;
    QString last_error_;
    bool refreshing_ = false;
};

}  // namespace voxwave::ui
