// What the user does in the graph view: the toolbar (find an op, expand or
// collapse everything, fit, export), clicks and double-clicks on nodes and
// clusters, the context menu, and the shared selection.

#include "graph/graph_canvas.h"
#include "graph/graph_labels.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/overlay_legend.h"

#include <QComboBox>
#include <QCompleter>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QStringListModel>
#include <QToolBar>

#include <algorithm>

namespace stagecraft::views {

using namespace graphview;
using namespace Qt::StringLiterals;

namespace {

/// The group a node or cluster shows or belongs to; kNoGroup for others.
partition::GroupId groupOfItem(const QGraphicsItem* item) {
    if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item))
        return node->group();
    if (const auto* cluster = qgraphicsitem_cast<const ClusterItem*>(item))
        return cluster->group();
    return partition::kNoGroup;
}

Selection selectionOf(const QGraphicsItem* item) {
    if (const auto* cluster = qgraphicsitem_cast<const ClusterItem*>(item))
        return {Selection::Kind::Group, cluster->group().value()};
    const auto* node = qgraphicsitem_cast<const NodeItem*>(item);
    if (!node)
        return {};
    switch (node->ref().kind) {
    case NodeRef::Kind::Op:
        return {Selection::Kind::Op, node->ref().id};
    case NodeRef::Kind::Group:
        return {Selection::Kind::Group, node->ref().id};
    case NodeRef::Kind::Scope:
        return {Selection::Kind::Group, node->group().value()};
    case NodeRef::Kind::Input:
    case NodeRef::Kind::Output:
        break;
    }
    return {Selection::Kind::Tensor, node->ref().id};
}

} // namespace

QWidget* GraphView::createToolBar() {
    auto* bar = new QToolBar(this);
    find_ = new QLineEdit(bar);
    find_->setObjectName(u"graphFind"_s);
    find_->setPlaceholderText(tr("Find op…"));
    find_->setClearButtonEnabled(true);
    find_->setMaximumWidth(260);
    auto* completer = new QCompleter(opNames_, find_);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    find_->setCompleter(completer);
    connect(find_, &QLineEdit::returnPressed, this, &GraphView::findFromToolBar);
    connect(find_, &QLineEdit::textChanged, this, &GraphView::findAll);
    connect(completer, qOverload<const QString&>(&QCompleter::activated), this,
            &GraphView::findFromToolBar);
    bar->addWidget(find_);
    findStatus_ = new QLabel(bar);
    bar->addWidget(findStatus_);
    markCaption_ = new QLabel(bar);
    markCaption_->setObjectName(u"graphMarkCaption"_s);
    markCaption_->setStyleSheet(u"color: #7a1fd1; font-weight: bold; padding-left: 8px;"_s);
    bar->addSeparator();
    bar->addAction(tr("Expand all"), this, &GraphView::expandAll);
    bar->addAction(tr("Collapse all"), this, &GraphView::collapseAll);
    bar->addAction(tr("Fit"), this, &GraphView::fitToView);
    bar->addWidget(new QLabel(tr(" Draw by "), bar));
    foldBox_ = new QComboBox(bar);
    foldBox_->setObjectName(u"graphFold"_s);
    foldBox_->addItem(tr("Groups"));
    foldBox_->addItem(tr("Name scopes"));
    foldBox_->setToolTip(tr("Draw the ops by schedule group, or by the module scopes of their "
                            "names (encoder.layer.3…), folded to a readable size; double-click "
                            "a scope to unfold it"));
    connect(foldBox_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setFoldByName(index == 1); });
    bar->addWidget(foldBox_);
    bar->addAction(tr("Export…"), this, &GraphView::exportInteractively);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr("Colour by "), bar));
    overlayBox_ = new QComboBox(bar);
    overlayBox_->setObjectName(u"graphOverlay"_s);
    for (const QString& name : groupOverlayNames())
        overlayBox_->addItem(groupOverlayTitle(*parseGroupOverlay(name)), name);
    overlayBox_->setToolTip(tr("Colour the groups by their own colour or by a figure of the "
                               "simulated run, with a legend"));
    connect(overlayBox_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setOverlay(static_cast<GroupOverlay>(index)); });
    bar->addWidget(overlayBox_);
    bar->addWidget(markCaption_);
    return bar;
}

