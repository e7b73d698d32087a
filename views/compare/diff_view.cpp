// The diff view's wiring: setPair computes the diff once and builds the tree
// from diffCategories(); clicks only look up the item's stored highlights.

#include "compare/diff_view.h"

#include "compare/comparison_runner.h"
#include "compare/diff_items.h"
#include "compare/side_by_side.h"
#include "graph/graph_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <utility>

namespace stagecraft::views {

namespace {

constexpr int kCategoryRole = Qt::UserRole;
constexpr int kItemRole = Qt::UserRole + 1;
constexpr QSize kSideBySideSize(1600, 1000);

bool sameGraph(const PipelineResult& a, const PipelineResult& b) {
    return a.graph == b.graph || (a.graph && b.graph && a.graph->opCount() == b.graph->opCount() &&
                                  a.modelSha256 == b.modelSha256 && a.modelPath == b.modelPath);
}

} // namespace

DiffView::DiffView(QWidget* parent)
    : QWidget(parent)
    , summary_(new QLabel(this))
    , compareWith_(new QComboBox(this))
    , tree_(new QTreeWidget(this))
    , sideBySideButton_(new QPushButton(tr("Side by side"), this)) {
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tree_->setHeaderHidden(true);
    tree_->setColumnCount(1);
    compareWith_->setEnabled(false);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Compare with:"), this));
    top->addWidget(compareWith_, 1);
    sideBySideButton_->setObjectName(QStringLiteral("diffSideBySide"));
    sideBySideButton_->setCheckable(true);
    sideBySideButton_->setToolTip(tr("Both schedules' graphs in a window of their own, each "
                                     "grouped its own way; a selection in one selects the same "
                                     "op, or the group sharing most ops, in the other"));
    top->addWidget(sideBySideButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(summary_);
    layout->addWidget(tree_, 1);
    connect(sideBySideButton_, &QPushButton::toggled, this, &DiffView::setSideBySide);
    connect(tree_, &QTreeWidget::itemClicked, this, &DiffView::onItemClicked);
    connect(compareWith_, &QComboBox::activated, this, &DiffView::chooseB);
}

DiffView::~DiffView() = default;

void DiffView::setPair(ResultPtr a, const QString& labelA, ResultPtr b, const QString& labelB) {
    a_ = std::move(a);
    b_ = std::move(b);
    labelA_ = labelA;
    labelB_ = labelB;
    rebuild();
}

void DiffView::setShownResult(ResultPtr a, const QString& label) {
    setPair(std::move(a), label, b_, labelB_);
}

void DiffView::setRunner(ComparisonRunner* runner) {
    if (runner_)
        disconnect(runner_, nullptr, this, nullptr);
    runner_ = runner;
    if (runner_) {
        connect(runner_, &ComparisonRunner::resultReady, this, &DiffView::refreshChoices);
        connect(runner_, &ComparisonRunner::resultsCleared, this, &DiffView::refreshChoices);
    }
    refreshChoices();
}

void DiffView::setHighlightModel(HighlightModel* model) {
    highlights_ = model;
    if (highlights_ && !all_.empty())
        highlights_->set(all_);
}

void DiffView::setMarking(bool on) {
    marking_ = on;
    if (on && highlights_ && !all_.empty())
        highlights_->set(all_);
}

void DiffView::setSelectionModel(SelectionModel* model) {
    selection_ = model;
    if (sideBySide_)
        sideBySide_->setSelectionModel(model);
}

void DiffView::setSideBySide(bool on) {
    // The button's toggled() comes back here.
    if (sideBySideButton_->isChecked() != on) {
        sideBySideButton_->setChecked(on);
        return;
    }
    if (on && !sideBySide_) {
        // A window of its own: two graphs need the width of a screen.
        sideBySide_ = new SideBySideDiff(this);
        sideBySide_->setWindowFlag(Qt::Window);
        sideBySide_->resize(kSideBySideSize);
        sideBySide_->setSelectionModel(selection_);
        connect(sideBySide_, &SideBySideDiff::closed, this, [this] { setSideBySide(false); });
    }
    if (sideBySide_ && on) {
        sideBySide_->show();
        sideBySide_->raise();
        if (sideBySideStale_)
            updateSideBySide();
    } else if (sideBySide_) {
        sideBySide_->hide();
    }
}

bool DiffView::isLayingOut() const {
    return sideBySide_ && sideBySide_->isVisible() &&
           (sideBySide_->graphA()->isLayingOut() || sideBySide_->graphB()->isLayingOut());
}

void DiffView::updateSideBySide() {
    // A hidden window is laid out when it shows again.
    sideBySideStale_ = !sideBySide_ || !sideBySide_->isVisible();
    if (sideBySideStale_)
        return;
    // Categories exist only for two results of one graph.
    const bool paired = !categories_.empty();
    sideBySide_->setPair(paired ? a_ : nullptr, labelA_, paired ? b_ : nullptr, labelB_);
    sideBySide_->setWindowTitle(
        paired ? tr("Diff side by side: %1 and %2 — Stagecraft Studio").arg(labelA_, labelB_)
               : tr("Diff side by side — Stagecraft Studio"));
    sideBySide_->setMarks(all_);
}

void DiffView::mark(const Highlights& marks) {
    if (highlights_)
        highlights_->set(marks);
    if (sideBySide_)
        sideBySide_->setMarks(marks);
}

QString DiffView::summary() const {
    return summary_->text();
}

void DiffView::rebuild() {
    diff_ = {};
    categories_.clear();
    const Highlights previous = std::exchange(all_, {});
    tree_->clear();
    if (!a_ || !b_) {
        summary_->setText(a_ ? tr("Computing the other strategies; the diff against tvm "
                                  "follows, or choose one above.")
                             : tr("Open a model to diff its schedule with another strategy's."));
    } else if (!sameGraph(*a_, *b_)) {
        summary_->setText(tr("%1 and %2 are not of the same model.").arg(labelA_, labelB_));
    } else {
        diff_ = schedule::diffSchedules(*a_->graph, a_->eval.schedule, b_->eval.schedule);
        summary_->setText(QString::fromStdString(schedule::diffSummary(diff_, labelA_.toStdString(),
                                                                       labelB_.toStdString())) %
                          QLatin1Char(' ') %
                          mappingSummary(mapGroups(*a_, *b_), diff_.groupsB, labelA_, labelB_));
        categories_ = diffCategories(diff_, *a_, *b_, labelA_, labelB_);
        std::vector<const Highlights*> parts;
        for (const DiffCategory& c : categories_)
            parts.push_back(&c.marks);
        all_ = unite(parts, labelA_ + QStringLiteral(" vs ") + labelB_);
        fillTree();
    }
    // Another tool's highlights (the step-through's) stay unless there is a
    // diff to show; this view's own old ones are replaced.
    if (marking_ && highlights_ && (!all_.empty() || highlights_->current() == previous))
        highlights_->set(all_);
    updateSideBySide();
    int index = compareWith_->findText(labelB_);
    if (index >= 0)
        compareWith_->setCurrentIndex(index);
}

void DiffView::fillTree() {
    for (size_t c = 0; c < categories_.size(); ++c) {
        const DiffCategory& category = categories_[c];
        auto* top = new QTreeWidgetItem(tree_, {category.title});
        top->setData(0, kCategoryRole, static_cast<int>(c));
        top->setData(0, kItemRole, -1);
        for (size_t i = 0; i < category.items.size(); ++i) {
            auto* item = new QTreeWidgetItem(top, {category.items[i].text});
            item->setData(0, kCategoryRole, static_cast<int>(c));
            item->setData(0, kItemRole, static_cast<int>(i));
        }
        top->setExpanded(!category.items.empty() && category.items.size() <= 20);
    }
}

void DiffView::onItemClicked(QTreeWidgetItem* item) {
    int c = item->data(0, kCategoryRole).toInt();
    int i = item->data(0, kItemRole).toInt();
    if (c < 0 || c >= static_cast<int>(categories_.size()))
        return;
    const DiffCategory& category = categories_[static_cast<size_t>(c)];
    if (i < 0) {
        mark(category.marks);
        return;
    }
    const DiffItem& entry = category.items[static_cast<size_t>(i)];
    Highlights marks = entry.marks;
    marks.caption = labelA_ + QStringLiteral(" vs ") + labelB_ + QStringLiteral(": ") + entry.text;
    mark(marks);
    if (selection_)
        selection_->select(entry.selection);
}

void DiffView::refreshChoices() {
    compareWith_->clear();
    if (runner_)
        for (const sim::Strategy& s : sim::strategies())
            if (runner_->result(QString::fromStdString(s.name)))
                compareWith_->addItem(QString::fromStdString(s.name));
    compareWith_->setEnabled(compareWith_->count() > 0);
    int index = compareWith_->findText(labelB_);
    compareWith_->setCurrentIndex(index);
    // Nothing chosen yet: the baseline, tvm (or graphturbo when tvm is shown),
    // so that the tab is a diff as soon as it can be.
    if (!b_ && a_) {
        const QString baseline =
            labelA_ == QLatin1String("tvm") ? QStringLiteral("graphturbo") : QStringLiteral("tvm");
        if (const int found = compareWith_->findText(baseline); found >= 0)
            chooseB(found);
    }
}

void DiffView::chooseB(int index) {
    if (!runner_ || index < 0)
        return;
    QString name = compareWith_->itemText(index);
    ResultPtr b = runner_->result(name);
    if (b && a_)
        setPair(a_, labelA_, b, name);
}

} // namespace stagecraft::views
