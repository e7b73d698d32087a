#pragma once
// The Tour dock: the tour's title, "Step 3 of 9", the step's title and its
// narration (Markdown, citing the paper's sections and figures), Back, Next
// and Leave. It says which step the user asked for; the main window sets
// Studio up for it (main_window_tours.cpp).

#include "io/tour_json.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace stagecraft::studio {

class TourPanel : public QWidget {
    Q_OBJECT
public:
    explicit TourPanel(QWidget* parent = nullptr);

    void setTour(io::Tour tour);
    const io::Tour& tour() const { return tour_; }
    /// Shows step \p index (from 0) of the tour.
    void showStep(int index);
    int currentStep() const { return current_; }
    /// The narration shown, as plain text (for tests).
    QString narrationText() const;

signals:
    void stepRequested(int index);
    void leaveRequested();

private:
    io::Tour tour_;
    int current_ = 0;
    QLabel* heading_ = nullptr;
    QLabel* progress_ = nullptr;
    QTextBrowser* narration_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
};

} // namespace stagecraft::studio
