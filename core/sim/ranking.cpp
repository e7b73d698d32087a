// Spearman's rank correlation and ranking conflicts (ranking.h).

#include "sim/ranking.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace stagecraft::sim {

namespace {

std::vector<double> ranks(const std::vector<double>& values) {
    std::vector<size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return values[x] < values[y]; });
    std::vector<double> rank(values.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
        for (size_t k = i; k <= j; ++k)
            rank[order[k]] = mean;
        i = j + 1;
    }
    return rank;
}

} // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() < 2 || a.size() != b.size())
        return 1;
    std::vector<double> ra = ranks(a), rb = ranks(b);
    auto n = static_cast<double>(ra.size());
    double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n;
    double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
    double cov = 0, va = 0, vb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - ma) * (rb[i] - mb);
        va += (ra[i] - ma) * (ra[i] - ma);
        vb += (rb[i] - mb) * (rb[i] - mb);
    }
    if (va == 0 || vb == 0)
        return va == vb ? 1 : 0;
    return cov / std::sqrt(va * vb);
}

std::vector<std::string> rankingConflicts(const std::vector<std::string>& names,
                                          const std::vector<double>& simulated,
                                          const std::vector<double>& measured, double tolerance) {
    std::vector<std::string> conflicts;
    for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = i + 1; j < names.size(); ++j) {
            double slower = std::max(measured[i], measured[j]);
            if (slower - std::min(measured[i], measured[j]) <= tolerance * slower)
                continue;
            if ((simulated[i] < simulated[j]) != (measured[i] < measured[j]))
                conflicts.push_back(names[i] + "/" + names[j]);
        }
    return conflicts;
}

} // namespace stagecraft::sim
