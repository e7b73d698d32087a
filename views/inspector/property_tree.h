#pragma once
// The rows of the properties tree: a property, its value and child rows
// (the ops of a group, the consumers of a tensor…). Built whole for each
// selection by properties_builder and handed to PropertiesModel.

#include <QString>

#include <memory>
#include <vector>

namespace stagecraft::views::inspector {

struct PropertyNode {
    QString name;
    QString value;
    PropertyNode* parent = nullptr;
    /// Position among the parent's children.
    int row = 0;
    std::vector<std::unique_ptr<PropertyNode>> children;

    /// Appends a child row and returns it, to add grandchildren.
    PropertyNode& add(QString childName, QString childValue = {});
    /// The child called \p childName, or null.
    const PropertyNode* child(const QString& childName) const;
};

} // namespace stagecraft::views::inspector
