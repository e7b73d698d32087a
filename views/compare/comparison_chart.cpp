// Bar chart painting: one row per strategy, label left, bar scaled to the
// largest value, value printed after the bar.

#include "compare/comparison_chart.h"

#include "common/energy_text.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace stagecraft::views {

namespace {

constexpr int kRowHeight = 22;
constexpr int kLabelWidth = 110;
constexpr int kValueWidth = 96;
constexpr int kMargin = 6;

} // namespace

ComparisonChart::ComparisonChart(QWidget* parent)
    : QWidget(parent) {
    setMinimumHeight(kRowHeight * 2);
}

void ComparisonChart::setBars(std::vector<Bar> bars) {
    bars_ = std::move(bars);
    updateGeometry();
    update();
}

void ComparisonChart::setCurrentStrategy(const QString& strategy) {
    current_ = strategy;
    update();
}

void ComparisonChart::setMetric(Metric metric) {
    metric_ = metric;
    update();
}

QSize ComparisonChart::sizeHint() const {
    return {kLabelWidth + kValueWidth + 240,
            2 * kMargin + kRowHeight * std::max<int>(1, static_cast<int>(bars_.size()))};
}

std::optional<double> ComparisonChart::valueOf(const Bar& bar) const {
    switch (metric_) {
    case Metric::Speedup:
        return bar.speedup;
    case Metric::Latency:
        return bar.latencyUs;
    case Metric::Energy:
        return bar.energyMj;
    case Metric::Edp:
        return bar.edpMjMs;
    }
    return std::nullopt;
}

QString ComparisonChart::valueText(const Bar& bar) const {
    if (!bar.ready)
        return QStringLiteral("…");
    const std::optional<double> value = valueOf(bar);
    if (!value)
        return unknownEnergyText();
    switch (metric_) {
    case Metric::Speedup:
        return QString::number(*value, 'f', 2) + QLatin1Char('x');
    case Metric::Latency:
        return QString::number(*value, 'f', 0) + QStringLiteral(" µs");
    case Metric::Energy:
        return formatSignificant(*value) + QStringLiteral(" mJ");
    case Metric::Edp:
        return formatSignificant(*value) + QStringLiteral(" mJ·ms");
    }
    return {};
}

double ComparisonChart::maxValue() const {
    double top = metric_ == Metric::Speedup ? 1.0 : 0.0;
    for (const Bar& bar : bars_)
        if (bar.ready)
            top = std::max(top, valueOf(bar).value_or(0.0));
    return top;
}

QRect ComparisonChart::plotArea() const {
    return rect().adjusted(kMargin + kLabelWidth, kMargin, -kMargin - kValueWidth, -kMargin);
}

QRect ComparisonChart::slotRect(int index) const {
    QRect plot = plotArea();
    return {plot.left(), plot.top() + index * kRowHeight, plot.width(), kRowHeight - 4};
}

int ComparisonChart::barLength(int index) const {
    const Bar& bar = bars_[static_cast<size_t>(index)];
    double top = maxValue();
    if (!bar.ready || top <= 0)
        return 0;
    return static_cast<int>(slotRect(index).width() * valueOf(bar).value_or(0.0) / top);
}

void ComparisonChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    for (int i = 0; i < static_cast<int>(bars_.size()); ++i) {
        const Bar& bar = bars_[static_cast<size_t>(i)];
        QRect slot = slotRect(i);
        bool current = bar.strategy == current_;
        QRect label(kMargin, slot.top(), kLabelWidth - kMargin, slot.height());
        QFont font = painter.font();
        font.setBold(current);
        painter.setFont(font);
        painter.setPen(palette().text().color());
        painter.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, bar.strategy);
        QRect filled(slot.left(), slot.top(), barLength(i), slot.height());
        painter.fillRect(filled, current ? palette().highlight().color() : QColor(150, 170, 200));
        painter.setPen(palette().mid().color());
        painter.drawRect(slot.adjusted(0, 0, -1, -1));
        const QString value = valueText(bar);
        painter.setPen(palette().text().color());
        painter.drawText(QRect(slot.right() + kMargin, slot.top(), kValueWidth, slot.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, value);
    }
    if (metric_ == Metric::Speedup && !bars_.empty()) {
        QRect plot = plotArea();
        int x = plot.left() + static_cast<int>(plot.width() / maxValue());
        painter.setPen(QPen(palette().text().color(), 1, Qt::DashLine));
        painter.drawLine(x, plot.top(), x, slotRect(static_cast<int>(bars_.size()) - 1).bottom());
    }
}

void ComparisonChart::mousePressEvent(QMouseEvent* event) {
    for (int i = 0; i < static_cast<int>(bars_.size()); ++i) {
        QRect row = slotRect(i);
        row.setLeft(0);
        row.setRight(width());
        if (row.contains(event->position().toPoint())) {
            emit barClicked(bars_[static_cast<size_t>(i)].strategy);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

} // namespace stagecraft::views
