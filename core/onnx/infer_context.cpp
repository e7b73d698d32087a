#include "onnx/internal/infer_context.h"

#include "onnx/internal/const_eval.h"
#include "support/strings.h"

namespace stagecraft::onnxio {

const ir::ConstTensor* ValueTable::get(ir::TensorId id) {
    auto& slot = values_[id];
    if (slot)
        return &*slot;
    const ir::Tensor& tensor = graph_.tensor(id);
    if (!tensor.isConstant() || tensor.byteSize() > kReadLimitBytes)
        return nullptr;
    auto bytes = tensor.data->bytes();
    if (!bytes.ok())
        return nullptr;
    slot = ir::ConstTensor(tensor.dtype, tensor.shape,
                           std::vector<std::byte>(bytes->begin(), bytes->end()));
    return &*slot;
}

void ValueTable::set(ir::TensorId id, ir::ConstTensor value) {
    values_[id] = std::move(value);
}

bool ValueTable::isConstant(ir::TensorId id) const {
    return values_[id].has_value() || graph_.tensor(id).isConstant();
}

const ir::ConstTensor* ImportSession::suppliedValue(ir::TensorId id) {
    const ir::Tensor& t = graph.tensor(id);
    if (!graph.isGraphInput(id))
        return nullptr;
    const ir::ConstTensor* given = nullptr;
    if (auto bound = boundValues.find(t.name); bound != boundValues.end())
        given = &bound->second;
    else if (auto file = options.inputValues.find(t.name); file != options.inputValues.end())
        given = &file->second;
    if (given == nullptr || given->dtype() != t.dtype || given->shape() != t.shape)
        return nullptr;
    compiledIn_.insert(t.name);
    return given;
}

const ir::ConstTensor* InferContext::value(int i) {
    if (!hasInput(i))
        return nullptr;
    return valueOf(op().inputs[static_cast<size_t>(i)], 0);
}

const ir::ConstTensor* InferContext::valueOf(ir::TensorId id, int depth) {
    if (const ir::ConstTensor* v = values_.get(id))
        return v;
    if (const ir::ConstTensor* given = session_.suppliedValue(id))
        return given;
    // Computed from given input values (a window function's Range limit is
    // Cast(size)): evaluated on demand, the result kept with the constants.
    ir::OpId producer = session_.graph.tensor(id).producer;
    constexpr int kMaxDepth = 16;
    if (producer == ir::kNoOp || depth >= kMaxDepth || !session_.hasGivenValues())
        return nullptr;
    const ir::Op& op = session_.graph.op(producer);
    if (!op.domain.empty() || !canEvaluate(op.type))
        return nullptr;
    std::vector<const ir::ConstTensor*> inputs;
    for (ir::TensorId in : op.inputs) {
        inputs.push_back(in == ir::kNoTensor ? nullptr : valueOf(in, depth + 1));
        if (in != ir::kNoTensor && inputs.back() == nullptr)
            return nullptr;
    }
    std::vector<OutputType> types;
    for (ir::TensorId out : op.outputs)
        types.push_back({session_.graph.tensor(out).dtype, session_.graph.tensor(out).shape});
    auto results = evaluateOp(op, inputs, types);
    if (!results.ok())
        return nullptr;
    for (size_t k = 0; k < results->size(); ++k)
        values_.set(op.outputs[k], std::move((*results)[k]));
    return values_.get(id);
}

std::vector<std::string> InferContext::graphInputsBehind(int i) const {
    return ir::graphInputsBehind(session_.graph, op().inputs[static_cast<size_t>(i)]);
}

std::string inputsPhrase(const std::vector<std::string>& names) {
    std::vector<std::string> quoted;
    for (const std::string& name : names)
        quoted.push_back(quote(name));
    return (names.size() == 1 ? "input " : "inputs ") + join(quoted, ", ");
}

std::string valueFlags(const std::vector<std::string>& inputs) {
    std::vector<std::string> flags;
    for (const std::string& name : inputs)
        flags.push_back("--value " + name + "=V");
    return join(flags, " ");
}

Error InferContext::notConstant(int i, const std::string& what) const {
    ir::TensorId id = op().inputs[static_cast<size_t>(i)];
    std::string head = what + " (input " + std::to_string(i) + ")";
    if (session_.graph.isGraphInput(id))
        return error(head + " is the graph input " + quote(session_.graph.tensor(id).name) +
                     ", which must be a constant here: give its value with --value " +
                     session_.graph.tensor(id).name + "=V (or in run's --inputs)");
    std::vector<std::string> behind = graphInputsBehind(i);
    if (!behind.empty())
        return error(head + " is computed at run time from " + inputsPhrase(behind) +
                     " and must be a constant here: give " + valueFlags(behind));
    return error(head + " is not a constant: shapes must be static");
}

Expected<std::vector<int64_t>> InferContext::intsInput(int i, const std::string& what) {
    const ir::ConstTensor* v = value(i);
    if (v == nullptr)
        return notConstant(i, what);
    return v->toInt64s();
}

Expected<std::vector<double>> InferContext::floatsInput(int i, const std::string& what) {
    const ir::ConstTensor* v = value(i);
    if (v == nullptr)
        return notConstant(i, what);
    return v->toDoubles();
}

bool InferContext::outputUsed(int i) const {
    ir::TensorId id = op().outputs[static_cast<size_t>(i)];
    return !session_.graph.tensor(id).uses.empty() || session_.graph.isGraphOutput(id);
}

void InferContext::setOutput(int i, ir::DType dtype, ir::Shape shape) {
    ir::Tensor& tensor = session_.graph.mutableTensor(op().outputs[static_cast<size_t>(i)]);
    tensor.dtype = dtype;
    tensor.shape = std::move(shape);
}

void InferContext::setOutputValue(int i, ir::ConstTensor value) {
    values_.set(op().outputs[static_cast<size_t>(i)], std::move(value));
}

void InferContext::keepInputs(int n) {
    for (int i = n; i < inputCount(); ++i)
        session_.graph.setOpInput(id_, i, ir::kNoTensor);
    auto& inputs = session_.graph.mutableOp(id_).inputs;
    if (static_cast<int>(inputs.size()) > n)
        inputs.resize(static_cast<size_t>(n));
}

void InferContext::dropInput(int i) {
    if (hasInput(i))
        session_.graph.setOpInput(id_, i, ir::kNoTensor);
}

Error InferContext::error(const std::string& message) const {
    return session_.error("op " + quote(op().name) + " (" + op().type + "): " + message);
}

void InferContext::warn(const std::string& message) {
    session_.warn("op " + quote(op().name) + " (" + op().type + "): " + message);
}

Expected<int64_t> InferContext::normalizeAxis(int64_t axis, int64_t rank,
                                              const std::string& what) const {
    int64_t normalized = axis < 0 ? axis + rank : axis;
    if (normalized < 0 || normalized >= rank)
        return error(what + " " + std::to_string(axis) + " is out of range for rank " +
                     std::to_string(rank));
    return normalized;
}

std::optional<ir::Shape> broadcastShapes(const ir::Shape& a, const ir::Shape& b) {
    size_t rank = std::max(a.size(), b.size());
    ir::Shape out(rank);
    for (size_t i = 0; i < rank; ++i) {
        int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            return std::nullopt;
        out[i] = da == 1 ? db : da;
    }
    return out;
}

} // namespace stagecraft::onnxio
