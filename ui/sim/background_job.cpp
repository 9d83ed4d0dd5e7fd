#include "sim/background_job.hpp"

#include <QMetaObject>

namespace voxwave::ui {

void BackgroundJob::start(std::function<void(const ProgressFn&)> work) {
    wait();
    cancel_ = false;
    busy_ = true;
    worker_ = std::thread([this, work = std::move(work)] {
        const ProgressFn report = [this](std::int64_t done, std::int64_t total) {
            QMetaObject::invokeMethod(
                this, [this, done, total] { emit progress(done, total); }, Qt::QueuedConnection);
            return !cancel_.load();
        };
        QString error;
        try {
            work(report);
        } catch (const Cancelled&) {
            error = tr("cancelled");
        } catch (const std::exception& e) {
            error = cancel_ ? tr("cancelled") : QString::fromStdString(e.what());
        } catch (...) {
            error = tr("unexpected failure");
        }
        QMetaObject::invokeMethod(
            this,
            [this, error] {
                busy_ = false;
                if (error.isEmpty())
                    emit finished();
                else
                    emit failed(error);
            },
            Qt::QueuedConnection);
    });
}

}  // namespace voxwave::ui
