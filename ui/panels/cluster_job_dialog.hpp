// "Run on a cluster...": a form for a Slurm job (GPUs, GPUs per node, partition, account, time
// limit, job name, modules, process grid, folder) beside a live preview of the batch script. A
// scene with a scan gets a job that runs the scan (its shots shared over the GPUs). OK writes the
// document's scene and the script into the folder (engine write_cluster_job); the engine's
// checks run on every edit, and while one fails its message is shown and OK is disabled.
#pragma once

#include <QDialog>

#include "document/scene_document.hpp"
#include "scene/cluster_job.hpp"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace voxwave::ui {

class ClusterJobDialog : public QDialog {
    Q_OBJECT
public:
    // Fields start from the last accepted job (QSettings "cluster/..."), the job name from the
    // document's file name, the folder inside the last job's parent folder.
    explicit ClusterJobDialog(const SceneDocument* doc, QWidget* parent = nullptr);

    // The job the fields describe (not validated; throws InputError("", "process_grid", ...) for a
    // process grid that is neither auto nor PXxPYxPZ).
    ClusterJobSpec spec() const;
    QString folder() const;
    // After a successful accept(): the files written.
    QString scenePath() const;
    QString scriptPath() const;

    // The form's widgets (tests and --screenshot fill them in like a user would).
    QSpinBox* gpusBox() const { return gpus_; }
    QSpinBox* gpusPerNodeBox() const { return per_node_; }
    QLineEdit* partitionEdit() const { return partition_; }
    QLineEdit* accountEdit() const { return account_; }
    QLineEdit* timeEdit() const { return time_; }
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* modulesEdit() const { return modules_; }
    QLineEdit* processGridEdit() const { return process_grid_; }
    QLineEdit* folderEdit() const { return folder_; }
    QPlainTextEdit* preview() const { return preview_; }
    QPushButton* okButton() const { return ok_; }
    // The message shown under the form ("" while everything is valid).
    QString errorText() const;

public slots:
    // Writes the job; on failure the dialog stays open with the one-line message shown.
    void accept() override;

private:
    void refresh();
    void browse();
    void showError(const QString& field, const QString& message);

    const SceneDocument* doc_;
    QSpinBox* gpus_;
    QSpinBox* per_node_;
    QLineEdit* partition_;
    QLineEdit* account_;
    QLineEdit* time_;
    QLineEdit* name_;
    QLineEdit* modules_;
    QLineEdit* process_grid_;
    QLineEdit* folder_;
    QPlainTextEdit* preview_;
    QLabel* error_;
    QPushButton* ok_;
};

}  // namespace voxwave::ui
