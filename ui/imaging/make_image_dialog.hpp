// Make image...: a TFM or plane-wave image of an FMC / PWI acquisition file, or of one simulated
// first from the open scene's array probe (scan.type fmc or pwi), computed on a worker thread with
// progress and Cancel; the result opens in an ImageWindow (docs/architecture.md#imaging).
// Empty fields take the engine's defaults (the file's speeds, a quarter-wavelength pixel, the
// aperture and the record's depth), shown as the fields' placeholders.
#pragma once

#include <QDialog>

#include "scene/scene.hpp"
#include "sim/background_job.hpp"
#include "wave/tfm_imaging.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace voxwave::ui {

class MakeImageDialog : public QDialog {
    Q_OBJECT
public:
    explicit MakeImageDialog(const QString& acquisition = QString(), QWidget* parent = nullptr);
    // The request the fields describe (InputError naming the field for a bad one).
    ImagingRequest request() const;
    QString acquisitionPath() const;
    void setAcquisitionPath(const QString& path);
    // The scene whose array probes "Simulate" fires (FMC: each element alone; PWI: one plane wave
    // per angle); `name` titles the image. Without an array probe only files can be imaged.
    void setScene(const Scene& scene, const QString& name);
    // Whether the next start() simulates from the scene (else it reads the file).
    bool simulating() const;
    // The scan the simulation fields describe (InputError naming the field for a bad one).
    ScanSpec simulatedScan() const;
    // Starts the computation (as the Make image button does).
    void start();
    BackgroundJob& job() { return job_; }
    // The last image made, and its window.
    const Image& lastImage() const { return image_; }
    QWidget* lastWindow() const { return window_; }
    QString lastError() const { return error_; }

signals:
    void imageReady();

private:
    void describeFile();
    void updateSource();

    QComboBox* source_;
    QLineEdit* path_;
    QLabel* file_info_;
    QWidget *file_fields_, *sim_fields_;
    QComboBox *sim_probe_, *sim_type_;
    QLineEdit* sim_angles_;
    Scene scene_;
    QString scene_name_;
    QComboBox *method_, *mode_, *backend_;
    QDoubleSpinBox *pixel_, *vp_, *vs_;
    QPushButton *make_, *cancel_;
    QProgressBar* progress_;
    Image image_, pending_;
    QWidget* window_ = nullptr;
    QString error_;
    BackgroundJob job_;  // last: its destructor waits for the worker, which writes pending_
};

}  // namespace voxwave::ui
