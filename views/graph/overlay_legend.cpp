// The graph legend's painting, a strip below the canvas: the title, then on
// its line, wrapping at the strip's width, the group swatches (at most 36
// cells) or the categories or the gradient bar with its two ends; then a
// note and one line for the selection and mark styles. Folded, the title
// line alone, with a triangle that says a click unfolds it.

#include "graph/overlay_legend.h"

#include "graph/group_palette.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace stagecraft::views::graphview {

namespace {

constexpr int kPad = 8;
constexpr int kLine = 18;
constexpr int kSwatch = 12;
constexpr int kSwatchWidth = 44;
constexpr int kMaxSwatchCells = 36;
constexpr int kBarWidth = 260;

/// The title line's triangle: pointing down while unfolded, right while folded.
QString foldMark(bool folded) {
    return folded ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
}

QString marksText() {
    return QStringLiteral(
        "Red outline: selected · violet halo: marked by Diff or Steps · amber: matches Find");
}

} // namespace

OverlayLegend::OverlayLegend(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("graphLegend"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to fold the legend to its title line"));
}

void OverlayLegend::setFolded(bool folded) {
    if (folded == folded_)
        return;
    folded_ = folded;
    setToolTip(folded ? tr("Click to show the whole legend")
                      : tr("Click to fold the legend to its title line"));
    updateGeometry();
    update();
}

void OverlayLegend::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    setFolded(!folded_);
    event->accept();
}

void OverlayLegend::setShading(const GroupShading& shading, std::vector<QString> groupLabels) {
    shading_ = shading;
    groupLabels_ = std::move(groupLabels);
    updateGeometry();
    update();
}

int OverlayLegend::shownSwatches() const {
    const int all = static_cast<int>(groupLabels_.size());
    return all <= kMaxSwatchCells ? all : kMaxSwatchCells - 1;
}

void OverlayLegend::setNote(const QString& note) {
    if (note == note_)
        return;
    note_ = note;
    updateGeometry();
    update();
}

bool OverlayLegend::hasGreyGroups() const {
    return std::count(shading_.colors.begin(), shading_.colors.end(), noFigureColor()) > 0;
}

int OverlayLegend::fillsWidth(const QFontMetrics& metrics) const {
    int width = 0;
    if (!shading_.categories.empty()) {
        for (const auto& [name, color] : shading_.categories)
            width += kSwatch + 4 + metrics.horizontalAdvance(name) + 16;
        if (hasGreyGroups())
            width += kSwatch + 4 + metrics.horizontalAdvance(tr("no compute"));
        return width;
    }
    width = metrics.horizontalAdvance(shading_.lowText) + 6 + kBarWidth + 6 +
            metrics.horizontalAdvance(shading_.highText);
    if (hasGreyGroups())
        width += 16 + kSwatch + 4 + metrics.horizontalAdvance(tr("no kernel"));
    return width;
}

OverlayLegend::Flow OverlayLegend::flowAt(int width) const {
    const QFontMetrics metrics(font());
    Flow flow;
    int y = kPad;
    if (folded_) {
        flow.bottom = y + kLine;
        return flow;
    }
    const int right = std::max(width - kPad, kPad + 2 * kSwatchWidth);
    int x = kPad + metrics.horizontalAdvance(foldMark(false) + shading_.title) + 16;
    auto place = [&](int cellWidth) {
        if (x + cellWidth > right && x > kPad) {
            x = kPad;
            y += kLine;
        }
        flow.cells.emplace_back(x, y, cellWidth, kLine);
        x += cellWidth;
    };
    if (shading_.overlay == GroupOverlay::Groups) {
        for (int i = 0; i < shownSwatches(); ++i)
            place(kSwatchWidth);
        if (shownSwatches() < static_cast<int>(groupLabels_.size()))
            place(2 * kSwatchWidth); // "+N more"
    } else if (!shading_.unknown) {
        place(fillsWidth(metrics));
    }
    flow.bottom = y + kLine;
    return flow;
}

int OverlayLegend::heightForWidth(int width) const {
    if (folded_)
        return 2 * kPad + kLine;
    return flowAt(width).bottom + (note_.isEmpty() ? 0 : kLine) + kLine + kPad;
}

QSize OverlayLegend::sizeHint() const {
    const QFontMetrics metrics(font());
    int oneLine = metrics.horizontalAdvance(foldMark(folded_) + shading_.title) + 2 * kPad;
    if (!folded_) {
        const Flow flow = flowAt(1 << 20);
        if (!flow.cells.empty())
            oneLine = flow.cells.back().right() + kPad;
        oneLine = std::max({oneLine, metrics.horizontalAdvance(marksText()) + 2 * kPad,
                            metrics.horizontalAdvance(note_) + 2 * kPad});
    }
    return {oneLine, heightForWidth(oneLine)};
}

QSize OverlayLegend::minimumSizeHint() const {
    return {2 * kPad + 2 * kSwatchWidth, 2 * kPad + kLine};
}

