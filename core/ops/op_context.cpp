// Reading one op's shapes and canonical attributes without ever asserting on
// user data: a missing or mistyped attribute, a missing input or a shape that
// contradicts the attributes becomes an Error naming the op (Attributes'
// typed getters would abort on a type mismatch, so values are read with
// std::get_if here). Also the loop and map helpers every builder shares,
// including numpy broadcasting.

#include "ops/internal/op_context.h"

#include "support/strings.h"

#include <algorithm>
#include <variant>

namespace stagecraft::ops::detail {

namespace {

const char* typeName(const ir::AttrValue& value) {
    static constexpr const char* names[] = {
        "an integer",       "a float",           "a string", "a list of integers",
        "a list of floats", "a list of strings", "a tensor"};
    return names[value.index()];
}

} // namespace

std::string str(int64_t value) {
    return std::to_string(value);
}

Error OpContext::error(const std::string& message) const {
    return Error("op " + quote(op_.name) + " (" + op_.type + "): " + message);
}

bool OpContext::hasInput(int slot) const {
    return slot >= 0 && slot < inputSlots() &&
           op_.inputs[static_cast<size_t>(slot)] != ir::kNoTensor;
}

const ir::Shape& OpContext::inputShape(int slot) const {
    SC_ASSERT(hasInput(slot), "shape of an absent input");
    return graph_.tensor(op_.inputs[static_cast<size_t>(slot)]).shape;
}

const ir::Shape& OpContext::outputShape(int index) const {
    SC_ASSERT(index >= 0 && index < outputCount(), "output index out of range");
    return graph_.tensor(op_.outputs[static_cast<size_t>(index)]).shape;
}

Status OpContext::expectInputs(int required, int slots) const {
    for (int slot = 0; slot < required; ++slot)
        if (!hasInput(slot))
            return error("missing input " + str(slot));
    for (int slot = slots; slot < inputSlots(); ++slot)
        if (hasInput(slot))
            return error("unexpected input " + str(slot) + " (the canonical form has at most " +
                         str(slots) + ")");
    return Status::success();
}

Status OpContext::expectOutputs(int minCount, int maxCount) const {
    if (outputCount() < minCount || outputCount() > maxCount)
        return error(
            "has " + str(outputCount()) + " outputs, expected " +
            (minCount == maxCount ? str(minCount) : str(minCount) + " to " + str(maxCount)));
    return Status::success();
}

Status OpContext::expectRank(int slot, int64_t minRank, int64_t maxRank,
                             std::string_view what) const {
    if (!hasInput(slot))
        return error("missing input " + str(slot) + " (" + std::string(what) + ")");
    int64_t rank = inputRank(slot);
    if (rank < minRank || rank > maxRank) {
        std::string wanted = minRank == maxRank      ? str(minRank)
                             : maxRank == kUnbounded ? str(minRank) + " or more"
                                                     : str(minRank) + " to " + str(maxRank);
        return error(std::string(what) + " has rank " + str(rank) + ", expected " + wanted);
    }
    return Status::success();
}

Status OpContext::expectOutputShape(int index, const ir::Shape& expected) const {
    if (outputShape(index) != expected)
        return error("output " + str(index) + " has shape " + ir::formatShape(outputShape(index)) +
                     " but the inputs and attributes give " + ir::formatShape(expected));
    return Status::success();
}

Expected<int64_t> OpContext::intAttr(std::string_view name) const {
    const ir::AttrValue* value = op_.attrs.find(name);
    if (value == nullptr)
        return error("missing attribute " + quote(name));
    if (const auto* typed = std::get_if<int64_t>(value))
        return *typed;
    return error("attribute " + quote(name) + " is " + typeName(*value) + ", expected an integer");
}

Expected<int64_t> OpContext::intAttrOr(std::string_view name, int64_t fallback) const {
    if (!op_.attrs.has(name))
        return fallback;
    return intAttr(name);
}

Expected<std::vector<int64_t>> OpContext::intsAttr(std::string_view name, int64_t size) const {
    const ir::AttrValue* value = op_.attrs.find(name);
    if (value == nullptr)
        return error("missing attribute " + quote(name));
    const auto* typed = std::get_if<std::vector<int64_t>>(value);
    if (typed == nullptr)
        return error("attribute " + quote(name) + " is " + typeName(*value) +
                     ", expected a list of integers");
    if (size >= 0 && static_cast<int64_t>(typed->size()) != size)
        return error("attribute " + quote(name) + " has " +
                     str(static_cast<int64_t>(typed->size())) + " values, expected " + str(size));
    return *typed;
}

Expected<std::vector<double>> OpContext::floatsAttr(std::string_view name, int64_t size) const {
    const ir::AttrValue* value = op_.attrs.find(name);
    if (value == nullptr)
        return error("missing attribute " + quote(name));
    const auto* typed = std::get_if<std::vector<double>>(value);
    if (typed == nullptr)
        return error("attribute " + quote(name) + " is " + typeName(*value) +
                     ", expected a list of floats");
    if (size >= 0 && static_cast<int64_t>(typed->size()) != size)
        return error("attribute " + quote(name) + " has " +
                     str(static_cast<int64_t>(typed->size())) + " values, expected " + str(size));
    return *typed;
}

Expected<std::string> OpContext::stringAttr(std::string_view name) const {
    const ir::AttrValue* value = op_.attrs.find(name);
    if (value == nullptr)
        return error("missing attribute " + quote(name));
    if (const auto* typed = std::get_if<std::string>(value))
        return *typed;
    return error("attribute " + quote(name) + " is " + typeName(*value) + ", expected a string");
}

Expected<std::string> OpContext::stringAttrOr(std::string_view name,
                                              std::string_view fallback) const {
    if (!op_.attrs.has(name))
        return std::string(fallback);
    return stringAttr(name);
}

Expected<int64_t> OpContext::axisAttr(std::string_view name, int64_t rank) const {
    SC_ASSIGN_OR_RETURN(int64_t axis, intAttr(name));
    if (axis < 0 || axis >= rank)
        return error("attribute " + quote(name) + " is " + str(axis) + ", expected 0 to " +
                     str(rank - 1) + " (canonical axes are non-negative)");
    return axis;
}

LoopDim parallelLoop(std::string name, int64_t extent, bool bindable) {
    return {std::move(name), extent, IterKind::Parallel, bindable};
}

LoopDim reductionLoop(std::string name, int64_t extent) {
    return {std::move(name), extent, IterKind::Reduction, false};
}

std::vector<LoopDim> outputLoops(const ir::Shape& shape) {
    std::vector<LoopDim> loops;
    for (size_t i = 0; i < shape.size(); ++i)
        loops.push_back(parallelLoop("d" + std::to_string(i), shape[i]));
    return loops;
}

IndexExpr loopIndex(int loop) {
    return affineIndex(loop, 1, 0);
}

IndexExpr affineIndex(int loop, int64_t coeff, int64_t offset) {
    IndexExpr expr;
    expr.terms.push_back({loop, coeff, 1, 0});
    expr.offset = offset;
    return expr;
}

IndexExpr fullIndex() {
    IndexExpr expr;
    expr.full = true;
    return expr;
}

IndexExpr constantIndex(int64_t value) {
    IndexExpr expr;
    expr.offset = value;
    return expr;
}

Expected<AccessMap> broadcastMap(const OpContext& ctx, int slot, const ir::Shape& out) {
    const ir::Shape& in = ctx.inputShape(slot);
    auto mismatch = [&] {
        return ctx.error("input " + str(slot) + " shape " + ir::formatShape(in) +
                         " does not broadcast to output shape " + ir::formatShape(out));
    };
    if (in.size() > out.size())
        return mismatch();
    AccessMap map{slot, {}};
    size_t lead = out.size() - in.size();
    for (size_t j = 0; j < in.size(); ++j) {
        int64_t outExtent = out[lead + j];
        if (in[j] == outExtent)
            map.dims.push_back(loopIndex(static_cast<int>(lead + j)));
        else if (in[j] == 1)
            map.dims.push_back(constantIndex(0));
        else
            return mismatch();
    }
    return map;
}

AccessMap fullMap(const OpContext& ctx, int slot) {
    AccessMap map{slot, {}};
    map.dims.assign(ctx.inputShape(slot).size(), fullIndex());
    return map;
}

std::optional<ir::Shape> broadcastShapes(const ir::Shape& a, const ir::Shape& b) {
    const ir::Shape& longer = a.size() >= b.size() ? a : b;
    const ir::Shape& shorter = a.size() >= b.size() ? b : a;
    ir::Shape out = longer;
    size_t lead = longer.size() - shorter.size();
    for (size_t j = 0; j < shorter.size(); ++j) {
        int64_t x = longer[lead + j], y = shorter[j];
        if (x == y || y == 1)
            continue;
        if (x != 1)
            return std::nullopt;
        out[lead + j] = y;
    }
    return out;
}

} // namespace stagecraft::ops::detail
