// The examples gallery (issue 35): every example of assets/examples/examples.json opens with its
// view and runs 50 steps (the wavefield advances, non-zero and finite); the gallery lists them with
// thumbnails and texts; a broken index is one line naming the field.
#include <QDialogButtonBox>
#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

#include "core/errors.hpp"
#include "editing/slice_painter.hpp"
#include "main_window.hpp"
#include "panels/compare_panel.hpp"
#include "panels/examples_gallery.hpp"
#include "ui_test_support.hpp"
#include "views/gl_format.hpp"
#include "views/wavefield_view.hpp"

using namespace voxwave;
using namespace voxwave::ui;
using namespace voxwave::ui::test;

namespace {
constexpr std::int64_t kSteps = 50;

// What a run's frames showed: the last step seen and whether every slice value was finite, and
// the largest |value| of the last frame of each run.
struct Seen {
    std::int64_t step = -1;
    bool finite = true;
    std::vector<double> peak;
};
}  // namespace

class TestExamples : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    // Runs the open example until a frame of step >= kSteps (the compare page's pair, or the
    // main run), then stops it.
    Seen runFiftySteps(bool compare) {
        SimulationController* ctl = compare ? w_->compare()->controller() : w_->controller();
        Seen seen;
        QSignalSpy finished(ctl, &SimulationController::finished);
        QSignalSpy failed(ctl, &SimulationController::failed);
        auto c = connect(ctl, &SimulationController::frameReady, this, [&](const SimulationFrame& f) {
            seen.step = f.step;
            seen.peak.clear();
            for (const RunFrame& r : f.runs) {
                double peak = 0;
                for (float v : r.slice.values) {
                    seen.finite = seen.finite && std::isfinite(v);
                    peak = std::max(peak, std::abs(double(v)));
                }
                seen.peak.push_back(peak);
            }
            if (f.step >= kSteps && ctl->busy()) ctl->stop();
        });
        if (compare)
            w_->compare()->runBoth();
        else
            w_->startRun();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(finished.count() >= 1 || failed.count() >= 1, 180000); }();
        disconnect(c);
        if (!failed.isEmpty()) qWarning("run failed: %s", qPrintable(failed.first().first().toString()));
        return seen;
    }

