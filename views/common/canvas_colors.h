#pragma once
// The colors of the views' drawing surfaces, taken from the widget's palette
// so that a dark system palette gives dark canvases: the background, the ink
// of lines and of text drawn straight on the background, and a faint ink for
// secondary lines. Text inside the pastel group colors stays dark in both
// schemes. Exports always use paper(): they are figures for documents.

#include <QColor>

class QPalette;

namespace stagecraft::views {

struct CanvasColors {
    QColor background;
    QColor ink;
    QColor faintInk;
    /// Fill of plain boxes (ops of an expanded group).
    QColor boxFill;
    bool dark = false;

    /// White paper, dark ink.
    static CanvasColors paper();
    /// From \p palette: its base color and text, paper() when it is light.
    static CanvasColors fromPalette(const QPalette& palette);

    bool operator==(const CanvasColors&) const = default;
};

/// True when \p palette's window color is darker than its text.
bool isDarkPalette(const QPalette& palette);

} // namespace stagecraft::views
