#pragma once
// Picks the batch (GraphTurbo §2.1, §5.1): the samples over all clusters,
// the samples per cluster (the model's, auto or a number) and, for a zoo
// model that has one, the sequence length: what the CLI's --batch,
// --per-cluster and --seq ask (driver/batch_plan.h). After a run it shows the
// plan the pipeline used and, under a default, what it chose ("auto: 16").

#include "schedule/clusters.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QSpinBox;

namespace stagecraft::views {

class BatchPicker : public QWidget {
    Q_OBJECT
public:
    explicit BatchPicker(QWidget* parent = nullptr);

    schedule::BatchChoice choice() const;
    /// The sequence length chosen (0: the model's default or none).
    int64_t seq() const;
    /// Shows \p choice and \p seq without emitting changed() (open, undo).
    /// \p seqs are the sequence lengths the model accepts (empty: it has
    /// none, the control is disabled); \p clusters sizes the candidates.
    void setChoice(const schedule::BatchChoice& choice, int64_t seq,
                   const std::vector<int64_t>& seqs, int64_t clusters);
    /// The plan of the last run and why its samples per cluster (tooltip).
    void showPlan(const schedule::ClusterPlan& plan, const QString& why);

signals:
    /// The user chose another batch, samples per cluster or sequence length.
    void changed();

private:
    void fillPerCluster(const schedule::BatchChoice& choice);

    QSpinBox* total_ = nullptr;
    QComboBox* perCluster_ = nullptr;
    QComboBox* seq_ = nullptr;
    QLabel* plan_ = nullptr;
    int64_t clusters_ = 1;
};

} // namespace stagecraft::views
