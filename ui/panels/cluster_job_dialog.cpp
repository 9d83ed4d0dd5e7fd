#include "panels/cluster_job_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <map>

#include "core/errors.hpp"

namespace voxwave::ui {

namespace {
const char* const kInvalidStyle = "border: 1px solid #d04040;";
}  // namespace

ClusterJobDialog::ClusterJobDialog(const SceneDocument* doc, QWidget* parent) : QDialog(parent), doc_(doc) {
    setWindowTitle(tr("Run on a cluster"));
    const QSettings settings;
    const ClusterJobSpec defaults;
    gpus_ = new QSpinBox;
    gpus_->setRange(1, 100000);
    gpus_->setValue(settings.value("cluster/gpus", defaults.gpus).toInt());
    gpus_->setToolTip(tr("One MPI rank per GPU"));
    per_node_ = new QSpinBox;
    per_node_->setRange(1, 64);
    per_node_->setValue(settings.value("cluster/gpus_per_node", defaults.gpus_per_node).toInt());
    partition_ = new QLineEdit(settings.value("cluster/partition").toString());
    partition_->setPlaceholderText(tr("the cluster's default"));
    account_ = new QLineEdit(settings.value("cluster/account").toString());
    account_->setPlaceholderText(tr("your default account"));
    time_ = new QLineEdit(settings.value("cluster/time", QString::fromStdString(defaults.time_limit)).toString());
    time_->setPlaceholderText(tr("[D-]HH:MM:SS or MM:SS"));
    const QString name = QString::fromStdString(cluster_job_name_for(doc_->path().toStdString()));
    name_ = new QLineEdit(name);
    modules_ = new QLineEdit(settings.value("cluster/modules").toString());
    modules_->setPlaceholderText(tr("e.g. cuda openmpi (module load)"));
    // A scan shares its shots over the ranks, each with the whole model: no process grid then.
    const bool scan = doc_->scene().scan.has_value();
    process_grid_ =
        new QLineEdit(scan ? QString() : settings.value("cluster/process_grid", QStringLiteral("auto")).toString());
    process_grid_->setPlaceholderText(scan ? tr("none: the ranks share the scan's shots")
                                           : tr("auto (the run chooses), or PXxPYxPZ such as 1x2x2"));
    process_grid_->setToolTip(
        tr("Ranks along x, y and z of the model (run --process-grid); their product is the "
           "GPU count. A scan job shares its shots over the GPUs instead."));
    process_grid_->setEnabled(!scan);
    // Each job gets its own folder inside the last job's parent folder.
    const QString parent_dir =
        settings.value("cluster/parent", QDir::home().filePath(QStringLiteral("voxwave-jobs"))).toString();
    folder_ = new QLineEdit(QDir(parent_dir).filePath(name));
    auto* browse = new QPushButton(tr("Browse..."));
    auto* folder_row = new QHBoxLayout;
    folder_row->addWidget(folder_, 1);
    folder_row->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("GPUs"), gpus_);
    form->addRow(tr("GPUs per node"), per_node_);
    form->addRow(tr("Partition"), partition_);
    form->addRow(tr("Account"), account_);
    form->addRow(tr("Time limit"), time_);
    form->addRow(tr("Job name"), name_);
    form->addRow(tr("Modules"), modules_);
    form->addRow(tr("Process grid"), process_grid_);
    form->addRow(tr("Folder"), folder_row);
    auto* note =
        new QLabel(tr("OK writes the scene and job.slurm into the folder. Copy the folder to the cluster "
                      "and submit it there with sbatch; File > Open result... reads the result file."));
    note->setWordWrap(true);
    error_ = new QLabel;
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #e05050;");
    preview_ = new QPlainTextEdit;
    preview_->setReadOnly(true);
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview_->setMinimumWidth(620);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("Write job"));

    auto* left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(note);
    left->addWidget(error_);
    left->addStretch();
    auto* right = new QVBoxLayout;
    right->addWidget(new QLabel(tr("Batch script (job.slurm)")));
    right->addWidget(preview_, 1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(left, 2);
    columns->addLayout(right, 3);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(columns, 1);
    lay->addWidget(buttons);

    for (QSpinBox* s : {gpus_, per_node_}) connect(s, &QSpinBox::valueChanged, this, &ClusterJobDialog::refresh);
    for (QLineEdit* e : {partition_, account_, time_, name_, modules_, process_grid_, folder_})
        connect(e, &QLineEdit::textChanged, this, &ClusterJobDialog::refresh);
    connect(browse, &QPushButton::clicked, this, &ClusterJobDialog::browse);
    connect(buttons, &QDialogButtonBox::accepted, this, &ClusterJobDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ClusterJobDialog::reject);
    refresh();
}

