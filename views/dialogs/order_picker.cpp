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
    orders_->addItem(tr("best"), static_cast<int>(schedule::OrderChoice::Best));
    orders_->setItemData(0, tr("BFS or DFS, whichever uses the buffers better (§3.3)"),
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

} // namespace stagecraft::views
