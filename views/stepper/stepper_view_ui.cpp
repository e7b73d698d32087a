// The widgets of the step-through panel: the transport bar (first, back,
// play/pause, forward, last, speed, filter), the slider and step counter,
// the explanation, and the three rows of Algorithm 3's lists (Fig. 7b-e).

#include "stepper/stepper_view.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace stagecraft::views {
namespace {

QToolButton* transportButton(const QString& name, const QString& text, const QString& tip,
                             QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setObjectName(name);
    button->setText(text);
    button->setToolTip(tip);
    // The panel keeps the keyboard: Space and the arrows must not press a button.
    button->setFocusPolicy(Qt::NoFocus);
    return button;
}

QLabel* listLabel(const QString& name, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

void StepperView::buildUi() {
    setFocusPolicy(Qt::StrongFocus);
    timer_ = new QTimer(this);
    timer_->setInterval(1000);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("stepSlider"));
    counter_ = new QLabel(this);
    counter_->setObjectName(QStringLiteral("stepCounter"));
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("stepTitle"));
    title_->setWordWrap(true);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    explanation_ = listLabel(QStringLiteral("explanation"), this);

    auto* sliderRow = new QHBoxLayout;
    sliderRow->addWidget(slider_, 1);
    sliderRow->addWidget(counter_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addLayout(sliderRow);
    layout->addWidget(title_);
    layout->addWidget(explanation_);
    layout->addWidget(buildLists());
    layout->addStretch(1);
    connectControls();
}

QWidget* StepperView::buildControls() {
    auto* bar = new QWidget(this);
    first_ =
        transportButton(QStringLiteral("firstButton"), QStringLiteral("|◀"), tr("First step"), bar);
    back_ = transportButton(QStringLiteral("backButton"), QStringLiteral("◀"),
                            tr("Step back (Left)"), bar);
    play_ =
        transportButton(QStringLiteral("playButton"), tr("Play"), tr("Play / pause (Space)"), bar);
    forward_ = transportButton(QStringLiteral("forwardButton"), QStringLiteral("▶"),
                               tr("Step forward (Right)"), bar);
    last_ =
        transportButton(QStringLiteral("lastButton"), QStringLiteral("▶|"), tr("Last step"), bar);
    speed_ = new QComboBox(bar);
    speed_->setObjectName(QStringLiteral("speedCombo"));
    speed_->setToolTip(tr("Time per step while playing"));
    for (int ms : {250, 500, 1000, 2000})
        speed_->addItem(tr("%1 s / step").arg(ms / 1000.0), ms);
    speed_->setCurrentIndex(2);
    filterBox_ = new QComboBox(bar);
    filterBox_->setObjectName(QStringLiteral("filterCombo"));
    filterBox_->addItem(tr("All steps"), int(StepFilter::All));
    filterBox_->addItem(tr("Algorithm 2 (grouping)"), int(StepFilter::Grouping));
    filterBox_->addItem(tr("Algorithm 3 (order)"), int(StepFilter::Ordering));
    filterBox_->addItem(tr("Algorithm 4 (binding)"), int(StepFilter::Binding));
    filterBox_->addItem(tr("§4.3 liveness and spills"), int(StepFilter::Memory));

    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : std::initializer_list<QWidget*>{first_, back_, play_, forward_, last_})
        row->addWidget(w);
    row->addWidget(speed_);
    row->addStretch(1);
    row->addWidget(filterBox_);
    return bar;
}

QWidget* StepperView::buildLists() {
    lists_ = new QWidget(this);
    lists_->setObjectName(QStringLiteral("orderLists"));
    visit_ = listLabel(QStringLiteral("visitList"), lists_);
    ready_ = listLabel(QStringLiteral("readyList"), lists_);
    order_ = listLabel(QStringLiteral("orderList"), lists_);
    auto* grid = new QGridLayout(lists_);
    grid->setContentsMargins(0, 0, 0, 0);
    int row = 0;
    for (auto [name, label] : {std::pair{tr("visit"), visit_}, std::pair{tr("ready"), ready_},
                               std::pair{tr("order"), order_}}) {
        grid->addWidget(new QLabel(name, lists_), row, 0, Qt::AlignTop);
        grid->addWidget(label, row++, 1);
    }
    grid->setColumnStretch(1, 1);
    return lists_;
}

void StepperView::connectControls() {
    connect(first_, &QToolButton::clicked, this, &StepperView::goToFirst);
    connect(back_, &QToolButton::clicked, this, &StepperView::stepBack);
    connect(play_, &QToolButton::clicked, this, &StepperView::togglePlay);
    connect(forward_, &QToolButton::clicked, this, &StepperView::stepForward);
    connect(last_, &QToolButton::clicked, this, &StepperView::goToLast);
    connect(slider_, &QSlider::valueChanged, this, &StepperView::goToStep);
    connect(timer_, &QTimer::timeout, this, &StepperView::advanceWhilePlaying);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { timer_->setInterval(speed_->currentData().toInt()); });
    connect(filterBox_, &QComboBox::currentIndexChanged, this,
            [this] { setFilter(static_cast<StepFilter>(filterBox_->currentData().toInt())); });
}

} // namespace stagecraft::views
