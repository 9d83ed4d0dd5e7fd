#include "sim/background_job.hpp"

#include <QMessageBox>
#include <QMetaObject>
#include <QProgressBar>
#include <QPushButton>
#include <algorithm>

namespace voxwave::ui {

void BackgroundJob::start(std::function<void(const ProgressFn&)> work) {
    wait();
    cancel_ = false;
    busy_ = true;
    emit started();
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

void warn_without_blocking(QWidget* owner, const QString& title, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, owner);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void bind_job_controls(BackgroundJob& job, QWidget* owner, const QList<QPushButton*>& start_buttons,
                       QPushButton* cancel, QProgressBar* progress, const QString& title) {
    const auto set_busy = [start_buttons, cancel](bool busy) {
        for (QPushButton* b : start_buttons) b->setEnabled(!busy);
        cancel->setEnabled(busy);
    };
    cancel->setEnabled(false);
    QObject::connect(cancel, &QPushButton::clicked, &job, &BackgroundJob::cancel);
    QObject::connect(&job, &BackgroundJob::started, owner, [set_busy] { set_busy(true); });
    QObject::connect(&job, &BackgroundJob::finished, owner, [set_busy] { set_busy(false); });
    QObject::connect(&job, &BackgroundJob::progress, owner, [progress](qint64 done, qint64 total) {
        progress->setRange(0, int(std::max<qint64>(1, total)));
        progress->setValue(int(done));
    });
    QObject::connect(&job, &BackgroundJob::failed, owner, [set_busy, owner, title](const QString& m) {
        set_busy(false);
        if (m != BackgroundJob::tr("cancelled")) warn_without_blocking(owner, title, m);
    });
}

}  // namespace voxwave::ui
