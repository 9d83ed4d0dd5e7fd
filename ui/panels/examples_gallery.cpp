#include "panels/examples_gallery.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/errors.hpp"

namespace voxwave::ui {

namespace {
const QStringList& quantity_names() {
    static const QStringList names = {"u_x", "u_y", "u_z", "|u|", "|v|"};
    return names;
}

[[noreturn]] void refuse(const QString& file, const QString& field, const QString& reason) {
    throw InputError(file.toStdString(), field.toStdString(), reason.toStdString());
}

QString text_of(const QJsonObject& o, const char* key, const QString& file, const QString& where, bool required) {
    const QJsonValue v = o.value(key);
    if (v.isUndefined()) {
        if (required) refuse(file, where + "." + key, "missing");
        return {};
    }
    if (!v.isString() || (required && v.toString().trimmed().isEmpty()))
        refuse(file, where + "." + key, "must be a non-empty string");
    return v.toString();
}
}  // namespace

QString builtin_examples_index() { return QStringLiteral(VOXWAVE_ASSETS_DIR "/examples/examples.json"); }

int example_quantity_index(const QString& name) { return int(quantity_names().indexOf(name)); }

std::vector<ExampleEntry> load_examples(const QString& index_path) {
    QFile f(index_path);
    if (!f.open(QIODevice::ReadOnly)) refuse(index_path, "", "cannot open the file");
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (err.error != QJsonParseError::NoError)
        refuse(index_path, "", QStringLiteral("not JSON (%1 at byte %2)").arg(err.errorString()).arg(err.offset));
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != "voxwave-examples")
        refuse(index_path, "format", "must be \"voxwave-examples\"");
    if (root.value("version").toInt() != 1) refuse(index_path, "version", "must be 1");
    const QJsonValue list = root.value("examples");
    if (!list.isArray() || list.toArray().isEmpty()) refuse(index_path, "examples", "must be a non-empty array");
    const QDir dir = QFileInfo(index_path).absoluteDir();
    std::vector<ExampleEntry> out;
    const QStringList keys = {"scene", "title", "watch", "physics", "question", "view", "picture_steps", "thumbnail"};
    const QStringList view_keys = {"page", "plane", "position", "quantity", "wavefronts", "gain"};
    for (int i = 0; i < list.toArray().size(); ++i) {
        const QString where = QStringLiteral("examples[%1]").arg(i);
        const QJsonValue item = list.toArray().at(i);
        if (!item.isObject()) refuse(index_path, where, "must be an object");
        const QJsonObject o = item.toObject();
        for (const QString& k : o.keys())
            if (!keys.contains(k)) refuse(index_path, where + "." + k, "unknown key");
        ExampleEntry e;
        const QString scene = text_of(o, "scene", index_path, where, true);
        e.scene_path = dir.absoluteFilePath(scene);
        if (!QFileInfo(e.scene_path).isFile()) refuse(index_path, where + ".scene", "no file " + e.scene_path);
        e.id = QFileInfo(scene).completeBaseName();
        e.title = text_of(o, "title", index_path, where, true);
        e.watch = text_of(o, "watch", index_path, where, true);
        e.physics = text_of(o, "physics", index_path, where, true);
        e.question = text_of(o, "question", index_path, where, true);
        const QString thumb = text_of(o, "thumbnail", index_path, where, false);
        if (!thumb.isEmpty()) e.thumbnail_path = dir.absoluteFilePath(thumb);
        if (o.contains("picture_steps")) {
            const QJsonValue s = o.value("picture_steps");
            if (!s.isDouble() || s.toDouble() < 0 || s.toDouble() != double(s.toInt()))
                refuse(index_path, where + ".picture_steps", "must be a whole number of steps, 0 or more");
            e.picture_steps = s.toInt();
        }
        const QJsonObject v = o.value("view").toObject();
        for (const QString& k : v.keys())
            if (!view_keys.contains(k)) refuse(index_path, where + ".view." + k, "unknown key");
        if (v.contains("page")) {
            e.page = v.value("page").toString();
            if (e.page != "explore" && e.page != "compare")
                refuse(index_path, where + ".view.page", "must be \"explore\" or \"compare\"");
        }
        if (v.contains("plane")) {
            e.plane = v.value("plane").toString();
            if (!QStringList{"XY", "XZ", "YZ"}.contains(e.plane))
                refuse(index_path, where + ".view.plane", "must be XY, XZ or YZ");
        }
        if (v.contains("quantity")) {
            e.quantity = v.value("quantity").toString();
            if (example_quantity_index(e.quantity) < 0)
                refuse(index_path, where + ".view.quantity", "must be one of " + quantity_names().join(", "));
        }
        if (v.contains("position")) {
            if (!v.value("position").isDouble()) refuse(index_path, where + ".view.position", "must be a number (m)");
            e.position = v.value("position").toDouble();
        }
        if (v.contains("wavefronts")) {
            if (!v.value("wavefronts").isBool())
                refuse(index_path, where + ".view.wavefronts", "must be true or false");
            e.wavefronts = v.value("wavefronts").toBool();
        }
        if (v.contains("gain")) {
            if (!v.value("gain").isDouble() || !(v.value("gain").toDouble() > 0))
                refuse(index_path, where + ".view.gain", "must be a number above 0 (the quantity's SI unit)");
            e.gain = v.value("gain").toDouble();
        }
        out.push_back(std::move(e));
    }
    return out;
}

