// Shape inference over the whole graph, in topological order: each op's rule
// sets its output types and static shapes and canonicalizes it; then ops
// whose inputs are all constant are folded. Small results are computed now
// (shape computations need their values); large ones become derived weights
// computed only if someone reads them. Ops without a rule keep the shapes
// the file declares (or ONNX's own inference finds) and stay opaque.

#include "onnx/internal/const_eval.h"
#include "onnx/internal/fallback_shapes.h"
#include "onnx/internal/import_session.h"
#include "onnx/internal/infer_context.h"
#include "onnx/internal/node_rewrite.h"
#include "support/strings.h"

#include <algorithm>
#include <set>

namespace stagecraft::onnxio {

namespace {

/// Results up to this many elements are folded at import time.
constexpr int64_t kEagerFoldElements = 1 << 16;

std::string opLabel(const ir::Op& op) {
    return "op " + quote(op.name) + " (" + op.type + ")";
}

Status checkOutputs(ImportSession& session, ir::OpId id) {
    const ir::Op& op = session.graph.op(id);
    for (ir::TensorId out : op.outputs) {
        const ir::Tensor& t = session.graph.tensor(out);
        if (t.dtype == ir::DType::Undefined)
            return session.error(opLabel(op) + ": output " + quote(t.name) +
                                 " has no element type");
        auto count = ir::checkedElementCount(t.shape);
        if (!ir::checkedTensorBytes(count, ir::dtypeSize(t.dtype)))
            return session.error(
                opLabel(op) + ": output " + quote(t.name) + " of shape " +
                ir::formatShape(t.shape) +
                (count ? " is larger than the 1 TiB a tensor may have" : " has too many elements"));
    }
    return Status::success();
}

std::vector<OutputType> outputTypes(const ir::Graph& graph, const ir::Op& op) {
    std::vector<OutputType> types;
    for (ir::TensorId out : op.outputs)
        types.push_back({graph.tensor(out).dtype, graph.tensor(out).shape});
    return types;
}

class Folder {
public:
    Folder(ImportSession& session, ValueTable& values)
        : s_(session)
        , values_(values) {}

    Status fold(ir::OpId id) {
        const ir::Op& op = s_.graph.op(id);
        bool knownNow = allOutputsKnown(op);
        if (!knownNow && foldable(op) && small(op))
            SC_RETURN_IF_ERROR(evaluateNow(id));
        if (!s_.options.foldConstants)
            return Status::success();
        if (allOutputsKnown(op)) {
            attachValues(id);
        } else if (foldable(op)) {
            attachDerived(id);
        } else {
            return Status::success();
        }
        s_.graph.removeOp(id);
        return Status::success();
    }

private:
    bool allOutputsKnown(const ir::Op& op) {
        for (ir::TensorId out : op.outputs)
            if (values_.get(out) == nullptr)
                return false;
        return true;
    }

    bool foldable(const ir::Op& op) const {
        if (!op.domain.empty() || !canEvaluate(op.type))
            return false;
        bool any = false;
        for (ir::TensorId in : op.inputs) {
            if (in == ir::kNoTensor)
                continue;
            if (!values_.isConstant(in))
                return false;
            any = true;
        }
        return any;
    }

    bool small(const ir::Op& op) const {
        for (ir::TensorId in : op.inputs)
            if (in != ir::kNoTensor && s_.graph.tensor(in).byteSize() > ValueTable::kReadLimitBytes)
                return false;
        for (ir::TensorId out : op.outputs)
            if (s_.graph.tensor(out).elementCount() > kEagerFoldElements)
                return false;
        return true;
    }

    Status evaluateNow(ir::OpId id) {
        const ir::Op& op = s_.graph.op(id);
        std::vector<const ir::ConstTensor*> inputs;
        for (ir::TensorId in : op.inputs) {
            inputs.push_back(in == ir::kNoTensor ? nullptr : values_.get(in));
            if (in != ir::kNoTensor && inputs.back() == nullptr)
                return Status::success(); // an input could not be read: leave the op
        }
        auto results = evaluateOp(op, inputs, outputTypes(s_.graph, op));
        if (!results.ok())
            return s_.error(results.error().message());
        for (size_t k = 0; k < results->size(); ++k)
            values_.set(op.outputs[k], std::move((*results)[k]));
        return Status::success();
    }

