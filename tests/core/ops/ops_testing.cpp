#include "ops_testing.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <sstream>

namespace stagecraft::test {

namespace {

/// Calls \p visit for every point of the box lo[i] <= v[i] <= hi[i].
void forEachPoint(const std::vector<int64_t>& lo, const std::vector<int64_t>& hi,
                  const std::function<void(const std::vector<int64_t>&)>& visit) {
    for (size_t i = 0; i < lo.size(); ++i)
        if (lo[i] > hi[i])
            return;
    std::vector<int64_t> point = lo;
    while (true) {
        visit(point);
        size_t i = point.size();
        while (i > 0) {
            --i;
            if (point[i] < hi[i]) {
                ++point[i];
                break;
            }
            point[i] = lo[i];
            if (i == 0)
                return;
        }
        if (point.empty())
            return;
    }
}

std::vector<int64_t> extents(const ops::LoopNest& nest) {
    std::vector<int64_t> result;
    for (const ops::LoopDim& loop : nest.loops)
        result.push_back(loop.extent);
    return result;
}

ir::Shape outputShapeOf(const ops::LoopNest& nest) {
    std::vector<int64_t> all = extents(nest);
    return ir::Shape(all.begin(), all.begin() + nest.outputRank);
}

/// The input elements one loop point reads: indices per dim, or nothing when
/// an index is out of range.
void readsAt(const ops::AccessMap& map, const ir::Shape& input, const std::vector<int64_t>& point,
             std::set<int64_t>& into) {
    std::vector<int64_t> lo, hi;
    for (size_t d = 0; d < map.dims.size(); ++d) {
        const ops::IndexExpr& expr = map.dims[d];
        if (expr.full) {
            lo.push_back(0);
            hi.push_back(input[d] - 1);
            continue;
        }
        int64_t index = ops::evaluateIndex(expr, point);
        if (index < 0 || index >= input[d])
            return;
        lo.push_back(index);
        hi.push_back(index);
    }
    forEachPoint(lo, hi, [&](const Coord& coord) { into.insert(flatIndex(coord, input)); });
}

bool isAffine(const ops::IndexExpr& expr) {
    if (expr.full || expr.div != 1 || expr.mod != 0)
        return false;
    return std::all_of(expr.terms.begin(), expr.terms.end(),
                       [](const ops::IndexTerm& t) { return t.div == 1 && t.mod == 0; });
}

template <typename Values>
std::string joined(char open, const Values& values, char close) {
    std::ostringstream out;
    out << open;
    const char* separator = "";
    for (int64_t v : values) {
        out << separator << v;
        separator = ",";
    }
    out << close;
    return out.str();
}

std::string describe(const Coord& coord) {
    return joined('[', coord, ']');
}

std::string describe(const std::set<int64_t>& set) {
    return joined('{', set, '}');
}

} // namespace

const ir::Shape& OpGraph::inputShape(int slot) const {
    return graph.tensor(theOp().inputs[static_cast<size_t>(slot)]).shape;
}

const ir::Shape& OpGraph::outputShape(int index) const {
    return graph.tensor(theOp().outputs[static_cast<size_t>(index)]).shape;
}

OpBuilder::OpBuilder(std::string type, std::string name) {
    op_.type = std::move(type);
    op_.name = std::move(name);
}

OpBuilder& OpBuilder::input(ir::Shape shape, ir::DType dtype) {
    inputs_.emplace_back(std::move(shape), dtype);
    repeats_.push_back(-1);
    return *this;
}

OpBuilder& OpBuilder::repeatInput(int slot) {
    inputs_.emplace_back(ir::Shape{}, ir::DType::Undefined);
    repeats_.push_back(slot);
    return *this;
}

OpBuilder& OpBuilder::noInput() {
    inputs_.emplace_back(ir::Shape{}, ir::DType::Undefined);
    repeats_.push_back(-2);
    return *this;
}

OpBuilder& OpBuilder::output(ir::Shape shape, ir::DType dtype) {
    outputs_.emplace_back(std::move(shape), dtype);
    return *this;
}

OpBuilder& OpBuilder::domain(std::string domain) {
    op_.domain = std::move(domain);
    return *this;
}

OpBuilder& OpBuilder::i(std::string name, int64_t value) {
    op_.attrs.set(std::move(name), value);
    return *this;
}

OpBuilder& OpBuilder::f(std::string name, double value) {
    op_.attrs.set(std::move(name), value);
    return *this;
}

OpBuilder& OpBuilder::s(std::string name, std::string value) {
    op_.attrs.set(std::move(name), std::move(value));
    return *this;
}

OpBuilder& OpBuilder::ints(std::string name, std::vector<int64_t> values) {
    op_.attrs.set(std::move(name), std::move(values));
    return *this;
}

OpBuilder& OpBuilder::floats(std::string name, std::vector<double> values) {
    op_.attrs.set(std::move(name), std::move(values));
    return *this;
}

OpGraph OpBuilder::build() const {
    OpGraph g;
    ir::Op op = op_;
    std::vector<ir::TensorId> graphInputs;
    for (size_t slot = 0; slot < inputs_.size(); ++slot) {
        int repeat = repeats_[slot];
        if (repeat == -2) {
            op.inputs.push_back(ir::kNoTensor);
        } else if (repeat >= 0) {
            op.inputs.push_back(op.inputs[static_cast<size_t>(repeat)]);
        } else {
            ir::TensorId t = g.graph.addTensor("in" + std::to_string(slot), inputs_[slot].second,
                                               inputs_[slot].first);
            op.inputs.push_back(t);
            graphInputs.push_back(t);
        }
    }
    for (size_t k = 0; k < outputs_.size(); ++k)
        op.outputs.push_back(
            g.graph.addTensor("out" + std::to_string(k), outputs_[k].second, outputs_[k].first));
    g.graph.setInputs(graphInputs);
    g.graph.setOutputs(op.outputs);
    g.op = g.graph.addOp(std::move(op));
    return g;
}

OpGraph unaryOp(std::string type, ir::Shape in, ir::Shape out) {
    return OpBuilder(std::move(type)).input(std::move(in)).output(std::move(out)).build();
}

ops::OpSemantics semantics(const OpGraph& g) {
    auto result = ops::semanticsOf(g.graph, g.op);
    if (!result.ok()) {
        ADD_FAILURE() << result.error().message();
        return {};
    }
    return std::move(result).value();
}

int64_t flatIndex(const Coord& coord, const ir::Shape& shape) {
    int64_t flat = 0;
    for (size_t i = 0; i < shape.size(); ++i)
        flat = flat * shape[i] + coord[i];
    return flat;
}

Coord unflatten(int64_t flat, const ir::Shape& shape) {
    Coord coord(shape.size());
    for (size_t i = shape.size(); i-- > 0;) {
        coord[i] = flat % shape[i];
        flat /= shape[i];
    }
    return coord;
}

void forEachIndex(const ir::Shape& shape, const std::function<void(const Coord&)>& visit) {
    std::vector<int64_t> hi(shape.begin(), shape.end());
    for (int64_t& h : hi)
        --h;
    forEachPoint(std::vector<int64_t>(shape.size(), 0), hi, visit);
}

ReadSets readsOfMap(const ops::LoopNest& nest, const ops::AccessMap& map, const ir::Shape& input) {
    ir::Shape output = outputShapeOf(nest);
    ReadSets reads(static_cast<size_t>(ir::elementCount(output)));
    std::vector<int64_t> hi = extents(nest);
    for (int64_t& h : hi)
        --h;
    forEachPoint(std::vector<int64_t>(hi.size(), 0), hi, [&](const std::vector<int64_t>& point) {
        Coord out(point.begin(), point.begin() + nest.outputRank);
        readsAt(map, input, point, reads[static_cast<size_t>(flatIndex(out, output))]);
    });
    return reads;
}

ReadSets readsOfReference(const ir::Shape& output, const ir::Shape& input, const Reference& ref) {
    ReadSets reads(static_cast<size_t>(ir::elementCount(output)));
    for (int64_t flat = 0; flat < ir::elementCount(output); ++flat) {
        ref(unflatten(flat, output), [&](const Coord& coord) {
            for (size_t d = 0; d < input.size(); ++d)
                if (coord[d] < 0 || coord[d] >= input[d])
                    ADD_FAILURE() << "the reference read outside the input";
            reads[static_cast<size_t>(flat)].insert(flatIndex(coord, input));
        });
    }
    return reads;
}

std::string compareReads(const ReadSets& actual, const ReadSets& expected, const ir::Shape& output,
                         bool subset) {
    if (actual.size() != expected.size())
        return std::to_string(actual.size()) + " output elements from the map, " +
               std::to_string(expected.size()) + " from the reference";
    for (size_t flat = 0; flat < actual.size(); ++flat) {
        const auto& a = actual[flat];
        const auto& e = expected[flat];
        bool ok = subset ? std::includes(a.begin(), a.end(), e.begin(), e.end()) : a == e;
        if (!ok)
            return "output " + describe(unflatten(static_cast<int64_t>(flat), output)) +
                   ": map reads " + describe(a) + ", reference reads " + describe(e);
    }
    return {};
}

std::string checkIndexRanges(const ops::LoopNest& nest, const OpGraph& g, std::mt19937& rng,
                             int boxes) {
    for (int box = 0; box < boxes; ++box) {
        std::vector<int64_t> lo, hi;
        std::vector<ops::Interval> ranges;
        for (const ops::LoopDim& loop : nest.loops) {
            std::uniform_int_distribution<int64_t> pick(0, loop.extent - 1);
            int64_t a = pick(rng), b = pick(rng);
            lo.push_back(std::min(a, b));
            hi.push_back(std::max(a, b));
            ranges.push_back({lo.back(), hi.back()});
        }
        for (const ops::AccessMap& map : nest.inputs) {
            const ir::Shape& input = g.inputShape(map.operand);
            size_t rank = input.size();
            std::vector<int64_t> minIndex(rank, INT64_MAX), maxIndex(rank, INT64_MIN);
            std::vector<std::set<int64_t>> inRange(rank);
            forEachPoint(lo, hi, [&](const std::vector<int64_t>& point) {
                Coord index(rank);
                bool inside = true;
                for (size_t d = 0; d < rank; ++d) {
                    if (map.dims[d].full)
                        continue;
                    index[d] = ops::evaluateIndex(map.dims[d], point);
                    minIndex[d] = std::min(minIndex[d], index[d]);
                    maxIndex[d] = std::max(maxIndex[d], index[d]);
                    inside = inside && index[d] >= 0 && index[d] < input[d];
                }
                for (size_t d = 0; inside && d < rank; ++d)
                    if (!map.dims[d].full)
                        inRange[d].insert(index[d]);
            });
            for (size_t d = 0; d < rank; ++d) {
                ops::Interval range = ops::indexRange(map.dims[d], ranges, input[d]);
                std::string where = "input " + std::to_string(map.operand) + " dim " +
                                    std::to_string(d) + " box " + std::to_string(box) +
                                    ": range [" + std::to_string(range.lo) + ", " +
                                    std::to_string(range.hi) + "]";
                for (int64_t index : inRange[d])
                    if (index < range.lo || index > range.hi)
                        return where + " misses index " + std::to_string(index);
                if (map.dims[d].full && range != ops::Interval{0, input[d] - 1})
                    return where + " is not the whole dim";
                if (!isAffine(map.dims[d]))
                    continue;
                ops::Interval hull{std::max<int64_t>(minIndex[d], 0),
                                   std::min(maxIndex[d], input[d] - 1)};
                if (hull.empty())
                    hull = {};
                if (range != hull)
                    return where + " but the clipped hull is [" + std::to_string(hull.lo) + ", " +
                           std::to_string(hull.hi) + "]";
            }
        }
    }
    return {};
}

std::string formatMap(const ops::LoopNest& nest, int slot) {
    const ops::AccessMap* map = nest.accessFor(slot);
    if (map == nullptr)
        return "<no map>";
    std::string out;
    for (size_t d = 0; d < map->dims.size(); ++d)
        out += (d ? ", " : "") + ops::formatIndex(map->dims[d], nest.loops);
    return out;
}

std::string formatLoops(const ops::LoopNest& nest) {
    std::string out;
    for (size_t i = 0; i < nest.loops.size(); ++i) {
        if (i > 0)
            out += static_cast<int>(i) == nest.outputRank ? " | " : " ";
        else if (nest.outputRank == 0)
            out += "| ";
        out += nest.loops[i].name;
    }
    return out;
}

} // namespace stagecraft::test
