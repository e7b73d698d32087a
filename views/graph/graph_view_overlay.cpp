// The graph's overlays (costs/group_overlay.h): the tool bar's "Colour by"
// box, the scene's group colours and the legend over the canvas. A new
// result recolours at once (its figures changed even when its grouping did
// not).

#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/overlay_legend.h"

#include <QComboBox>

namespace stagecraft::views {

using namespace graphview;

void GraphView::setOverlay(GroupOverlay overlay) {
    if (overlay == overlay_)
        return;
    overlay_ = overlay;
    if (overlayBox_)
        overlayBox_->setCurrentIndex(static_cast<int>(overlay));
    applyOverlay();
}

void GraphView::applyOverlay() {
    if (!result_) {
        scene_->setGroupColors({});
        legend_->hide();
        return;
    }
    GroupShading shading = groupShading(*result_, overlay_);
    scene_->setGroupColors(shading.colors);
    std::vector<QString> labels;
    for (partition::GroupId g : result_->eval.schedule.groups.ids())
        labels.push_back(QString::fromStdString(partition::Partition::label(g)));
    legend_->setShading(shading, std::move(labels));
    legend_->show();
}

void GraphView::updateLegendNote() {
    // The step-through's note matters more while one steps.
    if (!stepNote_.isEmpty())
        legend_->setNote(stepNote_);
    else if (byName_)
        legend_->setNote(tr("Bold boxes: name scopes in their group's colour (grey: ops of "
                            "several groups); double-click one to unfold it"));
    else
        legend_->setNote({});
}

} // namespace stagecraft::views
