// Standard graph simplifications after shape inference, each switchable:
// BatchNormalization folded into the Conv/ConvTranspose before it (weights
// rescaled lazily, as derived weights), Identity/Dropout dropped; then dead
// ops removed and the graph compacted into topological order.

#include "onnx/internal/import_session.h"
#include "support/strings.h"

#include <cmath>

namespace stagecraft::onnxio {

namespace {

using ir::Graph;
using ir::OpId;
using ir::TensorId;

struct BatchNormParams {
    ir::WeightPtr scale, bias, mean, var;
    double epsilon;
};

std::vector<double> readDoubles(const ir::Tensor& t, std::span<const std::byte> bytes) {
    std::vector<double> values(static_cast<size_t>(t.elementCount()));
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = ir::readDouble(t.dtype, bytes, static_cast<int64_t>(i));
    return values;
}

/// Per-output-channel factors scale / sqrt(var + eps) and shifts B - mean * factor.
Expected<std::pair<std::vector<double>, std::vector<double>>>
bnAffine(const BatchNormParams& p, ir::DType dtype, int64_t channels) {
    ir::Tensor view;
    view.dtype = dtype;
    view.shape = {channels};
    SC_ASSIGN_OR_RETURN(auto scale, p.scale->bytes());
    SC_ASSIGN_OR_RETURN(auto bias, p.bias->bytes());
    SC_ASSIGN_OR_RETURN(auto mean, p.mean->bytes());
    SC_ASSIGN_OR_RETURN(auto var, p.var->bytes());
    auto s = readDoubles(view, scale), b = readDoubles(view, bias), m = readDoubles(view, mean),
         v = readDoubles(view, var);
    std::vector<double> factor(s.size()), shift(s.size());
    for (size_t c = 0; c < s.size(); ++c) {
        factor[c] = s[c] / std::sqrt(v[c] + p.epsilon);
        shift[c] = b[c] - m[c] * factor[c];
    }
    return std::make_pair(factor, shift);
}

class BatchNormFolder {
public:
    explicit BatchNormFolder(ImportSession& session)
        : s_(session)
        , g_(session.graph) {}

    void run() {
        for (OpId bn : g_.opIds()) {
            if (!g_.isRemoved(bn) && g_.op(bn).kind == ir::OpKind::BatchNormalization)
                tryFold(bn);
        }
    }

private:
    bool constant(TensorId id) const { return id != ir::kNoTensor && g_.tensor(id).isConstant(); }

    void tryFold(OpId bnId) {
        const ir::Op& bn = g_.op(bnId);
        TensorId x = bn.inputs[0];
        OpId convId = g_.tensor(x).producer;
        if (convId == ir::kNoOp || g_.tensor(x).uses.size() != 1 || g_.isGraphOutput(x))
            return;
        const ir::Op& conv = g_.op(convId);
        bool transposed = conv.kind == ir::OpKind::ConvTranspose;
        if ((conv.kind != ir::OpKind::Conv && !transposed) || !constant(conv.inputs[1]) ||
            (conv.inputs.size() > 2 && conv.inputs[2] != ir::kNoTensor &&
             !constant(conv.inputs[2])))
            return;
        for (int i = 1; i < 5; ++i)
            if (!constant(bn.inputs[static_cast<size_t>(i)]))
                return;
        BatchNormParams params{g_.tensor(bn.inputs[1]).data, g_.tensor(bn.inputs[2]).data,
                               g_.tensor(bn.inputs[3]).data, g_.tensor(bn.inputs[4]).data,
                               bn.attrs.getFloat("epsilon", 1e-5)};
        ir::DType paramType = g_.tensor(bn.inputs[1]).dtype;
        fold(convId, bnId, params, paramType, transposed);
    }

    std::string freshName(const std::string& base) const {
        std::string name = base;
        for (int k = 2; g_.findTensor(name); ++k)
            name = base + "_" + std::to_string(k);
        return name;
    }

