// Softmax, LogSoftmax, Hardmax, LayerNormalization, InstanceNormalization:
// the loop-nest model reads the normalized dims `full` (every output
// element needs all of them). For each point of the other dims the
// statistics are computed over the whole normalized extent (max and sum of
// exponentials; mean and variance, two passes), then the outputs of the
// region are written. A softmax whose instance writes whole rows keeps each
// exponential in its output as the sum takes it and divides it there, so
// exp runs once per element (the same bits as computing it again).

#include "codegen/internal/lowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/TargetParser/Triple.h>

#include <array>
#include <functional>
#include <utility>

namespace stagecraft::codegen::detail {

namespace {

struct Dims {
    std::vector<size_t> outer, normalized;
};

Dims splitDims(const ops::AccessMap& data) {
    Dims dims;
    for (size_t j = 0; j < data.dims.size(); ++j)
        (data.dims[j].full ? dims.normalized : dims.outer).push_back(j);
    return dims;
}

/// The full index from the outer and normalized loop values.
std::vector<Value*> joinIndex(const Dims& dims, const std::vector<Value*>& outer,
                              const std::vector<Value*>& normalized) {
    std::vector<Value*> index(dims.outer.size() + dims.normalized.size());
    for (size_t i = 0; i < dims.outer.size(); ++i)
        index[dims.outer[i]] = outer[i];
    for (size_t i = 0; i < dims.normalized.size(); ++i)
        index[dims.normalized[i]] = normalized[i];
    return index;
}

class Normalizer {
public:
    Normalizer(Emitter& e, const OpCall& call)
        : e_(e)
        , call_(call)
        , dims_(splitDims(*call.semantics->nests[0].accessFor(0)))
        , t_(outputType(call, 0)) {
        for (size_t j : dims_.outer)
            outerRegion_.push_back(call.regions[0][j]);
        for (size_t j : dims_.normalized) {
            innerRegion_.push_back(call.regions[0][j]);
            whole_.push_back({e.i64(0), e.i64(call.inputs[0].shape[j])});
        }
    }

    void run() {
        using enum ir::OpKind;
        ir::OpKind kind = call_.op().kind;
        e_.forBox(outerRegion_, [&](const std::vector<Value*>& outer) {
            if (kind == Softmax || kind == LogSoftmax)
                softmax(outer, kind == LogSoftmax);
            else if (kind == Hardmax)
                hardmax(outer);
            else
                normalize(outer);
        });
    }

private:
    Value* x(const std::vector<Value*>& outer, const std::vector<Value*>& inner) {
        return e_.convert(e_.load(call_.inputs[0], joinIndex(dims_, outer, inner)),
                          inputType(call_, 0), t_);
    }
    Value* get(Value* slot) { return e_.b().CreateLoad(e_.valueType(t_), slot); }
    Value* f(double v) { return e_.constant(t_, v); }
    Value* call1(llvm::Intrinsic::ID id, Value* v) {
        std::array<Value*, 1> a{v};
        return e_.intrinsic(id, a);
    }
    void accumulate(const std::vector<Value*>& outer, Value* slot,
                    const std::function<Value*(Value* acc, Value* x)>& step) {
        e_.forBox(whole_, [&](const std::vector<Value*>& inner) {
            e_.b().CreateStore(step(get(slot), x(outer, inner)), slot);
        });
    }
    void write(const std::vector<Value*>& outer,
               const std::function<Value*(const std::vector<Value*>& index, Value* x)>& value) {
        e_.forBox(innerRegion_, [&](const std::vector<Value*>& inner) {
            std::vector<Value*> index = joinIndex(dims_, outer, inner);
            e_.store(call_.outputs[0], index, value(index, x(outer, inner)));
        });
    }

    /// On the host, a row that is one contiguous f32 or f64 dim is folded in
    /// vector lanes (a fixed order, whatever the schedule: a row is never
    /// split), then across the lanes.
    bool foldsInLanes() const {
        if (dims_.normalized.size() != 1 || inputType(call_, 0) != t_ ||
            (t_ != ir::DType::Float32 && t_ != ir::DType::Float64) ||
            llvm::Triple(e_.module().getTargetTriple()).isRISCV())
            return false;
        return call_.inputs[0].strides[dims_.normalized[0]] == 1;
    }

    /// Whether softmax keeps each exp(x - max) in the output as it sums them
    /// and then divides it there, instead of computing it again: a row in
    /// lanes whose output row is whole and contiguous, of the row's type.
    bool keepsExps() const {
        const size_t dim = dims_.normalized.empty() ? 0 : dims_.normalized[0];
        if (!foldsInLanes() || outputType(call_, 0) != t_ || call_.outputs[0].strides[dim] != 1)
            return false;
        const auto* lo = llvm::dyn_cast<llvm::ConstantInt>(innerRegion_[0].lo);
        const auto* hi = llvm::dyn_cast<llvm::ConstantInt>(innerRegion_[0].hi);
        return lo && hi && lo->getSExtValue() == 0 &&
               hi->getSExtValue() == call_.inputs[0].shape[dim];
    }

