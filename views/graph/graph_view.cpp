// Layout requests and what follows them. The scene keeps showing the previous
// layout of the same result while a new one (another expanded set) computes;
// a result with another graph or grouping clears it at once, because its
// items name ops and groups that no longer exist.

#include "graph/graph_view.h"

#include "graph/graph_canvas.h"
#include "graph/graph_export.h"
#include "graph/graph_minimap.h"
#include "graph/graph_scene.h"
#include "graph/graphviz_layouter.h"
#include "graph/overlay_legend.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QStringListModel>

#include <utility>

namespace stagecraft::views {

using namespace graphview;

GraphView::GraphView(QWidget* parent)
    : QWidget(parent)
    , scene_(new GraphScene(this))
    , canvas_(new GraphCanvas(scene_, this))
    , layouter_(new GraphvizLayouter(this))
    , message_(new QLabel(this))
    , legend_(new OverlayLegend(this))
    , minimap_(new GraphMinimap(canvas_))
    , opNames_(new QStringListModel(this)) {
    setObjectName(QStringLiteral("graphView"));
    message_->setObjectName(QStringLiteral("graphMessage"));
    message_->setStyleSheet(
        QStringLiteral("background: rgba(255,255,255,220); padding: 8px; color: #333;"));
    message_->setWordWrap(true);
    message_->setAttribute(Qt::WA_TransparentForMouseEvents);
    message_->hide();
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createToolBar(), 0, 0);
    layout->addWidget(canvas_, 1, 0);
    layout->addWidget(message_, 1, 0, Qt::AlignCenter);
    layout->addWidget(legend_, 2, 0); // below the canvas: it covers no node
    layout->setRowStretch(1, 1);
    message_->raise();
    // The frame follows every scroll and zoom; the picture, every new drawing.
    // Slots of the minimap itself: nothing here captures this view, which
    // the scroll bars outlive while it is destroyed.
    for (QScrollBar* bar : {canvas_->horizontalScrollBar(), canvas_->verticalScrollBar()}) {
        connect(bar, &QScrollBar::valueChanged, minimap_, qOverload<>(&QWidget::update));
        connect(bar, &QScrollBar::rangeChanged, minimap_, &GraphMinimap::refresh);
    }
    connect(scene_, &QGraphicsScene::changed, minimap_, &GraphMinimap::scheduleRefresh);
    connect(layouter_, &GraphvizLayouter::layoutReady, this, &GraphView::onLayoutReady);
    connect(layouter_, &GraphvizLayouter::layoutFailed, this, &GraphView::onLayoutFailed);
    connect(canvas_, &GraphCanvas::clicked, this, &GraphView::onClicked);
    connect(canvas_, &GraphCanvas::doubleClicked, this, &GraphView::onDoubleClicked);
    connect(canvas_, &GraphCanvas::contextMenuRequested, this, &GraphView::onContextMenu);
}

GraphView::~GraphView() {
    // The scene goes first among the children and resizes the canvas as it
    // goes: the minimap must not redraw from a half-destroyed view.
    delete minimap_;
}

void GraphView::setResult(ResultPtr result) {
    ResultPtr previous = std::exchange(result_, std::move(result));
    applyOverlay();
    if (result_ && previous && sameGrouping(*previous, *result_)) {
        refreshLabels();
        return;
    }
    layoutPending_ = false;
    scene_->clearDrawing();
    shownModel_ = {};
    shownExpanded_.clear();
    shownFolded_.clear();
    resetNameFolding(previous);
    centerOpAfterLayout_.reset();
    centerGroupAfterLayout_.reset();
    if (!previous || !result_ || previous->graph != result_->graph) {
        updateCompleter();
        findAll(find_->text());
    }
    if (!result_) {
        expanded_.clear();
        showMessage({});
        return;
    }
    expanded_ =
        result_->graph->opCount() > kCollapseAbove ? ExpandedGroups{} : overviewGroups(*result_);
    fitAfterLayout_ = true;
    requestLayout();
}

void GraphView::refreshLabels() {
    if (layoutPending_)
        pendingModel_ = buildModel(false);
    if (!scene_->isEmpty()) {
        shownModel_ = buildModel(true);
        scene_->updateLabels(shownModel_);
    }
    applySelection(selection_ ? selection_->current() : localSelection_, false);
    applyMarks(false);
}

