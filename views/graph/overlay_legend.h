#pragma once
// The graph's legend, drawn over the canvas's bottom-left corner: what the
// fills mean under the chosen overlay (each group's colour with its label, or
// the scale of a figure from 0 to the largest group's with its ends named),
// and the marks every view shares (the selection's red outline, the violet
// halo of what Diff or Steps marks). A click folds it to its title line (a
// short docked graph keeps its corner) and another unfolds it.

#include "costs/group_overlay.h"

#include <QWidget>

class QFontMetrics;
class QPainter;

#include <vector>

namespace stagecraft::views::graphview {

class OverlayLegend : public QWidget {
    Q_OBJECT
public:
    explicit OverlayLegend(QWidget* parent = nullptr);

    /// Shows \p shading; \p groupLabels (by group id) for the group swatches.
    void setShading(const GroupShading& shading, std::vector<QString> groupLabels);
    const GroupShading& shading() const { return shading_; }
    /// One more line under the fills (the step-through's grouping); "" for none.
    void setNote(const QString& note);
    /// The texts the legend draws, in order (for tests and accessibility).
    QStringList texts() const;
    /// Folded, the legend draws its title line only.
    void setFolded(bool folded);
    bool isFolded() const { return folded_; }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    /// Group swatches drawn before "+N more".
    int shownSwatches() const;
    /// Rows of swatches, "+N more" included.
    int swatchRows() const;
    bool hasGreyGroups() const;
    int categoriesWidth(const QFontMetrics& metrics) const;
    void paintCategories(QPainter& p, int y) const;

    GroupShading shading_;
    std::vector<QString> groupLabels_;
    QString note_;
    bool folded_ = false;
};

} // namespace stagecraft::views::graphview
