// The properties tree model (see properties_model.h). Indexes point at
// PropertyNode rows owned by root_, which lives until the next reset.

#include "inspector/properties_model.h"

#include "inspector/properties_builder.h"

namespace stagecraft::views {

using namespace Qt::StringLiterals;

PropertiesModel::PropertiesModel(QObject* parent)
    : QAbstractItemModel(parent)
    , root_(std::make_unique<inspector::PropertyNode>()) {}

PropertiesModel::~PropertiesModel() = default;

void PropertiesModel::setResult(ResultPtr result) {
    result_ = std::move(result);
    rebuild();
}

void PropertiesModel::setSelection(const Selection& selection) {
    selection_ = selection;
    rebuild();
}

void PropertiesModel::rebuild() {
    beginResetModel();
    root_ = result_ ? inspector::buildProperties(*result_, selection_)
                    : std::make_unique<inspector::PropertyNode>();
    endResetModel();
}

const inspector::PropertyNode* PropertiesModel::nodeFor(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const inspector::PropertyNode*>(index.internalPointer())
                           : root_.get();
}

QModelIndex PropertiesModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    const inspector::PropertyNode* node = nodeFor(parent);
    // QModelIndex stores a non-const pointer; the model never writes through it.
    return createIndex(
        row, column,
        const_cast<inspector::PropertyNode*>(node->children[static_cast<size_t>(row)].get()));
}

QModelIndex PropertiesModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    const inspector::PropertyNode* parentNode = nodeFor(child)->parent;
    if (parentNode == nullptr || parentNode == root_.get())
        return {};
    return createIndex(parentNode->row, 0, const_cast<inspector::PropertyNode*>(parentNode));
}

int PropertiesModel::rowCount(const QModelIndex& parent) const {
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(nodeFor(parent)->children.size());
}

int PropertiesModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant PropertiesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const inspector::PropertyNode* node = nodeFor(index);
    return index.column() == PropertyColumn ? node->name : node->value;
}

QVariant PropertiesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PropertyColumn:
        return u"Property"_s;
    case ValueColumn:
        return u"Value"_s;
    default:
        return {};
    }
}

} // namespace stagecraft::views
