#pragma once
// `--screenshot FILE [--view NAME] [--size WxH]`: once the first result is
// shown and every view has settled (the graph layout arrived), the window or
// one view, given the whole of --size, is rendered to a PNG and the
// application exits: 0 on success, 1 with the error on stderr when the model
// failed or the file cannot be written.

#include "studio/studio_options.h"
#include "studio/studio_view.h"

#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>

namespace stagecraft::studio {

class MainWindow;

class Screenshot : public QObject {
    Q_OBJECT
public:
    Screenshot(MainWindow* window, const StudioOptions& options);

private:
    void onResultShown();
    void poll();
    void take();
    void finish(int code, const QString& message);

    MainWindow* window_;
    QString path_;
    StudioView view_;
    QSize size_;
    bool enlarged_ = false;
    QString select_;
    QString kernelPane_;
    QList<StudioView> show_;
    QTimer poll_;
    int polls_ = 0;
};

} // namespace stagecraft::studio
