// The graph legend's painting: a title line, then the group swatches (up to
// three rows of them) or the gradient bar with its two ends, then one line
// for the selection and mark styles. Folded, the title line alone, with a
// triangle that says a click unfolds it.

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
constexpr int kSwatchesPerRow = 12;
constexpr int kSwatchRows = 3;
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
    adjustSize();
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
    adjustSize();
    update();
}

int OverlayLegend::shownSwatches() const {
    const int all = static_cast<int>(groupLabels_.size());
    return all <= kSwatchesPerRow * kSwatchRows ? all : kSwatchesPerRow * kSwatchRows - 1;
}

int OverlayLegend::swatchRows() const {
    const int all = static_cast<int>(groupLabels_.size());
    const int cells = shownSwatches() + (shownSwatches() < all ? 1 : 0);
    return std::max(1, (cells + kSwatchesPerRow - 1) / kSwatchesPerRow);
}

void OverlayLegend::setNote(const QString& note) {
    if (note == note_)
        return;
    note_ = note;
    updateGeometry();
    adjustSize();
    update();
}

bool OverlayLegend::hasGreyGroups() const {
    return std::count(shading_.colors.begin(), shading_.colors.end(), noFigureColor()) > 0;
}

/// A swatch and a name per category, then the grey of groups without one.
int OverlayLegend::categoriesWidth(const QFontMetrics& metrics) const {
    int width = 0;
    for (const auto& [name, color] : shading_.categories)
        width += kSwatch + 4 + metrics.horizontalAdvance(name) + 16;
    if (hasGreyGroups())
        width += kSwatch + 4 + metrics.horizontalAdvance(tr("no compute"));
    return width;
}

void OverlayLegend::paintCategories(QPainter& p, int y) const {
    const QFontMetrics metrics(font());
    int x = kPad;
    auto swatch = [&](const QString& name, const QColor& color) {
        p.fillRect(QRect(x, y + (kLine - kSwatch) / 2, kSwatch, kSwatch), color);
        p.drawText(QRect(x + kSwatch + 4, y, width() - x, kLine), Qt::AlignVCenter, name);
        x += kSwatch + 4 + metrics.horizontalAdvance(name) + 16;
    };
    for (const auto& [name, color] : shading_.categories)
        swatch(name, color);
    if (hasGreyGroups())
        swatch(tr("no compute"), noFigureColor());
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
    } else {
        texts << shading_.lowText << shading_.highText;
        if (hasGreyGroups())
            texts << tr("no kernel");
    }
    if (!note_.isEmpty())
        texts << note_;
    texts << marksText();
    return texts;
}

QSize OverlayLegend::sizeHint() const {
    const QFontMetrics metrics(font());
    const int titleWidth = metrics.horizontalAdvance(foldMark(folded_) + shading_.title);
    if (folded_)
        return {titleWidth + 2 * kPad, 2 * kPad + kLine};
    int width = std::max(
        {titleWidth, metrics.horizontalAdvance(marksText()), metrics.horizontalAdvance(note_)});
    if (shading_.overlay == GroupOverlay::Groups) {
        const bool more = shownSwatches() < static_cast<int>(groupLabels_.size());
        // "+N more" takes two cells, the last one past the swatch grid.
        const int columns = std::min(kSwatchesPerRow, shownSwatches() + 1) + (more ? 1 : 0);
        width = std::max(width, columns * kSwatchWidth);
    } else if (!shading_.categories.empty()) {
        width = std::max(width, categoriesWidth(metrics));
    } else {
        width = std::max(width, metrics.horizontalAdvance(shading_.lowText) + kBarWidth +
                                    metrics.horizontalAdvance(shading_.highText) + 16 + kSwatch +
                                    metrics.horizontalAdvance(tr("no kernel")) + 12);
    }
    const int rows =
        (shading_.overlay == GroupOverlay::Groups ? swatchRows() : 1) + (note_.isEmpty() ? 0 : 1);
    return {width + 2 * kPad, 2 * kPad + kLine * (2 + rows)};
}

void OverlayLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QColor(0x99, 0x99, 0x99));
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 4, 4);
    p.setBrush(Qt::NoBrush);
    p.setPen(Qt::black);
    int y = kPad;
    p.drawText(QRect(kPad, y, width() - 2 * kPad, kLine), Qt::AlignVCenter,
               foldMark(folded_) + shading_.title);
    if (folded_)
        return;
    y += kLine;
    if (shading_.overlay == GroupOverlay::Groups) {
        const int shown = shownSwatches();
        for (int i = 0; i < shown; ++i) {
            const int x = kPad + (i % kSwatchesPerRow) * kSwatchWidth;
            const int rowY = y + (i / kSwatchesPerRow) * kLine;
            const QColor color = groupColor(partition::GroupId(i));
            p.fillRect(QRect(x, rowY + (kLine - kSwatch) / 2, kSwatch, kSwatch), color);
            p.setPen(groupStroke(color));
            p.drawRect(QRect(x, rowY + (kLine - kSwatch) / 2, kSwatch, kSwatch));
            p.setPen(Qt::black);
            p.drawText(QRect(x + kSwatch + 3, rowY, kSwatchWidth - kSwatch - 3, kLine),
                       Qt::AlignVCenter, groupLabels_[static_cast<size_t>(i)]);
        }
        const int all = static_cast<int>(groupLabels_.size());
        if (shown < all)
            p.drawText(QRect(kPad + (shown % kSwatchesPerRow) * kSwatchWidth,
                             y + (shown / kSwatchesPerRow) * kLine, 2 * kSwatchWidth, kLine),
                       Qt::AlignVCenter, tr("+%1 more").arg(all - shown));
        y += kLine * swatchRows();
    } else if (!shading_.categories.empty()) {
        paintCategories(p, y);
        y += kLine;
    } else {
        const QFontMetrics metrics(font());
        const int lowWidth = metrics.horizontalAdvance(shading_.lowText) + 6;
        const QRect bar(kPad + lowWidth, y + 3, kBarWidth, kLine - 6);
        QLinearGradient gradient(bar.topLeft(), bar.topRight());
        for (int stop = 0; stop <= 8; ++stop)
            gradient.setColorAt(stop / 8.0, shadeAt(stop / 8.0));
        p.fillRect(bar, gradient);
        p.drawText(QRect(kPad, y, lowWidth, kLine), Qt::AlignVCenter, shading_.lowText);
        int x = bar.right() + 6;
        p.drawText(QRect(x, y, width() - x, kLine), Qt::AlignVCenter, shading_.highText);
        x += metrics.horizontalAdvance(shading_.highText) + 16;
        if (hasGreyGroups()) {
            p.fillRect(QRect(x, y + (kLine - kSwatch) / 2, kSwatch, kSwatch), noFigureColor());
            p.drawText(QRect(x + kSwatch + 4, y, width() - x, kLine), Qt::AlignVCenter,
                       tr("no kernel"));
        }
        y += kLine;
    }
    p.setPen(QColor(0x44, 0x44, 0x44));
    if (!note_.isEmpty()) {
        p.drawText(QRect(kPad, y, width() - 2 * kPad, kLine), Qt::AlignVCenter, note_);
        y += kLine;
    }
    p.drawText(QRect(kPad, y, width() - 2 * kPad, kLine), Qt::AlignVCenter, marksText());
}

} // namespace stagecraft::views::graphview
