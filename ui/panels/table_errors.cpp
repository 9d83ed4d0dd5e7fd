#include "panels/table_errors.hpp"

#include <QTableWidget>

namespace voxwave::ui {

QString table_cell_error(const QTableWidget* table, const QString& table_name, int row, int column, int name_column,
                         const QString& reason) {
    const auto text_of = [table](int r, int c) {
        const QTableWidgetItem* it = r >= 0 && c >= 0 ? table->item(r, c) : nullptr;
        return it ? it->text().trimmed() : QString();
    };
    const QTableWidgetItem* head = column >= 0 ? table->horizontalHeaderItem(column) : nullptr;
    const QString name = name_column >= 0 && name_column != column ? text_of(row, name_column) : QString();
    QString where = QObject::tr("%1 table, row %2").arg(table_name).arg(row + 1);
    if (!name.isEmpty()) where += QStringLiteral(" (%1)").arg(name);
    if (head) where += QObject::tr(", column \"%1\"").arg(head->text());
    const QString value = text_of(row, column);
    // "5000 is outside ...", "0 must be > 0": the value is the reason's subject; other reasons
    // ("duplicate receiver name 'R1'") follow it after a colon.
    const bool predicate = reason.startsWith(QStringLiteral("is ")) || reason.startsWith(QStringLiteral("must ")) ||
                           reason.startsWith(QStringLiteral("makes "));
    return QStringLiteral("%1: %2%3%4")
        .arg(where, value.isEmpty() ? QObject::tr("(empty)") : value, predicate ? " " : ": ", reason);
}

bool split_list_field(const std::string& field, const std::string& list, int& index, std::string& rest) {
    const std::string head = list + "[";
    if (field.compare(0, head.size(), head) != 0) return false;
    const std::size_t close = field.find(']', head.size());
    if (close == std::string::npos) return false;
    try {
        index = std::stoi(field.substr(head.size(), close - head.size()));
    } catch (const std::exception&) {
        return false;
    }
    rest = close + 1 < field.size() && field[close + 1] == '.' ? field.substr(close + 2) : std::string();
    return true;
}

}  // namespace voxwave::ui
