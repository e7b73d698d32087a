// The cost of an op: MACs, FLOPs and bytes (docs/op-semantics.md, "Costs"),
// the inputs of GraphTurbo §3.1's recomputation cost model and of the
// simulator's roofline bound (FLOPs against peak compute, bytes against DDR).
//
// MACs: complex ops only. Conv, MatMul and Gemm do one multiply-accumulate
// per point of their loop nest. ConvTranspose's nest is a gather over its
// output whose (o, k) pairs mostly read nothing when stride > 1, so its MACs
// are the real multiply count N*Cin*prod(input spatial)*(Cout/G)*prod(kernel).
// FLOPs: 2 per MAC for complex ops; output elements times a per-op count for
// elementwise ops (the table below: 1 for arithmetic, comparisons, Relu,
// Clip, Cast; 4 for a transcendental function; the sum of the parts for
// composites); 0 for injective ops (pure data movement; Resize's linear taps
// included); the product of all loop extents for reductions and pools (one
// operation per element visited); a stated count per output element for the
// Softmax family and the normalizations; 0 for opaque ops (unknown work).
// Bytes: every distinct present input tensor once, every output once.

#include "ops/internal/cost.h"

#include <algorithm>
#include <map>
#include <variant>

namespace stagecraft::ops::detail {

namespace {

int64_t product(const std::vector<LoopDim>& loops, size_t count) {
    int64_t total = 1;
    for (size_t i = 0; i < count; ++i)
        total *= loops[i].extent;
    return total;
}

int64_t convTransposeMacs(const OpContext& ctx) {
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& w = ctx.inputShape(1); // [Cin, Cout/G, kernel...]
    int64_t macs = x[0] * x[1] * w[1];
    for (size_t i = 2; i < x.size(); ++i)
        macs *= x[i] * w[i];
    return macs;
}

const std::map<std::string_view, int64_t>& elementwiseTable() {
    static const std::map<std::string_view, int64_t> table = [] {
        std::map<std::string_view, int64_t> t;
        for (std::string_view type : {"Abs",         "Add",       "And",        "BitwiseAnd",
                                      "BitwiseNot",  "BitwiseOr", "BitwiseXor", "Cast",
                                      "Ceil",        "Clip",      "Div",        "Dropout",
                                      "Equal",       "Floor",     "Greater",    "GreaterOrEqual",
                                      "Identity",    "IsInf",     "IsNaN",      "Less",
                                      "LessOrEqual", "Mod",       "Mul",        "Neg",
                                      "Not",         "Or",        "Reciprocal", "Relu",
                                      "Round",       "Sign",      "Sub",        "ThresholdedRelu",
                                      "Where",       "Xor"})
            t[type] = 1;
        for (std::string_view type :
             {"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cos", "Cosh", "Erf", "Exp", "Log",
              "Pow", "Sigmoid", "Sin", "Sinh", "Sqrt", "Tan", "Tanh"})
            t[type] = 4;
        t["LeakyRelu"] = 2;          // compare, multiply
        t["PRelu"] = 2;              // compare, multiply
        t["Shrink"] = 2;             // compare, add
        t["Softsign"] = 3;           // abs, add, divide
        t["HardSigmoid"] = 4;        // multiply, add, min, max
        t["BatchNormalization"] = 4; // subtract mean, times 1/sqrt(var), times scale, add bias
        t["HardSwish"] = 5;          // HardSigmoid, multiply
        t["Elu"] = 7;                // compare, exp, subtract, multiply
        t["Selu"] = 8;               // Elu, multiply
        t["Softplus"] = 9;           // exp, add, log
        t["Celu"] = 10;              // divide, exp, subtract, multiply, min, max, add
        t["Mish"] = 14;              // Softplus, tanh, multiply
        return t;
    }();
    return table;
}

int presentInputs(const ir::Op& op) {
    return static_cast<int>(std::count_if(op.inputs.begin(), op.inputs.end(),
                                          [](ir::TensorId t) { return t != ir::kNoTensor; }));
}

} // namespace

int64_t elementwiseCost(const ir::Op& op) {
    if (op.type == "Sum" || op.type == "Max" || op.type == "Min")
        return std::max(1, presentInputs(op) - 1); // n - 1 binary operations
    if (op.type == "Mean")
        return std::max(1, presentInputs(op)); // n - 1 additions and a scale
    if (op.type == "Gelu") {
        const ir::AttrValue* approximate = op.attrs.find("approximate");
        const auto* text = approximate ? std::get_if<std::string>(approximate) : nullptr;
        // exact: divide, erf, add, multiply, multiply; tanh: a cubic polynomial (6), tanh, 2 more
        return text && *text == "tanh" ? 12 : 8;
    }
    auto it = elementwiseTable().find(op.type);
    return it == elementwiseTable().end() ? 0 : it->second;
}

int64_t normalizationCost(std::string_view opType) {
    if (opType == "Softmax" || opType == "LogSoftmax")
        return 8; // max, subtract, exp, accumulate, divide (or subtract the log-sum)
    if (opType == "Hardmax")
        return 2; // compare, write
    if (opType == "LayerNormalization" || opType == "InstanceNormalization")
        return 7; // mean, subtract, square, accumulate, normalize, scale, bias
    return 0;
}

OpCost computeCost(const OpContext& ctx, Category category, const std::vector<LoopNest>& nests) {
    OpCost cost;
    const ir::Op& op = ctx.op();
    std::vector<ir::TensorId> inputs;
    for (ir::TensorId t : op.inputs)
        if (t != ir::kNoTensor && std::find(inputs.begin(), inputs.end(), t) == inputs.end())
            inputs.push_back(t);
    for (ir::TensorId t : inputs)
        cost.bytesRead += ctx.graph().tensor(t).byteSize();
    for (ir::TensorId t : op.outputs)
        cost.bytesWritten += ctx.graph().tensor(t).byteSize();
    if (nests.empty())
        return cost;

    const LoopNest& nest = nests.front();
    int64_t outputElements = product(nest.loops, static_cast<size_t>(nest.outputRank));
    int64_t allPoints = product(nest.loops, nest.loops.size());
    switch (category) {
    case Category::Complex:
        cost.macs = op.type == "ConvTranspose" ? convTransposeMacs(ctx) : allPoints;
        cost.flops = 2 * cost.macs;
        break;
    case Category::Elementwise:
        cost.flops = outputElements * elementwiseCost(op);
        break;
    case Category::Reduction: {
        int64_t perElement = normalizationCost(op.type);
        cost.flops = perElement ? outputElements * perElement : allPoints;
        break;
    }
    case Category::Injective:
    case Category::Opaque:
        break;
    }
    return cost;
}

} // namespace stagecraft::ops::detail