QString ExamplesDialog::describe(const ExampleEntry& e) {
    return QStringLiteral(
               "<h2>%1</h2><h3>%2</h3><p>%3</p><h3>%4</h3><p>%5</p><h3>%6</h3><p>%7</p>"
               "<p style='color:gray'>%8</p>")
        .arg(e.title.toHtmlEscaped(), tr("What to watch"), e.watch.toHtmlEscaped(), tr("The physics"),
             e.physics.toHtmlEscaped(), tr("A question for students"), e.question.toHtmlEscaped(),
             tr("Scene file: %1").arg(QFileInfo(e.scene_path).fileName().toHtmlEscaped()));
}

ExamplesDialog::ExamplesDialog(std::vector<ExampleEntry> examples, QWidget* parent)
    : QDialog(parent), examples_(std::move(examples)) {
    setWindowTitle(tr("Examples"));
    resize(1180, 720);
    list_ = new QListWidget;
    list_->setObjectName("examples-list");
    list_->setViewMode(QListView::IconMode);
    list_->setIconSize(QSize(kThumbWidth, kThumbHeight));
    // Room for a title of two lines under each picture.
    list_->setGridSize(QSize(kThumbWidth + 16, kThumbHeight + 3 * list_->fontMetrics().height()));
    list_->setResizeMode(QListView::Adjust);
    list_->setMovement(QListView::Static);
    list_->setWordWrap(true);
    list_->setTextElideMode(Qt::ElideNone);
    list_->setToolTip(tr("Choose an experiment; double-click or Open loads it"));
    for (const ExampleEntry& e : examples_) {
        QPixmap thumb(e.thumbnail_path);
        if (thumb.isNull()) {
            thumb = QPixmap(kThumbWidth, kThumbHeight);
            thumb.fill(Qt::darkGray);
        }
        auto* item = new QListWidgetItem(
            QIcon(thumb.scaled(kThumbWidth, kThumbHeight, Qt::KeepAspectRatio, Qt::SmoothTransformation)), e.title);
        item->setToolTip(e.watch);
        list_->addItem(item);
    }
    text_ = new QTextBrowser;
    text_->setObjectName("examples-text");
    text_->setMinimumWidth(300);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    open_ = buttons->addButton(tr("Open"), QDialogButtonBox::AcceptRole);
    open_->setToolTip(tr("Open the example's scene (the current scene is replaced; unsaved changes are asked for)"));
    auto* split = new QHBoxLayout;
    split->addWidget(list_, 3);
    split->addWidget(text_, 2);
    auto* column = new QVBoxLayout(this);
    column->addLayout(split, 1);
    column->addWidget(buttons);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        open_->setEnabled(row >= 0);
        text_->setHtml(row >= 0 ? describe(examples_[std::size_t(row)]) : QString());
    });
    auto open = [this] {
        if (currentIndex() < 0) return;
        emit openRequested(currentIndex());
        accept();
    };
    connect(list_, &QListWidget::itemActivated, this, open);
    connect(buttons, &QDialogButtonBox::accepted, this, open);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    setCurrentIndex(examples_.empty() ? -1 : 0);
    open_->setEnabled(!examples_.empty());
}

int ExamplesDialog::currentIndex() const { return list_->currentRow(); }

void ExamplesDialog::setCurrentIndex(int i) { list_->setCurrentRow(i); }

}  // namespace voxwave::ui
