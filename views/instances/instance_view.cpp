// The instance view: a toolbar over an InstanceCanvas, wired to the shared
// selection. Clicks select (an ellipse selects the tensor it moves, a bundle
// the first of its tensors); a selection made elsewhere lights up its
// instances and scrolls to them.

#include "instances/instance_view.h"

#include "instances/instance_canvas.h"
#include "instances/instance_drawing.h"
#include "instances/instance_export.h"

#include <QAction>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace stagecraft::views {

namespace {

using namespace Qt::StringLiterals;

bool validIndex(int32_t id, size_t count) {
    return id >= 0 && static_cast<size_t>(id) < count;
}

/// The group a selection stands for in this view, if any.
std::optional<schedule::GroupId> groupOf(const PipelineResult& result, const Selection& selection) {
    const schedule::Schedule& s = result.eval.schedule;
    const ir::Graph& graph = *result.graph;
    ir::OpId op = ir::kNoOp;
    switch (selection.kind) {
    case Selection::Kind::Group:
        if (s.groups.contains(schedule::GroupId(selection.id)))
            return schedule::GroupId(selection.id);
        return std::nullopt;
    case Selection::Kind::Op:
        op = ir::OpId(selection.id);
        break;
    case Selection::Kind::Tensor:
        if (const ir::TensorId tensor(selection.id); graph.hasTensor(tensor))
            op = graph.tensor(tensor).producer;
        break;
    case Selection::Kind::None:
    case Selection::Kind::Instance:
        break;
    }
    if (!graph.hasOp(op))
        return std::nullopt;
    schedule::GroupId group = s.partition.groupOf(op);
    return s.groups.contains(group) ? std::optional(group) : std::nullopt;
}

/// By instance of \p result: 1 when \p marks names it, its group or an op of its group.
IdVector<schedule::InstanceId, char> markedInstances(const PipelineResult& result,
                                                     const Highlights& marks) {
    const schedule::Schedule& s = result.eval.schedule;
    IdVector<schedule::InstanceId, char> marked(s.instances.size(), 0);
    auto markGroup = [&](schedule::GroupId group) {
        if (s.groups.contains(group))
            for (schedule::InstanceId id : s.groups[group].instances)
                marked[id] = 1;
    };
    for (int32_t id : marks.instances)
        if (validIndex(id, marked.size()))
            marked[schedule::InstanceId(id)] = 1;
    for (int32_t group : marks.groups)
        markGroup(schedule::GroupId(group));
    for (int32_t op : marks.ops)
        if (result.graph->hasOp(ir::OpId(op)))
            markGroup(s.partition.groupOf(ir::OpId(op)));
    return marked;
}

schedule::InstanceId nearestInstance(const InstanceLayout& layout, QPointF point) {
    schedule::InstanceId best = schedule::kNoInstance;
    double bestDistance = std::numeric_limits<double>::max();
    for (schedule::InstanceId i : layout.instances.ids()) {
        const QPointF d = layout.instances[i].center() - point;
        const double distance = QPointF::dotProduct(d, d);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

} // namespace

InstanceView::InstanceView(QWidget* parent)
    : QWidget(parent)
    , canvas_(new InstanceCanvas(this)) {
    setObjectName(u"instanceView"_s);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createToolBar());
    layout->addWidget(canvas_, 1);
    layout->addWidget(createLegend());
    connect(canvas_, &InstanceCanvas::clicked, this, &InstanceView::onCanvasClicked);
}

InstanceView::~InstanceView() = default;

QToolBar* InstanceView::createToolBar() {
    auto* bar = new QToolBar(this);
    bar->setObjectName(u"instanceViewToolBar"_s);
    redundantAction_ = bar->addAction(tr("Redundant edges"));
    redundantAction_->setObjectName(u"showRedundantEdges"_s);
    redundantAction_->setToolTip(tr("Show the inherited edges that are not needed (gray)"));
    redundantAction_->setCheckable(true);
    redundantAction_->setChecked(true);
    connect(redundantAction_, &QAction::toggled, this, &InstanceView::setShowRedundantEdges);
    movesAction_ = bar->addAction(tr("Data movement"));
    movesAction_->setObjectName(u"showDataMovement"_s);
    movesAction_->setToolTip(tr("Show the inserted concat, copy and redistribute ops"));
    movesAction_->setCheckable(true);
    movesAction_->setChecked(true);
    connect(movesAction_, &QAction::toggled, this, &InstanceView::setShowDataMovement);
    bundleAction_ = bar->addAction(tr("Bundle"));
    bundleAction_->setObjectName(u"bundleDataMovement"_s);
    bundleAction_->setToolTip(tr("Draw the data movement between two groups as one node (its op "
                                 "count and kinds) instead of one ellipse per op"));
    bundleAction_->setCheckable(true);
    connect(bundleAction_, &QAction::toggled, this, &InstanceView::setBundleDataMovement);
    // Once the user chooses, a new result keeps the choice.
    for (QAction* action : {redundantAction_, movesAction_, bundleAction_})
        connect(action, &QAction::toggled, this, [this] { userChoseView_ = true; });
    QAction* fit = bar->addAction(tr("Fit"));
    fit->setObjectName(u"fitInstances"_s);
    fit->setToolTip(tr("Show all instances"));
    connect(fit, &QAction::triggered, this, &InstanceView::fitToView);
    busyLabel_ = new QLabel(bar);
    busyLabel_->setObjectName(u"instanceBusyNote"_s);
    busyNote_ = bar->addWidget(busyLabel_);
    busyNote_->setVisible(false);
    // Shown while the step-through is at an Algorithm 3 step.
    auto* legend = new QLabel(
        tr("  Algorithm 3 at this step: <span style='color:#1f77b4'><b>■</b> on the visit "
           "list</span> · <span style='color:#d9a400'><b>■</b> ready</span> · "
           "<span style='color:#2ca02c'><b>■</b> ordered</span>, numbered in the order so far"),
        bar);
    legend->setObjectName(u"instanceStepLegend"_s);
    stepLegend_ = bar->addWidget(legend);
    stepLegend_->setVisible(false);
    // Shown while the step-through is at an Algorithm 4 step.
    auto* bindLegend = new QLabel(tr("  Algorithm 4 so far: pale boxes are not bound yet "
                                     "(bind=? scope=?); the others show the binding and "
                                     "scope decided up to this step"),
                                  bar);
    bindLegend->setObjectName(u"instanceBindLegend"_s);
    bindLegend_ = bar->addWidget(bindLegend);
    bindLegend_->setVisible(false);
    return bar;
}

QLabel* InstanceView::createLegend() {
    // What every mark means (Fig. 6, 7f and 9), in the colours drawn.
    auto* legend = new QLabel(
        tr("<b>Boxes</b>: instances in their group's colour, <b>○ n</b> their place in the order "
           "· <b>ellipses</b>: inserted data movement (§3.5), white a concat, grey a copy or "
           "redistribute; <b>stacked cards</b>: all of it between two groups (Bundle) "
           "· <b>dark lines</b>: needed dependencies, <span style='color:#999'>"
           "<b>light</b></span>: redundant ones (§3.3) · <span style='color:#eb6e00'><b>orange"
           "</b></span>: selected · <span style='color:#9b30ff'><b>violet</b></span>: marked by "
           "Diff or Steps"),
        this);
    legend->setObjectName(u"instanceLegend"_s);
    legend->setWordWrap(true);
    legend->setContentsMargins(6, 2, 6, 2);
    return legend;
}

void InstanceView::setResult(ResultPtr result) {
    // After an edit the user keeps looking where they were; a first result is fitted.
    const bool keepView = result_ && result && !canvas_->isFitted();
    result_ = std::move(result);
    drawings_ = {};
    openUncluttered();
    bundleAction_->setEnabled(showsDataMovement());
    canvas_->setDrawing(result_ ? drawingFor(showsDataMovement(), bundlesDataMovement()) : nullptr,
                        keepView);
    highlight(selection_ ? selection_->current() : Selection{}, false);
    applyMarks(false);
}

void InstanceView::setSelectionModel(SelectionModel* model) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = model;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, &InstanceView::followSelection);
    highlight(selection_ ? selection_->current() : Selection{}, false);
}

