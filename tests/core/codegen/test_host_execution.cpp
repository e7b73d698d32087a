// The emitted host kernels compute what ONNX Runtime computes (issue 7):
// real models with their real weights (zoo models with seeded ones) and
// seeded inputs, scheduled by tvm, by graphturbo, and by graphturbo after a
// user changes a split (after ungrouping, where the whole model is one group
// whose output has no dim to split): the schedule must not change the
// numbers: every schedule gives the same bits. Each
// output is compared with ONNX Runtime's by the normwise relative error
// max|a - e| / max|e| <= 1e-4 (docs/codegen.md). Where a model ends in a
// Sigmoid or Softmax, its input is compared too (added as an output of the
// model for both runs): PP-OCRv4 det's probability map is ~1e-7 everywhere
// on a blank input, where ONNX Runtime's logistic approximation is only
// accurate to ~1e-7 absolute, so that map is held to 1e-6 absolute and its
// logits to the usual 1e-4.

#include "codegen/host_run.h"
#include "codegen_fixture.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

struct Case {
    const char* name;
    /// A zoo model (with seq), or a fetched file with its input binding.
    const char* zoo;
    int64_t seq;
    const char* file;
    const char* input;
    ir::Shape shape;
    /// Tensors compared besides the outputs (added as outputs).
    std::vector<std::string> probes;
    /// An output held to an absolute tolerance instead (see the file comment).
    const char* absoluteOutput;
    const char* arch;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> all = {
        {"ppocr-cls",
         nullptr,
         0,
         "ppocr/ch_ppocr_mobile_v2.0_cls_infer.onnx",
         "x",
         {1, 3, 48, 192},
         {"p2o.Add.87"},
         nullptr,
         "stcp920"},
        {"ppocrv4-det",
         nullptr,
         0,
         "ppocr/ch_PP-OCRv4_det_infer.onnx",
         "x",
         {1, 3, 64, 64},
         {"p2o.Add.281"},
         "sigmoid_0.tmp_0",
         "stcp920"},
        {"hello_deepa",
         nullptr,
         0,
         "openwakeword/hello_deepa.onnx",
         nullptr,
         {},
         {"/last_layer/Gemm_output_0"},
         nullptr,
         "stcp920"},
        {"hello_deepa_old",
         nullptr,
         0,
         "openwakeword/hello_deepa_old.onnx",
         nullptr,
         {},
         {"/last_layer/Gemm_output_0"},
         nullptr,
         "stcp920"},
        {"namaste_deepa",
         nullptr,
         0,
         "openwakeword/namaste_deepa.onnx",
         nullptr,
         {},
         {"/last_layer/Gemm_output_0"},
         nullptr,
         "stcp920"},
        {"resnet-reduced", "resnet-reduced", 0, nullptr, nullptr, {}, {}, nullptr, "stcp920"},
        {"bert-2layer", "bert-2layer", 32, nullptr, nullptr, {}, {}, nullptr, "stcp920"},
        {"fig2-blocks-teaching", "fig2-blocks", 0, nullptr, nullptr, {}, {}, nullptr, "teaching"},
    };
    return all;
}

const Case& caseNamed(const QString& name) {
    for (const Case& c : cases())
        if (name == QLatin1String(c.name))
            return c;
    SC_ASSERT(false, "rows name known cases");
    return cases().front();
}

} // namespace

