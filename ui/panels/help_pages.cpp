#include "panels/help_pages.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QKeySequence>
#include <QRegularExpression>
#include <algorithm>
#include <utility>
#include <vector>

namespace voxwave::ui {

namespace {
QString tr(const char* text) { return QCoreApplication::translate("HelpPages", text); }
}  // namespace

QString getting_started_html(const QString& run_key, const QString& user_library) {
    return tr("<h2>Getting started</h2>"
              "<p>voxwave simulates elastic (ultrasonic) waves in a model made of small cubes (voxels). "
              "The window opens on the paper's test model: a concrete block with a steel rebar.</p>"
              "<h3>1. Build the model</h3>"
              "<p>On the <b>Slice editor</b> tab, pick a material in the toolbar and paint with "
              "<b>Brush</b>, <b>Rectangle</b>, <b>Ellipse</b>, <b>Line</b> or <b>Fill</b>; <b>Eraser</b> "
              "paints void (air, no material). The <b>XY / XZ / YZ</b> box and the slider choose the slice. "
              "Whole shapes (rebars, voids, aggregate) and imported volumes are in the <b>Shapes and "
              "import</b> dock; more materials come from <b>Edit &gt; Material library</b>. "
              "Everything can be undone (Edit &gt; Undo).</p>"
              "<h3>2. Place sources and receivers</h3>"
              "<p>Choose the <b>Source</b> or <b>Receiver</b> tool and click on the slice (or on the "
              "<b>3D model</b>); <b>Move</b> drags them. Exact positions (in mm), the force direction and the "
              "pulse (wavelet) are edited in the <b>Sources and receivers</b> tables; <b>Receiver line...</b> "
              "places a row of receivers for a B-scan.</p>"
              "<h3>3. Run</h3>"
              "<p>Press <b>%1</b> (Simulation &gt; Start / resume). The right-hand pane shows the wave "
              "travelling through the chosen slice; the status bar shows the simulated time, the speed and "
              "the time left. Pause, single steps and Stop are in the Simulation menu and toolbar. "
              "Method, precision, backend (CPU or CUDA), voxel size and duration are in the <b>Run</b> "
              "dock.</p>"
              "<h3>4. Read the scans</h3>"
              "<p>The <b>Receivers</b> dock shows each receiver's signal against time (A-scans) and all "
              "receivers side by side as an image (B-scan): echoes from a rebar or a void arrive later "
              "than the direct wave. <b>Dispersion</b> shows how much the grid slows waves down at a "
              "given number of voxels per wavelength: keep at least 10.</p>"
              "<h3>5. Compare methods</h3>"
              "<p>The <b>Compare methods</b> tab runs two set-ups (for example VFEM and OVFEM, or two "
              "voxel sizes) side by side, shows their difference and the misfit of A against B.</p>"
              "<h3>Where files go</h3>"
              "<ul><li>File &gt; Save writes the scene (<tt>.json</tt>); painted voxels go beside it "
              "in <tt>&lt;scene&gt;.voxels.h5</tt>.</li>"
              "<li>File &gt; Export traces writes the receivers' signals of the last run (HDF5 or CSV); "
              "Export snapshot and Record animation write PNG pictures.</li>"
              "<li>File &gt; Save wavefield snapshot writes the running or paused run's whole field "
              "(<tt>.h5</tt>) with a <tt>.xmf</tt> file beside it that ParaView opens; File &gt; Export "
              "model writes the voxels as a VTK image (<tt>.vti</tt>); File &gt; Import STL surface "
              "paints what a closed STL surface encloses.</li>"
              "<li>Simulation &gt; Run on a cluster writes a job folder (scene and Slurm script).</li>"
              "<li>Your own materials are saved in <tt>%2</tt>.</li></ul>")
        .arg(run_key.toHtmlEscaped(), user_library.toHtmlEscaped());
}

QString shortcuts_html(const QList<QAction*>& actions) {
    std::vector<std::pair<QString, QString>> rows;
    for (const QAction* a : actions) {
        const QList<QKeySequence> keys = a->shortcuts();
        if (keys.isEmpty()) continue;
        QStringList shown;
        for (const QKeySequence& k : keys) shown << k.toString(QKeySequence::NativeText);
        QString what = a->text();
        what.remove(QRegularExpression(QStringLiteral("&(?!&)")));
        rows.emplace_back(what, shown.join(QStringLiteral(", ")));
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QString html = tr("<h2>Keyboard shortcuts</h2><table cellpadding='3'>");
    for (const auto& [what, keys] : rows)
        html +=
            QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

QString about_html(const QString& version) {
    return tr("<h2>voxwave %1</h2>"
              "<p>An elastic-wave simulator on voxel models for ultrasonic non-destructive testing and "
              "teaching: paint a model, place sources and receivers, watch the wavefield, read the scans.</p>"
              "<p>Methods: VFEM, OVFEM and TCOVFEM (Ichimura et al.), on the CPU or a CUDA GPU; the "
              "Solvers tab holds element integration, isogeometric and Poisson solver labs.</p>")
        .arg(version.toHtmlEscaped());
}

}  // namespace voxwave::ui
