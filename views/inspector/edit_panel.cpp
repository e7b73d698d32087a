// The inspector's edit controls (see edit_panel.h). Combos are refilled with
// their signals blocked, so only the user's choices emit requests.

#include "inspector/edit_panel.h"

#include "inspector/edit_requests.h"
#include "inspector/inspector_text.h"
#include "inspector/properties_builder.h"
#include "inspector/schedule_queries.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPoint>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStandardItemModel>

#include <algorithm>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

namespace {

/// Item data of split combo entries that are not candidates.
constexpr int kUnsplit = -1;
constexpr int kCurrentOverride = -2;

void disableItem(QComboBox* combo, int index, const QString& why) {
    if (auto* model = qobject_cast<QStandardItemModel*>(combo->model())) {
        model->item(index)->setEnabled(false);
        model->item(index)->setToolTip(why);
    }
}

/// True when the user's overrides put \p op on the host CPU.
bool userPutOnHost(const PipelineResult& result, ir::OpId op) {
    const auto& host = result.overrides.host;
    return std::find(host.begin(), host.end(), result.graph->op(op).name) != host.end();
}

} // namespace

EditPanel::EditPanel(QWidget* parent)
    : QWidget(parent)
    , split_(new QComboBox(this))
    , mergeTarget_(new QComboBox(this))
    , merge_(new QPushButton(u"Merge"_s, this))
    , ungroup_(new QPushButton(u"Ungroup at op"_s, this))
    , host_(new QPushButton(u"Run on host CPU"_s, this))
    , scopeTensor_(new QLabel(this))
    , scope_(new QComboBox(this)) {
    split_->setObjectName(u"inspectorSplit"_s);
    mergeTarget_->setObjectName(u"inspectorMergeTarget"_s);
    merge_->setObjectName(u"inspectorMerge"_s);
    ungroup_->setObjectName(u"inspectorUngroup"_s);
    host_->setObjectName(u"inspectorHost"_s);
    scope_->setObjectName(u"inspectorScope"_s);
    scopeTensor_->setObjectName(u"inspectorScopeTensor"_s);
    scopeTensor_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* mergeRow = new QHBoxLayout;
    mergeRow->addWidget(mergeTarget_, 1);
    mergeRow->addWidget(merge_);
    auto* layout = new QFormLayout(this);
    layout->addRow(u"Split"_s, split_);
    layout->addRow(u"Merge with"_s, mergeRow);
    layout->addRow(u"Ungroup"_s, ungroup_);
    layout->addRow(u"Host CPU"_s, host_);
    layout->addRow(u"Scope of"_s, scopeTensor_);
    layout->addRow(QString(), scope_);
    connect(split_, &QComboBox::currentIndexChanged, this, &EditPanel::splitChosen);
    connect(merge_, &QPushButton::clicked, this, &EditPanel::mergeClicked);
    connect(ungroup_, &QPushButton::clicked, this, &EditPanel::ungroupClicked);
    connect(host_, &QPushButton::clicked, this, &EditPanel::hostClicked);
    connect(scope_, &QComboBox::currentIndexChanged, this, &EditPanel::scopeChosen);
    setContext(nullptr, {});
}

void EditPanel::setContext(const ResultPtr& result, const Selection& selection) {
    result_ = result;
    selection_ = result ? inspector::validSelection(*result, selection) : Selection{};
    group_ = result ? inspector::groupOf(*result, selection_) : std::nullopt;
    pinnable_ = result ? inspector::pinnableTensor(*result, selection_) : std::nullopt;
    fillSplit();
    fillMerge();
    fillUngroup();
    fillHost();
    fillScope();
}

void EditPanel::fillSplit() {
    QSignalBlocker blocker(split_);
    split_->clear();
    split_->setEnabled(group_.has_value());
    if (!group_)
        return;
    const schedule::Group& group = result_->eval.schedule.groups[*group_];
    split_->addItem(u"unsplit"_s, QPoint(kUnsplit, 1));
    if (!schedule::unsplitFits(*result_->graph, result_->eval.schedule, *group_))
        disableItem(split_, 0, u"the whole group is over the capacity"_s);
    int current = 0;
    for (const partition::SplitCandidate& choice :
         schedule::splitChoices(*result_->graph, result_->eval.schedule, *group_)) {
        QString text = inspector::splitText(choice) % u", "_s %
                       inspector::bytesText(choice.instanceBytes) % u" each"_s;
        split_->addItem(text, QPoint(choice.dim, static_cast<int>(choice.factor)));
        if (group.split && group.split->dim == choice.dim && group.split->factor == choice.factor)
            current = split_->count() - 1;
    }
    if (group.split && group.split->factor > 1 && current == 0) {
        split_->addItem(inspector::splitText(group.split) % u" (override)"_s,
                        QPoint(kCurrentOverride, 0));
        current = split_->count() - 1;
    }
    split_->setCurrentIndex(current);
}