void InstanceView::openUncluttered() {
    const size_t moves = result_ ? result_->eval.schedule.moves.size() : 0;
    const bool busy = moves > kBusyMoves;
    busyNote_->setVisible(busy && !userChoseView_);
    if (userChoseView_ || !result_)
        return;
    // A real model's hundreds of redistributes and concats hide its
    // instances: they open bundled by pair of groups, the redundant edges
    // hidden, and the note says how to see each.
    busyLabel_->setText(tr("  %1 inserted data-movement ops are bundled by pair of groups and "
                           "the redundant edges hidden on a schedule this size; the buttons "
                           "show each")
                            .arg(moves));
    {
        const QSignalBlocker blocker(movesAction_);
        movesAction_->setChecked(true);
    }
    {
        const QSignalBlocker blocker(bundleAction_);
        bundleAction_->setChecked(busy);
    }
    setShowRedundantEdges(!busy);
}

bool InstanceView::showsRedundantEdges() const {
    return redundantAction_->isChecked();
}

bool InstanceView::showsDataMovement() const {
    return movesAction_->isChecked();
}

bool InstanceView::bundlesDataMovement() const {
    return bundleAction_->isChecked();
}

const InstanceDrawing* InstanceView::drawing() const {
    return canvas_->drawing();
}

std::shared_ptr<const InstanceDrawing> InstanceView::drawingFor(bool withMoves, bool bundled) {
    auto& slot = drawings_[!withMoves ? 0 : bundled ? 2 : 1];
    if (!slot && result_) {
        LayoutOptions options;
        options.showMoves = withMoves;
        options.bundleMoves = bundled;
        slot = makeInstanceDrawing(result_, options);
    }
    return slot;
}

