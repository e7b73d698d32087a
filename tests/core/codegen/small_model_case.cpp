// Small generated models against ONNX Runtime (small_model_case.h).

#include "small_model_case.h"

#include "codegen/codegen.h"
#include "coretestsupport.h"
#include "host_fixture.h"
#include "ir/const_tensor.h"

#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>
#include <optional>
#include <set>
#include <sstream>

namespace stagecraft::test {

void scalar(onnxio::ModelBuilder& m, const std::string& name, DType t, double value) {
    std::vector<std::byte> bytes(static_cast<size_t>(ir::dtypeSize(t)));
    ir::writeDouble(t, bytes, 0, value);
    m.addInlineInitializer(name, t, {}, bytes);
}

void s8Weight(onnxio::ModelBuilder& m, Seeded& r, const std::string& name, const ir::Shape& shape) {
    int64_t count = 1;
    for (int64_t d : shape)
        count *= d;
    m.addInlineInitializer(name, DType::Int8, shape, bytesOf(r.ints<int8_t>(count, -128, 127)));
}

std::vector<StrategyRow> strategyRows(const std::vector<std::string>& names) {
    std::vector<StrategyRow> rows;
    for (const char* strategy : {"tvm", "graphturbo"})
        for (size_t i = 0; i < names.size(); ++i)
            rows.push_back({names[i] + "-" + strategy, i, strategy});
    return rows;
}

std::vector<StrategyRow> strategyRows(const std::vector<Case>& cases) {
    std::vector<std::string> names;
    for (const Case& c : cases)
        names.push_back(c.name);
    return strategyRows(names);
}

void output(onnxio::ModelBuilder& m, const std::string& name, DType t, const ir::Shape& shape) {
    std::vector<onnxio::Dim> dims(shape.begin(), shape.end());
    m.addOutput(name, t, dims);
}

namespace {

int opsOfType(const ir::Graph& graph, const std::string& type) {
    int count = 0;
    for (ir::OpId id : graph.opIds())
        count += graph.op(id).type == type ? 1 : 0;
    return count;
}

/// The case's input: floats in [-range, range], integers over their range.
codegen::HostTensor inputOf(const Case& c, Seeded& r) {
    codegen::HostTensor t{"x", c.inputType, c.inputShape, {}};
    int64_t n = ir::elementCount(c.inputShape);
    t.data.resize(static_cast<size_t>(n * ir::dtypeSize(c.inputType)));
    std::vector<float> floats = r.floats(n, c.range);
    for (int64_t i = 0; i < n; ++i) {
        if (c.inputType == DType::Float32)
            ir::writeDouble(c.inputType, t.data, i, floats[static_cast<size_t>(i)]);
        else if (c.inputType == DType::UInt8)
            ir::writeInt64(c.inputType, t.data, i, static_cast<int64_t>(r.next() % 256));
        else
            ir::writeInt64(c.inputType, t.data, i, static_cast<int64_t>(r.next() % 256) - 128);
    }
    return t;
}

} // namespace

ModelFile saveCase(const Case& c, const std::filesystem::path& path, Seeded& r) {
    onnxio::ModelBuilder m(c.name, c.opset);
    std::vector<onnxio::Dim> dims(c.inputShape.begin(), c.inputShape.end());
    m.addInput("x", c.inputType, dims);
    c.body(m, r);
    ModelFile file{path, {}};
    EXPECT_TRUE(m.save(file.path).ok()) << path;
    return file;
}

void expectMatchesOnnxRuntime(const Case& c, const char* strategy, const std::string& cpu,
                              int64_t threads) {
    TempDir dir;
    Seeded r;
    ModelFile file = saveCase(c, dir.path() / "model.onnx", r);
    auto planned = plan(file, "stcp920", strategy);
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    for (codegen::KernelCode& k : (*planned)->plan.kernels)
        if (threads > 0)
            k.hostThreads = std::min(k.cores, threads);
    const ir::Graph& graph = (*planned)->graph;
    if (c.folded != nullptr) {
        EXPECT_EQ(opsOfType(graph, c.folded), 1) << "the QDQ pattern is not folded";
        EXPECT_EQ(opsOfType(graph, "QuantizeLinear") + opsOfType(graph, "DequantizeLinear"), 0);
    }
    codegen::TensorSet inputs{inputOf(c, r)};
    auto ort = runOnnxRuntime(file.path, inputs, true);
    ASSERT_TRUE(ort.ok()) << (ort.ok() ? "" : ort.error().message().c_str());
    auto outputs = runOnHost(**planned, inputs, cpu);
    ASSERT_TRUE(outputs.ok()) << (outputs.ok() ? "" : outputs.error().message().c_str());
    ASSERT_EQ(outputs->size(), graph.outputs().size());
    for (const codegen::HostTensor& out : *outputs) {
        const codegen::HostTensor* expected = codegen::findTensor(*ort, out.name);
        ASSERT_TRUE(expected != nullptr) << out.name;
        ASSERT_EQ(out.dtype, expected->dtype) << out.name;
        codegen::Difference d = codegen::compareTensors(out, *expected);
        ASSERT_TRUE(d.mismatch.empty()) << d.mismatch;
        test::info("%s %s %s: max absolute error %.3g, relative %.3g", c.name, strategy,
                   out.name.c_str(), d.maxAbsolute, d.relative);
        if (ir::isFloatingPoint(out.dtype))
            EXPECT_LE(d.relative, 1e-4) << out.name;
        else
            EXPECT_EQ(d.maxAbsolute, 0) << out.name << " differs at element " << d.worstIndex;
    }
}

int64_t countInKernels(const Case& c, const char* strategy, const std::filesystem::path& dir,
                       std::string_view part, int64_t threads) {
    Seeded r;
    ModelFile file = saveCase(c, dir / (std::string(c.name) + ".onnx"), r);
    auto planned = plan(file, "stcp920", strategy);
    EXPECT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    if (!planned.ok())
        return -1;
    for (codegen::KernelCode& k : (*planned)->plan.kernels)
        if (threads > 0)
            k.hostThreads = std::min(k.cores, threads);
    const codegen::CodePlan& code = (*planned)->plan;
    int64_t count = 0;
    for (size_t k = 0; k < code.kernels.size(); ++k) {
        auto text = codegen::lowerKernelText((*planned)->graph,
                                             *(*planned)->evaluation.schedule.semantics, code, k);
        EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().message().c_str());
        if (!text.ok())
            return -1;
        count += test::countText(*text, part);
    }
    return count;
}

