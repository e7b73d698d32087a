#pragma once
// The comparison view: every strategy on the same model and arch, as a table
// (speedup vs tvm, latency, throughput, kernels, traffic per level, tensors
// per scope, spills, energy, EDP) and a bar chart of speedup, latency, energy
// or EDP, the strategy the
// other views show highlighted. Clicking or activating a computed row (or a
// bar) emits strategyChosen() with its kept result: no recomputation.

#include "common/pipeline_result.h"
#include "common/run_pipeline.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace stagecraft::views {

class ComparisonChart;
class ComparisonModel;
class ComparisonRunner;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);

    /// Uses \p runner (not owned; it must outlive the view) instead of an own one.
    void setRunner(ComparisonRunner* runner);
    /// Compares every strategy on \p request, through the runner (an own one
    /// is created when none was set).
    void setRequest(const PipelineRequest& request);
    /// Highlights \p strategy's row and bar (the one the other views show).
    void setCurrentStrategy(const QString& strategy);
    QString currentStrategy() const;

    ComparisonRunner* runner() const { return runner_; }
    ComparisonModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ComparisonChart* chart() const { return chart_; }

signals:
    /// The user chose \p name's row; \p result is its kept result.
    void strategyChosen(const QString& name, stagecraft::views::ResultPtr result);

private:
    void choose(const QString& strategy);
    void refresh();
    void showProgress(int done, int total, const QString& strategy);

    ComparisonRunner* runner_ = nullptr;
    ComparisonModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    ComparisonChart* chart_ = nullptr;
    QComboBox* metric_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* cancel_ = nullptr;
};

} // namespace stagecraft::views
