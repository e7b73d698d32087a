// The cost table's layout and wiring (cost_table_view.h). Rows sort by their
// raw figures (Qt::UserRole); the table starts sorted by time, longest first,
// the order in which an engineer reads where a run goes.

#include "costs/cost_table_view.h"

#include "common/byte_text.h"
#include "common/energy_text.h"
#include "costs/cost_columns.h"
#include "costs/cost_table_model.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace stagecraft::views {

namespace {

/// Rows measured for column widths: enough for a representative width,
/// few enough for a thousand kernels to open at once.
constexpr int kWidthSampleRows = 200;
constexpr int kMaxNameWidth = 320;

/// Keeps the rows whose name or first op contains the filter text.
class NameOrOpFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        for (int column : {int(CostTableModel::Name), int(CostTableModel::FirstOp)}) {
            const QString text = sourceModel()->index(row, column, parent).data().toString();
            if (text.contains(filterRegularExpression()))
                return true;
        }
        return false;
    }
};

} // namespace

CostTableView::CostTableView(QWidget* parent)
    : QWidget(parent)
    , model_(new CostTableModel(this))
    , proxy_(new NameOrOpFilter(this))
    , table_(new QTableView(this))
    , grainBox_(new QComboBox(this))
    , filter_(new QLineEdit(this))
    , summary_(new QLabel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setObjectName(QStringLiteral("costTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CostTableModel::Time, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // Rows as tall as a line of text: a thousand kernels read as a list.
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    table_->horizontalHeader()->setResizeContentsPrecision(kWidthSampleRows);
    table_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_->horizontalHeader(), &QWidget::customContextMenuRequested, this,
            &CostTableView::showColumnMenu);
    chosenColumns_.resize(CostTableModel::ColumnCount);
    table_->viewport()->installEventFilter(this);
    grainBox_->setObjectName(QStringLiteral("costGrain"));
    grainBox_->addItem(tr("Groups"));
    grainBox_->addItem(tr("Kernels"));
    filter_->setObjectName(QStringLiteral("costFilter"));
    filter_->setPlaceholderText(tr("Filter by name or op (a3, layer.11…)"));
    filter_->setClearButtonEnabled(true);
    // The summary wraps rather than squeezing the filter to a few letters.
    filter_->setMinimumWidth(filter_->fontMetrics().horizontalAdvance(filter_->placeholderText()) +
                             40);
    summary_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("costSummary"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("One row per"), this));
    bar->addWidget(grainBox_);
    bar->addWidget(filter_);
    bar->addWidget(summary_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);
    connect(grainBox_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setGrain(index == 1 ? CostGrain::Kernels : CostGrain::Groups); });
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setFilterFixedString(text);
        updateSummary();
    });
    connect(table_, &QTableView::clicked, this, &CostTableView::chooseRow);
    connect(table_, &QTableView::activated, this, &CostTableView::chooseRow);
    updateSummary();
}

void CostTableView::setResult(ResultPtr result) {
    result_ = std::move(result);
    rebuild();
}

void CostTableView::setSelectionModel(SelectionModel* selection) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = selection;
    if (selection_) {
        connect(selection_, &SelectionModel::changed, this, &CostTableView::follow);
        follow(selection_->current());
    }
}

void CostTableView::setGrain(CostGrain grain) {
    if (grain == grain_)
        return;
    grain_ = grain;
    grainBox_->setCurrentIndex(grain == CostGrain::Kernels ? 1 : 0);
    rebuild();
}

void CostTableView::rebuild() {
    std::vector<CostRow> rows;
    double runNs = 0;
    if (result_) {
        rows = costRows(*result_, grain_);
        runNs = result_->eval.report.attribution.run.totalNs;
    }
    model_->setRows(std::move(rows), runNs);
    for (int column = 0; column < CostTableModel::ColumnCount; ++column)
        table_->setColumnHidden(column, false);
    table_->resizeColumnsToContents();
    // Long op names elide; the inspector has the whole name once the row is selected.
    table_->setColumnWidth(CostTableModel::FirstOp,
                           std::min(table_->columnWidth(CostTableModel::FirstOp), kMaxNameWidth));
    naturalWidths_.assign(CostTableModel::ColumnCount, 0);
    for (int column = 0; column < CostTableModel::ColumnCount; ++column)
        naturalWidths_[static_cast<size_t>(column)] = table_->columnWidth(column);
    applyColumns();
    if (selection_)
        follow(selection_->current());
}

bool CostTableView::eventFilter(QObject* watched, QEvent* event) {
    // The viewport's width is what the columns share.
    if (watched == table_->viewport() && event->type() == QEvent::Resize)
        applyColumns();
    return QWidget::eventFilter(watched, event);
}

void CostTableView::applyColumns() {
    if (!naturalWidths_.empty()) {
        const std::vector<bool> shown =
            fittedColumns(naturalWidths_, table_->viewport()->width(), chosenColumns_);
        for (int column = 0; column < CostTableModel::ColumnCount; ++column) {
            const bool show = shown[static_cast<size_t>(column)];
            table_->setColumnHidden(column, !show);
            // A column hidden at its natural width shows at it again.
            if (show && table_->columnWidth(column) == 0)
                table_->setColumnWidth(column, naturalWidths_[static_cast<size_t>(column)]);
        }
    }
    updateSummary();
}