namespace {

/// Case \p c scheduled by \p strategy (the model saved in \p dir) and
/// emitted on one thread with \p options; nullopt (a failure noted) when
/// it cannot be planned or compiled.
std::optional<codegen::EmittedProgram> emittedCase(const Case& c, const char* strategy,
                                                   const std::filesystem::path& dir,
                                                   codegen::EmitOptions options) {
    Seeded r;
    ModelFile file = saveCase(c, dir / (std::string(c.name) + ".onnx"), r);
    auto planned = plan(file, "stcp920", strategy);
    EXPECT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    if (!planned.ok())
        return std::nullopt;
    options.threads = 1;
    auto emitted = codegen::emitProgram(
        (*planned)->graph, *(*planned)->evaluation.schedule.semantics, (*planned)->plan, options);
    EXPECT_TRUE(emitted.ok()) << (emitted.ok() ? "" : emitted.error().message().c_str());
    if (!emitted.ok())
        return std::nullopt;
    return std::move(emitted).value();
}

} // namespace

std::string optimizedKernels(const Case& c, const char* strategy, const std::filesystem::path& dir,
                             const std::string& cpu, codegen::Target target) {
    codegen::EmitOptions options;
    options.cpu = cpu;
    options.target = target;
    std::optional<codegen::EmittedProgram> emitted = emittedCase(c, strategy, dir, options);
    std::string ir;
    if (emitted)
        for (const codegen::EmittedKernel& kernel : emitted->kernels)
            for (const codegen::EmittedPart& part : kernel.parts)
                ir += part.ir;
    return ir;
}

namespace {

/// The label "BB<f>_<n>" after \p marker in \p line ("" without it).
std::string labelAfter(const std::string& line, std::string_view marker) {
    const size_t at = line.find(marker);
    if (at == std::string::npos)
        return {};
    const size_t from = at + marker.size();
    size_t to = from;
    while (to < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[to])) != 0 || line[to] == '_'))
        ++to;
    return line.substr(from, to - from);
}

/// The bytes of a spill or reload LLVM notes on \p line ("32-byte Spill",
/// "16-byte Folded Reload"), else 0.
int spilledBytes(const std::string& line) {
    const size_t at = line.find("-byte ");
    if (at == std::string::npos || (line.find("Spill", at) == std::string::npos &&
                                    line.find("Reload", at) == std::string::npos))
        return 0;
    size_t from = at;
    while (from > 0 && std::isdigit(static_cast<unsigned char>(line[from - 1])) != 0)
        --from;
    return from < at ? std::stoi(line.substr(from, at - from)) : 0;
}

/// The spills and reloads of vector registers (16 bytes or more) in the
/// blocks of innermost loops of the verbose x86 assembly \p text: a block
/// whose loop comment names it an inner loop's header, or names such a
/// header as its loop's. A block starts at a label or, falling through
/// from the last (a loop's exit), at LLVM's "# %bb.N:" note. Adds the
/// inner loops seen to \p loops.
int64_t innerVectorSpills(const std::string& text, int64_t& loops) {
    std::set<std::string> innerHeaders;
    std::istringstream lines(text);
    std::string line, block;
    bool inner = false;
    int64_t count = 0;
    while (std::getline(lines, line)) {
        if (line.rfind(".LBB", 0) == 0 || line.rfind("# %bb.", 0) == 0) { // a block starts
            block = labelAfter(line, ".L");
            inner = false;
        } else if (line.find("This Inner Loop Header") != std::string::npos) {
            innerHeaders.insert(block);
            inner = true;
        } else if (innerHeaders.count(labelAfter(line, "in Loop: Header=")) > 0) {
            inner = true;
        } else if (inner && spilledBytes(line) >= 16) {
            ++count;
        }
    }
    loops += static_cast<int64_t>(innerHeaders.size());
    return count;
}

} // namespace

int64_t innerLoopVectorSpills(const Case& c, const char* strategy, const std::filesystem::path& dir,
                              const std::string& cpu) {
    codegen::EmitOptions options;
    options.cpu = cpu;
    options.keepIr = false;
    options.keepAssembly = true;
    std::optional<codegen::EmittedProgram> emitted = emittedCase(c, strategy, dir, options);
    if (!emitted)
        return -1;
    int64_t count = 0, loops = 0;
    for (const codegen::EmittedKernel& kernel : emitted->kernels)
        for (const codegen::EmittedPart& part : kernel.parts)
            count += innerVectorSpills(part.assembly, loops);
    EXPECT_GT(loops, 0) << c.name << ": no inner loop found in the assembly's loop comments";
    return loops > 0 ? count : -1;
}

} // namespace stagecraft::test
