// Ops rewritten into ops Stagecraft schedules (docs/onnx-import.md,
// "Rewritten ops"), as node rewrites (node_rewrite.h):
// - Compress whose condition is known at import (a constant or a given
//   value) becomes a Gather of the selected indices (after flattening the
//   input when it has no axis): its output shape depends on the condition.
// - Einsum becomes what ONNX Runtime's implementation does in effect:
//   repeated labels within an operand take the diagonal (times an identity
//   mask, summed), labels no one else needs are summed out, and operands are
//   contracted pairwise, left to right, as batched MatMuls (Transpose to
//   [batch, kept, contracted] and [batch, contracted, kept], Reshape, MatMul,
//   Reshape), then the result is transposed into the output's order. Batch
//   labels broadcast as MatMul does.
// - PRelu from a file of opset 6 or older, whose slope of one value per
//   channel (axis 1) follows the legacy broadcasting the version converter
//   leaves as it was: the slope is reshaped to [C, 1, ...].

#include "onnx/internal/node_rewrite.h"
#include "onnx/onnx_types.h"
#include "support/strings.h"

#include <algorithm>
#include <numeric>

namespace stagecraft::onnxio {

namespace {

// ---- Compress ----

std::vector<int64_t> selectedIndices(const ir::ConstTensor& condition, int64_t length) {
    std::vector<int64_t> indices;
    std::vector<double> flags = condition.toDoubles();
    for (int64_t i = 0; i < std::min<int64_t>(length, static_cast<int64_t>(flags.size())); ++i)
        if (flags[static_cast<size_t>(i)] != 0)
            indices.push_back(i);
    return indices;
}

// ---- Einsum ----

/// Labels are letters (0-51) and the ellipsis' dimensions (100 + k).
using Labels = std::vector<int>;
constexpr int kEllipsisLabel = 100;

int letterLabel(char c) {
    return c >= 'a' && c <= 'z' ? c - 'a' : c - 'A' + 26;
}

/// One term's labels; \p ellipsisRank of them stand for "...". An error for
/// characters that are neither letters nor one "...".
Expected<Labels> parseTerm(const std::string& term, int64_t rank, int64_t& ellipsisRank,
                           bool isOutput) {
    Labels labels;
    size_t dots = term.find("...");
    if (dots != std::string::npos && term.find("...", dots + 1) != std::string::npos)
        return Error("term " + quote(term) + " has two ellipses");
    int64_t letters = static_cast<int64_t>(term.size()) - (dots == std::string::npos ? 0 : 3);
    if (!isOutput) {
        if (dots == std::string::npos ? letters != rank : letters > rank)
            return Error("term " + quote(term) + " does not match its operand's rank " +
                         std::to_string(rank));
        if (dots != std::string::npos)
            ellipsisRank = std::max(ellipsisRank, rank - letters);
    }
    for (size_t i = 0; i < term.size(); ++i) {
        if (i == dots) {
            int64_t own = isOutput ? ellipsisRank : rank - letters;
            for (int64_t k = ellipsisRank - own; k < ellipsisRank; ++k)
                labels.push_back(kEllipsisLabel + static_cast<int>(k));
            i += 2;
            continue;
        }
        char c = term[i];
        if (!std::isalpha(static_cast<unsigned char>(c)))
            return Error("term " + quote(term) + " has the character " + quote(std::string(1, c)));
        labels.push_back(letterLabel(c));
    }
    return labels;
}

/// An operand or intermediate: its name, labels and the size of each.
struct Term {
    std::string name;
    Labels labels;
    std::vector<int64_t> sizes;
};

class EinsumRewriter {
public:
    EinsumRewriter(InferContext& ctx, NodeRewrite& rewrite)
        : ctx_(ctx)
        , rewrite_(rewrite)
        , prefix_(ctx.op().name + "/") {}

