#include "dialogs/order_picker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

OrderPicker::OrderPicker(QWidget* parent)
    : QWidget(parent)
    , orders_(new QComboBox) {
    setObjectName(u"orderPicker"_s);
    orders_->setObjectName(u"orderCombo"_s);
    orders_->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "by buffer use: DFS"
    orders_->addItem(tr("by buffer use"), static_cast<int>(schedule::OrderChoice::Best));
    orders_->setItemData(0,
                         tr("BFS or DFS, whichever overflows the local buffers least, then "
                            "keeps them fuller (§3.3 memory utilization; not the faster by "
                            "simulated time)"),
                         Qt::ToolTipRole);
    orders_->addItem(tr("DFS"), static_cast<int>(schedule::OrderChoice::DFS));
    orders_->setItemData(1, tr("Algorithm 3: depth first over the instance DAG"), Qt::ToolTipRole);
    orders_->addItem(tr("BFS"), static_cast<int>(schedule::OrderChoice::BFS));
    orders_->setItemData(2, tr("breadth first: group after group"), Qt::ToolTipRole);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Order")));
    layout->addWidget(orders_);
    connect(orders_, &QComboBox::currentIndexChanged, this, [this] { emit changed(order()); });
}

schedule::OrderChoice OrderPicker::order() const {
    return static_cast<schedule::OrderChoice>(orders_->currentData().toInt());
}

void OrderPicker::setChoice(schedule::OrderChoice order) {
    const QSignalBlocker blocker(orders_);
    orders_->setCurrentIndex(orders_->findData(static_cast<int>(order)));
}

void OrderPicker::showChosen(schedule::OrderKind kind, double bfsUtilization,
                             double dfsUtilization) {
    const bool algorithmOrder =
        kind == schedule::OrderKind::BFS || kind == schedule::OrderKind::DFS;
    const QString name = kind == schedule::OrderKind::BFS ? u"BFS"_s : u"DFS"_s;
    orders_->setItemText(0,
                         algorithmOrder ? tr("by buffer use: %1").arg(name) : tr("by buffer use"));
    const QString utilization = tr("memory utilization BFS %1, DFS %2")
                                    .arg(bfsUtilization, 0, 'f', 2)
                                    .arg(dfsUtilization, 0, 'f', 2);
    orders_->setToolTip(algorithmOrder ? tr("%1 kept: %2 (§3.3)").arg(name, utilization)
                                       : tr("the order as edited; %1").arg(utilization));
}

} // namespace stagecraft::views
