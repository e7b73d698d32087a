// Canvas colors from the palette (light: paper; dark: the palette's base).

#include "common/canvas_colors.h"

#include <QPalette>

namespace stagecraft::views {

CanvasColors CanvasColors::paper() {
    CanvasColors colors;
    colors.background = Qt::white;
    colors.ink = QColor(40, 40, 40);
    colors.faintInk = QColor(205, 205, 205);
    colors.boxFill = Qt::white;
    colors.dark = false;
    return colors;
}

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() <
           palette.color(QPalette::WindowText).lightness();
}

CanvasColors CanvasColors::fromPalette(const QPalette& palette) {
    if (!isDarkPalette(palette))
        return paper();
    CanvasColors colors;
    colors.background = palette.color(QPalette::Base);
    colors.ink = palette.color(QPalette::Text);
    colors.faintInk = colors.background.lighter(220);
    if (colors.faintInk == colors.background) // black lightens to black
        colors.faintInk = QColor(80, 80, 80);
    colors.boxFill = colors.background.lighter(160);
    if (colors.boxFill == colors.background)
        colors.boxFill = QColor(60, 60, 60);
    colors.dark = true;
    return colors;
}

} // namespace stagecraft::views
