// RNN, GRU and LSTM unrolled over their (static) sequence into ops
// Stagecraft schedules (docs/onnx-import.md, "Rewritten ops"), as node
// rewrites (node_rewrite.h), with the equations of the ONNX operator
// specification:
// - per direction, the input projection of every time step is one MatMul,
//   X [S, B, I] x W^T [I, G*H] plus both biases, computed before the steps
//   (as cuDNN and ONNX Runtime do);
// - each step adds H_{t-1} x R^T, splits the G gates, applies the
//   activations (the `activations` attribute, with its alphas and betas),
//   the peepholes (LSTM) and `clip`, and yields H_t (and C_t);
// - a reverse direction walks the time steps backwards; Y stacks H_t in
//   time order, Y_h (and Y_c) the last states, for `layout` 0 or 1.
// The weights' per-direction slices and transposes are constants, folded at
// import. `sequence_lens` must be absent or known and equal to the sequence
// length; LSTM's `input_forget` and the deprecated activations Affine and
// ScaledTanh are refused.

#include "onnx/internal/node_rewrite.h"
#include "onnx/onnx_types.h"
#include "support/strings.h"

#include <cctype>
#include <optional>
#include <tuple>
#include <utility>

namespace stagecraft::onnxio {

namespace {

constexpr int64_t kMaxSteps = 256;

enum class Cell { Rnn, Gru, Lstm };

struct Activation {
    std::string op;
    std::vector<std::pair<std::string, float>> attrs;
};

std::string lower(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

/// The ONNX op for activation \p name, taking its alpha and beta from the
/// lists in order; nullopt for one that is no ONNX op (Affine, ScaledTanh).
std::optional<Activation> activationOp(const std::string& name, const std::vector<double>& alphas,
                                       const std::vector<double>& betas, size_t& nextAlpha,
                                       size_t& nextBeta) {
    auto take = [](const std::vector<double>& list, size_t& next, double fallback) {
        return static_cast<float>(next < list.size() ? list[next++] : fallback);
    };
    std::string key = lower(name);
    for (const char* plain : {"Sigmoid", "Tanh", "Relu", "Softsign", "Softplus"})
        if (key == lower(plain))
            return Activation{plain, {}};
    if (key == "leakyrelu")
        return Activation{"LeakyRelu", {{"alpha", take(alphas, nextAlpha, 0.01)}}};
    if (key == "thresholdedrelu")
        return Activation{"ThresholdedRelu", {{"alpha", take(alphas, nextAlpha, 1.0)}}};
    if (key == "elu")
        return Activation{"Elu", {{"alpha", take(alphas, nextAlpha, 1.0)}}};
    if (key == "hardsigmoid") {
        float alpha = take(alphas, nextAlpha, 0.2);
        return Activation{"HardSigmoid", {{"alpha", alpha}, {"beta", take(betas, nextBeta, 0.5)}}};
    }
    return std::nullopt;
}

class RnnUnroller {
public:
    RnnUnroller(InferContext& ctx, Cell cell, const onnx::NodeProto& node)
        : ctx_(ctx)
        , cell_(cell)
        , node_(node)
        , prefix_(ctx.op().name + "/")
        , type_(toOnnxType(ctx.dtype(0))) {}

    /// Reads the attributes; "" when the op can be unrolled, else why not.
    Expected<std::string> check() {
        const ir::Attributes& attrs = ctx_.op().attrs;
        hidden_ = attrs.getInt("hidden_size", 0);
        layout_ = attrs.getInt("layout", 0);
        clip_ = attrs.has("clip") ? attrs.getFloat("clip", 0) : 0;
        std::string direction = attrs.getString("direction", "forward");
        if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
            return ctx_.error("direction " + quote(direction) +
                              " is not forward, reverse or "
                              "bidirectional");
        reverseOnly_ = direction == "reverse";
        directions_ = direction == "bidirectional" ? 2 : 1;
        if (ctx_.rank(0) != 3 || hidden_ < 1)
            return ctx_.error("needs X of rank 3 and a hidden_size");
        steps_ = ctx_.shape(0)[layout_ == 0 ? 0 : 1];
        batch_ = ctx_.shape(0)[layout_ == 0 ? 1 : 0];
        if (cell_ == Cell::Lstm && attrs.getInt("input_forget", 0) != 0)
            return std::string("couples its input and forget gates (input_forget), which is "
                               "not supported");
        if (ctx_.hasInput(4)) {
            const ir::ConstTensor* lengths = ctx_.value(4);
            if (lengths == nullptr)
                return std::string("has sequence_lens computed at run time");
            for (int64_t length : lengths->toInt64s())
                if (length != steps_)
                    return "has sequence_lens other than its " + std::to_string(steps_) +
                           " steps, which is not supported";
        }
        if (steps_ < 1 || steps_ > kMaxSteps)
            return "runs " + std::to_string(steps_) + " steps, which is not unrolled (1 to " +
                   std::to_string(kMaxSteps) + ")";
        return readActivations();
    }

    Status unroll(NodeRewrite& rewrite) {
        rewrite_ = &rewrite;
        std::string x = node_.input(0);
        if (layout_ != 0)
            x = transpose(x, {1, 0, 2}, "x");
        std::vector<std::string> ys, hs, cs;
        for (int64_t d = 0; d < directions_; ++d) {
            SC_RETURN_IF_ERROR(direction(x, d, ys, hs, cs));
        }
        finishOutputs(ys, hs, cs);
        return Status::success();
    }

private:
    Expected<std::string> readActivations() {
        const ir::Attributes& attrs = ctx_.op().attrs;
        std::vector<std::string> names;
        if (const ir::AttrValue* given = attrs.find("activations"))
            if (const auto* list = std::get_if<std::vector<std::string>>(given))
                names = *list;
        std::vector<std::string> defaults =
            cell_ == Cell::Lstm  ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
            : cell_ == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                 : std::vector<std::string>{"Tanh"};
        size_t per = defaults.size();
        if (names.empty())
            for (int64_t d = 0; d < directions_; ++d)
                names.insert(names.end(), defaults.begin(), defaults.end());
        // RNN's schema default lists two (for both directions); a forward
        // RNN uses the first, as ONNX Runtime does.
        size_t needed = per * static_cast<size_t>(directions_);
        if (names.size() < needed)
            return ctx_.error("has " + std::to_string(names.size()) + " activations; it needs " +
                              std::to_string(needed));
        names.resize(needed);
        std::vector<double> alphas = attrs.getFloats("activation_alpha");
        std::vector<double> betas = attrs.getFloats("activation_beta");
        size_t nextAlpha = 0, nextBeta = 0;
        for (const std::string& name : names) {
            auto op = activationOp(name, alphas, betas, nextAlpha, nextBeta);
            if (!op)
                return "uses the activation " + quote(name) + ", which is not supported";
            activations_.push_back(*op);
        }
        return std::string();
    }

    std::string fresh(const std::string& what) {
        return prefix_ + what + "/" + std::to_string(step_++);
    }

    std::string add(onnx::NodeProto node) {
        std::string out = node.output(0);
        rewrite_->nodes.push_back(std::move(node));
        return out;
    }

    std::string op(const std::string& type, std::vector<std::string> inputs,
                   const std::string& what) {
        std::string out = fresh(what);
        return add(makeNode(type, out, std::move(inputs), {out}));
    }

    std::string transpose(const std::string& input, const std::vector<int64_t>& perm,
                          const std::string& what) {
        std::string out = fresh(what);
        onnx::NodeProto node = makeNode("Transpose", out, {input}, {out});
        setIntsAttribute(node, "perm", perm);
        return add(std::move(node));
    }

    /// Slice \p index of \p input's axis \p axis, the axis removed.
    std::string pick(const std::string& input, int64_t index, int64_t axis,
                     const std::string& what) {
        std::string out = fresh(what);
        rewrite_->initializers.push_back(
            intInitializer(out + "/index", onnx::TensorProto::INT64, {index}, {}));
        onnx::NodeProto node = makeNode("Gather", out, {input, out + "/index"}, {out});
        setIntAttribute(node, "axis", axis);
        return add(std::move(node));
    }

    /// A constant of the op's type filled with \p value.
    std::string constant(float value, const std::vector<int64_t>& dims, const std::string& what) {
        std::string out = fresh(what);
        onnx::TensorProto tensor;
        tensor.set_name(type_ == onnx::TensorProto::FLOAT ? out : out + "/f32");
        tensor.set_data_type(onnx::TensorProto::FLOAT);
        int64_t count = 1;
        for (int64_t d : dims) {
            tensor.add_dims(d);
            count *= d;
        }
        for (int64_t i = 0; i < count; ++i)
            tensor.add_float_data(value);
        rewrite_->initializers.push_back(std::move(tensor));
        if (type_ == onnx::TensorProto::FLOAT)
            return out;
        onnx::NodeProto cast = makeNode("Cast", out, {out + "/f32"}, {out});
        setIntAttribute(cast, "to", type_);
        return add(std::move(cast));
    }

    std::string activate(const Activation& f, const std::string& input) {
        std::string out = fresh(lower(f.op));
        onnx::NodeProto node = makeNode(f.op, out, {input}, {out});
        for (const auto& [name, value] : f.attrs) {
            auto* attr = node.add_attribute();
            attr->set_name(name);
            attr->set_type(onnx::AttributeProto::FLOAT);
            attr->set_f(value);
        }
        return add(std::move(node));
    }

    std::string clipped(const std::string& input) {
        if (clip_ <= 0)
            return input;
        std::string out = fresh("clip");
        onnx::NodeProto node = makeNode("Clip", out, {input}, {out});
        if (ctx_.opset() >= 11) {
            node.add_input(constant(static_cast<float>(-clip_), {}, "clip_min"));
            node.add_input(constant(static_cast<float>(clip_), {}, "clip_max"));
        } else {
            for (auto [name, value] : {std::pair{"min", -clip_}, std::pair{"max", clip_}}) {
                auto* attr = node.add_attribute();
                attr->set_name(name);
                attr->set_type(onnx::AttributeProto::FLOAT);
                attr->set_f(static_cast<float>(value));
            }
        }
        return add(std::move(node));
    }

    /// Splits \p input into \p n equal parts along \p axis.
    std::vector<std::string> split(const std::string& input, int n, int64_t axis) {
        std::string base = fresh("split");
        std::vector<std::string> outs;
        for (int k = 0; k < n; ++k)
            outs.push_back(base + "/" + std::to_string(k));
        onnx::NodeProto node = makeNode("Split", base, {input}, outs);
        setIntAttribute(node, "axis", axis);
        if (ctx_.opset() >= 18)
            setIntAttribute(node, "num_outputs", n);
        rewrite_->nodes.push_back(std::move(node));
        return outs;
    }

    const Activation& activation(int64_t d, int k) const {
        size_t per = cell_ == Cell::Lstm ? 3 : cell_ == Cell::Gru ? 2 : 1;
        return activations_[static_cast<size_t>(d) * per + static_cast<size_t>(k)];
    }

    /// The initial state input \p slot for direction \p d, or zeros.
    std::string initial(int slot, int64_t d, const std::string& what) {
        if (ctx_.hasInput(slot))
            return pick(node_.input(slot), d, 0, what);
        return constant(0, {batch_, hidden_}, what);
    }

    Status direction(const std::string& x, int64_t d, std::vector<std::string>& ys,
                     std::vector<std::string>& hs, std::vector<std::string>& cs) {
        std::string w = transpose(pick(node_.input(1), d, 0, "w"), {1, 0}, "wt");
        std::string r = transpose(pick(node_.input(2), d, 0, "r"), {1, 0}, "rt");
        std::string projected = op("MatMul", {x, w}, "xw");
        bool linearBeforeReset =
            cell_ == Cell::Gru && ctx_.op().attrs.getInt("linear_before_reset", 0) != 0;
        std::vector<std::string> recurrentBias;
        if (ctx_.hasInput(3)) {
            std::vector<std::string> biases = split(pick(node_.input(3), d, 0, "b"), 2, 0);
            if (linearBeforeReset) {
                projected = op("Add", {projected, biases[0]}, "xwb");
                recurrentBias = split(biases[1], 3, 0); // z, r, h
            } else {
                projected = op("Add", {projected, op("Add", biases, "bias")}, "xwb");
            }
        }
        std::vector<std::string> peepholes;
        if (cell_ == Cell::Lstm && ctx_.hasInput(7))
            peepholes = split(pick(node_.input(7), d, 0, "p"), 3, 0); // i, o, f
        std::vector<std::string> recurrent;
        if (cell_ == Cell::Gru)
            recurrent = split(r, 3, 1); // z, r, h
        std::string h = initial(5, d, "h0");
        std::string c = cell_ == Cell::Lstm ? initial(6, d, "c0") : std::string();
        bool backwards = reverseOnly_ || d == 1;
        std::vector<std::string> outputs(static_cast<size_t>(steps_));
        for (int64_t s = 0; s < steps_; ++s) {
            int64_t t = backwards ? steps_ - 1 - s : s;
            std::string xt = pick(projected, t, 0, "xt");
            if (cell_ == Cell::Gru) {
                h = gruStep(xt, h, recurrent, recurrentBias, d);
            } else {
                std::string pre = op("Add", {xt, op("MatMul", {h, r}, "hr")}, "pre");
                if (cell_ == Cell::Lstm)
                    std::tie(h, c) = lstmStep(pre, c, peepholes, d);
                else
                    h = activate(activation(d, 0), clipped(pre));
            }
            outputs[static_cast<size_t>(t)] = h;
        }
        ys.push_back(stack(outputs, 0, "y"));
        hs.push_back(h);
        cs.push_back(c);
        return Status::success();
    }

    std::pair<std::string, std::string> lstmStep(const std::string& pre, const std::string& c,
                                                 const std::vector<std::string>& peep, int64_t d) {
        std::vector<std::string> gate = split(pre, 4, 1); // i, o, f, c
        auto withPeephole = [&](const std::string& gateInput, int slot, const std::string& cell) {
            if (peep.empty())
                return gateInput;
            return op("Add", {gateInput, op("Mul", {peep[static_cast<size_t>(slot)], cell}, "pc")},
                      "gp");
        };
        std::string i = activate(activation(d, 0), clipped(withPeephole(gate[0], 0, c)));
        std::string f = activate(activation(d, 0), clipped(withPeephole(gate[2], 2, c)));
        std::string candidate = activate(activation(d, 1), clipped(gate[3]));
        std::string cell =
            op("Add", {op("Mul", {f, c}, "fc"), op("Mul", {i, candidate}, "ic")}, "c");
        std::string o = activate(activation(d, 0), clipped(withPeephole(gate[1], 1, cell)));
        std::string hidden = op("Mul", {o, activate(activation(d, 2), cell)}, "h");
        return {hidden, cell};
    }

    /// One GRU step; \p rb holds R's biases (z, r, h) when linear_before_reset
    /// keeps them apart, else they are in \p xt with W's.
    std::string gruStep(const std::string& xt, const std::string& h,
                        const std::vector<std::string>& r, const std::vector<std::string>& rb,
                        int64_t d) {
        std::vector<std::string> x = split(xt, 3, 1); // z, r, h
        auto gate = [&](int k, const std::string& what) {
            std::string pre =
                op("Add",
                   {x[static_cast<size_t>(k)], op("MatMul", {h, r[static_cast<size_t>(k)]}, what)},
                   what + "_pre");
            if (!rb.empty())
                pre = op("Add", {pre, rb[static_cast<size_t>(k)]}, what + "_rb");
            return activate(activation(d, 0), clipped(pre));
        };
        std::string z = gate(0, "z");
        std::string reset = gate(1, "reset");
        std::string recurrent;
        if (rb.empty()) {
            recurrent = op("MatMul", {op("Mul", {reset, h}, "rh"), r[2]}, "rhr");
        } else {
            std::string linear = op("Add", {op("MatMul", {h, r[2]}, "hr"), rb[2]}, "hrb");
            recurrent = op("Mul", {reset, linear}, "rl");
        }
        std::string hidden =
            activate(activation(d, 1), clipped(op("Add", {x[2], recurrent}, "ph")));
        std::string one = constant(1, {}, "one");
        std::string keep = op("Mul", {op("Sub", {one, z}, "1mz"), hidden}, "zh");
        return op("Add", {keep, op("Mul", {z, h}, "zhp")}, "hnext");
    }

    /// Stacks \p parts along a new axis \p axis.
    std::string stack(const std::vector<std::string>& parts, int64_t axis,
                      const std::string& what) {
        std::vector<std::string> rows;
        for (const std::string& part : parts) {
            rows.push_back(fresh(what + "_row"));
            addUnsqueeze(*rewrite_, ctx_.opset(), part, axis, rows.back());
        }
        if (rows.size() == 1)
            return rows[0];
        std::string out = fresh(what);
        onnx::NodeProto concat = makeNode("Concat", out, rows, {out});
        setIntAttribute(concat, "axis", axis);
        return add(std::move(concat));
    }

    void output(int slot, const std::string& value) {
        if (slot < node_.output_size() && !node_.output(slot).empty())
            rewrite_->nodes.push_back(makeNode("Identity",
                                               prefix_ + "output" + std::to_string(slot), {value},
                                               {node_.output(slot)}));
    }

    void finishOutputs(const std::vector<std::string>& ys, const std::vector<std::string>& hs,
                       const std::vector<std::string>& cs) {
        std::string y = stack(ys, 1, "ydir"); // [S, dirs, B, H]
        std::string yh = stack(hs, 0, "hdir");
        output(0, layout_ == 0 ? y : transpose(y, {2, 0, 1, 3}, "ylayout"));
        output(1, layout_ == 0 ? yh : transpose(yh, {1, 0, 2}, "hlayout"));
        if (cell_ == Cell::Lstm) {
            std::string yc = stack(cs, 0, "cdir");
            output(2, layout_ == 0 ? yc : transpose(yc, {1, 0, 2}, "clayout"));
        }
    }

    InferContext& ctx_;
    Cell cell_;
    const onnx::NodeProto& node_;
    std::string prefix_;
    int32_t type_;
    NodeRewrite* rewrite_ = nullptr;
    int64_t hidden_ = 0, layout_ = 0, steps_ = 0, batch_ = 0, directions_ = 1;
    double clip_ = 0;
    bool reverseOnly_ = false;
    std::vector<Activation> activations_;
    int step_ = 0;
};

Expected<bool> rewriteRecurrent(InferContext& ctx, Cell cell, std::string& because) {
    const std::string& name = ctx.op().name;
    const onnx::NodeProto* node = nodeNamed(ctx.session(), name);
    if (node == nullptr || node->input_size() < 3)
        return ctx.error("needs X, W and R");
    RnnUnroller unroller(ctx, cell, *node);
    SC_ASSIGN_OR_RETURN(because, unroller.check());
    if (!because.empty())
        return false;
    NodeRewrite rewrite;
    if (Status done = unroller.unroll(rewrite); !done.ok())
        return ctx.error(done.error().message());
    ctx.session().rewrites[name] = std::move(rewrite);
    return true;
}

} // namespace

Expected<bool> rewriteRnn(InferContext& ctx, std::string& because, std::string&) {
    return rewriteRecurrent(ctx, Cell::Rnn, because);
}

Expected<bool> rewriteGru(InferContext& ctx, std::string& because, std::string&) {
    return rewriteRecurrent(ctx, Cell::Gru, because);
}

Expected<bool> rewriteLstm(InferContext& ctx, std::string& because, std::string&) {
    return rewriteRecurrent(ctx, Cell::Lstm, because);
}

} // namespace stagecraft::onnxio
