// Control flow folded before scheduling (docs/onnx-import.md, "Control
// flow"), as node rewrites (node_rewrite.h):
// - An If whose condition is known at import (a constant, or computed from
//   the values the user gives: `--value sr=16000`) becomes the branch to
//   take.
// - A Loop with a known trip count, a known start condition and a body that
//   passes its condition on unchanged (no data-dependent exit) is unrolled
//   when small: one copy of the body per iteration, the iteration number a
//   constant, loop-carried values chained, scan outputs stacked by
//   Unsqueeze and Concat.
// - A Scan (opset 9 and later) is unrolled the same way when small, its scan
//   inputs sliced by Gather at each iteration's index.
// A copied body's internal names are prefixed with the op's name (and the
// iteration), its initializers move to the top graph, and the names it reads
// from the outer scope are kept. What does not fold stays one opaque op when
// ONNX shape inference finds its output shapes (an If's branches agree), else
// the import fails naming the inputs to give.

#include "onnx/internal/node_rewrite.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::onnxio {

namespace {

constexpr int64_t kMaxIterations = 256;
constexpr int64_t kMaxUnrolledOps = 4096;

/// Appends one copy of \p body to \p rewrite, its inputs bound to the outer
/// names \p inputs and its own names prefixed with \p prefix; returns the
/// names its outputs have in the copy.
Expected<std::vector<std::string>> copyBody(const onnx::GraphProto& body,
                                            const std::vector<std::string>& inputs,
                                            const std::string& prefix, NodeRewrite& rewrite) {
    if (body.sparse_initializer_size() > 0)
        return Error("its body has sparse initializers, which Stagecraft does not read");
    if (static_cast<size_t>(body.input_size()) != inputs.size())
        return Error("its body has " + std::to_string(body.input_size()) + " inputs where " +
                     std::to_string(inputs.size()) + " are bound");
    onnx::GraphProto copy = body;
    Renames names;
    for (size_t k = 0; k < inputs.size(); ++k)
        names[copy.input(static_cast<int>(k)).name()] = inputs[k];
    for (const auto& node : copy.node())
        for (const std::string& out : node.output())
            if (!out.empty())
                names[out] = prefix + out;
    for (const auto& init : copy.initializer())
        names[init.name()] = prefix + init.name();
    renameAll(copy, names);
    for (auto& init : *copy.mutable_initializer())
        rewrite.initializers.push_back(std::move(init));
    for (auto& info : *copy.mutable_value_info())
        rewrite.valueInfo.push_back(std::move(info));
    for (int k = 0; k < copy.node_size(); ++k) {
        onnx::NodeProto node = std::move(*copy.mutable_node(k));
        node.set_name(prefix + (node.name().empty() ? std::to_string(k) : node.name()));
        rewrite.nodes.push_back(std::move(node));
    }
    std::vector<std::string> outputs;
    for (const auto& out : copy.output())
        outputs.push_back(out.name());
    return outputs;
}

/// Makes \p output an Identity of \p value.
void addIdentity(NodeRewrite& rewrite, const std::string& value, const std::string& output) {
    rewrite.nodes.push_back(makeNode("Identity", output + "/identity", {value}, {output}));
}

/// Stacks \p parts along a new axis \p axis into \p output.
void addStack(NodeRewrite& rewrite, int64_t opset, const std::vector<std::string>& parts,
              int64_t axis, const std::string& prefix, const std::string& output) {
    std::vector<std::string> rows;
    for (size_t i = 0; i < parts.size(); ++i) {
        rows.push_back(prefix + output + "/" + std::to_string(i));
        addUnsqueeze(rewrite, opset, parts[i], axis, rows.back());
    }
    onnx::NodeProto concat = makeNode("Concat", prefix + output, rows, {output});
    setIntAttribute(concat, "axis", axis);
    rewrite.nodes.push_back(std::move(concat));
}

/// Whether \p body's condition output is its condition input passed on
/// (directly or through Identity) or the constant true: then the loop runs
/// exactly its trip count.
bool exitsOnlyByCount(const onnx::GraphProto& body) {
    if (body.input_size() < 2 || body.output_size() < 1)
        return false;
    const std::string& out = body.output(0).name();
    if (out == body.input(1).name())
        return true;
    for (const auto& node : body.node()) {
        if (node.output_size() == 0 || node.output(0) != out)
            continue;
        if (node.op_type() == "Identity")
            return node.input_size() == 1 && node.input(0) == body.input(1).name();
        if (node.op_type() != "Constant" || node.attribute_size() != 1)
            return false;
        const auto& value = node.attribute(0);
        return value.name() == "value" && value.t().data_type() == onnx::TensorProto::BOOL &&
               value.t().int32_data_size() == 1 && value.t().int32_data(0) != 0;
    }
    return false;
}

/// Why \p count iterations of a \p bodyOps body are not unrolled, or "".
std::string tooLong(int64_t count, int64_t bodyOps) {
    if (count >= 1 && count <= kMaxIterations && count * bodyOps <= kMaxUnrolledOps)
        return "";
    return "runs " + std::to_string(count) + " times, which is not unrolled (1 to " +
           std::to_string(kMaxIterations) + " times, at most " + std::to_string(kMaxUnrolledOps) +
           " ops in all)";
}

/// "computed at run time from input 'x'", and the remedy, for input \p i.
void runTimeInput(InferContext& ctx, int i, const std::string& what, const std::string& result,
                  std::string& because, std::string& remedy) {
    std::vector<std::string> behind = ctx.graphInputsBehind(i);
    because = "has " + what + " computed at run time";
    if (behind.empty())
        return;
    because += " from " + inputsPhrase(behind);
    remedy = "; give " + valueFlags(behind) + " to " + result;
}

Status addLoopIterations(const onnx::NodeProto& loop, const onnx::GraphProto& body,
                         const std::string& name, int64_t count, int64_t opset,
                         NodeRewrite& rewrite) {
    int carried = loop.input_size() - 2;
    if (carried < 0 || body.output_size() < carried + 1 ||
        loop.output_size() > body.output_size() - 1)
        return Error("its body's inputs and outputs do not match the op's");
    std::vector<std::string> values(loop.input().begin() + 2, loop.input().end());
    std::vector<std::vector<std::string>> scans(
        static_cast<size_t>(body.output_size() - 1 - carried));
    for (int64_t i = 0; i < count; ++i) {
        std::string prefix = name + "/" + std::to_string(i) + "/";
        rewrite.initializers.push_back(
            intInitializer(prefix + "iteration", onnx::TensorProto::INT64, {i}, {}));
        rewrite.initializers.push_back(
            intInitializer(prefix + "condition", onnx::TensorProto::BOOL, {1}, {}));
        std::vector<std::string> inputs{prefix + "iteration", prefix + "condition"};
        inputs.insert(inputs.end(), values.begin(), values.end());
        SC_ASSIGN_OR_RETURN(std::vector<std::string> outputs,
                            copyBody(body, inputs, prefix, rewrite));
        for (int k = 0; k < carried; ++k)
            values[static_cast<size_t>(k)] = outputs[static_cast<size_t>(1 + k)];
        for (size_t j = 0; j < scans.size(); ++j)
            scans[j].push_back(outputs[1 + static_cast<size_t>(carried) + j]);
    }
    for (int k = 0; k < loop.output_size(); ++k) {
        if (loop.output(k).empty())
            continue;
        if (k < carried)
            addIdentity(rewrite, values[static_cast<size_t>(k)], loop.output(k));
        else
            addStack(rewrite, opset, scans[static_cast<size_t>(k - carried)], 0, name + "/",
                     loop.output(k));
    }
    return Status::success();
}

/// The ints attribute \p name of \p node, or \p count copies of 0.
std::vector<int64_t> intsOr0(const onnx::NodeProto& node, const std::string& name, size_t count) {
    for (const auto& attr : node.attribute())
        if (attr.name() == name)
            return {attr.ints().begin(), attr.ints().end()};
    return std::vector<int64_t>(count, 0);
}

} // namespace