    /// A fold's step: the new lanes from \p acc and the row's lanes \p x at
    /// row position \p k, of which the first \p count are the row's.
    using FoldStep = std::function<Value*(Value* acc, Value* x, Value* k, int64_t count)>;

    /// The row folded with \p step, lane by lane from \p identity (lanes past
    /// the row's end keep it), then across the lanes in halves with \p combine.
    Value* foldRow(const std::vector<Value*>& outer, double identity, const FoldStep& step,
                   const std::function<Value*(Value* a, Value* b)>& combine) {
        auto& b = e_.b();
        const int64_t lanes = 64 / ir::dtypeSize(t_);
        const int64_t n = call_.inputs[0].shape[dims_.normalized[0]];
        const int64_t whole = n / lanes * lanes;
        auto* type = llvm::FixedVectorType::get(e_.valueType(t_), static_cast<unsigned>(lanes));
        Value* acc = e_.slot(type, b.CreateVectorSplat(static_cast<unsigned>(lanes), f(identity)));
        e_.forRange(
            {e_.i64(0), e_.i64(whole)},
            [&](Value* k) {
                std::vector<bool> all(static_cast<size_t>(lanes), true);
                Value* x = e_.loadMasked(call_.inputs[0], joinIndex(dims_, outer, {k}), 0, all);
                b.CreateStore(step(b.CreateLoad(type, acc), x, k, lanes), acc);
            },
            lanes);
        if (n > whole) {
            std::vector<bool> read(static_cast<size_t>(lanes), false);
            std::vector<llvm::Constant*> mask;
            for (int64_t k = 0; k < lanes; ++k) {
                read[static_cast<size_t>(k)] = k < n - whole;
                mask.push_back(b.getInt1(k < n - whole));
            }
            Value* x =
                e_.loadMasked(call_.inputs[0], joinIndex(dims_, outer, {e_.i64(whole)}), 0, read);
            Value* old = b.CreateLoad(type, acc);
            Value* next = step(old, x, e_.i64(whole), n - whole);
            b.CreateStore(b.CreateSelect(llvm::ConstantVector::get(mask), next, old), acc);
        }
        Value* v = b.CreateLoad(type, acc);
        for (int64_t width = lanes / 2; width >= 1; width /= 2) {
            std::vector<int> low, high;
            for (int k = 0; k < width; ++k) {
                low.push_back(k);
                high.push_back(static_cast<int>(width) + k);
            }
            v = combine(b.CreateShuffleVector(v, low), b.CreateShuffleVector(v, high));
        }
        return b.CreateExtractElement(v, uint64_t{0});
    }

    /// The row's largest element and its sum of exp(x - max).
    std::pair<Value*, Value*> softmaxStatistics(const std::vector<Value*>& outer) {
        auto& b = e_.b();
        auto larger = [&](Value* m, Value* v) {
            return b.CreateSelect(b.CreateFCmpOGT(v, m), v, m);
        };
        auto add = [&](Value* x, Value* y) {
            return b.CreateFAdd(x, y);
        };
        if (foldsInLanes()) {
            Value* m = foldRow(
                outer, -1e300,
                [&](Value* acc, Value* v, Value*, int64_t) { return larger(acc, v); }, larger);
            const bool keep = keepsExps();
            auto exps = [&](Value* acc, Value* v, Value* k, int64_t count) {
                const auto* type = llvm::cast<llvm::FixedVectorType>(v->getType());
                Value* shift = b.CreateVectorSplat(type->getNumElements(), m);
                Value* exp = expOf(e_, b.CreateFSub(v, shift));
                if (auto* named = llvm::dyn_cast<llvm::Instruction>(exp); named && keep)
                    named->setName("kept"); // for tests and the kernel view
                if (keep)
                    e_.storeVector(call_.outputs[0], joinIndex(dims_, outer, {k}), exp, count);
                return b.CreateFAdd(acc, exp);
            };
            return {m, foldRow(outer, 0, exps, add)};
        }
        Value* max = e_.slot(e_.valueType(t_), f(-1e300));
        accumulate(outer, max, larger);
        Value* m = get(max);
        Value* sum = e_.slot(e_.valueType(t_), f(0));
        accumulate(outer, sum, [&](Value* s, Value* v) {
            return b.CreateFAdd(s, expOf(e_, b.CreateFSub(v, m)));
        });
        return {m, get(sum)};
    }