    Status build(const std::string& equation, const std::string& output) {
        std::string text;
        for (char c : equation)
            if (c != ' ')
                text += c;
        size_t arrow = text.find("->");
        std::vector<std::string> terms = split(text.substr(0, arrow), ',');
        if (static_cast<int>(terms.size()) != ctx_.inputCount())
            return Error("the equation has " + std::to_string(terms.size()) + " terms for " +
                         std::to_string(ctx_.inputCount()) + " operands");
        int64_t ellipsisRank = 0;
        std::vector<Term> operands;
        for (size_t i = 0; i < terms.size(); ++i)
            if (terms[i].find("...") != std::string::npos)
                ellipsisRank = std::max(ellipsisRank, ctx_.rank(static_cast<int>(i)) -
                                                          int64_t(terms[i].size()) + 3);
        for (size_t i = 0; i < terms.size(); ++i) {
            int index = static_cast<int>(i);
            SC_ASSIGN_OR_RETURN(Labels labels,
                                parseTerm(terms[i], ctx_.rank(index), ellipsisRank, false));
            operands.push_back({nodeInput(index), labels, ctx_.shape(index)});
        }
        SC_ASSIGN_OR_RETURN(Labels out, outputLabels(text, arrow, operands, ellipsisRank));
        for (size_t i = 0; i < operands.size(); ++i)
            SC_RETURN_IF_ERROR(takeDiagonals(operands[i]));
        Term result = operands[0];
        for (size_t i = 1; i < operands.size(); ++i) {
            Labels keep = out;
            for (size_t j = i + 1; j < operands.size(); ++j)
                keep.insert(keep.end(), operands[j].labels.begin(), operands[j].labels.end());
            SC_ASSIGN_OR_RETURN(result, contract(result, operands[i], keep));
        }
        sumOut(result, out, {});
        return finish(result, out, output);
    }

private:
    std::string nodeInput(int i) const {
        const onnx::NodeProto* node = nodeNamed(ctx_.session(), ctx_.op().name);
        return node->input(i);
    }

    std::string fresh(const std::string& what) { return prefix_ + std::to_string(step_++) + what; }

    Expected<Labels> outputLabels(const std::string& text, size_t arrow,
                                  const std::vector<Term>& operands, int64_t ellipsisRank) {
        if (arrow != std::string::npos) {
            int64_t rank = ellipsisRank;
            return parseTerm(text.substr(arrow + 2), rank, rank, true);
        }
        Labels out;
        for (int64_t k = 0; k < ellipsisRank; ++k)
            out.push_back(kEllipsisLabel + static_cast<int>(k));
        std::map<int, int> counts;
        for (const Term& t : operands)
            for (int label : t.labels)
                if (label < kEllipsisLabel)
                    ++counts[label];
        for (const auto& [label, count] : counts)
            if (count == 1)
                out.push_back(label);
        return out;
    }

    void reduceSum(Term& t, const std::vector<int64_t>& axes) {
        if (axes.empty())
            return;
        std::string out = fresh("/sum");
        onnx::NodeProto node = makeNode("ReduceSum", out, {t.name}, {out});
        if (ctx_.opset() >= 13) {
            rewrite_.initializers.push_back(intInitializer(out + "/axes", onnx::TensorProto::INT64,
                                                           axes, {int64_t(axes.size())}));
            node.add_input(out + "/axes");
        } else {
            setIntsAttribute(node, "axes", axes);
        }
        setIntAttribute(node, "keepdims", 0);
        rewrite_.nodes.push_back(std::move(node));
        Term next{out, {}, {}};
        for (size_t d = 0; d < t.labels.size(); ++d)
            if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end()) {
                next.labels.push_back(t.labels[d]);
                next.sizes.push_back(t.sizes[d]);
            }
        t = std::move(next);
    }

    /// A label repeated within \p t: the diagonal, by an identity mask and a sum.
    Status takeDiagonals(Term& t) {
        for (size_t a = 0; a < t.labels.size(); ++a) {
            for (size_t b = a + 1; b < t.labels.size(); ++b) {
                if (t.labels[a] != t.labels[b])
                    continue;
                if (t.sizes[a] != t.sizes[b])
                    return Error("a repeated label has sizes " + std::to_string(t.sizes[a]) +
                                 " and " + std::to_string(t.sizes[b]));
                multiplyByEye(t, a, b);
                reduceSum(t, {static_cast<int64_t>(b)});
                return takeDiagonals(t);
            }
        }
        return Status::success();
    }

    void multiplyByEye(Term& t, size_t a, size_t b) {
        std::vector<int64_t> dims(t.labels.size(), 1);
        dims[a] = dims[b] = t.sizes[a];
        std::vector<int64_t> eye(static_cast<size_t>(t.sizes[a] * t.sizes[a]), 0);
        for (int64_t i = 0; i < t.sizes[a]; ++i)
            eye[static_cast<size_t>(i * t.sizes[a] + i)] = 1;
        std::string mask = fresh("/eye");
        rewrite_.initializers.push_back(
            intInitializer(mask + "/i64", onnx::TensorProto::INT64, eye, dims));
        onnx::NodeProto cast = makeNode("Cast", mask, {mask + "/i64"}, {mask});
        setIntAttribute(cast, "to", toOnnxType(ctx_.dtype(0)));
        rewrite_.nodes.push_back(std::move(cast));
        std::string out = fresh("/masked");
        rewrite_.nodes.push_back(makeNode("Mul", out, {t.name, mask}, {out}));
        t.name = out;
    }

