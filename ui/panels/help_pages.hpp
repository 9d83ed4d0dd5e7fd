// The Help menu's pages (rich text): getting started, the keyboard shortcuts, About. The
// shortcuts page is made from the actions themselves each time it is shown, so it cannot list a
// key the window no longer has.
#pragma once

#include <QList>
#include <QString>

class QAction;

namespace voxwave::ui {

// Getting started: paint, place sources and receivers, run, read the scans, compare, where files
// go. `run_key` is the Run action's shortcut as shown (e.g. "F5"); `user_library` the path of
// the user's material library.
QString getting_started_html(const QString& run_key, const QString& user_library);

// One row per action with a shortcut: what it does (its text, without the mnemonic '&') and the
// keys, sorted by the action's text. Actions without a shortcut are left out.
QString shortcuts_html(const QList<QAction*>& actions);

QString about_html(const QString& version);

}  // namespace voxwave::ui