void InstanceView::setShowRedundantEdges(bool show) {
    const QSignalBlocker blocker(redundantAction_);
    redundantAction_->setChecked(show);
    PaintOptions options = canvas_->paintOptions();
    options.showRedundant = show;
    canvas_->setPaintOptions(std::move(options));
}

void InstanceView::setShowDataMovement(bool show) {
    const QSignalBlocker blocker(movesAction_);
    movesAction_->setChecked(show);
    showChosenDrawing();
}

void InstanceView::setBundleDataMovement(bool bundle) {
    const QSignalBlocker blocker(bundleAction_);
    bundleAction_->setChecked(bundle);
    showChosenDrawing();
}

void InstanceView::showChosenDrawing() {
    bundleAction_->setEnabled(showsDataMovement());
    const InstanceDrawing* old = canvas_->drawing();
    if (!old || !result_)
        return;
    std::shared_ptr<const InstanceDrawing> chosen =
        drawingFor(showsDataMovement(), bundlesDataMovement());
    if (chosen.get() == old)
        return;
    // The bands of ops move everything: keep the instance in the middle there.
    const bool fitted = canvas_->isFitted();
    const schedule::InstanceId anchor = nearestInstance(old->layout, canvas_->sceneCenter());
    canvas_->setDrawing(std::move(chosen), !fitted);
    if (!fitted && anchor != schedule::kNoInstance)
        canvas_->centerOn(canvas_->drawing()->layout.instances[anchor].center());
}

void InstanceView::fitToView() {
    canvas_->fitAll();
}

void InstanceView::onCanvasClicked(const LayoutHit& hit) {
    if (!selection_ || !result_)
        return;
    Selection selection;
    switch (hit.kind) {
    case LayoutHit::Kind::Instance:
        selection = {Selection::Kind::Instance, hit.id};
        break;
    case LayoutHit::Kind::Group:
        selection = {Selection::Kind::Group, hit.id};
        break;
    case LayoutHit::Kind::Move:
        selection = {Selection::Kind::Tensor,
                     result_->eval.schedule.moves[static_cast<size_t>(hit.id)].tensor.value()};
        break;
    case LayoutHit::Kind::Bundle: {
        // The first tensor it moves: the graph shows where that runs.
        const MoveBundle& bundle = canvas_->drawing()->layout.bundles[static_cast<size_t>(hit.id)];
        const auto first = static_cast<size_t>(bundle.moves.front());
        selection = {Selection::Kind::Tensor, result_->eval.schedule.moves[first].tensor.value()};
        break;
    }
    case LayoutHit::Kind::None:
        break;
    }
    selecting_ = true;
    selection_->select(selection);
    selecting_ = false;
}

