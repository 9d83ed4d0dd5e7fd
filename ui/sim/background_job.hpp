// One long computation (a solver run, a sweep) on a worker thread, with progress and cancel,
// for the Solvers tab's panels: the window never waits for it.
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <thread>

#include "core/progress.hpp"

class QProgressBar;
class QPushButton;
class QWidget;

namespace voxwave::ui {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    explicit BackgroundJob(QObject* parent = nullptr) : QObject(parent) {}
    ~BackgroundJob() override {
        cancel();
        wait();
    }
    bool busy() const { return busy_; }
    // Runs work(progress) on a worker thread; work stores its result where the caller reads it
    // after finished(). progress returns false once cancel() was called.
    void start(std::function<void(const ProgressFn&)> work);
    void cancel() { cancel_ = true; }
    void wait() {
        if (worker_.joinable()) worker_.join();
    }

signals:
    void started();
    void progress(qint64 done, qint64 total);
    void finished();
    void failed(const QString& message);  // also for a cancelled job ("cancelled")

private:
    std::thread worker_;
    std::atomic<bool> busy_{false}, cancel_{false};
};

// A warning over `owner` that returns at once (window-modal, deleted when closed): a blocking box
// would run a nested event loop inside the caller, and a window that nobody clicks (--screenshot,
// tests) would wait there for ever.
void warn_without_blocking(QWidget* owner, const QString& title, const QString& message);

// A solver panel's controls follow its job: the start buttons are disabled and Cancel enabled
// while it works, the progress bar shows (done, total), a failure other than a cancel is shown in
// a message box titled `title` over `owner`.
void bind_job_controls(BackgroundJob& job, QWidget* owner, const QList<QPushButton*>& start_buttons,
                       QPushButton* cancel, QProgressBar* progress, const QString& title);

}  // namespace voxwave::ui
