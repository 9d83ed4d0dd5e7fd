// One long computation (a solver run, a sweep) on a worker thread, with progress and cancel,
// for the Solvers tab's panels: the window never waits for it.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <thread>

#include "core/progress.hpp"

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
    void progress(qint64 done, qint64 total);
    void finished();
    void failed(const QString& message);  // also for a cancelled job ("cancelled")

private:
    std::thread worker_;
    std::atomic<bool> busy_{false}, cancel_{false};
};

}  // namespace voxwave::ui
