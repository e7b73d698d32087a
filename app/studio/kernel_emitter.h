#pragma once
// Emits the kernels of a pipeline result off the GUI thread (the studio's
// "Emit Kernels…"): code plan → LLVM emission → the files of
// `stagecraft emit` (docs/codegen.md). Progress and the outcome arrive as
// signals on the GUI thread; cancel() stops before the next kernel and
// writes nothing.

#include "common/pipeline_result.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace stagecraft::studio {

class KernelEmitter : public QObject {
    Q_OBJECT
public:
    struct Request {
        views::ResultPtr result;
        QString directory;
        /// "riscv64" or "host".
        QString target;
        int optLevel = 2;
        /// The model as the manifest names it.
        QString model;
    };

    explicit KernelEmitter(QObject* parent = nullptr);
    /// Cancels a running emission and waits for it.
    ~KernelEmitter() override;

    /// Starts emitting; false (nothing started) while another one runs or
    /// when the request is incomplete.
    bool start(const Request& request);
    void cancel();
    bool isBusy() const { return busy_; }

signals:
    void progress(int done, int total);
    /// \p summary: "Emitted N kernels for riscv64 (O2) into DIR".
    void finished(const QString& summary);
    void failed(const QString& message);

private:
    void work(Request request);
    void join();

    std::thread worker_;
    std::shared_ptr<std::atomic<bool>> cancelled_;
    bool busy_ = false;
};

} // namespace stagecraft::studio