Expected<bool> rewriteIf(InferContext& ctx, std::string& because, std::string& remedy) {
    const ir::ConstTensor* condition = ctx.value(0);
    if (condition == nullptr) {
        if (ctx.graphInputsBehind(0).empty())
            because = "has a condition Stagecraft cannot compute at import";
        else
            runTimeInput(ctx, 0, "a condition", "compile in one branch", because, remedy);
        return false;
    }
    if (condition->elementCount() != 1)
        return ctx.error("its condition has " + std::to_string(condition->elementCount()) +
                         " elements; it must have one");
    bool taken = condition->toDoubles()[0] != 0;
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    const char* side = taken ? "then" : "else";
    const onnx::GraphProto* branch =
        node != nullptr ? graphAttribute(*node, std::string(side) + "_branch") : nullptr;
    if (branch == nullptr)
        return ctx.error("has no " + std::string(side) + "_branch graph");
    if (branch->output_size() != node->output_size())
        return ctx.error("its " + std::string(side) + " branch has " +
                         std::to_string(branch->output_size()) + " outputs but the op " +
                         std::to_string(node->output_size()));
    NodeRewrite rewrite;
    auto outputs = copyBody(*branch, {}, name + "/" + side + "/", rewrite);
    if (!outputs.ok())
        return ctx.error(outputs.error().message());
    for (int k = 0; k < node->output_size(); ++k)
        if (!node->output(k).empty())
            addIdentity(rewrite, (*outputs)[static_cast<size_t>(k)], node->output(k));
    rewrite.note = "op " + quote(name) + " (If): its condition is " + (taken ? "true" : "false") +
                   " at import, so only its " + side + " branch is compiled in";
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

Expected<bool> rewriteLoop(InferContext& ctx, std::string& because, std::string& remedy) {
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    const onnx::GraphProto* body = node != nullptr ? graphAttribute(*node, "body") : nullptr;
    if (body == nullptr)
        return ctx.error("has no body graph");
    if (!ctx.hasInput(0)) {
        because = "has no trip count (it runs until its body says stop)";
        return false;
    }
    for (int i : {0, 1}) {
        if (ctx.hasInput(i) && ctx.value(i) == nullptr) {
            runTimeInput(ctx, i, i == 0 ? "a trip count" : "a start condition", "unroll it",
                         because, remedy);
            return false;
        }
    }
    const ir::ConstTensor* trips = ctx.value(0);
    const ir::ConstTensor* start = ctx.hasInput(1) ? ctx.value(1) : nullptr;
    if (trips->elementCount() != 1 || (start != nullptr && start->elementCount() != 1))
        return ctx.error("its trip count and condition must have one element each");
    if (!exitsOnlyByCount(*body)) {
        because = "has a body that computes its own exit condition";
        return false;
    }
    int64_t count = start != nullptr && start->toDoubles()[0] == 0 ? 0 : trips->toInt64s()[0];
    because = tooLong(count, body->node_size());
    if (!because.empty())
        return false;
    NodeRewrite rewrite;
    if (Status added = addLoopIterations(*node, *body, name, count, ctx.opset(), rewrite);
        !added.ok())
        return ctx.error(added.error().message());
    rewrite.note = "op " + quote(name) + " (Loop): unrolled, its " + std::to_string(count) +
                   " iterations known at import";
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

Expected<bool> rewriteScan(InferContext& ctx, std::string& because, std::string& /*remedy*/) {
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    const onnx::GraphProto* body = node != nullptr ? graphAttribute(*node, "body") : nullptr;
    if (body == nullptr)
        return ctx.error("has no body graph");
    if (ctx.opset() < 9) {
        because = "is the opset-8 form (with a batch axis)";
        return false;
    }
    int64_t scans = ctx.op().attrs.getInt("num_scan_inputs", 0);
    int64_t states = ctx.inputCount() - scans;
    if (scans < 1 || states < 0 || body->input_size() != ctx.inputCount() ||
        body->output_size() != node->output_size() || node->output_size() < states)
        return ctx.error("its body's inputs and outputs do not match the op's");
    auto inAxes = intsOr0(*node, "scan_input_axes", static_cast<size_t>(scans));
    auto inDirs = intsOr0(*node, "scan_input_directions", static_cast<size_t>(scans));
    size_t outs = static_cast<size_t>(node->output_size() - states);
    auto outAxes = intsOr0(*node, "scan_output_axes", outs);
    auto outDirs = intsOr0(*node, "scan_output_directions", outs);
    if (inAxes.size() != static_cast<size_t>(scans) || inDirs.size() != inAxes.size() ||
        outAxes.size() != outs || outDirs.size() != outs)
        return ctx.error("its scan axes and directions must have one entry per scan input "
                         "and output");
    SC_ASSIGN_OR_RETURN(
        int64_t axis0,
        ctx.normalizeAxis(inAxes[0], ctx.rank(static_cast<int>(states)), "scan_input_axes[0]"));
    int64_t count = ctx.shape(static_cast<int>(states))[static_cast<size_t>(axis0)];
    because = tooLong(count, body->node_size());
    if (!because.empty())
        return false;
    NodeRewrite rewrite;
    std::vector<std::string> values(node->input().begin(), node->input().begin() + states);
    std::vector<std::vector<std::string>> stacked(outs);
    for (int64_t i = 0; i < count; ++i) {
        std::string prefix = name + "/" + std::to_string(i) + "/";
        std::vector<std::string> inputs = values;
        for (int64_t j = 0; j < scans; ++j) {
            std::string index = prefix + "index" + std::to_string(j);
            std::string slice = prefix + "slice" + std::to_string(j);
            int64_t at = inDirs[static_cast<size_t>(j)] != 0 ? count - 1 - i : i;
            rewrite.initializers.push_back(
                intInitializer(index, onnx::TensorProto::INT64, {at}, {}));
            onnx::NodeProto gather = makeNode(
                "Gather", slice, {node->input(static_cast<int>(states + j)), index}, {slice});
            setIntAttribute(gather, "axis", inAxes[static_cast<size_t>(j)]);
            rewrite.nodes.push_back(std::move(gather));
            inputs.push_back(slice);
        }
        auto outputs = copyBody(*body, inputs, prefix, rewrite);
        if (!outputs.ok())
            return ctx.error(outputs.error().message());
        for (int64_t k = 0; k < states; ++k)
            values[static_cast<size_t>(k)] = (*outputs)[static_cast<size_t>(k)];
        for (size_t k = 0; k < outs; ++k)
            stacked[k].push_back((*outputs)[static_cast<size_t>(states) + k]);
    }
    for (int k = 0; k < node->output_size(); ++k) {
        if (node->output(k).empty())
            continue;
        if (k < states) {
            addIdentity(rewrite, values[static_cast<size_t>(k)], node->output(k));
            continue;
        }
        size_t j = static_cast<size_t>(k - states);
        if (outDirs[j] != 0)
            std::reverse(stacked[j].begin(), stacked[j].end());
        addStack(rewrite, ctx.opset(), stacked[j], outAxes[j], name + "/", node->output(k));
    }
    rewrite.note = "op " + quote(name) + " (Scan): unrolled, its " + std::to_string(count) +
                   " iterations known at import";
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

} // namespace stagecraft::onnxio