    /// Sums out the labels of \p t that are in neither \p keep nor \p other.
    void sumOut(Term& t, const Labels& keep, const Labels& other) {
        std::vector<int64_t> axes;
        for (size_t d = 0; d < t.labels.size(); ++d) {
            int label = t.labels[d];
            if (std::count(keep.begin(), keep.end(), label) == 0 &&
                std::count(other.begin(), other.end(), label) == 0)
                axes.push_back(static_cast<int64_t>(d));
        }
        reduceSum(t, axes);
    }

    /// \p t transposed so that its labels come in the order \p order.
    void transposeTo(Term& t, const Labels& order) {
        std::vector<int64_t> perm;
        for (int label : order)
            perm.push_back(std::find(t.labels.begin(), t.labels.end(), label) - t.labels.begin());
        std::vector<int64_t> identity(perm.size());
        std::iota(identity.begin(), identity.end(), 0);
        if (perm == identity)
            return;
        std::string out = fresh("/transposed");
        onnx::NodeProto node = makeNode("Transpose", out, {t.name}, {out});
        setIntsAttribute(node, "perm", perm);
        rewrite_.nodes.push_back(std::move(node));
        Term next{out, order, {}};
        for (int64_t p : perm)
            next.sizes.push_back(t.sizes[static_cast<size_t>(p)]);
        t = std::move(next);
    }

    std::string reshape(const std::string& input, const std::vector<int64_t>& shape) {
        std::string out = fresh("/reshaped");
        rewrite_.initializers.push_back(intInitializer(out + "/shape", onnx::TensorProto::INT64,
                                                       shape, {int64_t(shape.size())}));
        rewrite_.nodes.push_back(makeNode("Reshape", out, {input, out + "/shape"}, {out}));
        return out;
    }

    int64_t sizeOf(const Term& t, int label) const {
        auto at = std::find(t.labels.begin(), t.labels.end(), label) - t.labels.begin();
        return t.sizes[static_cast<size_t>(at)];
    }

    /// \p a times \p b summed over the labels they share that \p keep does not
    /// hold, as a batched MatMul.
    Expected<Term> contract(Term a, Term b, const Labels& keep) {
        sumOut(a, keep, b.labels);
        sumOut(b, keep, a.labels);
        Labels batch, left, right, inner;
        for (int label : a.labels) {
            bool inB = std::count(b.labels.begin(), b.labels.end(), label) > 0;
            bool kept = std::count(keep.begin(), keep.end(), label) > 0;
            (inB ? (kept ? batch : inner) : left).push_back(label);
        }
        for (int label : b.labels)
            if (std::count(a.labels.begin(), a.labels.end(), label) == 0)
                right.push_back(label);
        int64_t l = 1, r = 1, k = 1;
        for (int label : inner) {
            if (sizeOf(a, label) != sizeOf(b, label))
                return Error("a contracted label has sizes " + std::to_string(sizeOf(a, label)) +
                             " and " + std::to_string(sizeOf(b, label)));
            k *= sizeOf(a, label);
        }
        for (int label : left)
            l *= sizeOf(a, label);
        for (int label : right)
            r *= sizeOf(b, label);
        Labels aOrder = batch, bOrder = batch;
        aOrder.insert(aOrder.end(), left.begin(), left.end());
        aOrder.insert(aOrder.end(), inner.begin(), inner.end());
        bOrder.insert(bOrder.end(), inner.begin(), inner.end());
        bOrder.insert(bOrder.end(), right.begin(), right.end());
        transposeTo(a, aOrder);
        transposeTo(b, bOrder);
        std::vector<int64_t> aShape, bShape, outShape;
        Term result{"", batch, {}};
        for (int label : batch) {
            aShape.push_back(sizeOf(a, label));
            bShape.push_back(sizeOf(b, label));
            result.sizes.push_back(std::max(sizeOf(a, label), sizeOf(b, label)));
        }
        outShape = result.sizes;
        aShape.insert(aShape.end(), {l, k});
        bShape.insert(bShape.end(), {k, r});
        std::string product = fresh("/matmul");
        rewrite_.nodes.push_back(makeNode(
            "MatMul", product, {reshape(a.name, aShape), reshape(b.name, bShape)}, {product}));
        for (int label : left) {
            result.labels.push_back(label);
            result.sizes.push_back(sizeOf(a, label));
        }
        for (int label : right) {
            result.labels.push_back(label);
            result.sizes.push_back(sizeOf(b, label));
        }
        result.name = reshape(product, result.sizes);
        return result;
    }

