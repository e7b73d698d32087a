// Emitted modules and objects: every kernel verifies (llvm::verifyModule runs
// on each module before and after optimization; a failure is an error) and
// compiles for both targets; the RISC-V objects of elementwise and matmul
// kernels contain RVV instructions (llvm-objdump finds vsetvli); output is
// byte-identical whatever the number of compile threads; unsupported ops
// are refused naming the op; the host runner refuses RISC-V objects.

#include "arch/presets.h"
#include "codegen/host_run.h"
#include "codegen/manifest.h"
#include "codegen_fixture.h"
#include "graph_ops.h"
#include "testsupport.h"

#include <QProcess>
#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::test;
namespace gops = stagecraft::test::graphops;

namespace {

/// A planned crafted graph (zero weights: these tests look at code, not numbers).
std::unique_ptr<Planned> planGraph(ir::Graph graph, const std::string& strategy = "tvm",
                                   const std::string& archName = "stcp920") {
    auto planned = std::make_unique<Planned>();
    planned->graph = std::move(graph);
    auto arch = arch::resolveArch(archName);
    SC_ASSERT(arch.ok(), "the architecture is a preset");
    schedule::ClusterPlan clusters;
    auto ev = sim::evaluate(planned->graph, *arch, *sim::findStrategy(strategy), clusters);
    SC_ASSERT(ev.ok(), "the crafted graphs schedule");
    planned->evaluation = std::move(ev).value();
    auto plan = codegen::planCode(planned->graph, planned->evaluation.schedule,
                                  planned->evaluation.program);
    SC_ASSERT(plan.ok(), "the crafted graphs plan");
    planned->plan = std::move(plan).value();
    return planned;
}

ir::Graph elementwiseGraph() {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId x = b.input({1, 64, 32, 32});
    ir::TensorId y = gops::binary(b, "Add", x, b.weight({64, 1, 1}));
    gops::unary(b, "Relu", gops::binary(b, "Mul", y, y));
    b.finish();
    return g;
}

ir::Graph matmulGraph() {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId x = b.input({1, 128, 256});
    gops::matmul(b, x, b.weight({256, 256}));
    b.finish();
    return g;
}

Expected<codegen::EmittedProgram> compile(const Planned& p, codegen::Target target,
                                          int threads = 0) {
    return codegen::emitProgram(p.graph, *p.evaluation.schedule.semantics, p.plan,
                                {target, 2, threads, true});
}

/// Disassembly of an object (llvm-objdump from LLVM 19, RVV enabled).
QString disassemble(const std::string& object, const QTemporaryDir& dir) {
    QString path = dir.filePath(QStringLiteral("kernel.o"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(object.data(), static_cast<qint64>(object.size()));
    file.close();
    QProcess objdump;
    objdump.start(QStringLiteral(STAGECRAFT_LLVM_OBJDUMP),
                  {QStringLiteral("-d"), QStringLiteral("--mattr=+v"), path});
    objdump.waitForFinished(60000);
    return QString::fromUtf8(objdump.readAllStandardOutput());
}

std::string messageOf(const Error& e) {
    return e.message();
}

} // namespace

class TestCodegen : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void everyKernelCompilesForBothTargets_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("strategy");
        auto row = [](const char* model, const char* arch, const char* strategy) {
            QTest::addRow("%s %s %s", model, arch, strategy)
                << QString::fromLatin1(model) << QString::fromLatin1(arch)
                << QString::fromLatin1(strategy);
        };
        row("fig3-chain", "teaching", "graphturbo");
        row("fig2-blocks", "teaching", "graphturbo");
        row("resnet-reduced", "stcp920", "tvm");
        row("resnet-reduced", "stcp920", "graphturbo");
    }
    void everyKernelCompilesForBothTargets() {
        QFETCH(QString, model);
        QFETCH(QString, arch);
        QFETCH(QString, strategy);
        ModelFile file = writeZoo(dir_.filePath(model).toStdString(), model.toStdString());
        auto planned = plan(file, arch.toStdString(), strategy.toStdString());
        QVERIFY2(planned.ok(), planned.ok() ? "" : planned.error().message().c_str());
        for (auto [target, machine] :
             {std::pair{codegen::Target::RiscV64, 0xF3}, std::pair{codegen::Target::Host, 0x3E}}) {
            auto program = compile(**planned, target);
            QVERIFY2(program.ok(), program.ok() ? "" : program.error().message().c_str());
            QCOMPARE(program->kernels.size(), (*planned)->plan.kernels.size());
            for (const codegen::EmittedKernel& k : program->kernels) {
                QVERIFY(k.object.size() > 64 && k.object.compare(0, 4,
                                                                 "\x7f"
                                                                 "ELF") == 0);
                QCOMPARE(static_cast<unsigned char>(k.object[18]), machine); // e_machine
                QRegularExpression abi(QStringLiteral("define void @%1\\(ptr [^%]*%tensors, "
                                                      "ptr [^%]*%arena, ptr [^%]*%scratch, "
                                                      "i64 %core, i64 %cores, ptr [^%]*%sync\\)")
                                           .arg(QString::fromStdString(k.symbol)));
                QVERIFY2(abi.match(QString::fromStdString(k.ir)).hasMatch(), k.symbol.c_str());
            }
        }
    }

