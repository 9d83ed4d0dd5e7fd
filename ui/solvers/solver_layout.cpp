#include "solvers/solver_layout.hpp"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace voxwave::ui {

QWidget* solver_controls_column(QFormLayout* form, QPushButton* run, QPushButton* sweep, QPushButton* cancel,
                                QProgressBar* progress, QLabel* summary) {
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run);
    buttons->addWidget(sweep);
    buttons->addWidget(cancel);
    auto* column = new QWidget;
    auto* lay = new QVBoxLayout(column);
    lay->addLayout(form);
    lay->addLayout(buttons);
    lay->addWidget(progress);
    if (summary) {
        summary->setWordWrap(true);
        summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
        lay->addWidget(summary);
    }
    lay->addStretch();
    column->setMaximumWidth(360);
    return column;
}

}  // namespace voxwave::ui