void CostTableView::setColumnShown(int column, bool shown) {
    if (column <= CostTableModel::Name || column >= CostTableModel::ColumnCount)
        return;
    chosenColumns_[static_cast<size_t>(column)] = shown;
    applyColumns();
}

bool CostTableView::isColumnShown(int column) const {
    return !table_->isColumnHidden(column);
}

void CostTableView::fitColumnsToWidth() {
    chosenColumns_.assign(CostTableModel::ColumnCount, std::nullopt);
    applyColumns();
}

void CostTableView::showColumnMenu(const QPoint& pos) {
    QMenu menu(this);
    for (int column = CostTableModel::Name + 1; column < CostTableModel::ColumnCount; ++column) {
        QAction* action =
            menu.addAction(model_->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
        action->setCheckable(true);
        action->setChecked(isColumnShown(column));
        connect(action, &QAction::toggled, this,
                [this, column](bool on) { setColumnShown(column, on); });
    }
    menu.addSeparator();
    menu.addAction(tr("Fit columns to the width"), this, &CostTableView::fitColumnsToWidth);
    menu.exec(table_->horizontalHeader()->mapToGlobal(pos));
}

void CostTableView::updateSummary() {
    if (!result_) {
        summary_->setText(tr("Open a model to see where its time and bytes go."));
        return;
    }
    double ns = 0;
    int64_t ddr = 0;
    int64_t spills = 0;
    double energyPj = 0;
    const bool energyKnown = result_->eval.report.energy.has_value();
    for (int r = 0; r < proxy_->rowCount(); ++r) {
        const CostRow& row =
            model_->rows()[static_cast<size_t>(proxy_->mapToSource(proxy_->index(r, 0)).row())];
        ns += row.breakdown.totalNs;
        ddr += row.traffic[0];
        spills += row.spills;
        energyPj += row.energy ? row.energy->totalPj() : 0.0;
    }
    const QString unit = grain_ == CostGrain::Groups ? tr("groups") : tr("kernels");
    int hidden = 0;
    for (int column = 0; column < CostTableModel::ColumnCount; ++column)
        hidden += table_->isColumnHidden(column) ? 1 : 0;
    const QString columns =
        hidden == 0   ? QString()
        : hidden == 1 ? tr(" 1 column hidden: right-click a header to show it.")
                      : tr(" %1 columns hidden: right-click a header to show them.").arg(hidden);
    summary_->setText(
        tr("%1 of %2 %3: %4 µs (%5 % of the run), DDR %6, %7 spills, energy %8. "
           "Click a header to sort, a row to select it in every view.")
            .arg(proxy_->rowCount())
            .arg(model_->rowCount())
            .arg(unit)
            .arg(QString::number(ns / 1000.0, 'f', 1))
            .arg(QString::number(model_->runNs() > 0 ? 100.0 * ns / model_->runNs() : 0.0, 'f', 1))
            .arg(formatBytes(ddr))
            .arg(spills)
            .arg(energyKnown ? formatEnergy(energyPj) : tr("unknown (no energy table)")) +
        columns);
    summary_->setToolTip(energyKnown ? QString() : unknownEnergyTip());
}

void CostTableView::chooseRow(const QModelIndex& proxyIndex) {
    if (!selection_ || !proxyIndex.isValid())
        return;
    const int row = proxy_->mapToSource(proxyIndex).row();
    choosing_ = true;
    selection_->select(model_->rows()[static_cast<size_t>(row)].selection);
    choosing_ = false;
}

int CostTableView::rowFor(const Selection& selection) const {
    if (!result_)
        return -1;
    const schedule::Schedule& schedule = result_->eval.schedule;
    Selection wanted = selection;
    if (selection.kind == Selection::Kind::Op && selection.id >= 0 &&
        static_cast<size_t>(selection.id) < result_->graph->opCount())
        wanted = {Selection::Kind::Group,
                  schedule.partition.groupOf(ir::OpId{selection.id}).value(), -1};
    if (wanted.kind == Selection::Kind::Instance && grain_ == CostGrain::Groups && wanted.id >= 0 &&
        static_cast<size_t>(wanted.id) < schedule.instances.size())
        wanted = {Selection::Kind::Group,
                  schedule.instances[schedule::InstanceId{wanted.id}].group.value(), -1};
    const auto& rows = model_->rows();
    for (size_t r = 0; r < rows.size(); ++r) {
        const Selection& s = rows[r].selection;
        if (s.kind == wanted.kind && s.id == wanted.id)
            return static_cast<int>(r);
        // A group chosen while kernels are shown: its first kernel.
        if (wanted.kind == Selection::Kind::Group && s.kind == Selection::Kind::Instance &&
            schedule.instances[schedule::InstanceId{s.id}].group.value() == wanted.id)
            return static_cast<int>(r);
    }
    return -1;
}

void CostTableView::follow(const Selection& selection) {
    if (choosing_)
        return;
    const int row = rowFor(selection);
    if (row < 0) {
        table_->clearSelection();
        return;
    }
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    if (!index.isValid())
        return;
    table_->selectRow(index.row());
    table_->scrollTo(index);
}

} // namespace stagecraft::views
