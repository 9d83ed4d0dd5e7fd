// Small wordings the panels share, so that one thing is said one way.
#pragma once

#include <QString>
#include <string>

namespace voxwave::ui {

// The engine's backend note ("backend auto -> cpu: this build has no CUDA ...") for a label
// that already says "Backend": without its leading "backend ".
inline QString backend_words(const std::string& note) {
    QString s = QString::fromStdString(note);
    if (s.startsWith(QStringLiteral("backend "))) s.remove(0, 8);
    return s;
}

}  // namespace voxwave::ui