    void riscvObjectsUseTheVectorExtension_data() {
        QTest::addColumn<int>("graph");
        QTest::newRow("elementwise Add, Mul, Relu") << 0;
        QTest::newRow("matmul") << 1;
    }
    void riscvObjectsUseTheVectorExtension() {
        QFETCH(int, graph);
        auto planned = planGraph(graph == 0 ? elementwiseGraph() : matmulGraph());
        auto program = compile(*planned, codegen::Target::RiscV64);
        QVERIFY2(program.ok(), program.ok() ? "" : program.error().message().c_str());
        for (const codegen::EmittedKernel& k : program->kernels) {
            QString text = disassemble(k.object, dir_);
            QVERIFY2(text.contains(QStringLiteral("vsetvli")), k.symbol.c_str());
        }
    }

    void bertMatmulKernelsAreVectorized() {
        ModelFile file =
            writeZoo(dir_.filePath(QStringLiteral("bert")).toStdString(), "bert-2layer", 32);
        auto planned = plan(file, "stcp920", "tvm");
        QVERIFY2(planned.ok(), planned.ok() ? "" : planned.error().message().c_str());
        auto program = compile(**planned, codegen::Target::RiscV64);
        QVERIFY2(program.ok(), program.ok() ? "" : program.error().message().c_str());
        int matmuls = 0;
        for (size_t i = 0; i < program->kernels.size(); ++i) {
            const codegen::LayerCode& layer = (*planned)->plan.kernels[i].layers.front();
            const std::string& anchor = (*planned)->graph.op(layer.anchor).type;
            if (anchor != "MatMul" && anchor != "Gemm")
                continue;
            ++matmuls;
            QVERIFY2(
                disassemble(program->kernels[i].object, dir_).contains(QStringLiteral("vsetvli")),
                program->kernels[i].symbol.c_str());
        }
        QVERIFY(matmuls >= 12); // 6 linears per layer, and the pooler
    }

    void outputIsIdenticalWhateverTheThreads() {
        ModelFile file =
            writeZoo(dir_.filePath(QStringLiteral("fig2")).toStdString(), "fig2-blocks");
        auto planned = plan(file, "teaching", "graphturbo");
        QVERIFY(planned.ok());
        auto one = compile(**planned, codegen::Target::RiscV64, 1);
        auto two = compile(**planned, codegen::Target::RiscV64, 2);
        QVERIFY(one.ok() && two.ok());
        for (size_t i = 0; i < one->kernels.size(); ++i) {
            QVERIFY(one->kernels[i].ir == two->kernels[i].ir);
            QVERIFY(one->kernels[i].object == two->kernels[i].object);
        }
        codegen::ManifestInfo info{"fig2-blocks", "teaching", "graphturbo"};
        QCOMPARE(codegen::writeManifestJson((*planned)->graph, (*planned)->plan, *one, info),
                 codegen::writeManifestJson((*planned)->graph, (*planned)->plan, *two, info));
    }

    void multiCoreKernelsMeetBetweenLayers() {
        ModelFile file =
            writeZoo(dir_.filePath(QStringLiteral("fig2b")).toStdString(), "fig2-blocks");
        auto planned = plan(file, "stcp920", "gt-gb");
        QVERIFY(planned.ok());
        const codegen::KernelCode& k = (*planned)->plan.kernels.front();
        QVERIFY(k.cores > 1 && k.layers.size() > 1);
        auto text = codegen::lowerKernelText(
            (*planned)->graph, *(*planned)->evaluation.schedule.semantics, (*planned)->plan, 0);
        QVERIFY(text.ok());
        QCOMPARE(QString::fromStdString(*text).count(QStringLiteral("call void @sc_barrier(")),
                 static_cast<int>(k.layers.size()) - 1);
    }

