// The left column every Solvers-tab panel has: its parameter form, the Run / sweep / Cancel
// buttons, a progress bar and (optionally) a summary label under it.
#pragma once

class QFormLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QWidget;

namespace voxwave::ui {

QWidget* solver_controls_column(QFormLayout* form, QPushButton* run, QPushButton* sweep, QPushButton* cancel,
                                QProgressBar* progress, QLabel* summary = nullptr);

}  // namespace voxwave::ui
