// The step-through panel's behavior: the filtered step list, moving through
// it (buttons, slider, keys, timer), what the labels show, and the
// highlights of the current step, which the panel withdraws when it hides.

#include "stepper/stepper_view.h"

#include <QComboBox>
#include <QKeyEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace stagecraft::views {
namespace {

bool keeps(StepFilter filter, StepKind kind) {
    switch (filter) {
    case StepFilter::All:
        return true;
    case StepFilter::Grouping:
        return kind == StepKind::Merge;
    case StepFilter::Ordering:
        return kind == StepKind::Order;
    case StepFilter::Binding:
        return kind == StepKind::Bind;
    case StepFilter::Memory:
        return kind == StepKind::Liveness || kind == StepKind::Spill;
    }
    return true;
}

} // namespace

StepperView::StepperView(QWidget* parent)
    : QWidget(parent) {
    buildUi();
    refresh();
}

void StepperView::setResult(ResultPtr result) {
    pause();
    clearOwnHighlights();
    result_ = std::move(result);
    steps_ = result_ ? buildSteps(*result_) : std::vector<AlgorithmStep>{};
    current_ = -1;
    applyFilter();
}

void StepperView::setHighlightModel(HighlightModel* model) {
    clearOwnHighlights();
    highlights_ = model;
    updateHighlights();
}

const AlgorithmStep* StepperView::stepAt(int position) const {
    if (position < 0 || position >= stepCount())
        return nullptr;
    return &steps_[static_cast<size_t>(visible_[static_cast<size_t>(position)])];
}

void StepperView::setFilter(StepFilter filter) {
    if (filter == filter_)
        return;
    filter_ = filter;
    {
        QSignalBlocker block(filterBox_);
        filterBox_->setCurrentIndex(filterBox_->findData(int(filter)));
    }
    applyFilter();
}

void StepperView::applyFilter() {
    int shown =
        current_ >= 0 && current_ < stepCount() ? visible_[static_cast<size_t>(current_)] : -1;
    visible_.clear();
    for (size_t i = 0; i < steps_.size(); ++i)
        if (keeps(filter_, steps_[i].kind))
            visible_.push_back(static_cast<int>(i));
    auto kept = std::find(visible_.begin(), visible_.end(), shown);
    current_ = kept != visible_.end() ? static_cast<int>(kept - visible_.begin())
                                      : (visible_.empty() ? -1 : 0);
    refresh();
    emit stepChanged(current_);
}

void StepperView::setInterval(int milliseconds) {
    timer_->setInterval(std::max(1, milliseconds));
}

int StepperView::interval() const {
    return timer_->interval();
}

bool StepperView::isPlaying() const {
    return timer_->isActive();
}

void StepperView::stepForward() {
    goToStep(current_ + 1);
}

void StepperView::stepBack() {
    goToStep(current_ - 1);
}

void StepperView::goToFirst() {
    goToStep(0);
}

void StepperView::goToLast() {
    goToStep(stepCount() - 1);
}

void StepperView::goToStep(int position) {
    if (visible_.empty())
        return;
    position = std::clamp(position, 0, stepCount() - 1);
    if (position == current_)
        return;
    current_ = position;
    refresh();
    emit stepChanged(current_);
}

void StepperView::play() {
    if (isPlaying() || visible_.empty())
        return;
    if (current_ >= stepCount() - 1)
        goToFirst();
    timer_->start();
    play_->setText(tr("Pause"));
    emit playingChanged(true);
}

void StepperView::pause() {
    if (!isPlaying())
        return;
    timer_->stop();
    play_->setText(tr("Play"));
    emit playingChanged(false);
}

void StepperView::togglePlay() {
    if (isPlaying())
        pause();
    else
        play();
}

void StepperView::advanceWhilePlaying() {
    stepForward();
    if (current_ >= stepCount() - 1)
        pause();
}

void StepperView::refresh() {
    const AlgorithmStep* step = stepAt(current_);
    int count = stepCount();
    {
        QSignalBlocker block(slider_);
        slider_->setRange(0, std::max(0, count - 1));
        slider_->setValue(std::max(0, current_));
        slider_->setEnabled(count > 1);
    }
    counter_->setText(step ? tr("Step %1 of %2").arg(current_ + 1).arg(count) : tr("No steps"));
    title_->setText(step ? step->algorithm % QStringLiteral(" — ") % step->title : QString());
    explanation_->setText(step ? step->explanation : QString());
    first_->setEnabled(current_ > 0);
    back_->setEnabled(current_ > 0);
    forward_->setEnabled(step && current_ < count - 1);
    last_->setEnabled(step && current_ < count - 1);
    play_->setEnabled(count > 1);
    showLists(step);
    updateHighlights();
}

void StepperView::showLists(const AlgorithmStep* step) {
    bool shown = step && step->lists;
    lists_->setVisible(shown);
    visit_->setText(shown ? step->lists->visit.join(u' ') : QString());
    ready_->setText(shown ? step->lists->ready.join(u' ') : QString());
    order_->setText(shown ? step->lists->order.join(u' ') : QString());
}

void StepperView::updateHighlights() {
    const AlgorithmStep* step = stepAt(current_);
    if (!highlights_ || !isVisible() || !step) {
        clearOwnHighlights();
        return;
    }
    Highlights marks = step->highlights;
    marks.caption = tr("Step %1/%2: %3").arg(current_ + 1).arg(stepCount()).arg(step->title);
    if (step->lists && result_)
        setOrderStates(*step->lists, result_->eval.schedule, marks);
    if (result_ && result_->graph)
        marks.opGrouping =
            groupingAt(steps_, static_cast<size_t>(visible_[static_cast<size_t>(current_)]),
                       result_->graph->opCount());
    applied_ = marks;
    highlights_->set(marks);
}

void StepperView::clearOwnHighlights() {
    if (highlights_ && applied_ != Highlights{} && highlights_->current() == applied_)
        highlights_->clear();
    applied_ = {};
}

void StepperView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Space:
        togglePlay();
        break;
    case Qt::Key_Left:
        stepBack();
        break;
    case Qt::Key_Right:
        stepForward();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void StepperView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    updateHighlights();
}

void StepperView::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    pause();
    clearOwnHighlights();
}

} // namespace stagecraft::views