    // A layer of many fused ops is emitted as calls of functions of at most
    // 16 ops each, which keeps LLVM's compile time linear in the kernel's
    // size (2,000 fused ops took minutes in one function); the ops still run
    // in order on every tile.
    void longFusedLayersAreSplitIntoOpFunctions() {
        ir::Graph g;
        gops::Builder b(g);
        ir::TensorId x = b.input({1, 16, 8, 8});
        for (int i = 0; i < 39; ++i)
            x = gops::unary(b, "Neg", x);
        gops::unary(b, "Relu", x);
        b.finish();
        auto planned = planGraph(std::move(g));
        QCOMPARE(planned->plan.kernels.size(), size_t{1});
        QCOMPARE(planned->plan.kernels.front().layers.front().ops.size(), size_t{40});
        auto text = codegen::lowerKernelText(
            planned->graph, *planned->evaluation.schedule.semantics, planned->plan, 0);
        QVERIFY(text.ok());
        QString ir = QString::fromStdString(*text);
        QCOMPARE(
            ir.count(QRegularExpression(QStringLiteral("define internal void @\\S+\\.ops\\d+\\("))),
            3);
        auto program = compile(*planned, codegen::Target::Host);
        QVERIFY2(program.ok(), program.ok() ? "" : messageOf(program.error()).c_str());
        auto host = codegen::HostProgram::load(planned->graph, planned->plan, *program);
        QVERIFY(host.ok());
        auto inputs = codegen::seededInputs(planned->graph);
        QVERIFY(inputs.ok());
        auto outputs = (*host)->run(*inputs);
        QVERIFY(outputs.ok());
        const codegen::HostTensor& in = inputs->front();
        const codegen::HostTensor& out = outputs->front();
        for (int64_t i = 0; i < in.elementCount(); ++i)
            QCOMPARE(out.at(i), std::max(-in.at(i), 0.0)); // relu(-x): 39 negations
    }

    // A layer's views are disjoint unless their storage overlaps, and its
    // loads and stores say so (alias scopes, docs/codegen.md "Aliasing"):
    // without them the matmul of a stitched instance, whose operands are all
    // offsets into the one arena, stayed scalar (BERT's attention matmuls ran
    // 5x slower as one graphturbo kernel than as tvm's kernels).
    void stitchedLayersAreVectorized() {
        ir::Graph g;
        gops::Builder b(g);
        ir::TensorId probs = gops::unary(b, "Relu", b.input({1, 12, 128, 128}));
        ir::TensorId values = gops::unary(b, "Relu", b.input({1, 12, 128, 64}));
        gops::matmul(b, gops::matmul(b, probs, values), b.weight({64, 64}));
        b.finish();
        auto planned = planGraph(std::move(g), "graphturbo", "host-cpu");
        bool stitched = false;
        for (const codegen::KernelCode& k : planned->plan.kernels)
            for (const codegen::LayerCode& layer : k.layers)
                for (const codegen::View& v : layer.views)
                    stitched = stitched || v.home == codegen::Home::Stitched;
        QVERIFY2(stitched, "the intermediates are stitched into the arena");
        auto program = compile(*planned, codegen::Target::Host);
        QVERIFY2(program.ok(), program.ok() ? "" : messageOf(program.error()).c_str());
        int multiplying = 0;
        for (const codegen::EmittedKernel& k : program->kernels) {
            QStringList functions = QString::fromStdString(k.ir).split(QStringLiteral("\ndefine "));
            for (const QString& f : functions) {
                if (!f.contains(QStringLiteral("@llvm.fmuladd")))
                    continue;
                ++multiplying;
                QVERIFY2(
                    f.contains(QRegularExpression(QStringLiteral("@llvm\\.fmuladd\\.v\\d+f32"))),
                    qPrintable(f.left(f.indexOf(QLatin1Char('(')))));
            }
        }
        QVERIFY(multiplying >= 2);
    }

    void unsupportedOpsAreNamed() {
        ir::Graph g;
        gops::Builder b(g);
        ir::TensorId x = b.input({4, 16});
        b.emit("TopK", {x}, {{4, 3}, {4, 3}},
               gops::attrs({{"k", int64_t{3}},
                            {"axis", int64_t{1}},
                            {"largest", int64_t{1}},
                            {"sorted", int64_t{1}}}));
        b.finish();
        auto planned = planGraph(std::move(g));
        auto program = compile(*planned, codegen::Target::Host);
        QVERIFY(!program.ok());
        QVERIFY2(messageOf(program.error()).find("op 'TopK_0' (TopK)") != std::string::npos,
                 messageOf(program.error()).c_str());
    }

    void hostRunnerRefusesRiscvObjects() {
        auto planned = planGraph(elementwiseGraph());
        auto program = compile(*planned, codegen::Target::RiscV64);
        QVERIFY(program.ok());
        auto host = codegen::HostProgram::load(planned->graph, planned->plan, *program);
        QVERIFY(!host.ok());
        QVERIFY(messageOf(host.error()).find("riscv64") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCodegen)
#include "test_codegen.moc"