    void fold(OpId convId, OpId bnId, const BatchNormParams& params, ir::DType paramType,
              bool transposed) {
        ir::Op conv = g_.op(convId);
        TensorId output = g_.op(bnId).outputs[0];
        const ir::Tensor& w = g_.tensor(conv.inputs[1]);
        int64_t group = conv.attrs.getInt("group", 1);
        int64_t channels = transposed ? w.shape[1] * group : w.shape[0];
        int64_t perChannel = w.elementCount() / (transposed ? w.shape[0] * w.shape[1] : w.shape[0]);
        ir::WeightPtr weight = w.data;
        ir::WeightPtr bias = conv.inputs.size() > 2 && conv.inputs[2] != ir::kNoTensor
                                 ? g_.tensor(conv.inputs[2]).data
                                 : nullptr;
        ir::DType wType = w.dtype;
        ir::Shape wShape = w.shape;
        auto newWeight = ir::makeDerivedWeight(
            w.byteSize(), "BatchNormalization folded into " + quote(conv.name),
            [=]() -> Expected<std::vector<std::byte>> {
                SC_ASSIGN_OR_RETURN(auto affine, bnAffine(params, paramType, channels));
                SC_ASSIGN_OR_RETURN(auto src, weight->bytes());
                std::vector<std::byte> out(src.begin(), src.end());
                int64_t count = ir::elementCount(wShape);
                for (int64_t i = 0; i < count; ++i) {
                    int64_t outer = i / perChannel; // W[co] for Conv, W[ci][j] for ConvTranspose
                    int64_t channel = outer;
                    if (transposed) {
                        int64_t ci = outer / wShape[1], j = outer % wShape[1];
                        channel = ci / (wShape[0] / group) * wShape[1] + j;
                    }
                    double v =
                        ir::readDouble(wType, src, i) * affine.first[static_cast<size_t>(channel)];
                    ir::writeDouble(wType, out, i, v);
                }
                return out;
            });
        auto newBias = ir::makeDerivedWeight(
            channels * ir::dtypeSize(wType), "BatchNormalization folded into " + quote(conv.name),
            [=]() -> Expected<std::vector<std::byte>> {
                SC_ASSIGN_OR_RETURN(auto affine, bnAffine(params, paramType, channels));
                std::vector<double> b(static_cast<size_t>(channels), 0.0);
                if (bias) {
                    SC_ASSIGN_OR_RETURN(auto bytes, bias->bytes());
                    for (size_t c = 0; c < b.size(); ++c)
                        b[c] = ir::readDouble(wType, bytes, static_cast<int64_t>(c));
                }
                std::vector<std::byte> out(static_cast<size_t>(channels * ir::dtypeSize(wType)));
                for (size_t c = 0; c < b.size(); ++c)
                    ir::writeDouble(wType, out, static_cast<int64_t>(c),
                                    b[c] * affine.first[c] + affine.second[c]);
                return out;
            });
        TensorId weightId =
            g_.addTensor(freshName(conv.name + ".weight_bn"), wType, wShape, newWeight);
        TensorId biasId =
            g_.addTensor(freshName(conv.name + ".bias_bn"), wType, {channels}, newBias);
        g_.removeOp(convId);
        g_.removeOp(bnId);
        conv.inputs = {conv.inputs[0], weightId, biasId};
        conv.outputs = {output};
        g_.addOp(std::move(conv));
    }

    ImportSession& s_;
    Graph& g_;
};

/// Drops Identity and Dropout (inference: the output is the input). The
/// output name survives when it is a graph output.
void dropIdentities(Graph& g) {
    for (OpId id : g.opIds()) {
        const ir::Op& op = g.op(id);
        if (g.isRemoved(id) || (op.kind != ir::OpKind::Identity && op.kind != ir::OpKind::Dropout))
            continue;
        if (op.inputs.empty() || op.inputs[0] == ir::kNoTensor)
            continue;
        if (op.outputs.size() > 1 &&
            (!g.tensor(op.outputs[1]).uses.empty() || g.isGraphOutput(op.outputs[1])))
            continue; // Dropout's mask is read
        TensorId in = op.inputs[0], out = op.outputs[0];
        bool outIsGraphOutput = g.isGraphOutput(out);
        if (outIsGraphOutput &&
            (g.isGraphInput(in) || g.isGraphOutput(in) || g.tensor(in).isConstant()))
            continue;
        std::string name = g.tensor(out).name;
        g.replaceUses(out, in);
        g.removeOp(id);
        if (outIsGraphOutput) {
            g.renameTensor(out, name + ".removed");
            g.renameTensor(in, name);
        }
    }
}

Status removeDeadOps(ImportSession& session) {
    Graph& g = session.graph;
    auto order = ir::topologicalOrder(g);
    if (!order.ok())
        return session.error(order.error().message());
    for (auto it = order->rbegin(); it != order->rend(); ++it) {
        bool live = false;
        for (TensorId out : g.op(*it).outputs)
            live = live || !g.tensor(out).uses.empty() || g.isGraphOutput(out);
        if (!live)
            g.removeOp(*it);
    }
    return Status::success();
}

} // namespace

Status simplifyGraph(ImportSession& session) {
    if (session.options.foldBatchNorm)
        BatchNormFolder(session).run();
    if (session.options.foldQdq)
        foldQdq(session.graph);
    if (session.options.signWeights)
        signWeights(session.graph);
    if (session.options.dropIdentity)
        dropIdentities(session.graph);
    SC_RETURN_IF_ERROR(removeDeadOps(session));
    auto compacted = session.graph.compact();
    if (!compacted.ok())
        return session.error(compacted.error().message());
    return Status::success();
}

} // namespace stagecraft::onnxio
