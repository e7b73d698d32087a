#pragma once
// Seeded random graphs for property tests and benchmarks. Graphs are built
// directly as ir::Graph in canonical form (docs/ir.md): every op carries
// exactly the canonical attributes of its type, every tensor a dtype and a
// static shape, weights are lazy constants of the right size that read as
// zeros. The same seed gives the same graph on every platform: the engine is
// std::mt19937_64 (fully specified by the standard) and the uniform integers
// are our own (std::uniform_int_distribution differs between libraries).

#include "ir/graph.h"

#include <cstdint>
#include <random>
#include <span>
#include <string_view>
#include <vector>

namespace stagecraft::test {

/// A deterministic random source.
class Rng {
public:
    explicit Rng(uint64_t seed)
        : engine_(seed) {}

    /// Uniform in [lo, hi] (both included; lo <= hi), by rejection sampling.
    int64_t uniform(int64_t lo, int64_t hi);
    /// True with probability percent / 100.
    bool chance(int64_t percent) { return uniform(0, 99) < percent; }
    /// One element of a non-empty list.
    template <class T>
    const T& pick(std::span<const T> items) {
        return items[static_cast<size_t>(uniform(0, static_cast<int64_t>(items.size()) - 1))];
    }
    template <class T>
    const T& pick(const std::vector<T>& items) {
        return pick(std::span<const T>(items));
    }

private:
    std::mt19937_64 engine_;
};

/// The structures randomGraph builds (GraphTurbo Fig. 4's patterns and more).
enum class GraphKind {
    /// One path of ops.
    Chain,
    /// A fork into several paths joined by Add or Concat.
    Diamond,
    /// A path and a shortcut around it joined by Add or Mul (residual, SE).
    Branch,
    /// Split into parts processed apart, some concatenated again.
    MultiOutput,
    /// Random blocks of every kind, attention blocks and domain changes.
    Mix,
};

std::string_view graphKindName(GraphKind kind);
/// Every kind, in declaration order.
std::span<const GraphKind> graphKinds();

struct RandomGraphOptions {
    GraphKind kind = GraphKind::Mix;
    /// The op count of the graph (>= 1): blocks are cut to fit it exactly.
    int ops = 40;
};

/// A valid static graph: ir::validateGraph holds and every op passes
/// ops::semanticsOf. Inputs are NCHW images (batch 1..16, spatial 4..64) or
/// [N, S, H] sequences; graph outputs are every op output nobody reads.
ir::Graph randomGraph(uint64_t seed, const RandomGraphOptions& options = {});

/// A realistic graph of exactly \p ops ops (ops >= 1) for benchmarks: a
/// CNN stem, then repeated cycles of residual stages with down-sampling,
/// attention blocks on the flattened feature map and an up-sampling back to
/// the first stage's shape. Shapes stay bounded, so the work per op does not
/// grow with \p ops.
ir::Graph syntheticGraph(int ops, uint64_t seed);

// Graphs of many ops (wide_graphs.cpp), for the complexity benchmark: each of
// exactly \p ops ops (>= 1) on [1, 4, 8, 8] tensors.
/// Relu and Sigmoid in turn, one after the other.
ir::Graph chainGraph(int ops);
/// ops - 1 Relus of the one input, all joined by one Concat.
ir::Graph wideConcatGraph(int ops);
/// A Relu, then Adds each of the two tensors before it.
ir::Graph fibonacciAddGraph(int ops);

} // namespace stagecraft::test
