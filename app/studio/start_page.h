#pragma once
// What the window shows before a model is open: what Studio is for, a button
// to open a model or session, models of the zoo to start from (small ones to
// follow the paper's figures, real ones to see the scheduler at scale), the
// recent files, and how to read the views that will appear.

#include <QStringList>
#include <QWidget>

class QVBoxLayout;

namespace stagecraft::studio {

class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);

    /// Lists those of \p paths (newest first) that still exist under "Recent".
    void setRecent(const QStringList& paths);
    /// The zoo models offered, as zoo:NAME paths.
    static QStringList suggestedModels();

signals:
    /// The user asked for the Open dialog.
    void openRequested();
    /// The user picked \p path: a file or zoo:NAME.
    void pathChosen(const QString& path);

private:
    QWidget* zooBox();
    QWidget* guideBox();

    QVBoxLayout* recentList_ = nullptr;
};

} // namespace stagecraft::studio