void GraphView::updateCompleter() {
    QStringList names;
    if (result_)
        for (const ir::Op& op : result_->graph->ops())
            names << QString::fromStdString(op.name);
    names.sort(Qt::CaseInsensitive);
    opNames_->setStringList(names);
}

void GraphView::setFindText(const QString& text) {
    find_->setText(text);
}

void GraphView::focusFind() {
    find_->setFocus(Qt::ShortcutFocusReason);
    find_->selectAll();
}

void GraphView::findFromToolBar() {
    QString name = find_->text().trimmed();
    if (name.isEmpty())
        return;
    // A whole name goes to its op; part of one steps through the matches.
    if (result_ && result_->graph->findOp(name.toStdString())) {
        findOp(name);
        return;
    }
    const size_t shown = nextMatch_ % std::max<size_t>(matches_.size(), 1);
    if (nextMatch())
        findStatus_->setText(tr("match %1 of %2").arg(shown + 1).arg(matches_.size()));
    else
        findStatus_->setText(tr("no op matches “%1”").arg(elided(name)));
}

int GraphView::findAll(const QString& text) {
    matches_.clear();
    nextMatch_ = 0;
    const QString wanted = text.trimmed();
    if (result_ && !wanted.isEmpty())
        for (ir::OpId op : result_->graph->opIds())
            if (QString::fromStdString(result_->graph->op(op).name)
                    .contains(wanted, Qt::CaseInsensitive))
                matches_.push_back(op);
    applyMatches();
    // As a browser's find does: the first match comes into sight.
    // (once the graph is drawn, if it is being laid out).
    revealMatchAfterLayout_ = (layoutPending_ || scene_->isEmpty()) && !matches_.empty();
    if (!layoutPending_ && !scene_->matchedItems().empty())
        bringIntoSight(scene_->matchedItems().front());
    const int count = static_cast<int>(matches_.size());
    findStatus_->setText(!result_ || wanted.isEmpty() ? QString()
                         : count == 0 ? tr("no op matches “%1”").arg(elided(wanted))
                         : count == 1 ? tr("1 match")
                                      : tr("%1 matches; Enter for the next").arg(count));
    return count;
}

bool GraphView::nextMatch() {
    if (!result_ || matches_.empty())
        return false;
    const ir::OpId op = matches_[nextMatch_++ % matches_.size()];
    return findOp(QString::fromStdString(result_->graph->op(op).name));
}

void GraphView::bringIntoSight(QGraphicsItem* item) {
    canvas_->ensureVisible(item, 40, 40);
}

void GraphView::applyMatches() {
    if (result_)
        scene_->setMatches(matches_, *result_);
}

bool GraphView::findOp(const QString& name) {
    if (!result_)
        return false;
    std::optional<ir::OpId> op = result_->graph->findOp(name.toStdString());
    if (!op)
        return false;
    select({Selection::Kind::Op, op->value()});
    partition::GroupId group = result_->eval.schedule.partition.groupOf(*op);
    if (byName_ && foldedScopeOf(scopes_, folded_, *op) >= 0) {
        for (int s = foldedScopeOf(scopes_, folded_, *op); s >= 0;
             s = foldedScopeOf(scopes_, folded_, *op))
            folded_ = unfold(scopes_, folded_, s);
        centerOpAfterLayout_ = *op;
        requestLayout();
    } else if (!byName_ && !expanded_.contains(group)) {
        setGroupExpanded(group, true);
        centerGroupAfterLayout_.reset();
        centerOpAfterLayout_ = *op;
    } else if (layoutPending_) {
        centerOpAfterLayout_ = *op;
    } else if (NodeItem* item = scene_->opItem(*op)) {
        canvas_->centerOn(item);
    }
    return true;
}

void GraphView::setSelectionModel(SelectionModel* model) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = model;
    if (!model)
        return;
    connect(model, &SelectionModel::changed, this,
            [this](const Selection& selection) { applySelection(selection, true); });
    applySelection(model->current(), false);
}

