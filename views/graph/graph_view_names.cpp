// The graph view's drawing by name scope (name_scopes.h): the scopes are
// found once per graph, the folding the view opens with is chosen by node
// count, and folding or unfolding a scope lays the graph out again (a
// folding seen before comes from the layout cache).

#include "graph/graph_items.h"
#include "graph/graph_labels.h"
#include "graph/graph_view.h"

#include <QComboBox>
#include <QGraphicsItem>
#include <QMenu>

namespace stagecraft::views {

using namespace graphview;

GraphModel GraphView::buildModel(bool shown) const {
    const ExpandedGroups& expanded = shown ? shownExpanded_ : expanded_;
    if (!byName_)
        return buildGraphModel(*result_, expanded);
    const NameFolding names{&scopes_, shown ? shownFolded_ : folded_};
    return buildGraphModel(*result_, expanded, &names);
}

void GraphView::resetNameFolding(const ResultPtr& previous) {
    if (previous && result_ && previous->graph == result_->graph)
        return;
    scopes_ = result_ ? graphview::nameScopes(*result_->graph) : NameScopes{};
    folded_ = result_ ? openingFolding(scopes_, kOpeningScopeNodes) : FoldedScopes{};
}

void GraphView::setFoldByName(bool byName) {
    if (foldBox_)
        foldBox_->setCurrentIndex(byName ? 1 : 0);
    if (byName == byName_)
        return;
    byName_ = byName;
    updateLegendNote();
    if (!result_)
        return;
    fitAfterLayout_ = true;
    requestLayout();
}

void GraphView::setScopeFolded(int scope, bool folded) {
    if (!result_ || !byName_ || scope <= 0 || scope >= static_cast<int>(scopes_.scopes.size()) ||
        folded == folded_.contains(scope))
        return;
    folded_ = folded ? fold(scopes_, folded_, scope) : unfold(scopes_, folded_, scope);
    // Keep the scope's first op in sight across the new layout.
    centerOpAfterLayout_ = scopes_.opsUnder(scope).front();
    requestLayout();
}

void GraphView::addScopeActions(QMenu& menu, const QGraphicsItem* item) {
    const auto* node = qgraphicsitem_cast<const NodeItem*>(item);
    if (!node || !result_)
        return;
    int scope = -1;
    if (node->ref().kind == NodeRef::Kind::Scope) {
        scope = node->ref().id;
        menu.addAction(
            tr("Unfold %1").arg(elided(QString::fromStdString(scopes_.scopes[scope].name))), this,
            [this, scope] { setScopeFolded(scope, false); });
        scope = scopes_.scopes[scope].parent;
    } else if (node->ref().kind == NodeRef::Kind::Op) {
        scope = scopes_.scopeOfOp[ir::OpId(node->ref().id)];
    }
    if (scope > 0)
        menu.addAction(
            tr("Fold into %1").arg(elided(QString::fromStdString(scopes_.scopes[scope].name))),
            this, [this, scope] { setScopeFolded(scope, true); });
    menu.addSeparator();
}

} // namespace stagecraft::views
