// The wording of an error about a value in a table: the row as the table shows it (1-based,
// with the row's name), the column as headed and the cell's text as typed, so that the message
// points at what the user sees, in the table's units, not at a scene field in SI units.
#pragma once

#include <QString>
#include <string>

class QTableWidget;

namespace voxwave::ui {

// "<table> table, row N (NAME), column "HEADER": TEXT <reason>" (TEXT: <reason> where the
// reason does not start with is / must / makes); NAME is the text of `name_column` (left out
// when it is negative, empty or the column itself).
QString table_cell_error(const QTableWidget* table, const QString& table_name, int row, int column, int name_column,
                         const QString& reason);

// Splits a scene field of a list ("receivers[1].position") into its index (1) and the rest
// ("position"); false when `field` is not an item of `list`.
bool split_list_field(const std::string& field, const std::string& list, int& index, std::string& rest);

}  // namespace voxwave::ui