    void attachValues(ir::OpId id) {
        for (ir::TensorId out : s_.graph.op(id).outputs) {
            auto bytes = values_.get(out)->bytes();
            s_.graph.mutableTensor(out).data =
                ir::makeInlineWeight(std::vector<std::byte>(bytes.begin(), bytes.end()));
        }
    }

    /// Each output becomes a weight computed from the op's inputs on first read.
    void attachDerived(ir::OpId id) {
        const ir::Op& op = s_.graph.op(id);
        struct Input {
            ir::WeightPtr data;
            ir::DType dtype;
            ir::Shape shape;
        };
        std::vector<Input> inputs;
        for (ir::TensorId in : op.inputs) {
            if (in == ir::kNoTensor) {
                inputs.push_back({});
                continue;
            }
            const ir::Tensor& t = s_.graph.tensor(in);
            inputs.push_back({t.data, t.dtype, t.shape});
        }
        std::vector<OutputType> types = outputTypes(s_.graph, op);
        for (size_t k = 0; k < op.outputs.size(); ++k) {
            ir::Tensor& out = s_.graph.mutableTensor(op.outputs[k]);
            auto compute = [op, inputs, types, k]() -> Expected<std::vector<std::byte>> {
                std::vector<ir::ConstTensor> values;
                values.reserve(inputs.size());
                std::vector<const ir::ConstTensor*> pointers;
                for (const Input& input : inputs) {
                    if (!input.data) {
                        pointers.push_back(nullptr);
                        continue;
                    }
                    SC_ASSIGN_OR_RETURN(auto bytes, input.data->bytes());
                    values.emplace_back(input.dtype, input.shape,
                                        std::vector<std::byte>(bytes.begin(), bytes.end()));
                    pointers.push_back(&values.back());
                }
                SC_ASSIGN_OR_RETURN(auto results, evaluateOp(op, pointers, types));
                auto bytes = results[k].bytes();
                return std::vector<std::byte>(bytes.begin(), bytes.end());
            };
            out.data = ir::makeDerivedWeight(out.byteSize(),
                                             "folded " + op.type + " " + quote(op.name), compute);
        }
    }

    ImportSession& s_;
    ValueTable& values_;
};

} // namespace

Status inferShapes(ImportSession& session) {
    auto order = ir::topologicalOrder(session.graph);
    if (!order.ok())
        return session.error(order.error().message());
    ValueTable values(session.graph);
    Folder folder(session, values);
    FallbackShapes fallback(session);
    // Outputs of ops rewritten this round (node_rewrite.h) and of the ops that
    // read them: not inferred now; the import splices the rewrites in and
    // starts again, so independent rewrites share a round.
    std::set<ir::TensorId> pending;
    auto skip = [&](const ir::Op& op) {
        for (ir::TensorId out : op.outputs)
            pending.insert(out);
    };
    for (ir::OpId id : *order) {
        InferContext ctx(session, values, id);
        const ir::Op& op = session.graph.op(id);
        if (std::any_of(op.inputs.begin(), op.inputs.end(),
                        [&](ir::TensorId in) { return pending.count(in) > 0; })) {
            skip(op);
            continue;
        }
        InferRule rule = op.domain.empty() ? findInferRule(op.type) : nullptr;
        std::string because = "is unknown to Stagecraft", remedy;
        if (Rewriter rewrite = op.domain.empty() ? findRewriter(op.type) : nullptr) {
            SC_ASSIGN_OR_RETURN(bool rewritten, rewrite(ctx, because, remedy));
            if (rewritten) {
                skip(op);
                continue;
            }
        }
        if (rule != nullptr)
            SC_RETURN_IF_ERROR(rule(ctx));
        else
            SC_RETURN_IF_ERROR(fallback.apply(id, because, remedy));
        SC_RETURN_IF_ERROR(checkOutputs(session, id));
        SC_RETURN_IF_ERROR(folder.fold(id));
    }
    if (session.rewritesPending())
        return Status::success();
    for (const std::string& name : session.compiledInValues())
        session.warn("input " + quote(name) +
                     ": its given value is compiled in where a constant is needed (a shape "
                     "or an operand); the kernels hold for that value only");
    return Status::success();
}

} // namespace stagecraft::onnxio