void InstanceView::followSelection(const Selection& selection) {
    highlight(selection, !selecting_); // what was clicked here is in view already
}

void InstanceView::highlight(const Selection& selection, bool reveal) {
    PaintOptions options = canvas_->paintOptions();
    options.highlighted.clear();
    options.highlightedGroup = partition::kNoGroup;
    const InstanceDrawing* drawing = canvas_->drawing();
    std::optional<QRectF> target;
    if (drawing) {
        const schedule::Schedule& s = drawing->schedule();
        options.highlighted.assign(s.instances.size(), 0);
        if (selection.kind == Selection::Kind::Instance &&
            validIndex(selection.id, s.instances.size())) {
            const schedule::InstanceId id(selection.id);
            options.highlighted[id] = 1;
            target = drawing->layout.instances[id];
        } else if (auto group = groupOf(*drawing->result, selection)) {
            for (schedule::InstanceId id : s.groups[*group].instances)
                options.highlighted[id] = 1;
            options.highlightedGroup = *group;
            target = drawing->layout.groups[*group].rect;
        }
    }
    canvas_->setPaintOptions(std::move(options));
    if (reveal && target)
        canvas_->reveal(*target);
}

void InstanceView::setHighlightModel(HighlightModel* model) {
    if (highlights_)
        disconnect(highlights_, nullptr, this, nullptr);
    highlights_ = model;
    if (model)
        connect(model, &HighlightModel::changed, this, [this] { applyMarks(true); });
    applyMarks(false);
}

void InstanceView::applyMarks(bool reveal) {
    PaintOptions options = canvas_->paintOptions();
    options.marked.clear();
    options.orderStates =
        highlights_ ? highlights_->current().instanceStates : std::vector<int8_t>{};
    options.stepOrder = highlights_ ? highlights_->current().instanceOrder : std::vector<int32_t>{};
    options.stepBinds = highlights_ ? highlights_->current().stepBinds : std::vector<QString>{};
    options.stepScopes = highlights_ ? highlights_->current().stepScopes : std::vector<QString>{};
    stepLegend_->setVisible(!options.orderStates.empty());
    bindLegend_->setVisible(!options.stepBinds.empty());
    const InstanceDrawing* drawing = canvas_->drawing();
    if (!drawing || !highlights_ || highlights_->current().empty()) {
        canvas_->setPaintOptions(std::move(options));
        return;
    }
    options.marked = markedInstances(*drawing->result, highlights_->current());
    // The first marked instance, and all of them when they fit readably.
    std::optional<QRectF> first;
    std::optional<QRectF> all;
    for (schedule::InstanceId id : drawing->layout.instances.ids())
        if (options.marked[id]) {
            const QRectF& box = drawing->layout.instances[id];
            first = first ? first : box;
            all = all ? all->united(box) : box;
        }
    canvas_->setPaintOptions(std::move(options));
    if (reveal && first)
        canvas_->reveal(*first, all);
}

bool InstanceView::exportSvg(const QString& path, QString* error) const {
    return exportWith(exportDrawingSvg, path, error);
}

bool InstanceView::exportPng(const QString& path, QString* error) const {
    return exportWith(exportDrawingPng, path, error);
}

template <typename Exporter>
bool InstanceView::exportWith(Exporter exporter, const QString& path, QString* error) const {
    if (!drawing()) {
        if (error)
            *error = tr("no schedule to export");
        return false;
    }
    PaintOptions options; // without the highlight
    options.showRedundant = showsRedundantEdges();
    return exporter(*drawing(), options, path, error);
}

} // namespace stagecraft::views
