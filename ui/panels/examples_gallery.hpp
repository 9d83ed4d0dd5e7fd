// File > Examples...: ready experiments for a classroom. Each example is a scene file under
// assets/examples/ and one entry of assets/examples/examples.json (format voxwave-examples), the
// one home of its texts (what to watch, the physics, a question for students), the view it opens
// with and its thumbnail (made from the app's own rendering by scripts/make_example_pictures.sh).
#pragma once

#include <QDialog>
#include <QString>
#include <vector>

class QListWidget;
class QTextBrowser;
class QPushButton;

namespace voxwave::ui {

struct ExampleEntry {
    QString id;          // the scene file's name without .json
    QString scene_path;  // absolute
    QString title, watch, physics, question;
    // The view the example opens with: "explore" (the wavefield beside the model) or "compare"
    // (the Compare methods page, VFEM against OVFEM); the slice plane (XY, XZ, YZ), its position
    // along the plane's normal (metres) and the quantity shown (u_x, u_y, u_z, |u|, |v|).
    QString page = "explore", plane = "XZ", quantity = "u_z";
    double position = 0;
    bool wavefronts = true;  // the analytic wavefront overlay on
    // > 0: the wavefield's manual gain (full colour, in the quantity's SI unit) the example opens
    // with, where a strong field elsewhere (a wedge's) would make the auto gain hide the wave to
    // watch; 0: the auto gain.
    double gain = 0;
    int picture_steps = 0;   // steps after which its thumbnail and screenshot are taken
    QString thumbnail_path;  // absolute; the file may be missing (the list then shows the title only)
};

// Reads an examples index; a bad file throws voxwave::InputError naming the file, the field
// (examples[i].key) and the reason. Scene paths and thumbnails are resolved against its folder.
std::vector<ExampleEntry> load_examples(const QString& index_path);
// The index shipped with the app (assets/examples/examples.json).
QString builtin_examples_index();
// The quantity names of the wavefield toolbar, in its order (u_x, u_y, u_z, |u|, |v|): index or -1.
int example_quantity_index(const QString& name);

// The gallery: thumbnails in a grid, the chosen example's texts beside them, Open.
class ExamplesDialog : public QDialog {
    Q_OBJECT
public:
    ExamplesDialog(std::vector<ExampleEntry> examples, QWidget* parent = nullptr);
    // The thumbnails' size in the list (logical pixels).
    static constexpr int kThumbWidth = 200, kThumbHeight = 130;
    const std::vector<ExampleEntry>& examples() const { return examples_; }
    int currentIndex() const;
    void setCurrentIndex(int i);
    QListWidget* list() const { return list_; }
    QTextBrowser* text() const { return text_; }
    // The rich text shown for example i (title, watch, physics, question).
    static QString describe(const ExampleEntry& e);

signals:
    // Open pressed (or an example double-clicked): the index of the example to open.
    void openRequested(int index);

private:
    std::vector<ExampleEntry> examples_;
    QListWidget* list_;
    QTextBrowser* text_;
    QPushButton* open_;
};

}  // namespace voxwave::ui
