#pragma once
// The properties of the selected op, group, instance or tensor as a
// read-only two-column tree ("Property", "Value"), rebuilt on every result or
// selection change.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "inspector/property_tree.h"

#include <QAbstractItemModel>

#include <memory>

namespace stagecraft::views {

class PropertiesModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { PropertyColumn, ValueColumn, ColumnCount };

    explicit PropertiesModel(QObject* parent = nullptr);
    ~PropertiesModel() override;

    void setResult(ResultPtr result);
    void setSelection(const Selection& selection);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    const inspector::PropertyNode* nodeFor(const QModelIndex& index) const;

    ResultPtr result_;
    Selection selection_;
    std::unique_ptr<inspector::PropertyNode> root_;
};

} // namespace stagecraft::views
