// The inspector dock's contents (see inspector_widget.h). Order moves reach
// editRequested() through a queued connection: the list view is still inside
// its drop handling when the model reports the move, and the application may
// answer with a new result (a model reset) at once.

#include "inspector/inspector_widget.h"

#include "inspector/edit_panel.h"
#include "inspector/edit_requests.h"
#include "inspector/instance_order_model.h"
#include "inspector/properties_model.h"
#include "inspector/split_candidates_model.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

namespace {

QGroupBox* boxed(const QString& title, QWidget* content) {
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(content);
    return box;
}

} // namespace

InspectorWidget::InspectorWidget(QWidget* parent)
    : QWidget(parent)
    , properties_(new PropertiesModel(this))
    , candidates_(new SplitCandidatesModel(this))
    , order_(new InstanceOrderModel(this))
    , propertiesView_(new QTreeView)
    , candidatesView_(new QTableView)
    , orderView_(new QListView)
    , edits_(new EditPanel)
    , refusal_(new QLabel) {
    setObjectName(u"inspector"_s);
    buildLayout();
    connect(edits_, &EditPanel::editRequested, this, &InspectorWidget::editRequested);
    connect(order_, &InstanceOrderModel::orderRequested, this, &InspectorWidget::orderMoved,
            Qt::QueuedConnection);
    connect(orderView_, &QListView::clicked, this, &InspectorWidget::orderClicked);
}

void InspectorWidget::buildLayout() {
    propertiesView_->setObjectName(u"inspectorProperties"_s);
    propertiesView_->setModel(properties_);
    propertiesView_->setUniformRowHeights(true);
    propertiesView_->setAlternatingRowColors(true);
    propertiesView_->header()->setSectionResizeMode(QHeaderView::Interactive);
    propertiesView_->header()->setStretchLastSection(true);
    propertiesView_->setColumnWidth(PropertiesModel::PropertyColumn, 140);
    candidatesView_->setObjectName(u"inspectorCandidates"_s);
    candidatesView_->setModel(candidates_);
    candidatesView_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    candidatesView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    candidatesView_->horizontalHeader()->setStretchLastSection(true);
    candidatesView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    orderView_->setObjectName(u"inspectorOrder"_s);
    orderView_->setModel(order_);
    orderView_->setUniformItemSizes(true); // 1,000+ rows on large models
    orderView_->setSelectionMode(QAbstractItemView::SingleSelection);
    orderView_->setDragDropMode(QAbstractItemView::InternalMove);
    orderView_->setDefaultDropAction(Qt::MoveAction);
    orderView_->setDropIndicatorShown(true);
    refusal_->setObjectName(u"inspectorRefusal"_s);
    refusal_->setWordWrap(true);
    refusal_->setStyleSheet(u"color: #b00020;"_s);
    refusal_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    refusal_->hide();
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(propertiesView_);
    splitter->addWidget(boxed(u"Split candidates (SplitInfo, §3.1)"_s, candidatesView_));
    splitter->addWidget(boxed(u"Edit"_s, edits_));
    splitter->addWidget(boxed(u"Instance order (drag to reorder)"_s, orderPanel()));
    // The properties matter most; the edit controls keep their natural height.
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 0);
    splitter->setStretchFactor(3, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(refusal_);
    layout->addWidget(splitter, 1);
}

QWidget* InspectorWidget::orderPanel() {
    // A large model's order has a thousand rows and more: the filter shows
    // one group's, or one instance.
    orderFilter_ = new QLineEdit;
    orderFilter_->setObjectName(u"inspectorOrderFilter"_s);
    orderFilter_->setPlaceholderText(tr("Show only group or instance (b, b3)"));
    orderFilter_->setClearButtonEnabled(true);
    connect(orderFilter_, &QLineEdit::textChanged, this, [this] { applyOrderFilter(); });
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(orderFilter_);
    layout->addWidget(orderView_, 1);
    return panel;
}

void InspectorWidget::filterOrder(const QString& text) {
    orderFilter_->setText(text);
}

bool InspectorWidget::isOrderRowShown(int row) const {
    return !orderView_->isRowHidden(row);
}

void InspectorWidget::applyOrderFilter() {
    const QString wanted = orderFilter_->text().trimmed().toLower();
    const QStringList labels = order_->labels();
    for (int row = 0; row < labels.size(); ++row) {
        const QString label = labels[row].toLower();
        QString group = label;
        while (!group.isEmpty() && group.back().isDigit())
            group.chop(1);
        orderView_->setRowHidden(row, !wanted.isEmpty() && label != wanted && group != wanted);
    }
}

void InspectorWidget::setResult(ResultPtr result) {
    result_ = std::move(result);
    refusal_->hide();
    refusal_->clear();
    properties_->setResult(result_);
    candidates_->setResult(result_);
    order_->setResult(result_);
    applyOrderFilter();
    selectionChanged(selection_ ? selection_->current() : Selection{});
}

void InspectorWidget::setSelectionModel(SelectionModel* selection) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = selection;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, &InspectorWidget::selectionChanged);
    selectionChanged(selection_ ? selection_->current() : Selection{});
}

void InspectorWidget::selectionChanged(const Selection& selection) {
    properties_->setSelection(selection);
    propertiesView_->expandToDepth(0);
    // Names whole (a layer index sits anywhere in them), up to two thirds of
    // the view; the tool tips have them whole in any case.
    propertiesView_->resizeColumnToContents(PropertiesModel::PropertyColumn);
    const int widest = std::max(140, propertiesView_->viewport()->width() * 2 / 3);
    if (propertiesView_->columnWidth(PropertiesModel::PropertyColumn) > widest)
        propertiesView_->setColumnWidth(PropertiesModel::PropertyColumn, widest);
    candidates_->setSelection(selection);
    edits_->setContext(result_, selection);
    showInOrder(selection);
}

void InspectorWidget::showInOrder(const Selection& selection) {
    int row = selection.kind == Selection::Kind::Instance
                  ? order_->rowOf(schedule::InstanceId(selection.id))
                  : -1;
    if (row < 0) {
        orderView_->clearSelection();
        return;
    }
    QModelIndex index = order_->index(row);
    orderView_->setCurrentIndex(index);
    orderView_->scrollTo(index);
}

void InspectorWidget::orderMoved(const QStringList& labels, const QString& description) {
    if (!result_ || order_->labels() != labels) // a newer result reset the list meanwhile
        return;
    emit editRequested(inspector::orderRequest(*result_, labels, description));
}

void InspectorWidget::orderClicked(const QModelIndex& index) {
    if (selection_ && index.isValid())
        selection_->select(
            {Selection::Kind::Instance, index.data(InstanceOrderModel::InstanceIdRole).toInt()});
}

void InspectorWidget::showRefusal(const QString& reason) {
    refusal_->setText(reason);
    refusal_->show();
    order_->reset();
    applyOrderFilter();
    selectionChanged(selection_ ? selection_->current() : Selection{});
}

} // namespace stagecraft::views