    void softmax(const std::vector<Value*>& outer, bool logarithm) {
        auto& b = e_.b();
        const auto [m, s] = softmaxStatistics(outer);
        Value* logSum = logarithm ? call1(llvm::Intrinsic::log, s) : nullptr;
        if (!logarithm && keepsExps()) { // the exps the sum kept, divided where they are
            e_.forBox(innerRegion_, [&](const std::vector<Value*>& inner) {
                std::vector<Value*> index = joinIndex(dims_, outer, inner);
                e_.store(call_.outputs[0], index,
                         b.CreateFDiv(e_.load(call_.outputs[0], index), s));
            });
            return;
        }
        write(outer, [&](const std::vector<Value*>&, Value* v) {
            Value* shifted = b.CreateFSub(v, m);
            return logarithm ? b.CreateFSub(shifted, logSum) : b.CreateFDiv(expOf(e_, shifted), s);
        });
    }

    /// 1 at the first maximum (in row-major order of the normalized dims).
    void hardmax(const std::vector<Value*>& outer) {
        auto& b = e_.b();
        Value* best = e_.slot(e_.valueType(t_), f(-1e300));
        Value* first = e_.slot(b.getInt1Ty(), b.getTrue());
        std::vector<Value*> at;
        for (size_t i = 0; i < dims_.normalized.size(); ++i)
            at.push_back(e_.slot(b.getInt64Ty(), e_.i64(0)));
        e_.forBox(whole_, [&](const std::vector<Value*>& inner) {
            Value* v = x(outer, inner);
            Value* better =
                b.CreateOr(b.CreateFCmpOGT(v, get(best)), b.CreateLoad(b.getInt1Ty(), first));
            b.CreateStore(b.CreateSelect(better, v, get(best)), best);
            for (size_t i = 0; i < at.size(); ++i)
                b.CreateStore(b.CreateSelect(better, inner[i], b.CreateLoad(b.getInt64Ty(), at[i])),
                              at[i]);
            b.CreateStore(b.getFalse(), first);
        });
        e_.forBox(innerRegion_, [&](const std::vector<Value*>& inner) {
            std::vector<Value*> same;
            for (size_t i = 0; i < at.size(); ++i)
                same.push_back(b.CreateICmpEQ(inner[i], b.CreateLoad(b.getInt64Ty(), at[i])));
            e_.store(call_.outputs[0], joinIndex(dims_, outer, inner),
                     b.CreateSelect(e_.all(same), f(1), f(0)));
        });
    }

    /// LayerNormalization and InstanceNormalization.
    void normalize(const std::vector<Value*>& outer) {
        auto& b = e_.b();
        int64_t n = 1;
        for (size_t j : dims_.normalized)
            n *= call_.inputs[0].shape[j];
        Value* count = f(static_cast<double>(n));
        Value* sum = e_.slot(e_.valueType(t_), f(0));
        accumulate(outer, sum, [&](Value* s, Value* v) { return b.CreateFAdd(s, v); });
        Value* mean = b.CreateFDiv(get(sum), count);
        Value* squares = e_.slot(e_.valueType(t_), f(0));
        accumulate(outer, squares, [&](Value* s, Value* v) {
            Value* d = b.CreateFSub(v, mean);
            return b.CreateFAdd(s, b.CreateFMul(d, d));
        });
        double eps = call_.op().attrs.getFloat("epsilon", 1e-5);
        Value* var = b.CreateFDiv(get(squares), count);
        Value* inv = b.CreateFDiv(f(1), call1(llvm::Intrinsic::sqrt, b.CreateFAdd(var, f(eps))));
        write(outer, [&](const std::vector<Value*>& index, Value* v) {
            Value* y = b.CreateFMul(b.CreateFSub(v, mean), inv);
            if (call_.hasInput(1))
                y = b.CreateFMul(
                    y, e_.convert(loadMapped(e_, call_, 0, 1, index), inputType(call_, 1), t_));
            if (call_.hasInput(2))
                y = b.CreateFAdd(
                    y, e_.convert(loadMapped(e_, call_, 0, 2, index), inputType(call_, 2), t_));
            return y;
        });
        writeStatistics(outer, mean, inv);
    }

    /// LayerNormalization's optional Mean and InvStdDev outputs.
    void writeStatistics(const std::vector<Value*>& outer, Value* mean, Value* inv) {
        std::vector<Value*> zeros(dims_.normalized.size(), e_.i64(0));
        std::vector<Value*> index = joinIndex(dims_, outer, zeros);
        for (size_t o = 1; o < call_.outputs.size() && o < 3; ++o)
            if (call_.outputs[o].base != nullptr)
                e_.store(call_.outputs[o], index,
                         e_.convert(o == 1 ? mean : inv, t_, outputType(call_, o)));
    }

    Emitter& e_;
    const OpCall& call_;
    Dims dims_;
    ir::DType t_;
    std::vector<Range> outerRegion_, innerRegion_, whole_;
};

} // namespace

Status lowerNormalization(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    if (!ir::isFloatingPoint(outputType(call, 0)))
        return call.error("code generation supports floating-point normalizations only");
    Normalizer(e, call).run();
    return Status::success();
}

} // namespace stagecraft::codegen::detail
