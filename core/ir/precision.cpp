// Converting a graph to another floating-point precision (precision.h):
// tensors change type in place; a weight becomes a derived weight converting
// its bytes on first read; each graph input of a converted type gets a Cast
// that its readers read instead, each such graph output is written under a
// new name and cast back into the output.

#include "ir/precision.h"

#include "ir/const_tensor.h"
#include "support/strings.h"

#include <map>

namespace stagecraft::ir {

namespace {

bool converts(DType type) {
    return type == DType::Float32 || type == DType::Float16 || type == DType::BFloat16;
}

/// ONNX's TensorProto.DataType code of a floating-point type (Cast's `to`).
int64_t onnxCode(DType type) {
    switch (type) {
    case DType::Float16:
        return 10;
    case DType::BFloat16:
        return 16;
    case DType::Float64:
        return 11;
    default:
        return 1;
    }
}

WeightPtr convertedWeight(const Tensor& t, DType precision) {
    WeightPtr source = t.data;
    DType from = t.dtype;
    int64_t count = t.elementCount();
    return makeDerivedWeight(
        count * dtypeSize(precision), "converted to " + std::string(dtypeName(precision)),
        [source, from, count, precision]() -> Expected<std::vector<std::byte>> {
            SC_ASSIGN_OR_RETURN(auto bytes, source->bytes());
            std::vector<std::byte> out(static_cast<size_t>(count * dtypeSize(precision)));
            for (int64_t i = 0; i < count; ++i)
                writeDouble(precision, out, i, readDouble(from, bytes, i));
            return out;
        });
}

std::string freshName(const Graph& g, const std::string& base) {
    std::string name = base;
    for (int k = 2; g.findTensor(name) || g.findOp(name); ++k)
        name = base + "_" + std::to_string(k);
    return name;
}

Op castOp(std::string name, TensorId in, TensorId out, DType to) {
    Op op;
    op.name = std::move(name);
    op.type = "Cast";
    op.attrs.set("to", onnxCode(to));
    op.inputs = {in};
    op.outputs = {out};
    return op;
}

/// A Cast from graph input \p input to a new tensor of \p precision, which
/// every reader of the input now reads.
void castInput(Graph& g, TensorId input, DType precision) {
    std::vector<Use> uses = g.tensor(input).uses;
    std::string base = g.tensor(input).name + "/" + std::string(dtypeName(precision));
    TensorId cast = g.addTensor(freshName(g, base), precision, g.tensor(input).shape);
    for (const Use& use : uses)
        g.setOpInput(use.op, use.slot, cast);
    g.addOp(castOp(freshName(g, base + "/Cast"), input, cast, precision));
}

/// Output \p output keeps its name and type; its producer now writes a
/// renamed tensor of \p precision, cast into it.
void castOutput(Graph& g, TensorId output, DType precision) {
    std::string name = g.tensor(output).name;
    DType type = g.tensor(output).dtype;
    g.renameTensor(output, freshName(g, name + "/" + std::string(dtypeName(precision))));
    g.mutableTensor(output).dtype = precision;
    TensorId kept = g.addTensor(name, type, g.tensor(output).shape);
    std::vector<TensorId> outputs = g.outputs();
    for (TensorId& o : outputs)
        if (o == output)
            o = kept;
    g.setOutputs(std::move(outputs));
    g.addOp(castOp(freshName(g, name + "/Cast"), output, kept, type));
}

} // namespace

Expected<DType> parsePrecision(std::string_view text) {
    if (text == "f32")
        return DType::Float32;
    if (text == "f16")
        return DType::Float16;
    if (text == "bf16")
        return DType::BFloat16;
    return Error("unknown precision " + quote(text) + " (expected f32, f16 or bf16)");
}

std::optional<DType> modelPrecision(const Graph& graph) {
    std::map<DType, int64_t> bytes;
    for (TensorId id : graph.tensorIds()) {
        const Tensor& t = graph.tensor(id);
        if (converts(t.dtype) && !graph.isGraphInput(id) && !graph.isGraphOutput(id))
            bytes[t.dtype] += t.byteSize();
    }
    std::optional<DType> most;
    for (const auto& [type, count] : bytes)
        if (!most || count > bytes[*most])
            most = type;
    return most;
}

Expected<Graph> convertPrecision(const Graph& graph, DType precision) {
    if (!converts(precision))
        return Error("unknown precision " + quote(dtypeName(precision)) +
                     " (expected f32, f16 or bf16)");
    Graph g = graph;
    // The casts added below are not revisited: the range is taken once.
    IdRange<TensorId> originalTensors = g.tensorIds();
    for (TensorId id : originalTensors) {
        const Tensor& t = g.tensor(id);
        if (!converts(t.dtype) || t.dtype == precision)
            continue;
        if (g.isGraphInput(id)) {
            castInput(g, id, precision);
        } else if (g.isGraphOutput(id) && t.producer != kNoOp) {
            castOutput(g, id, precision);
        } else {
            if (t.isConstant())
                g.mutableTensor(id).data = convertedWeight(t, precision);
            g.mutableTensor(id).dtype = precision;
        }
    }
    for (OpId op : g.opIds()) {
        Op& o = g.mutableOp(op);
        if (o.kind != OpKind::Cast || o.outputs.size() != 1)
            continue;
        DType to = g.tensor(o.outputs.front()).dtype;
        if (converts(to) || to == DType::Float64)
            o.attrs.set("to", onnxCode(to));
    }
    SC_RETURN_IF_ERROR(g.compact());
    SC_RETURN_IF_ERROR(validateGraph(g));
    return g;
}

} // namespace stagecraft::ir
