// Folds the QDQ format into integer ops (ImportOptions::foldQdq). Quantizers
// (ONNX Runtime's, TensorRT's) write a quantized model as float ops between
// DequantizeLinear and QuantizeLinear; a DSA compiler runs such a complex op
// on its integer units instead, as the folds below do:
//
//   Q(Conv(DQ(x), DQ(w)[, DQ(b)]))  ->  QLinearConv(x, xs, xz, w, ws, wz, ys, yz[, b])
//   Q(MatMul(DQ(a), DQ(b)))         ->  QLinearMatMul(a, as, az, b, bs, bz, ys, yz)
//
// Conditions: x, a and the output are quantized per tensor; w per tensor or
// per output channel (axis 0), b per tensor or per column (axis 1 of a
// matrix); the operands are 8-bit; the float result and the dequantized
// operands feed nothing else that the fold removes. A bias must be int32
// dequantized with zero point 0 and scale x_scale * w_scale (the QDQ
// format's rule), so its integers are QLinearConv's. A Relu between the op
// and Q is folded too when Q's zero point is its type's minimum: saturation
// then clips the negatives to the same value (exact). Anything else stays
// float. docs/onnx-import.md, "QDQ".

#include "onnx/internal/import_session.h"

namespace stagecraft::onnxio {

namespace {

using ir::Graph;
using ir::OpId;
using ir::TensorId;

class QdqFolder {
public:
    explicit QdqFolder(Graph& graph)
        : g_(graph) {}

    int run() {
        int folded = 0;
        for (OpId q : g_.opIds())
            if (!g_.isRemoved(q) && g_.op(q).kind == ir::OpKind::QuantizeLinear && tryFold(q))
                ++folded;
        return folded;
    }

private:
    /// The op producing \p t when it is of \p kind, else kNoOp.
    OpId producerOf(TensorId t, ir::OpKind kind) const {
        if (t == ir::kNoTensor)
            return ir::kNoOp;
        OpId p = g_.tensor(t).producer;
        return p != ir::kNoOp && g_.op(p).kind == kind ? p : ir::kNoOp;
    }

    bool onlyUse(TensorId t) const { return g_.tensor(t).uses.size() == 1 && !g_.isGraphOutput(t); }

    bool is8Bit(TensorId t) const {
        ir::DType d = g_.tensor(t).dtype;
        return d == ir::DType::Int8 || d == ir::DType::UInt8;
    }

    bool perTensor(TensorId t) const {
        return t == ir::kNoTensor || g_.tensor(t).elementCount() == 1;
    }

    /// The input of slot \p i, or kNoTensor.
    TensorId input(OpId op, size_t i) const {
        const auto& in = g_.op(op).inputs;
        return i < in.size() ? in[i] : ir::kNoTensor;
    }

    /// A DequantizeLinear of an 8-bit tensor whose scale and zero point are
    /// per tensor, or (with \p axis >= 0) a vector along \p axis.
    bool quantizedOperand(OpId dq, int64_t axis) const {
        if (dq == ir::kNoOp || !is8Bit(input(dq, 0)))
            return false;
        TensorId scale = input(dq, 1), zero = input(dq, 2);
        if (perTensor(scale) && perTensor(zero))
            return true;
        const ir::Tensor& x = g_.tensor(input(dq, 0));
        if (axis < 0 || g_.op(dq).attrs.getInt("axis", 1) != axis ||
            static_cast<size_t>(axis) >= x.shape.size())
            return false;
        ir::Shape along{x.shape[static_cast<size_t>(axis)]};
        return g_.tensor(scale).shape == along &&
               (zero == ir::kNoTensor || g_.tensor(zero).shape == along);
    }

    /// Values of a constant tensor as doubles; empty when not constant.
    std::vector<double> constantValues(TensorId t) const {
        if (t == ir::kNoTensor || !g_.tensor(t).isConstant())
            return {};
        auto bytes = g_.tensor(t).data->bytes();
        if (!bytes.ok())
            return {};
        std::vector<double> values;
        for (int64_t i = 0; i < g_.tensor(t).elementCount(); ++i)
            values.push_back(ir::readDouble(g_.tensor(t).dtype, *bytes, i));
        return values;
    }

    /// Q's zero point is the minimum of its type: a Relu before it is void.
    bool saturationClipsNegatives(OpId q) const {
        TensorId zero = input(q, 2);
        ir::DType type = g_.tensor(g_.op(q).outputs[0]).dtype;
        double minimum = type == ir::DType::Int8 ? -128 : 0;
        if (zero == ir::kNoTensor)
            return minimum == 0;
        std::vector<double> z = constantValues(zero);
        return z.size() == 1 && z[0] == minimum;
    }

