// Issue 8 in the window: File > Open result... shows a result file's traces exactly as a local
// run shows them (and a bad file changes nothing), attached to the scene it names, and the "Run on
// a cluster..." dialog previews the Slurm script, refuses bad fields and writes the job folder.
#include <QDockWidget>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include "views/gl_format.hpp"

#include "document/edit_commands.hpp"
#include "document/scene_document.hpp"
#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "panels/cluster_job_dialog.hpp"
#include "scene/cluster_job.hpp"
#include "scene/rasterise.hpp"
#include "scene/result.hpp"
#include "scene/scene_io.hpp"
#include "ui_test_support.hpp"
#include "views/trace_panel.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {

// A result as a 3-receiver distributed run could write it, values known in closed form.
Result known_result() {
    Result r;
    r.method = "tcovfem";
    r.precision = "fp64";
    r.backend = "cuda";
    r.stages = 8;
    r.spacing = 0.005;
    r.dt = 2.5e-7;
    r.steps = 59;
    r.wall_seconds = 1.5;
    r.receiver_names = {"near", "mid", "far"};
    r.receiver_positions = {{0.02, 0.05, 0.05}, {0.05, 0.05, 0.05}, {0.08, 0.05, 0.05}};
    const std::size_t nt = 60;
    for (std::size_t n = 0; n < nt; ++n) r.time.push_back(double(n) * r.dt);
    r.displacement.resize(3 * nt * 3);
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t n = 0; n < nt; ++n)
            for (int c = 0; c < 3; ++c) r.u(i, n, c) = (double(i) + 1) * std::sin(0.3 * double(n) + c) * 1e-9;
    r.velocity = r.displacement;
    return r;
}

}  // namespace

