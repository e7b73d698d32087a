#pragma once
/// \file
/// The statistics of `stagecraft fidelity` (docs/simulator.md, "Fidelity"):
/// Spearman's rank correlation of simulated and measured kernel times, and
/// whether two rankings of strategies agree up to measured near-ties.

#include <string>
#include <vector>

namespace stagecraft::sim {

/// Spearman's ρ of \p a and \p b (equal sizes): Pearson's correlation of
/// their ranks, ties given their mean rank. 1 for fewer than two values or
/// when either is constant and the other too.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

/// Strategy pairs ordered one way by \p simulated and the other by
/// \p measured, leaving out pairs whose measured times are within
/// \p tolerance (5 %: 0.05) of each other; "a/b" each.
std::vector<std::string> rankingConflicts(const std::vector<std::string>& names,
                                          const std::vector<double>& simulated,
                                          const std::vector<double>& measured, double tolerance);

} // namespace stagecraft::sim