ClusterJobSpec ClusterJobDialog::spec() const {
    ClusterJobSpec s;
    s.job_name = name_->text().toStdString();
    s.gpus = gpus_->value();
    s.gpus_per_node = per_node_->value();
    s.partition = partition_->text().toStdString();
    s.account = account_->text().toStdString();
    s.time_limit = time_->text().toStdString();
    s.extra_modules = modules_->text().toStdString();
    // What write_cluster_job will run: the scan when the scene has one.
    s.command = doc_->scene().scan ? "scan" : "run";
    const std::string grid = process_grid_->text().trimmed().toStdString();
    s.process_grid = parse_process_grid(grid.empty() ? "auto" : grid, "process_grid");
    return s;
}

QString ClusterJobDialog::folder() const { return folder_->text(); }

QString ClusterJobDialog::scenePath() const {
    return QDir(folder()).filePath(QString::fromStdString(spec().scene_file));
}

QString ClusterJobDialog::scriptPath() const { return QDir(folder()).filePath(kClusterJobScript); }

QString ClusterJobDialog::errorText() const { return error_->text(); }

void ClusterJobDialog::showError(const QString& field, const QString& message) {
    const std::map<QString, QWidget*> widgets = {{"gpus", gpus_},
                                                 {"gpus_per_node", per_node_},
                                                 {"partition", partition_},
                                                 {"account", account_},
                                                 {"time_limit", time_},
                                                 {"job_name", name_},
                                                 {"extra_modules", modules_},
                                                 {"folder", folder_},
                                                 {"process_grid", process_grid_}};
    for (const auto& [name, w] : widgets) w->setStyleSheet(name == field ? kInvalidStyle : "");
    error_->setText(message);
}

void ClusterJobDialog::refresh() {
    // The engine's own checks, so the dialog refuses exactly what write_cluster_job would.
    const std::map<std::string, QString> labels = {{"gpus", tr("GPUs")},
                                                   {"gpus_per_node", tr("GPUs per node")},
                                                   {"partition", tr("Partition")},
                                                   {"account", tr("Account")},
                                                   {"time_limit", tr("Time limit")},
                                                   {"job_name", tr("Job name")},
                                                   {"extra_modules", tr("Modules")},
                                                   {"process_grid", tr("Process grid")}};
    QString field, message;
    try {
        preview_->setPlainText(QString::fromStdString(slurm_batch_script(spec())));
        if (folder().trimmed().isEmpty()) {
            field = "folder";
            message = tr("Folder: must not be empty");
        }
    } catch (const InputError& e) {
        field = QString::fromStdString(e.field());
        const auto it = labels.find(e.field());
        message = it == labels.end() ? QString::fromStdString(e.what())
                                     : it->second + ": " + QString::fromStdString(e.reason());
    }
    // The last valid script stays visible, greyed, while a field is wrong.
    preview_->setEnabled(message.isEmpty());
    ok_->setEnabled(message.isEmpty());
    showError(field, message);
}

void ClusterJobDialog::browse() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the cluster job"), folder());
    if (!dir.isEmpty()) folder_->setText(dir);
}

void ClusterJobDialog::accept() {
    refresh();
    if (!ok_->isEnabled()) return;
    const ClusterJobSpec s = spec();
    const QString dir = folder();
    try {
        // The folder first: a painted model's voxels are written there before the scene.
        create_job_folder(dir.toStdString());
        const Scene scene = doc_->sceneForCopy(scenePath());
        write_cluster_job(dir.toStdString(), scene, s);
    } catch (const std::exception& e) {
        showError({}, QString::fromStdString(e.what()));
        return;
    }
    QSettings settings;
    settings.setValue("cluster/gpus", s.gpus);
    settings.setValue("cluster/gpus_per_node", s.gpus_per_node);
    settings.setValue("cluster/partition", partition_->text());
    settings.setValue("cluster/account", account_->text());
    settings.setValue("cluster/time", time_->text());
    settings.setValue("cluster/modules", modules_->text());
    if (process_grid_->isEnabled()) settings.setValue("cluster/process_grid", process_grid_->text().trimmed());
    settings.setValue("cluster/parent", QFileInfo(QDir::cleanPath(QDir(dir).absolutePath())).absolutePath());
    QDialog::accept();
}

}  // namespace voxwave::ui
