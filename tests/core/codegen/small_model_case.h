#pragma once
/// \file
/// Small generated models run against ONNX Runtime (test_small_models.cpp,
/// test_small_contractions.cpp): a case is one graph input x and a builder
/// of the rest; expectMatchesOnnxRuntime schedules it, runs it on the host
/// and compares.
/// Each model is emitted for the host and run on inputs that cover the
/// whole u8 range (and floats beyond the quantized range, so saturation is
/// exercised). Integer outputs must equal ONNX Runtime's exactly, float
/// outputs to 1e-4 relative (docs/codegen.md). ONNX Runtime runs with its
/// graph optimizations: on CPUs without VNNI its u8 x s8 kernels saturate
/// int16 sums unless a graph optimization makes them u8 x u8
/// (tests/oracle/run-model.js), and it folds QDQ patterns as the import does.

#include "codegen/codegen.h"
#include "codegen_fixture.h"
#include "onnx/model_builder.h"

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::test {

using ir::DType;

template <typename T>
std::vector<std::byte> bytesOf(const std::vector<T>& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

/// Deterministic values: floats in [-range, range], integers over [lo, hi].
struct Seeded {
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    uint64_t next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    }
    double unit() { return static_cast<double>(next() % 1000001) / 1000000.0; }
    std::vector<float> floats(int64_t n, double range) {
        std::vector<float> v;
        for (int64_t i = 0; i < n; ++i)
            v.push_back(static_cast<float>((2 * unit() - 1) * range));
        return v;
    }
    template <typename T>
    std::vector<T> ints(int64_t n, int64_t lo, int64_t hi) {
        std::vector<T> v;
        for (int64_t i = 0; i < n; ++i)
            v.push_back(static_cast<T>(lo + static_cast<int64_t>(next() % (hi - lo + 1))));
        return v;
    }
};

/// One model: its graph input (x, f32 or u8) and a builder of the rest.
struct Case {
    const char* name;
    DType inputType;
    ir::Shape inputShape;
    /// Floats in [-range, range]; integers over their whole range.
    double range;
    std::function<void(onnxio::ModelBuilder&, Seeded&)> body;
    /// The integer op the import folds a QDQ pattern into (as ONNX Runtime's
    /// graph optimizations fold it), or null.
    const char* folded = nullptr;
    int64_t opset = 13;
};

/// A parameter row of a suite: case \p index under \p strategy, labelled
/// "<case>-<strategy>" (test::RowName makes the label the test's name).
struct StrategyRow {
    std::string rowLabel;
    size_t index;
    const char* strategy;
};
/// A row per case named in \p names and strategy, tvm's rows first, then
/// graphturbo's.
std::vector<StrategyRow> strategyRows(const std::vector<std::string>& names);
/// The rows of \p cases, by their names.
std::vector<StrategyRow> strategyRows(const std::vector<Case>& cases);

/// A scalar initializer \p name of type \p t.
void scalar(onnxio::ModelBuilder& m, const std::string& name, DType t, double value);
/// An s8 initializer \p name of \p shape, its values drawn from \p r over
/// the whole range.
void s8Weight(onnxio::ModelBuilder& m, Seeded& r, const std::string& name, const ir::Shape& shape);
/// Declares graph output \p name.
void output(onnxio::ModelBuilder& m, const std::string& name, DType t, const ir::Shape& shape);

/// Builds case \p c's model (its initializers drawn from \p r) and saves it at \p path.
ModelFile saveCase(const Case& c, const std::filesystem::path& path, Seeded& r);

/// Runs case \p c scheduled by \p strategy (on stcp920) on the host,
/// compiled for CPU \p cpu (default this machine's), and compares its
/// outputs with ONNX Runtime's. With \p threads > 0 every kernel runs on
/// that many threads at most (KernelCode::hostThreads), its tiles merged as
/// `stagecraft run` merges them on a machine of that many CPUs.
void expectMatchesOnnxRuntime(const Case& c, const char* strategy, const std::string& cpu = "",
                              int64_t threads = 0);

/// Occurrences of \p part in the unoptimized IR of every kernel of case
/// \p c scheduled by \p strategy (the model saved in \p dir); -1 when it
/// cannot be planned or lowered. With \p threads > 0 each kernel runs on
/// that many threads at most, its tiles merged so (expectMatchesOnnxRuntime).
int64_t countInKernels(const Case& c, const char* strategy, const std::filesystem::path& dir,
                       std::string_view part, int64_t threads = 0);

/// The optimized IR of every kernel of case \p c scheduled by \p strategy,
/// compiled for \p target (the host's triple and CPU \p cpu; riscv64's
/// with \p cpu empty) (the model saved in \p dir); empty when it cannot be
/// planned or compiled.
std::string optimizedKernels(const Case& c, const char* strategy, const std::filesystem::path& dir,
                             const std::string& cpu,
                             codegen::Target target = codegen::Target::Host);

/// Vector registers spilled or reloaded in the innermost loops of every
/// kernel of case \p c scheduled by \p strategy, compiled for the host's
/// triple and CPU \p cpu (LLVM's spill notes in its verbose assembly); -1
/// when it cannot be planned or compiled, or no inner loop is found.
int64_t innerLoopVectorSpills(const Case& c, const char* strategy, const std::filesystem::path& dir,
                              const std::string& cpu);

} // namespace stagecraft::test
