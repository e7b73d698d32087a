// The sweep window (sweep_window.h): x, y and colour boxes over the
// scatter plot, the records' table below, selection kept in step.

#include "sweeps/sweep_window.h"

#include "sweeps/sweep_model.h"
#include "sweeps/sweep_scatter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace stagecraft::views {

namespace {

/// The first of \p names that \p box offers, else its first item.
void choose(QComboBox* box, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (int i = box->findText(QLatin1String(name)); i >= 0) {
            box->setCurrentIndex(i);
            return;
        }
}

QString summaryOf(const SweepTable& table) {
    int failed = 0;
    qsizetype status = table.columns.indexOf(QStringLiteral("status"));
    for (const QVector<QVariant>& row : table.rows)
        failed += row.value(status).toString() == QStringLiteral("ok") ? 0 : 1;
    QString text = QObject::tr("%1: %2 of %3 points, %4 failed. Double-click a point to open it.")
                       .arg(table.directory)
                       .arg(table.rows.size())
                       .arg(table.points.size())
                       .arg(failed);
    qsizetype energy = table.columns.indexOf(QStringLiteral("energy_mj"));
    int unknownEnergy = 0;
    for (int row = 0; energy >= 0 && row < table.rows.size(); ++row)
        unknownEnergy += table.unknown(row, static_cast<int>(energy)) ? 1 : 0;
    if (unknownEnergy > 0)
        text += QObject::tr(" Energy unknown for %1 points: their architecture has no energy "
                            "table.")
                    .arg(unknownEnergy);
    return text;
}

} // namespace

SweepWindow::SweepWindow(std::shared_ptr<const SweepTable> table, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , sweep_(std::move(table))
    , scatter_(new SweepScatter(this))
    , x_(new QComboBox(this))
    , y_(new QComboBox(this))
    , colour_(new QComboBox(this))
    , logX_(new QCheckBox(tr("log x"), this))
    , logY_(new QCheckBox(tr("log y"), this))
    , summary_(new QLabel(summaryOf(*sweep_), this))
    , open_(new QPushButton(tr("Open in Studio"), this))
    , view_(new QTableView(this))
    , proxy_(new QSortFilterProxyModel(this)) {
    setWindowTitle(tr("Sweep — %1").arg(sweep_->directory));
    for (int c = 0; c < sweep_->columns.size(); ++c) {
        if (sweep_->numeric(c)) {
            x_->addItem(sweep_->columns[c], c);
            y_->addItem(sweep_->columns[c], c);
        }
        colour_->addItem(sweep_->columns[c], c);
    }
    std::initializer_list<const char*> xNames = {"gb_bytes", "lb_bytes", "clusters", "cores",
                                                 "ddr_traffic_bytes"};
    if (!sweep_->spec.axes.empty())
        choose(x_, {sweep_->spec.axes.front().field.c_str()});
    else
        choose(x_, xNames);
    choose(y_, {"latency_ms"});
    choose(colour_, {"strategy"});

    auto* controls = new QHBoxLayout;
    for (auto [label, box] :
         {std::pair{tr("x"), x_}, std::pair{tr("y"), y_}, std::pair{tr("colour"), colour_}}) {
        controls->addWidget(new QLabel(label, this));
        controls->addWidget(box);
    }
    controls->addWidget(logX_);
    controls->addWidget(logY_);
    controls->addStretch();
    controls->addWidget(open_);

    auto* model = new SweepModel(sweep_, this);
    proxy_->setSourceModel(model);
    proxy_->setSortRole(Qt::UserRole);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(0, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view_->verticalHeader()->hide();

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(scatter_);
    splitter->addWidget(view_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(summary_);
    layout->addWidget(splitter);

    scatter_->setTable(sweep_);
    logX_->setChecked(scatter_->suitsLog(x_->currentData().toInt()));
    logY_->setChecked(scatter_->suitsLog(y_->currentData().toInt()));
    applyColumns();
    // A column chosen for an axis brings the log scale that suits it.
    for (auto [box, log] : {std::pair{x_, logX_}, std::pair{y_, logY_}})
        connect(box, &QComboBox::currentIndexChanged, this, [this, box, log] {
            const QSignalBlocker blocker(log);
            log->setChecked(scatter_->suitsLog(box->currentData().toInt()));
        });
    for (QComboBox* box : {x_, y_, colour_})
        connect(box, &QComboBox::currentIndexChanged, this, &SweepWindow::applyColumns);
    for (QCheckBox* box : {logX_, logY_})
        connect(box, &QCheckBox::toggled, this, &SweepWindow::applyColumns);
    connect(scatter_, &SweepScatter::rowClicked, this, &SweepWindow::selectRow);
    connect(scatter_, &SweepScatter::rowActivated, this, &SweepWindow::openRow);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    scatter_->setSelectedRow(proxy_->mapToSource(current).row());
            });
    connect(view_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { openRow(proxy_->mapToSource(index).row()); });
    connect(open_, &QPushButton::clicked, this, [this] { openRow(selectedRow()); });
}

bool SweepWindow::setColumns(const QString& x, const QString& y, const QString& colour) {
    int xi = x_->findText(x), yi = y_->findText(y);
    int ci = colour.isEmpty() ? colour_->currentIndex() : colour_->findText(colour);
    if (xi < 0 || yi < 0 || ci < 0)
        return false;
    x_->setCurrentIndex(xi);
    y_->setCurrentIndex(yi);
    colour_->setCurrentIndex(ci);
    applyColumns();
    return true;
}

QStringList SweepWindow::axisColumns() const {
    QStringList names;
    for (int i = 0; i < x_->count(); ++i)
        names << x_->itemText(i);
    return names;
}

void SweepWindow::applyColumns() {
    scatter_->setColumns(x_->currentData().toInt(), y_->currentData().toInt(),
                         colour_->currentData().toInt());
    scatter_->setLogScale(logX_->isChecked(), logY_->isChecked());
    // The table scrolls sideways to the plotted columns, its rows staying.
    const int top = std::max(0, view_->rowAt(0));
    for (QComboBox* box : {y_, x_})
        view_->scrollTo(proxy_->index(top, box->currentData().toInt()),
                        QAbstractItemView::EnsureVisible);
}

void SweepWindow::selectRow(int row) {
    scatter_->setSelectedRow(row);
    QModelIndex index = proxy_->mapFromSource(proxy_->sourceModel()->index(row, 0));
    view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                        QItemSelectionModel::Rows);
    view_->scrollTo(index);
}

void SweepWindow::selectPoint(int64_t point) {
    if (qsizetype row = sweep_->rowPoints.indexOf(point); row >= 0)
        selectRow(static_cast<int>(row));
}

int SweepWindow::selectedRow() const {
    QModelIndex current = view_->selectionModel()->currentIndex();
    return current.isValid() ? proxy_->mapToSource(current).row() : -1;
}

void SweepWindow::openRow(int row) {
    if (row < 0) {
        emit openFailed(tr("select a point first"));
        return;
    }
    Expected<io::Session> session = sessionForRow(*sweep_, row);
    if (!session.ok()) {
        emit openFailed(QString::fromStdString(session.error().message()));
        return;
    }
    emit openRequested(*session);
}

} // namespace stagecraft::views
