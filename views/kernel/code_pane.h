#pragma once
// One text of the kernel view (loop nest, LLVM IR or assembly), each line
// tinted by the op it comes from, as Compiler Explorer tints source and
// assembly: the marked op's lines stand out with a bar in its colour, a
// click on a line names its op, hovering says which op and source line.

#include <QColor>
#include <QHash>
#include <QPlainTextEdit>

#include <cstdint>
#include <vector>

namespace stagecraft::views {

struct CodeLine {
    QString text;
    /// The op the line belongs to, or -1.
    int32_t op = -1;
    /// The loop-nest line it was emitted for (1-based), or 0.
    int sourceLine = 0;
};

class CodePane : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodePane(QWidget* parent = nullptr);

    /// Shows \p lines; \p opNames names the ops for tooltips, \p colors
    /// tints them. The marked op stays marked.
    void setLines(std::vector<CodeLine> lines, QHash<int32_t, QString> opNames,
                  QHash<int32_t, QColor> colors);
    /// A message in place of code (compiling, an error).
    void setMessage(const QString& message);
    /// Marks the lines of \p op (-1: none); with \p scroll the first of them
    /// comes into view.
    void setMarkedOp(int32_t op, bool scroll);
    int32_t markedOp() const { return marked_; }

    const std::vector<CodeLine>& lines() const { return lines_; }
    /// The 0-based numbers of the lines of \p op.
    std::vector<int> linesOf(int32_t op) const;
    /// The op of the line at viewport point \p point, or -1.
    int32_t opAt(const QPoint& point) const;
    /// Where line \p line (0-based) is in the viewport.
    QRect lineRect(int line) const;
    /// The tint of the line \p line (0-based) as painted: invalid when it has no op.
    QColor tintOf(int line) const;

signals:
    /// The user clicked a line of \p op.
    void opClicked(int32_t op);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    std::vector<CodeLine> lines_;
    QHash<int32_t, QString> names_;
    QHash<int32_t, QColor> colors_;
    int32_t marked_ = -1;
};

} // namespace stagecraft::views
