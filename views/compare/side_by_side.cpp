// The side-by-side diff (side_by_side.h): two graph views in a splitter,
// each under a heading, and two bridges between their selection models; a
// guard stops a translated selection from coming back translated again.

#include "compare/side_by_side.h"

#include "common/byte_text.h"
#include "graph/graph_view.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <utility>

namespace stagecraft::views {

namespace {

Selection groupCounterpart(partition::GroupId group, const std::vector<GroupMapping>& mapping) {
    if (group.index() >= mapping.size() || mapping[group.index()].shared.empty())
        return {};
    return {Selection::Kind::Group, mapping[group.index()].shared.front().first.value()};
}

QString heading(const QString& side, const QString& label, const PipelineResult& result) {
    const sim::Report& report = result.eval.report;
    const double ms = report.latencyUs / 1000;
    return QObject::tr("<b>%1: %2</b> · %3 · %4 ms · %5 groups · %6 kernels · DDR %7")
        .arg(side, label, QString::fromStdString(report.level), QString::number(ms, 'f', 2))
        .arg(result.eval.schedule.partition.groupCount())
        .arg(report.kernels)
        .arg(formatBytes(report.trafficBytes[0]));
}

QWidget* column(QLabel* heading, GraphView* graph, QWidget* parent) {
    auto* box = new QWidget(parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    heading->setTextFormat(Qt::RichText);
    heading->setWordWrap(true);
    layout->addWidget(heading);
    layout->addWidget(graph, 1);
    return box;
}

} // namespace

Selection translateSelection(const Selection& selection, const PipelineResult& from,
                             const std::vector<GroupMapping>& mapping) {
    const schedule::Schedule& schedule = from.eval.schedule;
    switch (selection.kind) {
    case Selection::Kind::Op:
    case Selection::Kind::Tensor:
        return selection;
    case Selection::Kind::Group:
        return groupCounterpart(partition::GroupId(selection.id), mapping);
    case Selection::Kind::Instance: {
        if (selection.op >= 0)
            return {Selection::Kind::Op, selection.op};
        const schedule::InstanceId id(selection.id);
        if (!schedule.instances.contains(id))
            return {};
        return groupCounterpart(schedule.instances[id].group, mapping);
    }
    case Selection::Kind::None:
        break;
    }
    return {};
}

SideBySideDiff::SideBySideDiff(QWidget* parent)
    : QWidget(parent)
    , ownSelectionA_(new SelectionModel(this))
    , selectionB_(new SelectionModel(this))
    , marksA_(new HighlightModel(this))
    , marksB_(new HighlightModel(this))
    , headingA_(new QLabel(this))
    , headingB_(new QLabel(this))
    , graphA_(new GraphView(this))
    , graphB_(new GraphView(this)) {
    setObjectName(QStringLiteral("sideBySide"));
    graphA_->setObjectName(QStringLiteral("sideBySideA"));
    graphB_->setObjectName(QStringLiteral("sideBySideB"));
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(column(headingA_, graphA_, splitter));
    splitter->addWidget(column(headingB_, graphB_, splitter));
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    graphA_->setHighlightModel(marksA_);
    graphB_->setHighlightModel(marksB_);
    graphB_->setSelectionModel(selectionB_);
    connect(selectionB_, &SelectionModel::changed, this, &SideBySideDiff::followB);
    setSelectionModel(nullptr);
}

SideBySideDiff::~SideBySideDiff() = default;

void SideBySideDiff::setSelectionModel(SelectionModel* model) {
    if (selectionA_)
        disconnect(selectionA_, nullptr, this, nullptr);
    selectionA_ = model ? model : ownSelectionA_;
    graphA_->setSelectionModel(selectionA_);
    connect(selectionA_, &SelectionModel::changed, this, &SideBySideDiff::followA);
}

void SideBySideDiff::setPair(ResultPtr a, const QString& labelA, ResultPtr b,
                             const QString& labelB) {
    a_ = std::move(a);
    b_ = std::move(b);
    aToB_ = a_ && b_ ? mapGroups(*a_, *b_) : std::vector<GroupMapping>{};
    bToA_ = a_ && b_ ? mapGroups(*b_, *a_) : std::vector<GroupMapping>{};
    headingA_->setText(a_ ? heading(tr("A"), labelA, *a_) : QString());
    headingB_->setText(b_ ? heading(tr("B"), labelB, *b_) : QString());
    graphA_->setResult(a_);
    graphB_->setResult(b_);
    if (selectionA_)
        followA(selectionA_->current());
}

void SideBySideDiff::setMarks(const Highlights& marks) {
    // The diff's marks index A; ops are the same in B, groups are not.
    marksA_->set(marks);
    Highlights opsOnly;
    opsOnly.ops = marks.ops;
    opsOnly.caption = marks.caption;
    marksB_->set(opsOnly);
}

QString SideBySideDiff::headingA() const {
    return headingA_->text();
}

QString SideBySideDiff::headingB() const {
    return headingB_->text();
}

void SideBySideDiff::closeEvent(QCloseEvent* event) {
    QWidget::closeEvent(event);
    emit closed();
}

void SideBySideDiff::followA(const Selection& selection) {
    if (syncing_ || !a_ || !b_)
        return;
    syncing_ = true;
    selectionB_->select(translateSelection(selection, *a_, aToB_));
    syncing_ = false;
}

void SideBySideDiff::followB(const Selection& selection) {
    if (syncing_ || !a_ || !b_ || !selectionA_)
        return;
    syncing_ = true;
    selectionA_->select(translateSelection(selection, *b_, bToA_));
    syncing_ = false;
}

} // namespace stagecraft::views