void GraphView::setHighlightModel(HighlightModel* model) {
    if (highlights_)
        disconnect(highlights_, nullptr, this, nullptr);
    highlights_ = model;
    if (model)
        connect(model, &HighlightModel::changed, this, [this] { applyMarks(true); });
    applyMarks(false);
}

void GraphView::applyMarks(bool scroll) {
    const Highlights none;
    const Highlights& marks = highlights_ ? highlights_->current() : none;
    markCaption_->setText(marks.caption);
    if (!result_)
        return;
    QGraphicsItem* first = scene_->mark(marks, *result_);
    stepNote_ = marks.opGrouping.empty()
                    ? QString()
                    : tr("Op boxes: their group after this step, one colour each "
                         "(white: still alone); clusters: the final groups");
    updateLegendNote();
    if (first && scroll)
        bringIntoSight(first);
}

void GraphView::select(const Selection& selection) {
    if (selection_)
        selection_->select(selection);
    else
        applySelection(selection, true);
}

void GraphView::applySelection(const Selection& selection, bool scroll) {
    localSelection_ = selection;
    if (!result_)
        return;
    QGraphicsItem* item = scene_->highlight(selection, *result_);
    if (item && scroll)
        bringIntoSight(item);
}

void GraphView::onClicked(QGraphicsItem* item) {
    // A scope of one group selects the group; of several, its first op.
    const auto* node = qgraphicsitem_cast<const NodeItem*>(item);
    if (node && node->ref().kind == NodeRef::Kind::Scope && node->group() == partition::kNoGroup) {
        select({Selection::Kind::Op, scopes_.opsUnder(node->ref().id).front().value()});
        return;
    }
    select(selectionOf(item));
}

void GraphView::onDoubleClicked(QGraphicsItem* item) {
    if (const auto* node = qgraphicsitem_cast<const NodeItem*>(item)) {
        if (node->ref().kind == NodeRef::Kind::Group)
            setGroupExpanded(node->group(), true);
        else if (node->ref().kind == NodeRef::Kind::Scope)
            setScopeFolded(node->ref().id, false);
    } else if (const auto* cluster = qgraphicsitem_cast<const ClusterItem*>(item)) {
        setGroupExpanded(cluster->group(), false);
    }
}

void GraphView::onContextMenu(QGraphicsItem* item, const QPoint& globalPos) {
    QMenu menu(this);
    partition::GroupId group = groupOfItem(item);
    if (byName_)
        addScopeActions(menu, item);
    else if (group != partition::kNoGroup) {
        bool expanded = expanded_.contains(group);
        QString text = expanded ? tr("Collapse group %1") : tr("Expand group %1");
        menu.addAction(text.arg(groupName(group)), this,
                       [this, group, expanded] { setGroupExpanded(group, !expanded); });
        menu.addSeparator();
    }
    menu.addAction(tr("Expand all"), this, &GraphView::expandAll);
    menu.addAction(tr("Collapse all"), this, &GraphView::collapseAll);
    menu.addAction(tr("Fit to view"), this, &GraphView::fitToView);
    menu.addAction(tr("Export…"), this, &GraphView::exportInteractively);
    menu.exec(globalPos);
}

void GraphView::exportInteractively() {
    QString svgFilter = tr("SVG image (*.svg)");
    QString selected = svgFilter;
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export graph"), QString(),
                                     svgFilter % u";;"_s % tr("PNG image (*.png)"), &selected);
    if (path.isEmpty())
        return;
    bool png = QFileInfo(path).suffix().compare(u"png"_s, Qt::CaseInsensitive) == 0 ||
               (QFileInfo(path).suffix().isEmpty() && selected != svgFilter);
    if (QFileInfo(path).suffix().isEmpty())
        path += png ? u".png"_s : u".svg"_s;
    QString error;
    if (!(png ? exportPng(path, &error) : exportSvg(path, &error)))
        QMessageBox::warning(this, tr("Export graph"), error);
}

} // namespace stagecraft::views
