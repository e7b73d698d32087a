#pragma once
// The graph view of stagecraft-studio: the model's ops grouped as the
// schedule groups them, each group a colored cluster or, collapsed, one node
// showing its split and footprint. Layouts come from Graphviz off the GUI
// thread (GraphvizLayouter); a new model opens on an overview, its large
// groups collapsed (overviewGroups), graphs of more than kCollapseAbove ops
// with every group collapsed; the legend sits below the canvas. A new result with the same graph
// and grouping keeps the layout and only updates labels, so split edits redraw at once. Clicks
// select in the shared SelectionModel; its changes highlight and scroll here.

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "costs/group_overlay.h"
#include "graph/graph_layout.h"
#include "graph/graph_model.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QComboBox;
class QGraphicsItem;
class QLabel;
class QMenu;
class QLineEdit;
class QStringListModel;

namespace stagecraft::views {

class GraphvizLayouter;

namespace graphview {
class GraphCanvas;
class GraphScene;
class GraphMinimap;
class OverlayLegend;
} // namespace graphview

class GraphView : public QWidget {
    Q_OBJECT
public:
    /// Graphs with more ops open with every group collapsed.
    static constexpr size_t kCollapseAbove = 2000;

    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setResult(ResultPtr result);
    const ResultPtr& result() const { return result_; }
    void setSelectionModel(SelectionModel* model);
    /// Marks (with a halo) what a teaching or diff tool highlights, scrolls
    /// to it and shows its caption in the tool bar.
    void setHighlightModel(HighlightModel* model);

    /// Selects the op named \p name, expanding its group if needed, and
    /// centers it; false when the graph has no such op.
    bool findOp(const QString& name);
    /// Marks every op whose name contains \p text (any case) with an amber
    /// halo (a collapsed group's node for the ops it hides); "" clears them.
    /// Returns the number of matching ops. The find field does this as one types.
    int findAll(const QString& text);
    const std::vector<ir::OpId>& matches() const { return matches_; }
    /// Selects and centers the next match (after the last one, the first).
    bool nextMatch();

    bool isGroupExpanded(partition::GroupId group) const { return expanded_.contains(group); }
    void setGroupExpanded(partition::GroupId group, bool expanded);
    /// Expands every group, or in the name drawing unfolds every scope.
    void expandAll();
    /// Collapses every group, or folds the name drawing to its top scopes.
    void collapseAll();

    /// Draws ops by the name scopes of their names ("encoder.layer.3"),
    /// folded to at most kOpeningScopeNodes nodes, instead of by group.
    void setFoldByName(bool byName);
    bool foldsByName() const { return byName_; }
    const graphview::NameScopes& nameScopes() const { return scopes_; }
    const graphview::FoldedScopes& foldedScopes() const { return folded_; }
    /// Folds \p scope into one node, or unfolds it into its children.
    void setScopeFolded(int scope, bool folded);
    static constexpr size_t kOpeningScopeNodes = 60;
    void fitToView();
    /// Puts \p text in the find field (findAll follows, and again for each new graph).
    void setFindText(const QString& text);
    /// Puts the keyboard focus in the tool bar's find field.
    void focusFind();

    /// Colours the groups by \p overlay (their own colours by default), with
    /// its legend over the canvas.
    void setOverlay(GroupOverlay overlay);
    GroupOverlay overlay() const { return overlay_; }
    graphview::OverlayLegend* legend() const { return legend_; }
    graphview::GraphMinimap* minimap() const { return minimap_; }

    bool isLayingOut() const { return layoutPending_; }
    /// What the view shows instead of (or over) the graph: "laying out…",
    /// a layout failure; empty when nothing.
    QString message() const;

    bool exportSvg(const QString& path, QString* error = nullptr);
    bool exportPng(const QString& path, QString* error = nullptr);

    graphview::GraphScene* scene() const { return scene_; }
    graphview::GraphCanvas* canvas() const { return canvas_; }

signals:
    /// The scene shows a new layout.
    void layoutFinished();
    void layoutFailed(const QString& message);

private:
    QWidget* createToolBar();
    void requestLayout();
    /// The model of the current folding (\p shown: the one on screen).
    graphview::GraphModel buildModel(bool shown) const;
    void resetNameFolding(const ResultPtr& previous);
    /// The fold and unfold actions the context menu offers for \p item.
    void addScopeActions(QMenu& menu, const QGraphicsItem* item);
    void onLayoutReady(const graphview::LayoutKey& key, const graphview::LayoutPtr& layout);
    void onLayoutFailed(const graphview::LayoutKey& key, const QString& message);
    void placeAfterLayout();
    void refreshLabels();
    void showMessage(const QString& text);
    void updateCompleter();
    void findFromToolBar();
    void select(const Selection& selection);
    void applySelection(const Selection& selection, bool scroll);
    void applyMarks(bool scroll);
    void onClicked(QGraphicsItem* item);
    void onDoubleClicked(QGraphicsItem* item);
    void onContextMenu(QGraphicsItem* item, const QPoint& globalPos);
    void exportInteractively();
    void applyOverlay();
    /// The legend's extra line: the step-through's, or the name drawing's.
    void updateLegendNote();
    void applyMatches();
    /// Scrolls \p item into sight, clear of the legend.
    void bringIntoSight(QGraphicsItem* item);

    graphview::GraphScene* scene_;
    graphview::GraphCanvas* canvas_;
    GraphvizLayouter* layouter_;
    QLabel* message_;
    QLineEdit* find_;
    QLabel* findStatus_;
    QLabel* markCaption_;
    QComboBox* overlayBox_ = nullptr;
    graphview::OverlayLegend* legend_;
    graphview::GraphMinimap* minimap_;
    GroupOverlay overlay_ = GroupOverlay::Groups;
    std::vector<ir::OpId> matches_;
    size_t nextMatch_ = 0;
    QStringListModel* opNames_;
    QPointer<SelectionModel> selection_;
    QPointer<HighlightModel> highlights_;
    Selection localSelection_;

    ResultPtr result_;
    graphview::ExpandedGroups expanded_;
    graphview::ExpandedGroups shownExpanded_;
    bool byName_ = false;
    graphview::NameScopes scopes_;
    graphview::FoldedScopes folded_;
    graphview::FoldedScopes shownFolded_;
    QComboBox* foldBox_ = nullptr;
    QString stepNote_;
    graphview::GraphModel shownModel_;
    graphview::GraphModel pendingModel_;
    graphview::LayoutKey pendingKey_;
    bool layoutPending_ = false;
    bool fitAfterLayout_ = false;
    /// Find ran while a layout was pending: its first match comes into sight after.
    bool revealMatchAfterLayout_ = false;
    std::optional<ir::OpId> centerOpAfterLayout_;
    std::optional<partition::GroupId> centerGroupAfterLayout_;
};

} // namespace stagecraft::views
