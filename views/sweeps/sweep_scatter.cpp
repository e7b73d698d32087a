#include "sweeps/sweep_scatter.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace stagecraft::views {

namespace {

constexpr double kRadius = 4.5;
constexpr int kLeft = 90;
constexpr int kBottom = 56;
constexpr int kTop = 36;
constexpr int kRight = 200;

/// Tick positions of \p lo..hi at 1, 2 or 5 × 10^k, about five of them.
QVector<double> niceTicks(double lo, double hi) {
    double span = hi - lo;
    double raw = span / 5;
    double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    QVector<double> ticks;
    for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step)
        ticks << (std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

/// Ticks of a log axis (in log10 units): the decades, with 2 and 5 between
/// them when the axis spans less than three.
QVector<double> logTicks(double lo, double hi) {
    QVector<double> ticks;
    const QVector<double> steps = hi - lo < 3 ? QVector<double>{1, 2, 5} : QVector<double>{1};
    for (double decade = std::floor(lo); decade <= hi; ++decade)
        for (double m : steps) {
            double t = decade + std::log10(m);
            if (t >= lo && t <= hi)
                ticks << t;
        }
    return ticks;
}

QVector<double> ticksOf(double lo, double hi, bool log) {
    return log ? logTicks(lo, hi) : niceTicks(lo, hi);
}

QString tickText(double v) {
    double a = std::fabs(v);
    if (a >= 1e9)
        return QString::number(v / 1e9, 'g', 4) + QLatin1Char('G');
    if (a >= 1e6)
        return QString::number(v / 1e6, 'g', 4) + QLatin1Char('M');
    if (a >= 1e4)
        return QString::number(v / 1e3, 'g', 4) + QLatin1Char('k');
    return QString::number(v, 'g', 4);
}

/// Twelve colours apart enough to tell strategies and models apart.
QColor paletteColour(int i) {
    static const QColor colours[] = {QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c),
                                     QColor(0xd62728), QColor(0x9467bd), QColor(0x8c564b),
                                     QColor(0xe377c2), QColor(0x7f7f7f), QColor(0xbcbd22),
                                     QColor(0x17becf), QColor(0x393b79), QColor(0xad494a)};
    return colours[i % 12];
}

QColor gradient(double t) {
    t = std::clamp(t, 0.0, 1.0);
    QColor a(0x2c7fb8), b(0xf03b20);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

SweepScatter::SweepScatter(QWidget* parent)
    : QWidget(parent) {
    setMinimumSize(480, 320);
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void SweepScatter::setTable(std::shared_ptr<const SweepTable> table) {
    table_ = std::move(table);
    selected_ = -1;
    setColumns(-1, -1, -1);
}

bool SweepScatter::plotted(int row) const {
    const QVector<QVariant>& r = table_->rows[row];
    return x_ >= 0 && y_ >= 0 && r[x_].typeId() == QMetaType::Double &&
           r[y_].typeId() == QMetaType::Double;
}

void SweepScatter::setColumns(int x, int y, int colour) {
    x_ = x;
    y_ = y;
    colour_ = colour;
    categories_.clear();
    front_.clear();
    if (table_ && x >= 0 && y >= 0) {
        auto widen = [](Range& range, bool& first, double v) {
            range.lo = first ? v : std::min(range.lo, v);
            range.hi = first ? v : std::max(range.hi, v);
            first = false;
        };
        bool firstX = true, firstY = true, firstC = true;
        for (int row = 0; row < table_->rows.size(); ++row) {
            if (!plotted(row))
                continue;
            widen(xRange_, firstX, scaled(table_->rows[row][x].toDouble(), true));
            widen(yRange_, firstY, scaled(table_->rows[row][y].toDouble(), false));
            const QVariant& c = colour >= 0 ? table_->rows[row][colour] : QVariant();
            if (c.typeId() == QMetaType::Double)
                widen(colourRange_, firstC, c.toDouble());
            else if (c.isValid() && !categories_.contains(c.toString()))
                categories_ << c.toString();
        }
        for (Range* r : {&xRange_, &yRange_}) {
            double pad = (r->hi - r->lo) * 0.05;
            if (pad == 0)
                pad = std::max(std::fabs(r->hi) * 0.1, 1e-9);
            r->lo -= pad;
            r->hi += pad;
        }
        front_ = table_->front(x, y);
    }
    update();
}

double SweepScatter::scaled(double v, bool xAxis) const {
    bool log = xAxis ? logX_ : logY_;
    return log ? std::log10(std::max(v, 1e-300)) : v;
}

bool SweepScatter::suitsLog(int column) const {
    double lo = 0, hi = 0;
    for (int row = 0; table_ && row < table_->rows.size(); ++row) {
        const QVariant& v = table_->rows[row][column];
        if (v.typeId() != QMetaType::Double)
            continue;
        if (v.toDouble() <= 0)
            return false;
        lo = lo == 0 ? v.toDouble() : std::min(lo, v.toDouble());
        hi = std::max(hi, v.toDouble());
    }
    return lo > 0 && hi / lo >= 10;
}

bool SweepScatter::allPositive(int column) const {
    for (int row = 0; table_ && row < table_->rows.size(); ++row)
        if (plotted(row) && table_->rows[row][column].toDouble() <= 0)
            return false;
    return true;
}

void SweepScatter::setLogScale(bool x, bool y) {
    logX_ = x && x_ >= 0 && allPositive(x_);
    logY_ = y && y_ >= 0 && allPositive(y_);
    setColumns(x_, y_, colour_);
}

void SweepScatter::setSelectedRow(int row) {
    selected_ = row;
    update();
}

QRectF SweepScatter::plotRect() const {
    return QRectF(kLeft, kTop, std::max(10, width() - kLeft - kRight),
                  std::max(10, height() - kTop - kBottom));
}

QPointF SweepScatter::position(int row) const {
    QRectF r = plotRect();
    double x = scaled(table_->rows[row][x_].toDouble(), true);
    double y = scaled(table_->rows[row][y_].toDouble(), false);
    return {r.left() + (x - xRange_.lo) / (xRange_.hi - xRange_.lo) * r.width(),
            r.bottom() - (y - yRange_.lo) / (yRange_.hi - yRange_.lo) * r.height()};
}

QColor SweepScatter::colourOf(int row) const {
    if (colour_ < 0)
        return paletteColour(0);
    const QVariant& c = table_->rows[row][colour_];
    if (c.typeId() == QMetaType::Double) {
        double span = colourRange_.hi - colourRange_.lo;
        return gradient(span > 0 ? (c.toDouble() - colourRange_.lo) / span : 0.5);
    }
    return c.isValid() ? paletteColour(static_cast<int>(categories_.indexOf(c.toString())))
                       : QColor(Qt::gray);
}

void SweepScatter::paintAxes(QPainter& painter) const {
    QRectF r = plotRect();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(r);
    QFontMetrics metrics(font());
    for (double t : ticksOf(xRange_.lo, xRange_.hi, logX_)) {
        double px = r.left() + (t - xRange_.lo) / (xRange_.hi - xRange_.lo) * r.width();
        painter.setPen(QColor(0xe6e6e6));
        painter.drawLine(QPointF(px, r.top()), QPointF(px, r.bottom()));
        painter.setPen(palette().color(QPalette::Text));
        QString text = tickText(logX_ ? std::pow(10.0, t) : t);
        painter.drawText(
            QPointF(px - metrics.horizontalAdvance(text) / 2.0, r.bottom() + metrics.height() + 2),
            text);
    }
    for (double t : ticksOf(yRange_.lo, yRange_.hi, logY_)) {
        double py = r.bottom() - (t - yRange_.lo) / (yRange_.hi - yRange_.lo) * r.height();
        painter.setPen(QColor(0xe6e6e6));
        painter.drawLine(QPointF(r.left(), py), QPointF(r.right(), py));
        painter.setPen(palette().color(QPalette::Text));
        QString text = tickText(logY_ ? std::pow(10.0, t) : t);
        painter.drawText(
            QPointF(r.left() - metrics.horizontalAdvance(text) - 6, py + metrics.ascent() / 2.0),
            text);
    }
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    QString xTitle = table_->columns[x_] + (logX_ ? tr(" (log)") : QString());
    painter.drawText(QPointF(r.center().x() - QFontMetrics(bold).horizontalAdvance(xTitle) / 2.0,
                             r.bottom() + 2.2 * metrics.height() + 4),
                     xTitle);
    painter.save();
    painter.translate(18, r.center().y());
    painter.rotate(-90);
    QString yTitle = table_->columns[y_] + (logY_ ? tr(" (log)") : QString());
    painter.drawText(QPointF(-QFontMetrics(bold).horizontalAdvance(yTitle) / 2.0, 0), yTitle);
    painter.restore();
    painter.setFont(font());
}

void SweepScatter::paintLegend(QPainter& painter) const {
    QRectF r = plotRect();
    QFontMetrics metrics(font());
    double x = r.right() + 16;
    double y = r.top() + metrics.height();
    painter.setPen(palette().color(QPalette::Text));
    if (colour_ >= 0) {
        painter.drawText(QPointF(x, y), tr("colour: %1").arg(table_->columns[colour_]));
        y += metrics.height() + 4;
    }
    if (colour_ >= 0 && categories_.isEmpty()) {
        for (int i = 0; i <= 4; ++i) {
            double v = colourRange_.lo + (colourRange_.hi - colourRange_.lo) * (1 - i / 4.0);
            painter.setBrush(gradient(1 - i / 4.0));
            painter.setPen(Qt::NoPen);
            painter.drawEllipse(QPointF(x + 6, y - metrics.ascent() / 3.0), kRadius, kRadius);
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QPointF(x + 18, y), tickText(v));
            y += metrics.height() + 2;
        }
    }
    for (int i = 0; i < categories_.size() && i < 24; ++i) {
        painter.setBrush(paletteColour(i));
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QPointF(x + 6, y - metrics.ascent() / 3.0), kRadius, kRadius);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QPointF(x + 18, y),
                         metrics.elidedText(categories_[i], Qt::ElideRight, kRight - 40));
        y += metrics.height() + 2;
    }
    y += 8;
    painter.setPen(QPen(palette().color(QPalette::Text), 1.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(QPointF(x + 6, y - metrics.ascent() / 3.0), kRadius + 2.5, kRadius + 2.5);
    painter.drawText(QPointF(x + 18, y), tr("Pareto front"));
}

void SweepScatter::paintPoints(QPainter& painter) const {
    QVector<int> frontRows;
    for (int row = 0; row < table_->rows.size(); ++row) {
        if (!plotted(row))
            continue;
        painter.setPen(Qt::NoPen);
        painter.setBrush(colourOf(row));
        painter.drawEllipse(position(row), kRadius, kRadius);
        if (front_.value(row))
            frontRows << row;
    }
    std::sort(frontRows.begin(), frontRows.end(),
              [this](int a, int b) { return position(a).x() < position(b).x(); });
    QPen ring(palette().color(QPalette::Text), 1.5);
    painter.setPen(ring);
    painter.setBrush(Qt::NoBrush);
    QPainterPath line;
    for (int row : frontRows) {
        painter.drawEllipse(position(row), kRadius + 2.5, kRadius + 2.5);
        if (row == frontRows.front())
            line.moveTo(position(row));
        else
            line.lineTo(position(row));
    }
    painter.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
    painter.drawPath(line);
    if (selected_ >= 0 && selected_ < table_->rows.size() && plotted(selected_)) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
        painter.drawEllipse(position(selected_), kRadius + 5, kRadius + 5);
    }
}

void SweepScatter::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!table_ || x_ < 0 || y_ < 0) {
        painter.drawText(rect(), Qt::AlignCenter, tr("Choose two numeric columns for x and y"));
        return;
    }
    paintAxes(painter);
    painter.setClipRect(plotRect().adjusted(-8, -8, 8, 8));
    paintPoints(painter);
    painter.setClipping(false);
    paintLegend(painter);
}

