// Constant folding: evaluates canonical ops on constant inputs. Integer
// tensors are computed in int64 (exact, as shape arithmetic needs: Slice ends
// of INT64_MAX must survive), floating-point tensors in double. Data movement
// is a remapping of element indices. Small tensors only at import time;
// larger folded constants are evaluated lazily, when their bytes are asked for.

#include "onnx/internal/const_eval.h"

#include "support/strings.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

namespace stagecraft::onnxio {

namespace {

using ir::ConstTensor;
using ir::DType;
using ir::Shape;

bool integral(DType t) {
    return ir::isInteger(t) || t == DType::Bool;
}

/// Flat index into \p in (broadcast against the output) of output coordinate \p coord.
int64_t broadcastIndex(const Shape& in, const std::vector<int64_t>& coord) {
    size_t offset = coord.size() - in.size();
    int64_t index = 0;
    for (size_t i = 0; i < in.size(); ++i)
        index = index * in[i] + (in[i] == 1 ? 0 : coord[i + offset]);
    return index;
}

void advance(std::vector<int64_t>& coord, const Shape& shape) {
    for (size_t i = coord.size(); i-- > 0;) {
        if (++coord[i] < shape[i])
            return;
        coord[i] = 0;
    }
}

/// An output whose element i is input element index(coord(i)) (byte copy).
ConstTensor remap(const ConstTensor& in, const OutputType& out,
                  const std::function<int64_t(const std::vector<int64_t>&)>& index) {
    int64_t size = ir::dtypeSize(in.dtype());
    int64_t count = ir::elementCount(out.shape);
    std::vector<std::byte> bytes(static_cast<size_t>(count * size));
    std::vector<int64_t> coord(out.shape.size(), 0);
    for (int64_t i = 0; i < count; ++i, advance(coord, out.shape))
        std::memcpy(bytes.data() + i * size, in.bytes().data() + index(coord) * size,
                    static_cast<size_t>(size));
    return ConstTensor(in.dtype(), out.shape, std::move(bytes));
}

using Values = std::vector<const ConstTensor*>;

/// Elementwise n-ary op with broadcasting, computed in double.
ConstTensor mapDouble(const Values& in, const OutputType& out,
                      const std::function<double(const double*)>& f) {
    int64_t count = ir::elementCount(out.shape);
    std::vector<double> result(static_cast<size_t>(count));
    std::vector<int64_t> coord(out.shape.size(), 0);
    std::vector<double> args(in.size());
    for (int64_t i = 0; i < count; ++i, advance(coord, out.shape)) {
        for (size_t k = 0; k < in.size(); ++k)
            args[k] = ir::readDouble(in[k]->dtype(), in[k]->bytes(),
                                     broadcastIndex(in[k]->shape(), coord));
        result[static_cast<size_t>(i)] = f(args.data());
    }
    return ConstTensor::fromDoubles(out.dtype, out.shape, result);
}

/// Elementwise n-ary op with broadcasting, computed in int64.
ConstTensor mapInt(const Values& in, const OutputType& out,
                   const std::function<int64_t(const int64_t*)>& f) {
    int64_t count = ir::elementCount(out.shape);
    std::vector<int64_t> result(static_cast<size_t>(count));
    std::vector<int64_t> coord(out.shape.size(), 0);
    std::vector<int64_t> args(in.size());
    for (int64_t i = 0; i < count; ++i, advance(coord, out.shape)) {
        for (size_t k = 0; k < in.size(); ++k)
            args[k] = ir::readInt64(in[k]->dtype(), in[k]->bytes(),
                                    broadcastIndex(in[k]->shape(), coord));
        result[static_cast<size_t>(i)] = f(args.data());
    }
    return ConstTensor::fromInt64s(out.dtype, out.shape, result);
}

struct Arith {
    std::function<double(double, double)> real;
    std::function<int64_t(int64_t, int64_t)> integer;
};

int64_t intPow(int64_t base, int64_t exponent) {
    int64_t result = 1;
    for (int64_t i = 0; i < exponent && i < 64; ++i)
        result *= base;
    return result;
}

const std::map<std::string_view, Arith>& binaryOps() {
    static const std::map<std::string_view, Arith> ops{
        {"Add",
         {std::plus<double>(),
          [](int64_t a, int64_t b) {
              return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
          }}},
        {"Sub",
         {std::minus<double>(),
          [](int64_t a, int64_t b) {
              return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
          }}},
        {"Mul",
         {std::multiplies<double>(),
          [](int64_t a, int64_t b) {
              return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
          }}},
        {"Div",
         {std::divides<double>(),
          [](int64_t a, int64_t b) {
              return b == 0 ? 0 : (a == INT64_MIN && b == -1 ? a : a / b);
          }}},
        {"Pow", {[](double a, double b) { return std::pow(a, b); }, intPow}},
        {"Max",
         {[](double a, double b) { return std::max(a, b); },
          [](int64_t a, int64_t b) {
              return std::max(a, b);
          }}},
        {"Min",
         {[](double a, double b) { return std::min(a, b); },
          [](int64_t a, int64_t b) {
              return std::min(a, b);
          }}},
        {"Mod",
         {[](double a, double b) { return std::fmod(a, b); },
          [](int64_t a, int64_t b) {
              return b == 0 || b == -1 ? 0 : ((a % b) + b) % b;
          }}},
    };
    return ops;
}

const std::map<std::string_view, std::function<bool(double, double)>>& compareOps() {
    static const std::map<std::string_view, std::function<bool(double, double)>> ops{
        {"Equal", std::equal_to<double>()},
        {"Less", std::less<double>()},
        {"Greater", std::greater<double>()},
        {"LessOrEqual", std::less_equal<double>()},
        {"GreaterOrEqual", std::greater_equal<double>()},
        {"And",
         [](double a, double b) {
             return a != 0 && b != 0;
         }},
        {"Or",
         [](double a, double b) {
             return a != 0 || b != 0;
         }},
        {"Xor",
         [](double a, double b) {
             return (a != 0) != (b != 0);
         }},
    };
    return ops;
}

const std::map<std::string_view, std::function<double(double)>>& unaryOps() {
    static const std::map<std::string_view, std::function<double(double)>> ops{
        {"Neg", std::negate<double>()},
        {"Abs",
         [](double x) {
             return std::fabs(x);
         }},
        {"Sqrt",
         [](double x) {
             return std::sqrt(x);
         }},
        {"Exp",
         [](double x) {
             return std::exp(x);
         }},
        {"Log",
         [](double x) {
             return std::log(x);
         }},
        {"Reciprocal",
         [](double x) {
             return 1.0 / x;
         }},
        {"Floor",
         [](double x) {
             return std::floor(x);
         }},
        {"Ceil",
         [](double x) {
             return std::ceil(x);
         }},
        {"Round",
         [](double x) {
             return std::nearbyint(x);
         }},
        {"Relu",
         [](double x) {
             return std::max(x, 0.0);
         }},
        {"Sigmoid",
         [](double x) {
             return 1.0 / (1.0 + std::exp(-x));
         }},
        {"Tanh",
         [](double x) {
             return std::tanh(x);
         }},
        {"Erf",
         [](double x) {
             return std::erf(x);
         }},
        {"Sign",
         [](double x) {
             return static_cast<double>((x > 0) - (x < 0));
         }},
        {"Not",
         [](double x) {
             return x == 0 ? 1.0 : 0.0;
         }},
    };
    return ops;
}

bool allIntegral(const Values& in) {
    return std::all_of(in.begin(), in.end(),
                       [](const ConstTensor* t) { return integral(t->dtype()); });
}

ConstTensor evalBinary(const ir::Op& op, const Values& in, const OutputType& out) {
    const Arith& arith = binaryOps().at(op.type);
    if (integral(out.dtype) && allIntegral(in))
        return mapInt(in, out, [&](const int64_t* v) { return arith.integer(v[0], v[1]); });
    return mapDouble(in, out, [&](const double* v) { return arith.real(v[0], v[1]); });
}

ConstTensor evalCompare(const ir::Op& op, const Values& in, const OutputType& out) {
    const auto& compare = compareOps().at(op.type);
    if (op.type == "Equal" && allIntegral(in))
        return mapInt(in, out, [](const int64_t* v) { return static_cast<int64_t>(v[0] == v[1]); });
    return mapDouble(in, out, [&](const double* v) { return compare(v[0], v[1]) ? 1.0 : 0.0; });
}

ConstTensor evalCast(const Values& in, const OutputType& out) {
    if (integral(out.dtype) && integral(in[0]->dtype()))
        return mapInt(in, out, [](const int64_t* v) { return v[0]; });
    return mapDouble(in, out, [](const double* v) { return v[0]; });
}

ConstTensor evalReduce(const ir::Op& op, const ConstTensor& in, const OutputType& out) {
    std::vector<int64_t> axes = op.attrs.getInts("axes");
    const Shape& shape = in.shape();
    std::vector<double> acc(static_cast<size_t>(ir::elementCount(out.shape)),
                            op.type == "ReduceProd"  ? 1.0
                            : op.type == "ReduceMax" ? -INFINITY
                            : op.type == "ReduceMin" ? INFINITY
                                                     : 0.0);
    Shape kept = shape;
    for (int64_t a : axes)
        kept[static_cast<size_t>(a)] = 1;
    std::vector<int64_t> coord(shape.size(), 0), reduced(shape.size());
    for (int64_t i = 0; i < in.elementCount(); ++i, advance(coord, shape)) {
        for (size_t d = 0; d < shape.size(); ++d)
            reduced[d] = kept[d] == 1 ? 0 : coord[d];
        double& slot = acc[static_cast<size_t>(broadcastIndex(kept, reduced))];
        double v = ir::readDouble(in.dtype(), in.bytes(), i);
        if (op.type == "ReduceProd")
            slot *= v;
        else if (op.type == "ReduceMax")
            slot = std::max(slot, v);
        else if (op.type == "ReduceMin")
            slot = std::min(slot, v);
        else
            slot += v;
    }
    if (op.type == "ReduceMean") {
        int64_t n = in.elementCount() / std::max<int64_t>(1, static_cast<int64_t>(acc.size()));
        for (double& v : acc)
            v /= static_cast<double>(n);
    }
    return ConstTensor::fromDoubles(out.dtype, out.shape, acc);
}

int64_t flatIndex(const Shape& shape, const std::vector<int64_t>& coord) {
    int64_t index = 0;
    for (size_t i = 0; i < shape.size(); ++i)
        index = index * shape[i] + coord[i];
    return index;
}

ConstTensor evalTranspose(const ir::Op& op, const ConstTensor& in, const OutputType& out) {
    std::vector<int64_t> perm = op.attrs.getInts("perm");
    std::vector<int64_t> inCoord(perm.size());
    return remap(in, out, [&](const std::vector<int64_t>& c) {
        for (size_t i = 0; i < perm.size(); ++i)
            inCoord[static_cast<size_t>(perm[i])] = c[i];
        return flatIndex(in.shape(), inCoord);
    });
}

ConstTensor evalSlice(const ir::Op& op, const ConstTensor& in, const OutputType& out) {
    std::vector<int64_t> starts = op.attrs.getInts("starts"), steps = op.attrs.getInts("steps");
    std::vector<int64_t> inCoord(starts.size());
    return remap(in, out, [&](const std::vector<int64_t>& c) {
        for (size_t i = 0; i < c.size(); ++i)
            inCoord[i] = starts[i] + c[i] * steps[i];
        return flatIndex(in.shape(), inCoord);
    });
}

Expected<ConstTensor> evalGather(const ir::Op& op, const ConstTensor& data,
                                 const ConstTensor& indices, const OutputType& out) {
    auto axis = static_cast<size_t>(op.attrs.getInt("axis", 0));
    std::vector<int64_t> idx = indices.toInt64s();
    int64_t extent = data.shape()[axis];
    for (int64_t& i : idx) {
        if (i < 0)
            i += extent;
        if (i < 0 || i >= extent)
            return Error("op " + quote(op.name) + " (Gather): index out of range for dimension " +
                         std::to_string(extent));
    }
    size_t idxRank = indices.shape().size();
    std::vector<int64_t> inCoord(data.shape().size()), idxCoord(idxRank);
    return remap(data, out, [&](const std::vector<int64_t>& c) {
        for (size_t i = 0; i < axis; ++i)
            inCoord[i] = c[i];
        for (size_t i = 0; i < idxRank; ++i)
            idxCoord[i] = c[axis + i];
        inCoord[axis] = idx[static_cast<size_t>(flatIndex(indices.shape(), idxCoord))];
        for (size_t i = axis + 1; i < inCoord.size(); ++i)
            inCoord[i] = c[i + idxRank - 1];
        return flatIndex(data.shape(), inCoord);
    });
}

ConstTensor evalConcat(const ir::Op& op, const Values& in, const OutputType& out) {
    auto axis = static_cast<size_t>(op.attrs.getInt("axis", 0));
    std::vector<std::byte> bytes;
    int64_t size = ir::dtypeSize(out.dtype);
    int64_t outer =
        ir::elementCount(Shape(out.shape.begin(), out.shape.begin() + static_cast<long>(axis)));
    for (int64_t o = 0; o < outer; ++o)
        for (const ConstTensor* t : in) {
            int64_t block = ir::elementCount(Shape(t->shape().begin() + static_cast<long>(axis),
                                                   t->shape().end())) *
                            size;
            auto start = t->bytes().begin() + o * block;
            bytes.insert(bytes.end(), start, start + block);
        }
    return ConstTensor(out.dtype, out.shape, std::move(bytes));
}

Expected<std::vector<ConstTensor>> evalMovement(const ir::Op& op, const Values& in,
                                                const std::vector<OutputType>& outs) {
    const std::string& t = op.type;
    const ConstTensor& x = *in[0];
    if (t == "Reshape" || t == "Flatten" || t == "Squeeze" || t == "Unsqueeze" || t == "Identity" ||
        t == "Dropout") {
        auto bytes = x.bytes();
        std::vector<ConstTensor> result{
            ConstTensor(x.dtype(), outs[0].shape, {bytes.begin(), bytes.end()})};
        for (size_t i = 1; i < outs.size(); ++i) // Dropout's mask: all true
            result.push_back(ConstTensor::fromInt64s(
                outs[i].dtype, outs[i].shape,
                std::vector<int64_t>(static_cast<size_t>(ir::elementCount(outs[i].shape)), 1)));
        return result;
    }
    if (t == "Expand")
        return std::vector<ConstTensor>{
            remap(x, outs[0], [&](const auto& c) { return broadcastIndex(x.shape(), c); })};
    if (t == "Tile")
        return std::vector<ConstTensor>{remap(x, outs[0], [&](const std::vector<int64_t>& c) {
            std::vector<int64_t> inCoord(c.size());
            for (size_t i = 0; i < c.size(); ++i)
                inCoord[i] = c[i] % x.shape()[i];
            return flatIndex(x.shape(), inCoord);
        })};
    if (t == "Transpose")
        return std::vector<ConstTensor>{evalTranspose(op, x, outs[0])};
    if (t == "Slice")
        return std::vector<ConstTensor>{evalSlice(op, x, outs[0])};
    if (t == "Concat")
        return std::vector<ConstTensor>{evalConcat(op, in, outs[0])};
    if (t == "Gather") {
        SC_ASSIGN_OR_RETURN(ConstTensor result, evalGather(op, x, *in[1], outs[0]));
        return std::vector<ConstTensor>{std::move(result)};
    }
    // Split
    auto axis = static_cast<size_t>(op.attrs.getInt("axis", 0));
    std::vector<ConstTensor> result;
    int64_t offset = 0;
    for (const OutputType& out : outs) {
        result.push_back(remap(x, out, [&](const std::vector<int64_t>& c) {
            std::vector<int64_t> inCoord = c;
            inCoord[axis] += offset;
            return flatIndex(x.shape(), inCoord);
        }));
        offset += out.shape[axis];
    }
    return result;
}

bool isMovement(std::string_view t) {
    static const std::vector<std::string_view> ops{
        "Reshape", "Flatten",   "Squeeze", "Unsqueeze", "Identity", "Dropout", "Expand",
        "Tile",    "Transpose", "Slice",   "Concat",    "Gather",   "Split"};
    return std::find(ops.begin(), ops.end(), t) != ops.end();
}

bool isReduce(std::string_view t) {
    return t == "ReduceSum" || t == "ReduceProd" || t == "ReduceMax" || t == "ReduceMin" ||
           t == "ReduceMean";
}

} // namespace

bool canEvaluate(std::string_view opType) {
    return binaryOps().count(opType) || compareOps().count(opType) || unaryOps().count(opType) ||
           isMovement(opType) || isReduce(opType) || opType == "Cast" || opType == "Clip" ||
           opType == "Where" || opType == "ConstantOfShape";
}

Expected<std::vector<ConstTensor>> evaluateOp(const ir::Op& op,
                                              const std::vector<const ConstTensor*>& inputs,
                                              const std::vector<OutputType>& outputs) {
    Values in;
    for (const ConstTensor* t : inputs)
        if (t != nullptr)
            in.push_back(t);
    if (in.empty() || outputs.empty())
        return Error("op " + quote(op.name) + " (" + op.type + "): nothing to evaluate");
    const OutputType& out = outputs[0];
    const std::string& t = op.type;
    if (binaryOps().count(t) && in.size() == 2)
        return std::vector<ConstTensor>{evalBinary(op, in, out)};
    if (compareOps().count(t))
        return std::vector<ConstTensor>{evalCompare(op, in, out)};
    if (unaryOps().count(t)) {
        const auto& f = unaryOps().at(t);
        return std::vector<ConstTensor>{
            mapDouble(in, out, [&](const double* v) { return f(v[0]); })};
    }
    if (t == "Cast")
        return std::vector<ConstTensor>{evalCast(in, out)};
    if (t == "Clip") {
        double low = op.attrs.getFloat("min", -INFINITY), high = op.attrs.getFloat("max", INFINITY);
        return std::vector<ConstTensor>{
            mapDouble(in, out, [&](const double* v) { return std::clamp(v[0], low, high); })};
    }
    if (t == "Where") {
        if (integral(out.dtype))
            return std::vector<ConstTensor>{
                mapInt(in, out, [](const int64_t* v) { return v[0] ? v[1] : v[2]; })};
        return std::vector<ConstTensor>{
            mapDouble(in, out, [](const double* v) { return v[0] != 0 ? v[1] : v[2]; })};
    }
    if (isReduce(t))
        return std::vector<ConstTensor>{evalReduce(op, *in[0], out)};
    if (t == "ConstantOfShape") {
        const ConstTensor* fill = op.attrs.getTensor("value");
        double value = fill != nullptr && fill->elementCount() > 0 ? fill->toDoubles()[0] : 0.0;
        return std::vector<ConstTensor>{ConstTensor::fromDoubles(
            out.dtype, out.shape,
            std::vector<double>(static_cast<size_t>(ir::elementCount(out.shape)), value))};
    }
    if (isMovement(t))
        return evalMovement(op, in, outputs);
    return Error("op " + quote(op.name) + " (" + op.type + "): cannot be evaluated at import time");
}

} // namespace stagecraft::onnxio
