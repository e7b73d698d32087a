// The reorderable instance order (see instance_order_model.h). Both ways a
// view moves rows — moveRows() for QListView's internal move, and
// mimeData()/dropMimeData() otherwise — end in moveRows(). removeRows() is
// not implemented, so a drag source's "remove after move" changes nothing.

#include "inspector/instance_order_model.h"

#include "inspector/inspector_text.h"

#include <QMimeData>

#include <algorithm>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

void InstanceOrderModel::setResult(ResultPtr result) {
    result_ = std::move(result);
    reset();
}

void InstanceOrderModel::reset() {
    beginResetModel();
    rows_ = result_ ? result_->eval.schedule.order : std::vector<schedule::InstanceId>{};
    rowOf_.assign(result_ ? result_->eval.schedule.instances.size() : 0, -1);
    for (size_t row = 0; row < rows_.size(); ++row)
        rowOf_[rows_[row]] = static_cast<int>(row);
    endResetModel();
}

QStringList InstanceOrderModel::labels() const {
    QStringList list;
    list.reserve(static_cast<qsizetype>(rows_.size()));
    for (int row = 0; row < rowCount(); ++row)
        list << label(row);
    return list;
}

int InstanceOrderModel::rowOf(schedule::InstanceId instance) const {
    return rowOf_.contains(instance) ? rowOf_[instance] : -1;
}

QString InstanceOrderModel::label(int row) const {
    schedule::InstanceId id = rows_[static_cast<size_t>(row)];
    return QString::fromStdString(result_->eval.schedule.instances[id].label);
}

int InstanceOrderModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

QVariant InstanceOrderModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    schedule::InstanceId id = rows_[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        // The position in the order first: the label's number is the slice.
        return QString(u"%1. "_s.arg(index.row() + 1) +
                       inspector::instanceText(result_->eval.schedule, id));
    case InstanceIdRole:
        return id.value();
    case LabelRole:
        return label(index.row());
    default:
        return {};
    }
}

Qt::ItemFlags InstanceOrderModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) // drops land between rows, never on one
        return Qt::ItemIsDropEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled |
           Qt::ItemNeverHasChildren;
}

Qt::DropActions InstanceOrderModel::supportedDropActions() const {
    return Qt::MoveAction;
}

Qt::DropActions InstanceOrderModel::supportedDragActions() const {
    return Qt::MoveAction;
}

QStringList InstanceOrderModel::mimeTypes() const {
    return {QString::fromLatin1(kMimeType)};
}

QMimeData* InstanceOrderModel::mimeData(const QModelIndexList& indexes) const {
    QStringList rows;
    for (const QModelIndex& index : indexes)
        if (index.isValid())
            rows << QString::number(index.row());
    auto* data = new QMimeData;
    data->setData(QString::fromLatin1(kMimeType), rows.join(u',').toLatin1());
    return data;
}

bool InstanceOrderModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int,
                                         int column, const QModelIndex&) const {
    return data != nullptr && action == Qt::MoveAction && column <= 0 &&
           data->hasFormat(QString::fromLatin1(kMimeType));
}

bool InstanceOrderModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row,
                                      int column, const QModelIndex& parent) {
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    std::vector<int> rows;
    const QStringList parts =
        QString::fromLatin1(data->data(QString::fromLatin1(kMimeType))).split(u',');
    for (const QString& part : parts)
        rows.push_back(part.toInt());
    std::sort(rows.begin(), rows.end());
    if (rows.empty() || rows.front() < 0 || rows.back() >= rowCount() ||
        rows.back() - rows.front() + 1 != static_cast<int>(rows.size()))
        return false; // the list view selects single rows: one contiguous block
    int destination = row >= 0 ? row : parent.isValid() ? parent.row() : rowCount();
    return moveRows({}, rows.front(), static_cast<int>(rows.size()), {}, destination);
}

bool InstanceOrderModel::moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                                  const QModelIndex& destinationParent, int destinationChild) {
    int size = rowCount();
    if (sourceParent.isValid() || destinationParent.isValid() || count < 1 || sourceRow < 0 ||
        sourceRow + count > size || destinationChild < 0 || destinationChild > size ||
        (destinationChild >= sourceRow && destinationChild <= sourceRow + count))
        return false;
    QString description = moveDescription(sourceRow, count, destinationChild);
    beginMoveRows({}, sourceRow, sourceRow + count - 1, {}, destinationChild);
    auto first = rows_.begin() + sourceRow, last = first + count;
    if (destinationChild < sourceRow)
        std::rotate(rows_.begin() + destinationChild, first, last);
    else
        std::rotate(first, last, rows_.begin() + destinationChild);
    for (size_t r = 0; r < rows_.size(); ++r)
        rowOf_[rows_[r]] = static_cast<int>(r);
    endMoveRows();
    emit orderRequested(labels(), description);
    return true;
}

QString InstanceOrderModel::moveDescription(int sourceRow, int count, int destinationRow) const {
    QString moved = label(sourceRow);
    if (count > 1)
        moved = moved % u"–"_s % label(sourceRow + count - 1);
    if (destinationRow >= rowCount())
        return u"Move %1 to the end"_s.arg(moved);
    return u"Move %1 before %2"_s.arg(moved, label(destinationRow));
}

} // namespace stagecraft::views
