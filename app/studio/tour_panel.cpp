// The Tour dock (tour_panel.h).

#include "studio/tour_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace stagecraft::studio {

TourPanel::TourPanel(QWidget* parent)
    : QWidget(parent)
    , heading_(new QLabel(this))
    , progress_(new QLabel(this))
    , narration_(new QTextBrowser(this))
    , back_(new QPushButton(tr("Back"), this))
    , next_(new QPushButton(tr("Next"), this)) {
    setObjectName(QStringLiteral("tourPanel"));
    heading_->setObjectName(QStringLiteral("tourHeading"));
    heading_->setWordWrap(true);
    progress_->setObjectName(QStringLiteral("tourProgress"));
    narration_->setObjectName(QStringLiteral("tourNarration"));
    narration_->setOpenExternalLinks(true);
    back_->setObjectName(QStringLiteral("tourBack"));
    next_->setObjectName(QStringLiteral("tourNext"));
    auto* leave = new QPushButton(tr("Leave the tour"), this);
    leave->setObjectName(QStringLiteral("tourLeave"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(back_);
    buttons->addWidget(next_);
    buttons->addStretch(1);
    buttons->addWidget(leave);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(progress_);
    layout->addWidget(narration_, 1);
    layout->addLayout(buttons);
    connect(back_, &QPushButton::clicked, this, [this] { emit stepRequested(current_ - 1); });
    connect(next_, &QPushButton::clicked, this, [this] { emit stepRequested(current_ + 1); });
    connect(leave, &QPushButton::clicked, this, &TourPanel::leaveRequested);
}

void TourPanel::setTour(io::Tour tour) {
    tour_ = std::move(tour);
    current_ = 0;
}

void TourPanel::showStep(int index) {
    const int count = static_cast<int>(tour_.steps.size());
    if (index < 0 || index >= count)
        return;
    current_ = index;
    const io::TourStep& step = tour_.steps[static_cast<size_t>(index)];
    heading_->setText(QStringLiteral("<b>%1</b><br>%2")
                          .arg(QString::fromStdString(tour_.title).toHtmlEscaped(),
                               QString::fromStdString(step.title).toHtmlEscaped()));
    progress_->setText(tr("Step %1 of %2").arg(index + 1).arg(count));
    narration_->setMarkdown(QString::fromStdString(step.narration));
    back_->setEnabled(index > 0);
    next_->setEnabled(index + 1 < count);
}

QString TourPanel::narrationText() const {
    return narration_->toPlainText();
}

} // namespace stagecraft::studio