class TestResultsAndCluster : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // Everything the traces panel holds, to compare two states exactly.
    struct Traces {
        std::vector<std::string> names;
        double dt = 0;
        std::vector<double> t, u;
        bool operator==(const Traces&) const = default;
    };
    Traces traces() const {
        const TracePanel* p = w_->traces();
        Traces s{p->receiverNames(), p->dt(), {}, {}};
        for (std::size_t n = 0; n < p->sampleCount(); ++n) {
            s.t.push_back(p->time(n));
            for (std::size_t r = 0; r < p->receiverCount(); ++r)
                for (int c = 0; c < 3; ++c) s.u.push_back(p->sample(r, n, c));
        }
        return s;
    }

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        const QString path = dir_.filePath("small.json");
        write_scene_json(path.toStdString(), small_scene());
        QVERIFY(w_->openScene(path, true));
    }

    void openResultShowsTheFilesTraces() {
        const Result r = known_result();
        const QString path = dir_.filePath("known.h5");
        write_result_h5(path.toStdString(), r);
        const Scene before = w_->document()->scene();

        QVERIFY(w_->openResult(path, true));
        const TracePanel* p = w_->traces();
        QCOMPARE(p->receiverCount(), std::size_t(3));
        QCOMPARE(p->sampleCount(), std::size_t(60));
        QCOMPARE(p->receiverNames(), r.receiver_names);
        // Exact (==, not QCOMPARE's fuzzy double comparison): the file's numbers, unchanged.
        QVERIFY(p->dt() == 2.5e-7);
        for (std::size_t n = 0; n < 60; ++n) {
            QVERIFY2(p->time(n) == r.time[n], qPrintable(QString::number(n)));
            for (std::size_t i = 0; i < 3; ++i)
                for (int c = 0; c < 3; ++c)
                    QVERIFY2(p->sample(i, n, c) == r.u(i, n, c), qPrintable(QString("%1 %2 %3").arg(i).arg(n).arg(c)));
        }
        // Drawn: one stacked trace per receiver, and a B-scan row per receiver.
        QCOMPARE(p->plottedPoints(), 3 * 60);
        QCOMPARE(p->bscan()->image().height(), 3);
        // The file, method, backend and steps are named; the receivers are drawn on the model.
        const QString msg = w_->statusBar()->currentMessage();
        for (const char* part : {"known.h5", "tcovfem", "cuda", "59 steps", "3 receivers"})
            QVERIFY2(msg.contains(part), qPrintable(msg + " lacks " + part));
        QVERIFY(w_->traces()->parentWidget()->windowTitle().contains("known.h5"));
        QCOMPARE(w_->painter()->resultReceiversDrawn(), 3);
        // The document is not touched.
        QVERIFY(w_->document()->scene() == before);
        QVERIFY(!w_->document()->isModified());
        QVERIFY(w_->document()->path().endsWith("small.json"));
        // Reset clears the file's traces and markers.
        w_->resetRun();
        QCOMPARE(w_->traces()->receiverCount(), std::size_t(0));
        QCOMPARE(w_->painter()->resultReceiversDrawn(), 0);
    }

    void openResultMatchesTheLocalRunThatWroteIt() {
        MainWindow& w = *w_;
        w.resetRun();  // empty traces: the wait below sees this run's samples only
        QSignalSpy finished(w.controller(), &SimulationController::finished);
        w.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(w.traces()->sampleCount() > 30, 20000);
        w.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        const Traces after_run = traces();
        QCOMPARE(after_run.names.size(), std::size_t(5));
        QVERIFY(after_run.t.size() > 30);
        const QString path = dir_.filePath("local.h5");
        write_result_h5(path.toStdString(), w.controller()->lastResult());
        w.resetRun();
        QCOMPARE(w.traces()->sampleCount(), std::size_t(0));

        QVERIFY(w.openResult(path, true));
        QVERIFY(traces() == after_run);  // names, dt, times and every sample, bit for bit
        QVERIFY(w.statusBar()->currentMessage().contains("ovfem fp64 on cpu"));
    }

    void openingAResultDuringARunStopsIt() {
        MainWindow& w = *w_;
        w.resetRun();
        w.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(w.traces()->sampleCount() > 5, 20000);
        QVERIFY(w.openResult(dir_.filePath("known.h5"), true));
        QVERIFY(!w.controller()->busy());
        // Frames the worker sent before it stopped arrive now: they must not mix in.
        QTest::qWait(300);
        QCOMPARE(w.traces()->receiverNames(), known_result().receiver_names);
        QCOMPARE(w.traces()->sampleCount(), std::size_t(60));
        QVERIFY(w.traces()->sample(2, 59, 1) == known_result().u(2, 59, 1));
    }

    void badResultFilesChangeNothing() {
        QVERIFY(w_->openResult(dir_.filePath("known.h5"), true));
        const Traces shown = traces();
        const Scene scene = w_->document()->scene();
        // Not HDF5; a truncated result; an HDF5 file of another kind; no file.
        const QString text = dir_.filePath("corrupt.h5");
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not an HDF5 file\n");
        f.close();
        const QString truncated = dir_.filePath("truncated.h5");
        QFile whole(dir_.filePath("known.h5"));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray head = whole.read(whole.size() / 3);
        QFile cut(truncated);
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(head);
        cut.close();
        const QString voxels = dir_.filePath("voxels.h5");
        write_voxels_h5(voxels.toStdString(), "/model/material_ids", w_->document()->model());
        for (const QString& bad : {text, truncated, voxels, dir_.filePath("missing.h5")}) {
            QVERIFY2(!w_->openResult(bad, true), qPrintable(bad));
            QVERIFY2(w_->lastError().startsWith(bad + ": "), qPrintable(w_->lastError()));
            QVERIFY(!w_->lastError().contains('\n'));
            QVERIFY(traces() == shown);
            QVERIFY(w_->document()->scene() == scene);
        }
        QVERIFY2(w_->lastError().contains("missing.h5"), qPrintable(w_->lastError()));
        // Interactively (as File > Open result... calls it): one error box with the one-line message.
        DialogCloser boxes;
        QVERIFY(!w_->openResult(voxels));
        QCOMPARE(boxes.messages, QStringList{w_->lastError()});
        QVERIFY2(w_->lastError().startsWith(voxels + ": format"), qPrintable(w_->lastError()));
        QVERIFY(menu_action(*w_, tr("Open res&ult...")));
        QVERIFY(traces() == shown);
        QVERIFY(w_->document()->scene() == scene);
        QVERIFY(!w_->document()->isModified());
    }

    void clusterDialogPreviewsValidatesAndWrites() {
        ClusterJobDialog d(w_->document());
        QCOMPARE(d.nameEdit()->text(), QString("small"));  // from the scene file's name
        QCOMPARE(d.gpusBox()->value(), 2);
        QCOMPARE(d.gpusPerNodeBox()->value(), 4);
        d.gpusBox()->setValue(6);
        d.partitionEdit()->setText("gpu");
        d.accountEdit()->setText("acct");
        d.timeEdit()->setText("02:00:00");
        const QString job = dir_.filePath("jobs/small-6");
        d.folderEdit()->setText(job);
        QString script = d.preview()->toPlainText();
        for (const char* line : {"#SBATCH --ntasks=6\n", "#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=4\n",
                                 "#SBATCH --partition=gpu\n", "#SBATCH --account=acct\n", "#SBATCH --time=02:00:00\n"})
            QVERIFY2(script.contains(line), qPrintable(script + " lacks " + line));
        QVERIFY(d.okButton()->isEnabled());
        QVERIFY(d.errorText().isEmpty());
        // Live: one GPU more, the preview follows.
        d.gpusBox()->setValue(7);
        QVERIFY(d.preview()->toPlainText().contains("#SBATCH --ntasks=7\n"));
        d.gpusBox()->setValue(6);

        // Bad fields: the engine's message, OK disabled; fixed, OK again.
        d.timeEdit()->setText("1h");
        QVERIFY(!d.okButton()->isEnabled());
        QVERIFY2(d.errorText().contains("Time limit: '1h' is not [D-]HH:MM:SS or MM:SS"), qPrintable(d.errorText()));
        d.accept();  // refused: nothing written, still open
        QVERIFY(d.result() != QDialog::Accepted);
        QVERIFY(!QFile::exists(job));
        d.timeEdit()->setText("02:00:00");
        QVERIFY(d.okButton()->isEnabled());
        d.nameEdit()->setText("my job");
        QVERIFY(!d.okButton()->isEnabled());
        QVERIFY2(d.errorText().contains("Job name: a space is not allowed"), qPrintable(d.errorText()));
        d.nameEdit()->setText("small-6");
        d.partitionEdit()->setText("gpu x");
        QVERIFY(!d.okButton()->isEnabled());
        QVERIFY2(d.errorText().contains("Partition: must not contain white space"), qPrintable(d.errorText()));
        d.partitionEdit()->setText("gpu");
        // The process grid: refused unless auto or PXxPYxPZ with one rank per GPU; passed to the run.
        d.processGridEdit()->setText("1x2");
        QVERIFY(!d.okButton()->isEnabled());
        QVERIFY2(d.errorText().contains("Process grid: '1x2' is not auto or ranks along x, y and z"),
                 qPrintable(d.errorText()));
        d.processGridEdit()->setText("1x2x2");
        QVERIFY(!d.okButton()->isEnabled());
        QVERIFY2(d.errorText().contains("Process grid: 1x2x2 has 4 ranks, the job has 6 GPUs"),
                 qPrintable(d.errorText()));
        d.processGridEdit()->setText("1x2x3");
        QVERIFY(d.okButton()->isEnabled());
        QVERIFY2(d.preview()->toPlainText().contains("--backend cuda --process-grid 1x2x3\n"),
                 qPrintable(d.preview()->toPlainText()));
        d.folderEdit()->setText("");
        QVERIFY(!d.okButton()->isEnabled());
        d.folderEdit()->setText(job);
        QVERIFY(d.okButton()->isEnabled());
        script = d.preview()->toPlainText();

        // OK writes both files: the document's scene and the script previewed.
        QTest::mouseClick(d.okButton(), Qt::LeftButton);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.scenePath(), QDir(job).filePath("scene.json"));
        QCOMPARE(d.scriptPath(), QDir(job).filePath("job.slurm"));
        QFile sf(d.scriptPath());
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(sf.readAll()), script);
        QVERIFY(QFileInfo(d.scriptPath()).isExecutable());
        const Scene back = read_scene_json(d.scenePath().toStdString());
        QVERIFY(back == w_->document()->scene());
        QCOMPARE(QDir(job).entryList(QDir::Files), (QStringList{"job.slurm", "scene.json"}));

        // The next dialog starts from this job's settings, in a folder beside it.
        ClusterJobDialog next(w_->document());
        QCOMPARE(next.gpusBox()->value(), 6);
        QCOMPARE(next.gpusPerNodeBox()->value(), 4);
        QCOMPARE(next.partitionEdit()->text(), QString("gpu"));
        QCOMPARE(next.accountEdit()->text(), QString("acct"));
        QCOMPARE(next.processGridEdit()->text(), QString("1x2x3"));
        QCOMPARE(next.folderEdit()->text(), QDir(dir_.filePath("jobs")).filePath("small"));

        // A folder that cannot be made: the message, and the dialog stays open.
        QFile plain(dir_.filePath("plain"));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        next.folderEdit()->setText(dir_.filePath("plain/job"));
        next.accept();
        QVERIFY(next.result() != QDialog::Accepted);
        QVERIFY2(next.errorText().contains(dir_.filePath("plain/job") + ": cannot create the folder"),
                 qPrintable(next.errorText()));
    }

    void clusterJobOfAPaintedModelCarriesItsVoxels() {
        SceneDocument* doc = w_->document();
        const auto& g = doc->model();
        const std::vector<std::size_t> cells = {g.element_index(1, 1, 1), g.element_index(2, 1, 1)};
        doc->undoStack()->push(new PaintVoxelsCommand(doc, cells, MaterialId(2), "paint"));
        QVERIFY(doc->painted());
        ClusterJobDialog d(doc);
        const QString job = dir_.filePath("jobs/painted");
        d.folderEdit()->setText(job);
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(QDir(job).entryList(QDir::Files), (QStringList{"job.slurm", "scene.json", "scene.voxels.h5"}));
        const Scene back = read_scene_json(d.scenePath().toStdString());
        QVERIFY(back.shapes.empty());
        QVERIFY(back.voxels && back.voxels->file == "scene.voxels.h5");
        QVERIFY(rasterise(back).ids == doc->model().ids);
        // The document itself is as before: still modified, same path, nothing saved.
        QVERIFY(doc->isModified());
        QVERIFY(doc->path().endsWith("small.json"));
        doc->undoStack()->undo();
    }

    // A scene with a scan: the job runs `scan` (its shots shared over the GPUs) and the process grid
    // field is off; a run job passes the process grid typed, and a malformed one is refused.
    void clusterDialogRunsAScanAndPassesAProcessGrid() {
        Scene scan = read_scene_json(std::string(VOXWAVE_ASSETS_DIR) + "/scenes/probe_bscan_sdh.json");
        scan.grid.spacing = 0.002;  // a light model: the dialog never runs it
        SceneDocument scan_doc;
        scan_doc.reset(scan, dir_.filePath("bscan.json"));
        ClusterJobDialog d(&scan_doc);
        QVERIFY(!d.processGridEdit()->isEnabled());
        QVERIFY2(d.preview()->toPlainText().contains(" scan scene.json -o result.h5 --backend cuda\n"),
                 qPrintable(d.preview()->toPlainText()));
        QVERIFY(d.preview()->toPlainText().contains("share of the scan's shots"));
        d.folderEdit()->setText(dir_.filePath("jobs/bscan"));
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QFile sf(d.scriptPath());
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(sf.readAll()).contains(" scan scene.json -o result.h5"));
        QVERIFY(read_scene_json(d.scenePath().toStdString()).scan.has_value());

        ClusterJobDialog r(w_->document());
        QVERIFY(r.processGridEdit()->isEnabled());
        r.gpusBox()->setValue(4);
        r.processGridEdit()->setText("1x2x2");
        QVERIFY2(
            r.preview()->toPlainText().contains(" run scene.json -o result.h5 --backend cuda --process-grid 1x2x2\n"),
            qPrintable(r.preview()->toPlainText()));
        QVERIFY(r.okButton()->isEnabled());
        r.processGridEdit()->setText("2x;2");
        QVERIFY(!r.okButton()->isEnabled());
        QVERIFY2(r.errorText().contains("Process grid: '2x;2' is not auto or ranks along x, y and z"),
                 qPrintable(r.errorText()));
        r.processGridEdit()->setText("");
        QVERIFY(r.okButton()->isEnabled());
        QVERIFY(!r.preview()->toPlainText().contains("--process-grid"));
    }

    void clusterJobThroughTheWindow() {
        ClusterJobDialog* d = w_->openClusterJobDialog();
        QVERIFY(d->isVisible());
        const QString job = dir_.filePath("jobs/from-menu");
        d->folderEdit()->setText(job);
        DialogCloser answer;
        QTest::mouseClick(d->okButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(answer.messages.size(), 1, 3000);
        for (const QString& part :
             {QDir(job).filePath("scene.json"), QDir(job).filePath("job.slurm"), "cd " + job + " && sbatch job.slurm"})
            QVERIFY2(answer.messages[0].contains(part), qPrintable(answer.messages[0] + " lacks " + part));
        QCOMPARE(w_->lastInfo(), answer.messages[0]);
        QVERIFY(QFileInfo(QDir(job).filePath("job.slurm")).isExecutable());
        // The Simulation menu and the run panel offer it.
        QVERIFY(menu_action(*w_, tr("Run on a &cluster...")));
        bool in_run_panel = false;
        for (QPushButton* b : w_->findChildren<QPushButton*>()) in_run_panel |= b->text() == tr("Run on a cluster...");
        QVERIFY(in_run_panel);
    }

    // A result is attached to the scene it names (issue 30): another scene's receivers are not
    // drawn as markers on the open one, the window says whose traces they are, its scene can be
    // opened when its file lies beside the result, and Export writes what is shown.
    void openResultAttachesItToItsOwnScene() {
        MainWindow& w = *w_;
        QVERIFY(w.document()->path().endsWith("small.json"));
        QVERIFY(!w.document()->isModified());
        const QString open_scene = w.document()->path();

        // Of the open scene: its receivers are drawn on it.
        Result mine = known_result();
        mine.scene = "small.json";
        const QString mine_path = dir_.filePath("mine.h5");
        write_result_h5(mine_path.toStdString(), mine);
        QVERIFY(w.openResult(mine_path, true));
        QVERIFY(w.resultOfOpenScene());
        QCOMPARE(w.painter()->resultReceiversDrawn(), 3);

        // Of a scene whose file is nowhere near: the traces are shown, no marker is drawn, and the
        // window says they belong to that scene.
        Result theirs = known_result();
        theirs.scene = "elsewhere.json";
        theirs.receiver_names = {"far1", "far2", "far3"};
        const QString theirs_path = dir_.filePath("theirs.h5");
        write_result_h5(theirs_path.toStdString(), theirs);
        QVERIFY(w.openResult(theirs_path, true));
        QVERIFY(!w.resultOfOpenScene());
        QCOMPARE(w.painter()->resultReceiversDrawn(), 0);
        QCOMPARE(w.traces()->receiverNames(), theirs.receiver_names);
        const QString said = w.statusBar()->currentMessage();
        for (const char* part : {"elsewhere.json", "not found beside the result", "small.json"})
            QVERIFY2(said.contains(part), qPrintable(said + " lacks " + part));
        QVERIFY(w.traces()->parentWidget()->windowTitle().contains("elsewhere.json"));
        QCOMPARE(w.document()->path(), open_scene);
        // Export traces writes what is shown: that result, with its own scene and receivers.
        const QString out = dir_.filePath("theirs-export.h5");
        QVERIFY2(w.exportTraces(out, true), qPrintable(w.lastError()));
        const Result back = read_result_h5(out.toStdString());
        QCOMPARE(back.scene, std::string("elsewhere.json"));
        QCOMPARE(back.receiver_names, theirs.receiver_names);
        QVERIFY(back.displacement == theirs.displacement);
        const QString csv = dir_.filePath("theirs-export.csv");
        QVERIFY2(w.exportTraces(csv, true), qPrintable(w.lastError()));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readLine().startsWith("time,far1_ux,far1_uy,far1_uz,far2_ux"));

        // Of a scene whose file lies beside the result: kept apart unless asked (quiet keeps the
        // open scene), opened with OpenIt, and then its receivers are drawn on their own model.
        QDir(dir_.path()).mkdir("beside");
        const QString near_scene = dir_.filePath("beside/near.json");
        Scene near = small_scene();
        near.receivers = {{"near", {0.02, 0.05, 0.05}}, {"mid", {0.05, 0.05, 0.05}}, {"far", {0.08, 0.05, 0.05}}};
        write_scene_json(near_scene.toStdString(), near);
        Result near_result = known_result();
        near_result.scene = "near.json";
        const QString near_path = dir_.filePath("beside/near.h5");
        write_result_h5(near_path.toStdString(), near_result);
        QVERIFY(w.openResult(near_path, true));
        QCOMPARE(w.document()->path(), open_scene);
        QCOMPARE(w.painter()->resultReceiversDrawn(), 0);
        QVERIFY(w.statusBar()->currentMessage().contains("near.json (beside the result)"));
        // Interactively (File > Open result...) the window asks; "No" keeps the open scene.
        QStringList asked;
        auto answer = [&asked](QMessageBox::StandardButton button) {
            QTimer::singleShot(100, [&asked, button] {
                for (QWidget* top : QApplication::topLevelWidgets())
                    if (auto* box = qobject_cast<QMessageBox*>(top); box && box->isVisible()) {
                        asked << box->text();
                        box->button(button)->click();
                    }
            });
        };
        answer(QMessageBox::No);
        QVERIFY(w.openResult(near_path));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains("near.json") && asked[0].contains("small.json"), qPrintable(asked[0]));
        QCOMPARE(w.document()->path(), open_scene);
        QCOMPARE(w.painter()->resultReceiversDrawn(), 0);
        // "Yes" opens the scene beside the result, and its receivers are drawn on their own model.
        answer(QMessageBox::Yes);
        QVERIFY(w.openResult(near_path));
        QCOMPARE(asked.size(), 2);
        QCOMPARE(QFileInfo(w.document()->path()), QFileInfo(near_scene));
        QVERIFY(w.resultOfOpenScene());
        QCOMPARE(w.painter()->resultReceiversDrawn(), 3);
        // OpenIt does the same without asking.
        QVERIFY(w.openScene(open_scene, true));
        QVERIFY(w.openResult(near_path, true, MainWindow::OtherScene::OpenIt));
        QCOMPARE(asked.size(), 2);
        QCOMPARE(QFileInfo(w.document()->path()), QFileInfo(near_scene));
        QVERIFY(w.resultOfOpenScene());
        QCOMPARE(w.painter()->resultReceiversDrawn(), 3);
        QCOMPARE(w.traces()->receiverNames(), near_result.receiver_names);
        QVERIFY(w.currentResult() && w.currentResult()->scene == "near.json");

        // Back to the scene the other cases use.
        QVERIFY(w.openScene(open_scene, true));
        QVERIFY(!w.currentResult());
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestResultsAndCluster t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_results_and_cluster.moc"