void OverlayLegend::paintSwatches(QPainter& p, const std::vector<QRect>& cells) const {
    const int shown = shownSwatches();
    for (int i = 0; i < shown && i < static_cast<int>(cells.size()); ++i) {
        const QRect cell = cells[static_cast<size_t>(i)];
        const QRect box(cell.x(), cell.y() + (kLine - kSwatch) / 2, kSwatch, kSwatch);
        const QColor color = groupColor(partition::GroupId(i));
        p.fillRect(box, color);
        p.setPen(groupStroke(color));
        p.drawRect(box);
        p.setPen(Qt::black);
        p.drawText(cell.adjusted(kSwatch + 3, 0, 0, 0), Qt::AlignVCenter,
                   groupLabels_[static_cast<size_t>(i)]);
    }
    const int all = static_cast<int>(groupLabels_.size());
    if (shown<all&& static_cast<int>(cells.size())> shown)
        p.drawText(cells[static_cast<size_t>(shown)], Qt::AlignVCenter,
                   tr("+%1 more").arg(all - shown));
}

void OverlayLegend::paintCategories(QPainter& p, QPoint at) const {
    const QFontMetrics metrics(font());
    int x = at.x();
    auto swatch = [&](const QString& name, const QColor& color) {
        p.fillRect(QRect(x, at.y() + (kLine - kSwatch) / 2, kSwatch, kSwatch), color);
        p.drawText(QRect(x + kSwatch + 4, at.y(), width() - x, kLine), Qt::AlignVCenter, name);
        x += kSwatch + 4 + metrics.horizontalAdvance(name) + 16;
    };
    for (const auto& [name, color] : shading_.categories)
        swatch(name, color);
    if (hasGreyGroups())
        swatch(tr("no compute"), noFigureColor());
}

void OverlayLegend::paintBar(QPainter& p, QPoint at) const {
    const QFontMetrics metrics(font());
    const int y = at.y();
    const int lowWidth = metrics.horizontalAdvance(shading_.lowText) + 6;
    const QRect bar(at.x() + lowWidth, y + 3, kBarWidth, kLine - 6);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int stop = 0; stop <= 8; ++stop)
        gradient.setColorAt(stop / 8.0, shadeAt(stop / 8.0));
    p.fillRect(bar, gradient);
    p.drawText(QRect(at.x(), y, lowWidth, kLine), Qt::AlignVCenter, shading_.lowText);
    int x = bar.right() + 6;
    p.drawText(QRect(x, y, width() - x, kLine), Qt::AlignVCenter, shading_.highText);
    x += metrics.horizontalAdvance(shading_.highText) + 16;
    if (hasGreyGroups()) {
        p.fillRect(QRect(x, y + (kLine - kSwatch) / 2, kSwatch, kSwatch), noFigureColor());
        p.drawText(QRect(x + kSwatch + 4, y, width() - x, kLine), Qt::AlignVCenter,
                   tr("no kernel"));
    }
}

QStringList OverlayLegend::texts() const {
    QStringList texts{shading_.title};
    if (folded_)
        return texts;
    if (shading_.overlay == GroupOverlay::Groups) {
        for (int i = 0; i < shownSwatches(); ++i)
            texts << groupLabels_[static_cast<size_t>(i)];
        if (shownSwatches() < static_cast<int>(groupLabels_.size()))
            texts << tr("+%1 more").arg(static_cast<int>(groupLabels_.size()) - shownSwatches());
    } else if (!shading_.categories.empty()) {
        for (const auto& [name, color] : shading_.categories)
            texts << name;
        if (hasGreyGroups())
            texts << tr("no compute");
    } else if (!shading_.unknown) {
        texts << shading_.lowText << shading_.highText;
        if (hasGreyGroups())
            texts << tr("no kernel");
    }
    if (!note_.isEmpty())
        texts << note_;
    texts << marksText();
    return texts;
}

void OverlayLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(255, 255, 255));
    p.setPen(QColor(0x99, 0x99, 0x99));
    p.drawLine(rect().topLeft(), rect().topRight());
    p.setPen(Qt::black);
    p.drawText(QRect(kPad, kPad, width() - 2 * kPad, kLine), Qt::AlignVCenter,
               foldMark(folded_) + shading_.title);
    if (folded_)
        return;
    const Flow flow = flowAt(width());
    if (shading_.overlay == GroupOverlay::Groups)
        paintSwatches(p, flow.cells);
    else if (!shading_.categories.empty() && !flow.cells.empty())
        paintCategories(p, flow.cells.front().topLeft());
    else if (!flow.cells.empty())
        paintBar(p, flow.cells.front().topLeft());
    int y = flow.bottom;
    p.setPen(QColor(0x44, 0x44, 0x44));
    if (!note_.isEmpty()) {
        p.drawText(QRect(kPad, y, width() - 2 * kPad, kLine), Qt::AlignVCenter, note_);
        y += kLine;
    }
    p.drawText(QRect(kPad, y, width() - 2 * kPad, kLine), Qt::AlignVCenter, marksText());
}

} // namespace stagecraft::views::graphview
