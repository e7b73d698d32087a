#include "studio/screenshot.h"

#include "studio/main_window.h"

#include <QApplication>
#include <QImage>
#include <QPixmap>

#include <cstdio>

namespace stagecraft::studio {

namespace {

constexpr int kPollMs = 50;
/// Big graphs take a while to lay out; after this the view is shot as it is.
constexpr int kMaxPolls = 1200;

} // namespace

Screenshot::Screenshot(MainWindow* window, const StudioOptions& options)
    : QObject(window)
    , window_(window)
    , path_(options.screenshot)
    , view_(parseStudioView(options.view).value_or(StudioView::Window))
    , size_(options.size)
    , select_(options.select)
    , kernelPane_(options.kernelPane) {
    // The options were checked when parsed: every name is a view.
    for (const QString& name : options.show)
        if (std::optional<StudioView> view = parseStudioView(name))
            show_ << *view;
    connect(window_, &MainWindow::resultShown, this, &Screenshot::onResultShown);
    connect(window_, &MainWindow::failed, this,
            [this](const QString& message) { finish(1, message); });
    poll_.setInterval(kPollMs);
    connect(&poll_, &QTimer::timeout, this, &Screenshot::poll);
}

void Screenshot::onResultShown() {
    // An unknown name is reported through failed(), which ends the run.
    if (!select_.isEmpty() && !window_->selectNamed(select_))
        return;
    for (StudioView view : std::as_const(show_))
        window_->showView(view);
    window_->showView(view_);
    if (kernelPane_ != QStringLiteral("loops"))
        window_->showKernelPane(kernelPane_);
    poll_.start();
}

void Screenshot::poll() {
    if (!window_->viewsSettled() && ++polls_ < kMaxPolls)
        return;
    poll_.stop();
    // Let queued paints and layouts of the last result happen first.
    QTimer::singleShot(200, this, &Screenshot::take);
}

void Screenshot::take() {
    // A view is shot whole, at --size, not at the size of its dock.
    if (view_ != StudioView::Window && !enlarged_) {
        enlarged_ = true;
        window_->enlargeView(view_, size_);
        QTimer::singleShot(200, this, &Screenshot::take);
        return;
    }
    QWidget* widget = window_->view(view_);
    QPixmap pixmap = widget->grab();
    if (pixmap.isNull() || !pixmap.save(path_, "PNG"))
        finish(1, QStringLiteral("%1: cannot write the screenshot").arg(path_));
    else
        finish(0, {});
}

void Screenshot::finish(int code, const QString& message) {
    if (!message.isEmpty())
        std::fprintf(stderr, "stagecraft-studio: %s\n", qPrintable(message));
    QApplication::exit(code);
}

} // namespace stagecraft::studio
