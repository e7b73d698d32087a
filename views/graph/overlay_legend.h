#pragma once
// The graph's legend, a strip below the canvas (it covers no node): what the
// fills mean under the chosen overlay (each group's colour with its label, or
// the scale of a figure from 0 to the largest group's with its ends named),
// and the marks every view shares (the selection's red outline, the violet
// halo of what Diff or Steps marks). The fills flow after the title on its
// line and wrap at the strip's width (height for width). A click folds it
// to its title line and another unfolds it.

#include "costs/group_overlay.h"

#include <QRect>
#include <QWidget>

#include <vector>

class QFontMetrics;
class QPainter;

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
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    /// Group swatches drawn before "+N more".
    int shownSwatches() const;
    /// Where the fills go at \p width: the cells of the swatches ("+N more"
    /// last) or the one box of the categories or the bar, flowing after the
    /// title; the y past the last line of fills.
    struct Flow {
        std::vector<QRect> cells;
        int bottom = 0;
    };
    Flow flowAt(int width) const;
    /// Width of the categories or of the bar with its ends.
    int fillsWidth(const QFontMetrics& metrics) const;
    bool hasGreyGroups() const;
    void paintCategories(QPainter& p, QPoint at) const;
    void paintBar(QPainter& p, QPoint at) const;
    void paintSwatches(QPainter& p, const std::vector<QRect>& cells) const;

    GroupShading shading_;
    std::vector<QString> groupLabels_;
    QString note_;
    bool folded_ = false;
};

} // namespace stagecraft::views::graphview
