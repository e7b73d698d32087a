// The comparison view's layout and wiring: runner results refresh the model
// and the chart; row and bar clicks choose a strategy. The chart's metric is
// one box: speedup, latency, energy or energy × delay.

#include "compare/comparison_view.h"

#include "compare/comparison_chart.h"
#include "compare/comparison_model.h"
#include "compare/comparison_runner.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace stagecraft::views {

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent)
    , model_(new ComparisonModel(this))
    , table_(new QTableView(this))
    , chart_(new ComparisonChart(this))
    , metric_(new QComboBox(this))
    , status_(new QLabel(this))
    , cancel_(new QPushButton(tr("Cancel"), this)) {
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    metric_->addItem(tr("Speedup vs tvm"));
    metric_->addItem(tr("Latency"));
    metric_->addItem(tr("Energy"));
    metric_->addItem(tr("Energy × delay"));
    metric_->setObjectName(QStringLiteral("compareMetric"));
    cancel_->setEnabled(false);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Chart:"), this));
    bar->addWidget(metric_);
    bar->addWidget(status_, 1);
    bar->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(table_, 1);
    layout->addWidget(chart_);
    auto chooseRow = [this](const QModelIndex& index) {
        choose(model_->strategyAt(index.row()));
    };
    connect(table_, &QTableView::clicked, this, chooseRow);
    connect(table_, &QTableView::activated, this, chooseRow);
    connect(chart_, &ComparisonChart::barClicked, this, &ComparisonView::choose);
    // The box lists the metrics in ComparisonChart::Metric's order.
    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this](int index) { chart_->setMetric(static_cast<ComparisonChart::Metric>(index)); });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (runner_)
            runner_->cancel();
        cancel_->setEnabled(false);
        status_->setText(tr("Cancelled"));
    });
    refresh();
}

void ComparisonView::setRunner(ComparisonRunner* runner) {
    if (runner_ && runner_->parent() == this)
        delete runner_;
    else if (runner_)
        disconnect(runner_, nullptr, this, nullptr);
    runner_ = runner;
    connect(runner_, &ComparisonRunner::resultReady, this, &ComparisonView::refresh);
    connect(runner_, &ComparisonRunner::resultsCleared, this, &ComparisonView::refresh);
    connect(runner_, &ComparisonRunner::progress, this, &ComparisonView::showProgress);
    connect(runner_, &ComparisonRunner::finished, this, [this] {
        cancel_->setEnabled(false);
        status_->setText(tr("All strategies computed"));
    });
    connect(runner_, &ComparisonRunner::failed, this,
            [this](const QString& name, const QString& message) {
                status_->setText(tr("%1 failed: %2").arg(name, message));
            });
    refresh();
}

void ComparisonView::setRequest(const PipelineRequest& request) {
    if (!runner_)
        setRunner(new ComparisonRunner(this));
    runner_->setRequest(request);
    cancel_->setEnabled(runner_->isBusy());
    if (runner_->isBusy())
        status_->setText(tr("Computing…"));
    refresh();
}

void ComparisonView::setCurrentStrategy(const QString& strategy) {
    model_->setCurrentStrategy(strategy);
    chart_->setCurrentStrategy(strategy);
    int row = model_->rowOf(strategy);
    if (row >= 0)
        table_->selectRow(row);
    else
        table_->clearSelection();
}

QString ComparisonView::currentStrategy() const {
    return model_->currentStrategy();
}

void ComparisonView::choose(const QString& strategy) {
    ResultPtr result = runner_ ? runner_->result(strategy) : nullptr;
    if (!result)
        return;
    setCurrentStrategy(strategy);
    emit strategyChosen(strategy, result);
}

void ComparisonView::refresh() {
    static const std::map<std::string, ResultPtr> none;
    model_->setResults(runner_ ? runner_->results() : none);
    std::vector<ComparisonChart::Bar> bars;
    for (int row = 0; row < model_->rowCount(); ++row) {
        const sim::Report* report = model_->reportAt(row);
        ComparisonChart::Bar bar;
        bar.strategy = model_->strategyAt(row);
        bar.ready = report != nullptr;
        if (report) {
            bar.speedup = report->speedupVsTvm;
            bar.latencyUs = report->latencyUs;
            bar.energyMj = report->energyMj();
            bar.edpMjMs = report->edpMjMs();
        }
        bars.push_back(std::move(bar));
    }
    chart_->setBars(std::move(bars));
}

void ComparisonView::showProgress(int done, int total, const QString& strategy) {
    status_->setText(tr("%1 done (%2/%3)").arg(strategy).arg(done).arg(total));
    cancel_->setEnabled(runner_ && runner_->isBusy() && done < total);
}

} // namespace stagecraft::views
