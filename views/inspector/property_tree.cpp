// Rows of the properties tree (see property_tree.h).

#include "inspector/property_tree.h"

namespace stagecraft::views::inspector {

PropertyNode& PropertyNode::add(QString childName, QString childValue) {
    auto node = std::make_unique<PropertyNode>();
    node->name = std::move(childName);
    node->value = std::move(childValue);
    node->parent = this;
    node->row = static_cast<int>(children.size());
    children.push_back(std::move(node));
    return *children.back();
}

const PropertyNode* PropertyNode::child(const QString& childName) const {
    for (const auto& node : children)
        if (node->name == childName)
            return node.get();
    return nullptr;
}

} // namespace stagecraft::views::inspector