class TestHostExecution : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::map<std::string, ModelFile> models_;
    std::map<std::string, codegen::TensorSet> reference_;
    /// The first schedule's outputs of each model: the others must equal them.
    std::map<std::string, codegen::TensorSet> first_;

    /// The case's model file (probes added), written or copied once.
    std::optional<ModelFile> modelOf(const Case& c) {
        if (auto it = models_.find(c.name); it != models_.end())
            return it->second;
        ModelFile model;
        if (c.zoo != nullptr) {
            model =
                writeZoo(dir_.filePath(QString::fromLatin1(c.name)).toStdString(), c.zoo, c.seq);
        } else {
            std::filesystem::path fetched = fetchedModel(c.file);
            if (fetched.empty())
                return std::nullopt;
            std::filesystem::path copy =
                dir_.filePath(QString::fromLatin1(c.name) + QStringLiteral(".onnx")).toStdString();
            std::filesystem::copy_file(fetched, copy);
            model.path = copy;
            if (c.input != nullptr)
                model.import.inputShapes[c.input] = c.shape;
        }
        if (!c.probes.empty())
            model.path = withExtraOutputs(model.path, c.probes);
        return models_[c.name] = model;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void matchesOnnxRuntime_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("schedule");
        for (const Case& c : cases())
            for (const char* s : {"tvm", "graphturbo", "override"})
                QTest::addRow("%s/%s", c.name, s)
                    << QString::fromLatin1(c.name) << QString::fromLatin1(s);
    }

    void matchesOnnxRuntime() {
        QFETCH(QString, model);
        QFETCH(QString, schedule);
        const Case& c = caseNamed(model);
        std::optional<ModelFile> file = modelOf(c);
        QVERIFY(file.has_value());
        schedule::Overrides overrides;
        std::string strategy = schedule.toStdString();
        if (schedule == QLatin1String("override")) {
            auto changed = changedSplit(*file, c.arch);
            QVERIFY2(changed.has_value(), "no split override changes this schedule");
            overrides = *changed;
            strategy = "graphturbo";
            qInfo("override: %s split group of '%s' dim %d by %lld",
                  overrides.ungroups.empty()
                      ? ""
                      : ("ungroup at '" + overrides.ungroups[0].op + "',").c_str(),
                  overrides.splits[0].op.c_str(), overrides.splits[0].dim,
                  static_cast<long long>(overrides.splits[0].factor));
        }
        auto planned = plan(*file, c.arch, strategy, overrides);
        QVERIFY2(planned.ok(), planned.ok() ? "" : planned.error().message().c_str());
        const ir::Graph& graph = (*planned)->graph;
        QVERIFY(codegen::validateCodePlan(graph, (*planned)->plan).ok());
        auto seeded = codegen::seededInputs(graph);
        QVERIFY(seeded.ok());
        const codegen::TensorSet& inputs = *seeded;
        if (reference_.count(c.name) == 0) {
            auto ort = runOnnxRuntime(file->path, inputs);
            QVERIFY2(ort.ok(), ort.ok() ? "" : ort.error().message().c_str());
            reference_[c.name] = *ort;
        }
        auto program = codegen::emitProgram(graph, *(*planned)->evaluation.schedule.semantics,
                                            (*planned)->plan, {codegen::Target::Host, 2, 0, false});
        QVERIFY2(program.ok(), program.ok() ? "" : program.error().message().c_str());
        auto host = codegen::HostProgram::load(graph, (*planned)->plan, *program);
        QVERIFY2(host.ok(), host.ok() ? "" : host.error().message().c_str());
        auto outputs = (*host)->run(inputs);
        QVERIFY2(outputs.ok(), outputs.ok() ? "" : outputs.error().message().c_str());
        QCOMPARE(outputs->size(), graph.outputs().size());
        if (auto [it, fresh] = first_.emplace(c.name, *outputs); !fresh)
            for (size_t i = 0; i < outputs->size(); ++i)
                QVERIFY2((*outputs)[i].data == it->second[i].data,
                         "the schedule changed the numbers");
        for (const codegen::HostTensor& out : *outputs) {
            const codegen::HostTensor* expected = codegen::findTensor(reference_[c.name], out.name);
            QVERIFY2(expected != nullptr, out.name.c_str());
            codegen::Difference d = codegen::compareTensors(out, *expected);
            qInfo("%s %s: %zu kernels, %s relative error %.3g, max absolute %.3g", c.name,
                  qPrintable(schedule), (*planned)->plan.kernels.size(), out.name.c_str(),
                  d.relative, d.maxAbsolute);
            QVERIFY2(d.mismatch.empty(), d.mismatch.c_str());
            bool absolute = c.absoluteOutput != nullptr && out.name == c.absoluteOutput;
            QVERIFY2(absolute ? d.maxAbsolute <= 1e-6 : d.relative <= 1e-4, out.name.c_str());
        }
    }

    // A zoo model stored in f16 (zoo --precision f16: f16 weights and
    // activations, f32 inputs and outputs): ONNX Runtime reads the file and
    // runs it (casting to f32 where it lacks f16 kernels), the kernels store
    // f16 and compute in f32; they agree to f16's precision.
    void f16ModelsMatchOnnxRuntime_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("fig2-blocks") << QStringLiteral("fig2-blocks");
        QTest::newRow("resnet-reduced") << QStringLiteral("resnet-reduced");
    }
    void f16ModelsMatchOnnxRuntime() {
        QFETCH(QString, model);
        ModelFile file = writeZoo(dir_.filePath(model + QStringLiteral("-f16")).toStdString(),
                                  model.toStdString(), 0, ir::DType::Float16);
        auto planned = plan(file, "stcp920", "graphturbo");
        QVERIFY2(planned.ok(), planned.ok() ? "" : planned.error().message().c_str());
        const ir::Graph& graph = (*planned)->graph;
        auto inputs = codegen::seededInputs(graph);
        QVERIFY(inputs.ok());
        auto ort = runOnnxRuntime(file.path, *inputs);
        QVERIFY2(ort.ok(), ort.ok() ? "" : ort.error().message().c_str());
        auto program = codegen::emitProgram(graph, *(*planned)->evaluation.schedule.semantics,
                                            (*planned)->plan, {codegen::Target::Host, 2, 0, false});
        QVERIFY2(program.ok(), program.ok() ? "" : program.error().message().c_str());
        auto host = codegen::HostProgram::load(graph, (*planned)->plan, *program);
        QVERIFY(host.ok());
        auto outputs = (*host)->run(*inputs);
        QVERIFY(outputs.ok());
        for (const codegen::HostTensor& out : *outputs) {
            const codegen::HostTensor* expected = codegen::findTensor(*ort, out.name);
            QVERIFY2(expected != nullptr, out.name.c_str());
            codegen::Difference d = codegen::compareTensors(out, *expected);
            qInfo("%s f16 %s: relative error %.3g", qPrintable(model), out.name.c_str(),
                  d.relative);
            QVERIFY2(d.mismatch.empty() && d.relative <= 1e-2, out.name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostExecution)
#include "test_host_execution.moc"