private slots:
    void initTestCase() {
        w_ = shown_window();
        QVERIFY(expose_non_interactive(*w_));
    }

    void indexListsAtLeastTwelveExamplesWithTheirFiles() {
        const auto list = load_examples(builtin_examples_index());
        QVERIFY2(list.size() >= 12, qPrintable(QString::number(list.size())));
        QSet<QString> ids;
        for (const ExampleEntry& e : list) {
            QVERIFY2(!ids.contains(e.id), qPrintable(e.id));
            ids.insert(e.id);
            QVERIFY2(QFile::exists(e.scene_path), qPrintable(e.scene_path));
            QVERIFY2(QFile::exists(e.thumbnail_path), qPrintable(e.thumbnail_path));
            QVERIFY2(!QImage(e.thumbnail_path).isNull(), qPrintable(e.thumbnail_path));
            QVERIFY(!e.watch.isEmpty() && !e.physics.isEmpty() && !e.question.isEmpty());
            QVERIFY2(e.picture_steps > 0, qPrintable(e.id));
        }
        // The experiments the issue names (the probes' phased array and wedge come with probes).
        for (const char* id :
             {"p_and_s_waves", "rayleigh_wave", "free_surface_reflection", "steel_concrete_refraction", "head_waves",
              "crack_tip_tofd", "void_shadow", "paper_rebar", "lamb_waves_plate", "absorbing_vs_free", "vfem_vs_ovfem"})
            QVERIFY2(ids.contains(id), id);
    }

    void brokenIndexNamesFileFieldAndReason() {
        const QString path = dir_.filePath("examples.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "voxwave-examples", "version": 1, "examples": [
                   {"scene": "none.json", "title": "t", "watch": "w", "physics": "p", "question": "q"}]})");
        f.close();
        try {
            load_examples(path);
            QFAIL("a missing scene file was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("examples[0].scene"));
            QCOMPARE(QString::fromStdString(e.file()), path);
        }
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"format": "voxwave-examples", "version": 1, "examples": [
                   {"scene": "examples.json", "title": "t", "watch": "w", "physics": "p", "question": "q",
                    "view": {"quantity": "pressure"}}]})");
        f.close();
        try {
            load_examples(path);
            QFAIL("an unknown quantity was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("examples[0].view.quantity"));
        }
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"format": "voxwave-examples", "version": 1, "examples": [
                   {"scene": "examples.json", "title": "t", "watch": "w", "physics": "p", "question": "q",
                    "view": {"gain": -1e-9}}]})");
        f.close();
        try {
            load_examples(path);
            QFAIL("a negative gain was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("examples[0].view.gain"));
        }
        // The window says so and keeps its document.
        const QString before = w_->document()->displayName();
        QVERIFY(!w_->openExample("no_such_example", true));
        QVERIFY(w_->lastError().contains("no_such_example"));
        QCOMPARE(w_->document()->displayName(), before);
    }

    void galleryShowsThumbnailsAndTextsAndOpensTheChoice() {
        DialogCloser closer;
        ExamplesDialog* d = w_->openExamplesDialog();
        QVERIFY(d);
        QVERIFY(d->isVisible());
        const auto list = load_examples(builtin_examples_index());
        QCOMPARE(d->list()->count(), int(list.size()));
        for (int i = 0; i < d->list()->count(); ++i) {
            QCOMPARE(d->list()->item(i)->text(), list[std::size_t(i)].title);
            QVERIFY(!d->list()->item(i)->icon().isNull());
        }
        const int pick = 1;
        d->setCurrentIndex(pick);
        const QString text = d->text()->toPlainText();
        QVERIFY(text.contains(list[pick].watch.left(40)));
        QVERIFY(text.contains(list[pick].physics.left(40)));
        QVERIFY(text.contains(list[pick].question.left(40)));
        QPushButton* open = nullptr;
        for (QPushButton* b : d->findChildren<QPushButton*>())
            if (b->text() == "Open") open = b;
        QVERIFY(open);
        open->click();
        QVERIFY(!d->isVisible());
        QCOMPARE(w_->document()->path(), list[pick].scene_path);
    }

    void everyExampleOpensAndRunsFiftySteps() {
        for (const ExampleEntry& e : load_examples(builtin_examples_index())) {
            QVERIFY2(w_->openExample(e.id, true), qPrintable(e.id + ": " + w_->lastError()));
            QCOMPARE(w_->document()->path(), e.scene_path);
            // The view its entry names: plane, the node plane nearest its position, quantity.
            const SlicePlane plane = e.plane == "XY"   ? SlicePlane::XY
                                     : e.plane == "XZ" ? SlicePlane::XZ
                                                       : SlicePlane::YZ;
            QCOMPARE(w_->painter()->plane(), plane);
            const VoxelGrid& g = w_->document()->model();
            const int normal = plane == SlicePlane::XY ? 2 : plane == SlicePlane::XZ ? 1 : 0;
            const double at = g.origin[std::size_t(normal)] + w_->painter()->nodePlane() * g.spacing;
            QVERIFY2(std::abs(at - e.position) <= 0.5 * g.spacing + 1e-12, qPrintable(e.id));
            QCOMPARE(int(w_->wavefield()->quantity()), example_quantity_index(e.quantity));
            // Its gain: manual at the entry's value, else the auto gain.
            QCOMPARE(w_->wavefield()->autoGain(), !(e.gain > 0));
            if (e.gain > 0) QCOMPARE(w_->wavefield()->gain(), e.gain);
            const bool compare = e.page == "compare";
            QCOMPARE(w_->comparePageShown(), compare);
            const Seen seen = runFiftySteps(compare);
            QVERIFY2(seen.step >= kSteps, qPrintable(QString("%1: step %2").arg(e.id).arg(seen.step)));
            QVERIFY2(seen.finite, qPrintable(e.id));
            QCOMPARE(seen.peak.size(), std::size_t(compare ? 2 : 1));
            for (double p : seen.peak) QVERIFY2(p > 0, qPrintable(e.id + ": the slice is all zero"));
            (compare ? w_->compare()->controller() : w_->controller())->waitForIdle();
        }
    }

    void cleanupTestCase() { w_.reset(); }
};

int main(int argc, char** argv) {
    voxwave::ui::set_default_gl_format();
    QApplication app(argc, argv);
    TestExamples t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_examples.moc"