    Status finish(Term t, const Labels& out, const std::string& output) {
        for (int label : out)
            if (std::count(t.labels.begin(), t.labels.end(), label) != 1)
                return Error("an output label is missing from the operands or repeated");
        transposeTo(t, out);
        rewrite_.nodes.push_back(makeNode("Identity", prefix_ + "output", {t.name}, {output}));
        return Status::success();
    }

    InferContext& ctx_;
    NodeRewrite& rewrite_;
    std::string prefix_;
    int step_ = 0;
};

} // namespace

Expected<bool> rewriteCompress(InferContext& ctx, std::string& because, std::string& remedy) {
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    const ir::ConstTensor* condition = ctx.hasInput(1) ? ctx.value(1) : nullptr;
    if (condition == nullptr) {
        std::vector<std::string> behind = ctx.graphInputsBehind(1);
        because = "has a condition, which decides its output shape, computed at run time";
        if (!behind.empty())
            remedy = "; give " + valueFlags(behind);
        return false;
    }
    if (node == nullptr || node->output_size() != 1)
        return ctx.error("must have one output");
    bool hasAxis = ctx.op().attrs.has("axis");
    int64_t length = ir::elementCount(ctx.shape(0));
    int64_t axis = 0;
    if (hasAxis) {
        SC_ASSIGN_OR_RETURN(
            axis, ctx.normalizeAxis(ctx.op().attrs.getInt("axis", 0), ctx.rank(0), "axis"));
        length = ctx.shape(0)[static_cast<size_t>(axis)];
    }
    std::vector<int64_t> indices = selectedIndices(*condition, length);
    NodeRewrite rewrite;
    std::string prefix = name + "/";
    std::string data = node->input(0);
    if (!hasAxis) {
        rewrite.initializers.push_back(
            intInitializer(prefix + "flat/shape", onnx::TensorProto::INT64, {-1}, {1}));
        rewrite.nodes.push_back(
            makeNode("Reshape", prefix + "flat", {data, prefix + "flat/shape"}, {prefix + "flat"}));
        data = prefix + "flat";
    }
    rewrite.initializers.push_back(intInitializer(prefix + "indices", onnx::TensorProto::INT64,
                                                  indices, {int64_t(indices.size())}));
    onnx::NodeProto gather =
        makeNode("Gather", prefix + "gather", {data, prefix + "indices"}, {node->output(0)});
    setIntAttribute(gather, "axis", axis);
    rewrite.nodes.push_back(std::move(gather));
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

Expected<bool> rewriteEinsum(InferContext& ctx, std::string& /*because*/, std::string& /*remedy*/) {
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    if (node == nullptr || node->output_size() != 1 || ctx.inputCount() < 1)
        return ctx.error("must have operands and one output");
    for (int i = 0; i < ctx.inputCount(); ++i)
        if (!ctx.hasInput(i))
            return ctx.error("operand " + std::to_string(i) + " is missing");
    NodeRewrite rewrite;
    EinsumRewriter rewriter(ctx, rewrite);
    std::string equation = ctx.op().attrs.getString("equation", "");
    if (Status built = rewriter.build(equation, node->output(0)); !built.ok())
        return ctx.error("equation " + quote(equation) + ": " + built.error().message());
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

Expected<bool> rewriteLegacyPRelu(InferContext& ctx, std::string& /*because*/,
                                  std::string& /*remedy*/) {
    if (ctx.session().fileOpset >= 7 || !ctx.hasInput(1) || ctx.rank(1) != 1 || ctx.rank(0) < 3 ||
        ctx.shape(1)[0] == 1 || ctx.shape(1)[0] != ctx.shape(0)[1])
        return false;
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    if (node == nullptr || node->output_size() != 1)
        return false;
    std::vector<int64_t> shape(static_cast<size_t>(ctx.rank(0) - 1), 1);
    shape[0] = ctx.shape(1)[0];
    NodeRewrite rewrite;
    std::string slope = name + "/slope";
    rewrite.initializers.push_back(
        intInitializer(slope + "/shape", onnx::TensorProto::INT64, shape, {int64_t(shape.size())}));
    rewrite.nodes.push_back(
        makeNode("Reshape", slope, {node->input(1), slope + "/shape"}, {slope}));
    onnx::NodeProto prelu = *node;
    prelu.set_input(1, slope);
    rewrite.nodes.push_back(std::move(prelu));
    rewrite.note = "op " + quote(name) + " (PRelu): its slope of one value per channel follows " +
                   "opset " + std::to_string(ctx.session().fileOpset) + "'s broadcasting";
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

} // namespace stagecraft::onnxio
