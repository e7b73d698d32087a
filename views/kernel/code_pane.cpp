#include "kernel/code_pane.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace stagecraft::views {

namespace {

/// The marked op's tint: its colour, more saturated.
QColor strongTint(const QColor& light) {
    QColor c = light.toHsv();
    return QColor::fromHsv(c.hsvHue(), std::min(255, c.hsvSaturation() * 2 + 10), 250);
}

} // namespace

CodePane::CodePane(QWidget* parent)
    : QPlainTextEdit(parent) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    viewport()->setMouseTracking(true);
}

void CodePane::setLines(std::vector<CodeLine> lines, QHash<int32_t, QString> opNames,
                        QHash<int32_t, QColor> colors) {
    lines_ = std::move(lines);
    names_ = std::move(opNames);
    colors_ = std::move(colors);
    QString text;
    for (size_t i = 0; i < lines_.size(); ++i)
        text += (i ? QStringLiteral("\n") : QString()) + lines_[i].text;
    setPlainText(text);
    setMarkedOp(marked_, true);
}

void CodePane::setMessage(const QString& message) {
    lines_.clear();
    setPlainText(message);
}

void CodePane::setMarkedOp(int32_t op, bool scroll) {
    marked_ = op;
    viewport()->update();
    if (!scroll)
        return;
    std::vector<int> marked = linesOf(op);
    if (marked.empty())
        return;
    QTextCursor cursor(document()->findBlockByNumber(marked.front()));
    setTextCursor(cursor);
    centerCursor();
}

std::vector<int> CodePane::linesOf(int32_t op) const {
    std::vector<int> result;
    if (op < 0)
        return result;
    for (size_t i = 0; i < lines_.size(); ++i)
        if (lines_[i].op == op)
            result.push_back(static_cast<int>(i));
    return result;
}

int32_t CodePane::opAt(const QPoint& point) const {
    int line = cursorForPosition(point).blockNumber();
    return line >= 0 && static_cast<size_t>(line) < lines_.size()
               ? lines_[static_cast<size_t>(line)].op
               : -1;
}

QRect CodePane::lineRect(int line) const {
    QTextBlock block = document()->findBlockByNumber(line);
    return block.isValid()
               ? blockBoundingGeometry(block).translated(contentOffset()).toAlignedRect()
               : QRect();
}

QColor CodePane::tintOf(int line) const {
    if (line < 0 || static_cast<size_t>(line) >= lines_.size())
        return {};
    int32_t op = lines_[static_cast<size_t>(line)].op;
    auto found = colors_.find(op);
    if (op < 0 || found == colors_.end())
        return {};
    return op == marked_ ? strongTint(*found) : *found;
}

void CodePane::paintEvent(QPaintEvent* event) {
    QPlainTextEdit::paintEvent(event);
    if (lines_.empty())
        return;
    // Tints multiply with the painted text: the background takes the colour,
    // the dark glyphs stay dark.
    QPainter painter(viewport());
    painter.setCompositionMode(QPainter::CompositionMode_Multiply);
    const int width = viewport()->width();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        QRectF box = blockBoundingGeometry(block).translated(contentOffset());
        if (box.top() > event->rect().bottom())
            break;
        QColor tint = tintOf(block.blockNumber());
        if (!tint.isValid())
            continue;
        QRectF row(0, box.top(), width, box.height());
        painter.fillRect(row, tint);
        if (lines_[static_cast<size_t>(block.blockNumber())].op == marked_) {
            painter.setCompositionMode(QPainter::CompositionMode_SourceOver);
            painter.fillRect(QRectF(0, box.top(), 4, box.height()), tint.darker(170));
            painter.setCompositionMode(QPainter::CompositionMode_Multiply);
        }
    }
}

void CodePane::mouseReleaseEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseReleaseEvent(event);
    // A drag that selected text is not a click on a line.
    if (event->button() != Qt::LeftButton || textCursor().hasSelection())
        return;
    int32_t op = opAt(event->position().toPoint());
    if (op >= 0)
        emit opClicked(op);
}

bool CodePane::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        int line = cursorForPosition(help->pos()).blockNumber();
        if (line >= 0 && static_cast<size_t>(line) < lines_.size() &&
            lines_[static_cast<size_t>(line)].op >= 0) {
            const CodeLine& code = lines_[static_cast<size_t>(line)];
            // A model's op names are text, never markup.
            QString tip = names_.value(code.op).toHtmlEscaped();
            if (code.sourceLine > 0)
                tip += tr(" · loop-nest line %1").arg(code.sourceLine);
            QToolTip::showText(help->globalPos(), tip, viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

} // namespace stagecraft::views
