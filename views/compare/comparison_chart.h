#pragma once
// A self-painted horizontal bar chart of one figure per strategy (speedup vs
// tvm, latency, energy or energy-delay product), the strategy the views show
// highlighted; a dashed line marks speedup 1. An unknown energy (no energy
// table) is an empty slot reading "—", never a bar of 0. Clicking a bar emits
// barClicked().

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace stagecraft::views {

class ComparisonChart : public QWidget {
    Q_OBJECT
public:
    enum class Metric { Speedup, Latency, Energy, Edp };
    struct Bar {
        QString strategy;
        double speedup = 0;
        double latencyUs = 0;
        /// Unknown without an energy table.
        std::optional<double> energyMj;
        std::optional<double> edpMjMs;
        /// False: not computed yet (drawn as an empty slot).
        bool ready = false;
    };

    explicit ComparisonChart(QWidget* parent = nullptr);

    void setBars(std::vector<Bar> bars);
    void setCurrentStrategy(const QString& strategy);
    void setMetric(Metric metric);
    Metric metric() const { return metric_; }
    const std::vector<Bar>& bars() const { return bars_; }
    /// The rectangle bar \p index is painted in (its full slot width).
    QRect slotRect(int index) const;
    /// The painted length of bar \p index in pixels (0 when not ready).
    int barLength(int index) const;

    QSize sizeHint() const override;

signals:
    void barClicked(const QString& strategy);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    /// The bar's figure for the metric; nullopt when unknown.
    std::optional<double> valueOf(const Bar& bar) const;
    QString valueText(const Bar& bar) const;
    double maxValue() const;
    QRect plotArea() const;

    std::vector<Bar> bars_;
    QString current_;
    Metric metric_ = Metric::Speedup;
};

} // namespace stagecraft::views