    /// The int32 bias of a QDQ Conv: DQ(b, x_scale * w_scale, 0).
    TensorId integerBias(OpId conv, OpId dqX, OpId dqW) const {
        OpId dqB = producerOf(input(conv, 2), ir::OpKind::DequantizeLinear);
        if (dqB == ir::kNoOp || g_.tensor(input(dqB, 0)).dtype != ir::DType::Int32 ||
            !onlyUse(input(conv, 2)))
            return ir::kNoTensor;
        std::vector<double> zero = constantValues(input(dqB, 2));
        for (double z : zero)
            if (z != 0)
                return ir::kNoTensor;
        std::vector<double> bs = constantValues(input(dqB, 1));
        std::vector<double> xs = constantValues(input(dqX, 1));
        std::vector<double> ws = constantValues(input(dqW, 1));
        if (bs.empty() || xs.size() != 1 || ws.empty())
            return ir::kNoTensor;
        for (size_t c = 0; c < bs.size(); ++c) {
            float expected = static_cast<float>(xs[0]) * static_cast<float>(ws[c % ws.size()]);
            if (static_cast<float>(bs[c]) != expected)
                return ir::kNoTensor;
        }
        return input(dqB, 0);
    }

    bool tryFold(OpId q) {
        if (!perTensor(input(q, 1)) || !perTensor(input(q, 2)) || !is8Bit(g_.op(q).outputs[0]))
            return false;
        TensorId result = input(q, 0);
        if (!onlyUse(result))
            return false;
        OpId relu = producerOf(result, ir::OpKind::Relu);
        if (relu != ir::kNoOp) {
            if (!saturationClipsNegatives(q) || !onlyUse(input(relu, 0)))
                return false;
            result = input(relu, 0);
        }
        OpId op = g_.tensor(result).producer;
        if (op == ir::kNoOp)
            return false;
        if (g_.op(op).kind == ir::OpKind::Conv)
            return foldConv(q, relu, op);
        if (g_.op(op).kind == ir::OpKind::MatMul)
            return foldMatMul(q, relu, op);
        return false;
    }

    bool foldConv(OpId q, OpId relu, OpId conv) {
        OpId dqX = producerOf(input(conv, 0), ir::OpKind::DequantizeLinear);
        OpId dqW = producerOf(input(conv, 1), ir::OpKind::DequantizeLinear);
        if (!quantizedOperand(dqX, -1) || !quantizedOperand(dqW, 0))
            return false;
        TensorId bias = ir::kNoTensor;
        if (input(conv, 2) != ir::kNoTensor) {
            bias = integerBias(conv, dqX, dqW);
            if (bias == ir::kNoTensor)
                return false;
        }
        replace(q, relu, conv, "QLinearConv", dqX, dqW, bias);
        return true;
    }

    bool foldMatMul(OpId q, OpId relu, OpId matmul) {
        OpId dqA = producerOf(input(matmul, 0), ir::OpKind::DequantizeLinear);
        OpId dqB = producerOf(input(matmul, 1), ir::OpKind::DequantizeLinear);
        if (!quantizedOperand(dqA, -1))
            return false;
        bool matrix = dqB != ir::kNoOp && g_.tensor(input(dqB, 0)).shape.size() == 2;
        if (!quantizedOperand(dqB, matrix ? 1 : -1))
            return false;
        replace(q, relu, matmul, "QLinearMatMul", dqA, dqB, ir::kNoTensor);
        return true;
    }

    /// Slot 2 of a DequantizeLinear or QuantizeLinear, or a constant 0 of
    /// \p type where it is omitted (the QLinear ops require it).
    TensorId zeroPoint(OpId op, ir::DType type) {
        if (TensorId zero = input(op, 2); zero != ir::kNoTensor)
            return zero;
        std::string name = g_.op(op).name + ".zero_point";
        for (int k = 2; g_.findTensor(name); ++k)
            name = g_.op(op).name + ".zero_point_" + std::to_string(k);
        std::vector<std::byte> zero(static_cast<size_t>(ir::dtypeSize(type)), std::byte{0});
        return g_.addTensor(name, type, {}, ir::makeInlineWeight(std::move(zero)));
    }

    /// The op, its Relu and Q become one integer op writing Q's output.
    void replace(OpId q, OpId relu, OpId op, const char* type, OpId dqA, OpId dqB, TensorId bias) {
        ir::Op folded;
        folded.name = g_.op(op).name;
        folded.type = type;
        folded.attrs = g_.op(op).attrs;
        auto zeroOf = [&](OpId dq) {
            return zeroPoint(dq, g_.tensor(input(dq, 0)).dtype);
        };
        TensorId yZero = zeroPoint(q, g_.tensor(g_.op(q).outputs[0]).dtype);
        folded.inputs = {input(dqA, 0), input(dqA, 1), zeroOf(dqA), input(dqB, 0),
                         input(dqB, 1), zeroOf(dqB),   input(q, 1), yZero};
        if (bias != ir::kNoTensor)
            folded.inputs.push_back(bias);
        folded.outputs = g_.op(q).outputs;
        g_.removeOp(q);
        if (relu != ir::kNoOp)
            g_.removeOp(relu);
        g_.removeOp(op);
        g_.addOp(std::move(folded));
    }

    Graph& g_;
};

} // namespace

int foldQdq(Graph& graph) {
    return QdqFolder(graph).run();
}

} // namespace stagecraft::onnxio
