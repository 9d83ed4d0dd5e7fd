// The panels take their ranges from the run rules (scene/run_rules.hpp): the run panel's and
// the compare panel's spin boxes span exactly the values validate_scene accepts; the run
// panel keeps TCOVFEM in FP64; a run of an edited scene that breaks a rule fails with the
// validator's one-line message instead of reaching the engine.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <cmath>

#include "core/errors.hpp"
#include "document/scene_document.hpp"
#include "panels/compare_panel.hpp"
#include "panels/run_panel.hpp"
#include "scene/rasterise.hpp"
#include "scene/run_rules.hpp"
#include "scene/scene_io.hpp"
#include "sim/simulation_controller.hpp"

using namespace voxwave;
using namespace voxwave::ui;

namespace {

Scene base_scene() {
    Scene s;
    s.grid.size = {0.012, 0.006, 0.008};
    s.grid.spacing = 0.001;
    s.materials = {{"concrete", 2400, 4000, 2450, "#9a9a9a", ""}};
    s.background = "concrete";
    s.receivers = {{"R", {0.006, 0.003, 0.008}}};
    s.run.steps = 5;
    s.run.backend = Backend::Cpu;
    return s;
}

// Whether validate_scene accepts `spacing` on a box of a few elements at that spacing.
bool spacing_valid(double spacing) {
    Scene s;
    const double edge = 4 * (std::isfinite(spacing) && spacing > 0 ? spacing : 1e-3);
    s.grid.size = {edge, edge, edge};
    s.grid.spacing = spacing;
    try {
        validate_scene(s, "scene");
        return true;
    } catch (const InputError&) {
        return false;
    }
}

// The spin box shows millimetres: its ends are the rule's ends, both valid, and the next
// values outside them are refused.
void checkSpacingBox(const QDoubleSpinBox* box) {
    QVERIFY(box);
    QCOMPARE(box->minimum(), kMinSpacing * 1e3);
    QCOMPARE(box->maximum(), kMaxSpacing * 1e3);
    QVERIFY(spacing_valid(box->minimum() * 1e-3));
    QVERIFY(spacing_valid(box->maximum() * 1e-3));
    QVERIFY(!spacing_valid(std::nextafter(box->minimum() * 1e-3, 0.0)));
    QVERIFY(!spacing_valid(std::nextafter(box->maximum() * 1e-3, 2.0)));
}

}  // namespace

class TestRunRulesPanels : public QObject {
    Q_OBJECT
private slots:
    void runPanelRangesAreTheRunRules() {
        SceneDocument doc;
        doc.reset(base_scene());
        RunPanel panel(&doc);
        const auto* stages = panel.findChild<QSpinBox*>("run-stages");
        QVERIFY(stages);
        QCOMPARE(stages->minimum(), kTcovfemMinStages);
        QCOMPARE(stages->maximum(), kTcovfemMaxStages);
        checkSpacingBox(panel.findChild<QDoubleSpinBox*>("run-spacing"));
    }

    void comparePanelRangesAreTheRunRules() {
        SceneDocument doc;
        doc.reset(base_scene());
        ComparePanel panel(&doc);
        checkSpacingBox(panel.findChild<QDoubleSpinBox*>("compare-spacing-a"));
        checkSpacingBox(panel.findChild<QDoubleSpinBox*>("compare-spacing-b"));
    }

    // Choosing TCOVFEM while FP32 is selected gives a scene the validator accepts.
    void runPanelKeepsTcovfemInFp64() {
        SceneDocument doc;
        Scene s = base_scene();
        s.run.precision = Precision::Fp32;
        doc.reset(s);
        RunPanel panel(&doc);
        auto boxes = panel.findChildren<QComboBox*>();
        QComboBox* method = nullptr;
        for (QComboBox* c : boxes)
            if (c->findText("TCOVFEM (INT8)") >= 0) method = c;
        QVERIFY(method);
        method->setCurrentIndex(int(Method::Tcovfem));
        emit method->activated(int(Method::Tcovfem));
        QCOMPARE(doc.scene().run.method, Method::Tcovfem);
        QCOMPARE(doc.scene().run.precision, Precision::Fp64);
        validate_scene(doc.scene(), "scene");  // throws (and fails the test) if the panel broke a rule
    }

    // The GUI's run entry point validates the (edited) scene: the failure is the validator's
    // message, not an engine's assertion.
    void runOfASceneThatBreaksARuleFailsWithTheValidatorsMessage() {
        Scene s = base_scene();
        s.run.method = Method::Tcovfem;
        s.run.precision = Precision::Fp32;
        SimulationController controller;
        QSignalSpy failed(&controller, &SimulationController::failed);
        controller.start(s, rasterise(s));
        QVERIFY(failed.count() > 0 || failed.wait(20000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.startsWith("scene: run.precision: tcovfem computes in INT8 digits and FP64"),
                 qPrintable(message));
        controller.waitForIdle();
    }
};

QTEST_MAIN(TestRunRulesPanels)
#include "test_run_rules_panels.moc"