void GraphView::requestLayout() {
    pendingModel_ = buildModel(false);
    const NameFolding names{&scopes_, folded_};
    pendingKey_ = layoutKeyFor(*result_, expanded_, byName_ ? &names : nullptr);
    layoutPending_ = true;
    showMessage(tr("laying out…"));
    layouter_->request(pendingKey_, pendingModel_.layout);
}

void GraphView::onLayoutReady(const LayoutKey& key, const LayoutPtr& layout) {
    if (!layoutPending_ || key != pendingKey_)
        return;
    layoutPending_ = false;
    shownModel_ = std::exchange(pendingModel_, {});
    shownExpanded_ = expanded_;
    shownFolded_ = folded_;
    scene_->build(shownModel_, *layout, *result_);
    applyMatches();
    showMessage({});
    placeAfterLayout();
    // A selection made while the layout ran is scrolled to once it is drawn.
    const Selection& current = selection_ ? selection_->current() : localSelection_;
    applySelection(current, current.kind != Selection::Kind::None);
    applyMarks(current.kind == Selection::Kind::None);
    if (std::exchange(revealMatchAfterLayout_, false) && current.kind == Selection::Kind::None &&
        scene_->markedItems().empty() && !scene_->matchedItems().empty())
        bringIntoSight(scene_->matchedItems().front());
    emit layoutFinished();
}

void GraphView::onLayoutFailed(const LayoutKey& key, const QString& message) {
    if (!layoutPending_ || key != pendingKey_)
        return;
    layoutPending_ = false;
    pendingModel_ = {};
    expanded_ = shownExpanded_;
    folded_ = shownFolded_;
    showMessage(tr("layout failed: %1").arg(message));
    emit layoutFailed(message);
}

void GraphView::placeAfterLayout() {
    if (std::exchange(fitAfterLayout_, false))
        canvas_->fitReadable();
    QGraphicsItem* target = nullptr;
    if (centerOpAfterLayout_)
        target = scene_->opOrGroupItem(*centerOpAfterLayout_, *result_);
    else if (centerGroupAfterLayout_)
        target = scene_->groupItem(*centerGroupAfterLayout_);
    if (target)
        canvas_->centerOn(target);
    centerOpAfterLayout_.reset();
    centerGroupAfterLayout_.reset();
}

void GraphView::setGroupExpanded(partition::GroupId group, bool expanded) {
    if (!result_ || !result_->eval.schedule.partition.hasGroup(group) ||
        expanded == expanded_.contains(group))
        return;
    if (expanded)
        expanded_.insert(group);
    else
        expanded_.erase(group);
    centerGroupAfterLayout_ = group;
    requestLayout();
}

void GraphView::expandAll() {
    if (byName_) {
        if (result_ && !folded_.empty()) {
            folded_.clear();
            fitAfterLayout_ = true;
            requestLayout();
        }
        return;
    }
    if (!result_ || expanded_ == allGroups(*result_))
        return;
    expanded_ = allGroups(*result_);
    fitAfterLayout_ = true;
    requestLayout();
}

void GraphView::collapseAll() {
    if (byName_) {
        if (result_ && folded_ != coarsestFolding(scopes_)) {
            folded_ = coarsestFolding(scopes_);
            fitAfterLayout_ = true;
            requestLayout();
        }
        return;
    }
    if (!result_ || expanded_.empty())
        return;
    expanded_.clear();
    fitAfterLayout_ = true;
    requestLayout();
}

void GraphView::fitToView() {
    canvas_->fitToView();
}

QString GraphView::message() const {
    return message_->isHidden() ? QString() : message_->text();
}

void GraphView::showMessage(const QString& text) {
    message_->setText(text);
    message_->setHidden(text.isEmpty());
}

bool GraphView::exportSvg(const QString& path, QString* error) {
    if (scene_->isEmpty()) {
        if (error)
            *error = tr("the graph is not laid out yet");
        return false;
    }
    return exportSceneSvg(*scene_, path, error);
}

bool GraphView::exportPng(const QString& path, QString* error) {
    if (scene_->isEmpty()) {
        if (error)
            *error = tr("the graph is not laid out yet");
        return false;
    }
    return exportScenePng(*scene_, path, error);
}

} // namespace stagecraft::views