void EditPanel::fillMerge() {
    mergeTarget_->clear();
    if (group_) {
        const schedule::Schedule& s = result_->eval.schedule;
        for (schedule::GroupId other :
             schedule::mergeableGroups(*result_->graph, s, result_->overrides, *group_)) {
            const std::string& first = result_->graph->op(s.partition.ops(other).front()).name;
            mergeTarget_->addItem(inspector::groupLabel(other) % u" ("_s %
                                      QString::fromStdString(first) % u", "_s %
                                      QString::number(s.partition.ops(other).size()) % u" ops)"_s,
                                  other.value());
        }
    }
    mergeTarget_->setEnabled(mergeTarget_->count() > 0);
    merge_->setEnabled(mergeTarget_->count() > 0);
}

void EditPanel::fillUngroup() {
    bool possible = selection_.kind == Selection::Kind::Op &&
                    schedule::canUngroupAt(*result_->graph, result_->eval.schedule,
                                           result_->overrides, ir::OpId(selection_.id));
    ungroup_->setEnabled(possible);
    ungroup_->setText(possible
                          ? u"Ungroup at "_s % QString::fromStdString(
                                                   result_->graph->op(ir::OpId(selection_.id)).name)
                          : u"Ungroup at op"_s);
}

/// The selected op's place: "Run on host CPU" moves it there, "Run on the
/// accelerator" back; disabled without a fallback CPU, or when the
/// accelerator does not take the op at all.
void EditPanel::fillHost() {
    host_->setEnabled(false);
    host_->setText(u"Run on host CPU"_s);
    host_->setToolTip(u"Select an op to run it on the architecture's fallback CPU"_s);
    if (selection_.kind != Selection::Kind::Op)
        return;
    ir::OpId op(selection_.id);
    const std::string& name = result_->graph->op(op).name;
    bool onHost = userPutOnHost(*result_, op);
    bool accelerated = arch::acceleratorRuns(result_->arch, result_->graph->op(op).kind,
                                             result_->eval.schedule.semantics->of(op).category);
    if (!result_->arch.fallbackCpu) {
        host_->setToolTip(
            u"%1 has no fallback CPU"_s.arg(QString::fromStdString(result_->arch.name)));
    } else if (!accelerated) {
        host_->setText(u"host CPU (accelerator lacks it)"_s);
        host_->setToolTip(u"the accelerator does not take %1 ops"_s.arg(
            QString::fromStdString(result_->graph->op(op).type)));
    } else {
        host_->setEnabled(true);
        host_->setText(onHost ? u"Run on the accelerator"_s : u"Run on host CPU"_s);
        host_->setToolTip(onHost ? u"%1 runs on %2; move it back"_s.arg(
                                       QString::fromStdString(name),
                                       QString::fromStdString(result_->arch.fallbackCpu->name))
                                 : u"Run %1 on %2"_s.arg(
                                       QString::fromStdString(name),
                                       QString::fromStdString(result_->arch.fallbackCpu->name)));
    }
}

void EditPanel::fillScope() {
    QSignalBlocker blocker(scope_);
    scope_->clear();
    scope_->setEnabled(pinnable_.has_value());
    scopeTensor_->setText(
        pinnable_ ? QString::fromStdString(result_->graph->tensor(*pinnable_).name) : u"—"_s);
    if (!pinnable_)
        return;
    const schedule::Schedule& s = result_->eval.schedule;
    QString current = inspector::scopeSummary(s, *inspector::groupWithOutput(*result_, *pinnable_));
    if (current.contains(u','))
        scope_->addItem(current, -1); // mixed scopes: any choice pins them all
    for (auto scope : {schedule::Scope::LB, schedule::Scope::GB, schedule::Scope::DDR}) {
        QString name = inspector::toQString(schedule::scopeName(scope));
        scope_->addItem(name, static_cast<int>(scope));
        if (name == current)
            scope_->setCurrentIndex(scope_->count() - 1);
    }
}

void EditPanel::splitChosen(int index) {
    QPoint choice = split_->itemData(index).toPoint();
    if (!group_ || choice.x() == kCurrentOverride)
        return;
    std::optional<partition::SplitCandidate> candidate;
    if (choice.x() != kUnsplit) {
        candidate.emplace();
        candidate->dim = choice.x();
        candidate->factor = choice.y();
    }
    emit editRequested(inspector::splitRequest(*result_, *group_, candidate));
}

void EditPanel::mergeClicked() {
    if (!group_ || mergeTarget_->currentIndex() < 0)
        return;
    schedule::GroupId other(mergeTarget_->currentData().toInt());
    emit editRequested(inspector::mergeRequest(*result_, *group_, other));
}

void EditPanel::ungroupClicked() {
    if (selection_.kind == Selection::Kind::Op)
        emit editRequested(inspector::ungroupRequest(*result_, ir::OpId(selection_.id)));
}

void EditPanel::hostClicked() {
    if (selection_.kind != Selection::Kind::Op)
        return;
    ir::OpId op(selection_.id);
    emit editRequested(inspector::hostRequest(*result_, op, !userPutOnHost(*result_, op)));
}

void EditPanel::scopeChosen(int index) {
    int choice = scope_->itemData(index).toInt();
    if (!pinnable_ || choice < 0)
        return;
    emit editRequested(
        inspector::scopePinRequest(*result_, *pinnable_, static_cast<schedule::Scope>(choice)));
}

} // namespace stagecraft::views