int SweepScatter::rowAt(QPointF point) const {
    int best = -1;
    double bestDistance = 8 * 8;
    for (int row = 0; table_ && x_ >= 0 && y_ >= 0 && row < table_->rows.size(); ++row) {
        if (!plotted(row))
            continue;
        QPointF d = position(row) - point;
        double distance = QPointF::dotProduct(d, d);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = row;
        }
    }
    return best;
}

void SweepScatter::mousePressEvent(QMouseEvent* event) {
    if (int row = rowAt(event->position()); row >= 0)
        emit rowClicked(row);
}

void SweepScatter::mouseDoubleClickEvent(QMouseEvent* event) {
    if (int row = rowAt(event->position()); row >= 0)
        emit rowActivated(row);
}

bool SweepScatter::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    int row = rowAt(help->pos());
    if (row < 0) {
        QToolTip::hideText();
        return true;
    }
    QStringList lines;
    for (const char* column : {"point", "model", "strategy", "precision", "level_used"})
        if (qsizetype c = table_->columns.indexOf(QLatin1String(column)); c >= 0)
            lines << QLatin1String(column) + QStringLiteral(": ") + table_->rows[row][c].toString();
    lines << table_->columns[x_] + QStringLiteral(": ") + table_->rows[row][x_].toString();
    lines << table_->columns[y_] + QStringLiteral(": ") + table_->rows[row][y_].toString();
    QToolTip::showText(help->globalPos(), lines.join(QLatin1Char('\n')), this);
    return true;
}

} // namespace stagecraft::views
