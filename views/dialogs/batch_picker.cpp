// The batch picker (see batch_picker.h).

#include "dialogs/batch_picker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

namespace {

/// The per-cluster combo's data for the model's batch and for auto; the
/// numbers are themselves.
constexpr qlonglong kModel = 0;
constexpr qlonglong kAuto = -1;
constexpr int kMaxTotal = 1 << 20;

/// Samples per cluster offered without a total: powers of two.
std::vector<int64_t> powersOfTwo() {
    std::vector<int64_t> out;
    for (int64_t k = 1; k <= 1024; k *= 2)
        out.push_back(k);
    return out;
}

} // namespace

BatchPicker::BatchPicker(QWidget* parent)
    : QWidget(parent) {
    setObjectName(u"batchPicker"_s);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    total_ = new QSpinBox;
    total_->setObjectName(u"batchTotal"_s);
    total_->setRange(0, kMaxTotal);
    total_->setSpecialValueText(tr("clusters × K"));
    total_->setToolTip(tr("Samples over all clusters (the CLI's --batch); the lowest value "
                          "means the clusters × the samples per cluster"));
    total_->setKeyboardTracking(false);
    perCluster_ = new QComboBox;
    perCluster_->setObjectName(u"perClusterCombo"_s);
    perCluster_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    seq_ = new QComboBox;
    seq_->setObjectName(u"seqCombo"_s);
    seq_->setToolTip(tr("Sequence length the zoo model is written at (the CLI's --seq)"));
    seq_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    plan_ = new QLabel;
    plan_->setObjectName(u"batchPlan"_s);
    layout->addWidget(new QLabel(tr("Batch")));
    layout->addWidget(total_);
    layout->addWidget(new QLabel(tr("per cluster")));
    layout->addWidget(perCluster_);
    layout->addWidget(plan_);
    layout->addWidget(new QLabel(tr("Seq")));
    layout->addWidget(seq_);
    setChoice({}, 0, {}, 1);

    connect(total_, &QSpinBox::valueChanged, this, [this] {
        schedule::BatchChoice now = choice();
        fillPerCluster(now);
        emit changed();
    });
    connect(perCluster_, &QComboBox::currentIndexChanged, this, &BatchPicker::changed);
    connect(seq_, &QComboBox::currentIndexChanged, this, &BatchPicker::changed);
}

schedule::BatchChoice BatchPicker::choice() const {
    schedule::BatchChoice choice;
    if (total_->value() > 0)
        choice.total = total_->value();
    qlonglong k = perCluster_->currentData().toLongLong();
    if (k == kAuto)
        choice.autoPerCluster = true;
    else if (k > 0)
        choice.perCluster = k;
    return choice;
}

int64_t BatchPicker::seq() const {
    return seq_->isEnabled() ? seq_->currentData().toLongLong() : 0;
}

void BatchPicker::fillPerCluster(const schedule::BatchChoice& choice) {
    const QSignalBlocker block(perCluster_);
    perCluster_->clear();
    perCluster_->addItem(tr("model's"), kModel);
    perCluster_->setItemData(0, tr("the model's batch (dim 0 of its first input)"),
                             Qt::ToolTipRole);
    if (choice.total) {
        perCluster_->addItem(tr("auto"), kAuto);
        perCluster_->setItemData(1,
                                 tr("the largest that divides the batch and whose working set "
                                    "fits a cluster's global buffer"),
                                 Qt::ToolTipRole);
    }
    std::vector<int64_t> offered =
        choice.total ? schedule::perClusterCandidates(*choice.total, clusters_) : powersOfTwo();
    if (choice.perCluster &&
        std::find(offered.begin(), offered.end(), *choice.perCluster) == offered.end())
        offered.push_back(*choice.perCluster);
    std::sort(offered.begin(), offered.end());
    for (int64_t k : offered)
        perCluster_->addItem(QString::number(k), static_cast<qlonglong>(k));
    qlonglong wanted = choice.autoPerCluster && choice.total ? kAuto
                       : choice.perCluster                   ? *choice.perCluster
                                                             : kModel;
    int index = perCluster_->findData(wanted);
    perCluster_->setCurrentIndex(std::max(index, 0));
}

void BatchPicker::setChoice(const schedule::BatchChoice& choice, int64_t seq,
                            const std::vector<int64_t>& seqs, int64_t clusters) {
    clusters_ = std::max<int64_t>(clusters, 1);
    {
        const QSignalBlocker block(total_);
        total_->setValue(static_cast<int>(std::min<int64_t>(choice.total.value_or(0), kMaxTotal)));
    }
    fillPerCluster(choice);
    const QSignalBlocker block(seq_);
    seq_->clear();
    seq_->setEnabled(!seqs.empty());
    if (seqs.empty()) {
        seq_->addItem(tr("none"), qlonglong{0});
        return;
    }
    seq_->addItem(tr("default"), qlonglong{0});
    std::vector<int64_t> offered = seqs;
    if (seq > 0 && std::find(offered.begin(), offered.end(), seq) == offered.end())
        offered.push_back(seq); // Table 2's 384, say
    std::sort(offered.begin(), offered.end());
    for (int64_t length : offered)
        seq_->addItem(QString::number(length), static_cast<qlonglong>(length));
    seq_->setCurrentIndex(std::max(seq_->findData(static_cast<qlonglong>(seq)), 0));
}

void BatchPicker::showPlan(const schedule::ClusterPlan& plan, const QString& why) {
    int index = perCluster_->currentIndex();
    qlonglong shown = perCluster_->currentData().toLongLong();
    if (shown == kModel || shown == kAuto) {
        perCluster_->setItemText(
            index, (shown == kAuto ? tr("auto: %1") : tr("model's: %1")).arg(plan.perCluster));
    }
    plan_->setText(
        tr("= %1 × %2%3")
            .arg(plan.clusters)
            .arg(plan.perCluster)
            .arg(plan.iterations > 1 ? tr(" × %1 iterations").arg(plan.iterations) : QString()));
    QString tip = tr("%1 samples: %2 clusters × %3 per cluster, %4 iteration(s); chosen: %5")
                      .arg(plan.totalBatch)
                      .arg(plan.clusters)
                      .arg(plan.perCluster)
                      .arg(plan.iterations)
                      .arg(QString::fromStdString(plan.chosenBy));
    if (!why.isEmpty())
        tip += u"\n"_s + why;
    plan_->setToolTip(tip);
    perCluster_->setToolTip(tip);
}

} // namespace stagecraft::views
