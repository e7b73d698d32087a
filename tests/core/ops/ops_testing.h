#pragma once
// Helpers for the core/ops suites: one-op graphs built directly in the IR,
// and brute-force enumeration of what an access map reads.

#include "ir/graph.h"
#include "ops/semantics.h"

#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace stagecraft::test {

/// A graph holding one op whose inputs are graph inputs.
struct OpGraph {
    ir::Graph graph;
    ir::OpId op = ir::kNoOp;

    const ir::Op& theOp() const { return graph.op(op); }
    const ir::Shape& inputShape(int slot) const;
    const ir::Shape& outputShape(int index) const;
};

/// Builds an OpGraph: OpBuilder("Conv").input({1,3,8,8}).output({...}).ints("pads", {...}).build().
class OpBuilder {
public:
    explicit OpBuilder(std::string type, std::string name = "op");
    OpBuilder& input(ir::Shape shape, ir::DType dtype = ir::DType::Float32);
    /// The same tensor as input slot \p slot, again.
    OpBuilder& repeatInput(int slot);
    /// An omitted optional input.
    OpBuilder& noInput();
    OpBuilder& output(ir::Shape shape, ir::DType dtype = ir::DType::Float32);
    OpBuilder& domain(std::string domain);
    OpBuilder& i(std::string name, int64_t value);
    OpBuilder& f(std::string name, double value);
    OpBuilder& s(std::string name, std::string value);
    OpBuilder& ints(std::string name, std::vector<int64_t> values);
    OpBuilder& floats(std::string name, std::vector<double> values);
    OpGraph build() const;

private:
    ir::Op op_;
    std::vector<std::pair<ir::Shape, ir::DType>> inputs_, outputs_;
    std::vector<int> repeats_; // -1: new tensor, -2: omitted, k: same as slot k
};

/// A one-input, one-output op of \p type without attributes.
OpGraph unaryOp(std::string type, ir::Shape in, ir::Shape out);

/// semanticsOf the op of \p g; fails the test (empty result) on an error.
ops::OpSemantics semantics(const OpGraph& g);

using Coord = std::vector<int64_t>;
int64_t flatIndex(const Coord& coord, const ir::Shape& shape);
Coord unflatten(int64_t flat, const ir::Shape& shape);
/// Calls \p visit for every coordinate of \p shape in row-major order.
void forEachIndex(const ir::Shape& shape, const std::function<void(const Coord&)>& visit);

/// Per output element (row-major), the flat indices of one input read.
using ReadSets = std::vector<std::set<int64_t>>;

/// What \p map of \p nest reads: for every output element, the union over
/// the reduction loops of the elements its indices name, skipping any index
/// outside the input (padding); a `full` dim reads every index.
ReadSets readsOfMap(const ops::LoopNest& nest, const ops::AccessMap& map, const ir::Shape& input);

/// A textbook statement of an op: calls read(inputCoord) for every input
/// element output element \p out reads (in-range coordinates only).
using Reference =
    std::function<void(const Coord& out, const std::function<void(const Coord&)>& read)>;
/// Runs a gather-style reference over every output element.
ReadSets readsOfReference(const ir::Shape& output, const ir::Shape& input, const Reference& ref);

/// Empty when the sets are equal (or, with \p subset, when \p expected is a
/// subset of \p actual); else the first differing output element.
std::string compareReads(const ReadSets& actual, const ReadSets& expected, const ir::Shape& output,
                         bool subset = false);

/// For \p boxes random sub-boxes of the loop space, checks indexRange of each
/// dim of each map against a brute force over the box: the range holds every
/// index an in-range access reads, and for affine dims (no div, mod or full)
/// equals the hull of the unclipped indices clipped to the input. Empty when
/// all hold, else the first failure.
std::string checkIndexRanges(const ops::LoopNest& nest, const OpGraph& g, std::mt19937& rng,
                             int boxes);

/// formatIndex of every dim of the map of \p slot, joined with ", ".
std::string formatMap(const ops::LoopNest& nest, int slot);
/// "n co oh ow | ci kh kw": loop names with the reduction loops after a bar.
std::string formatLoops(const ops::LoopNest& nest);

} // namespace stagecraft::test
