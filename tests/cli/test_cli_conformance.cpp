// A representative subset of the ONNX backend conformance data Debian ships
// (libonnx-testdata, installed by scripts/setup-deps) through `stagecraft
// run`, with the test's input_K.pb and output_K.pb as --inputs and
// --reference and ONNX's comparison (rtol 1e-3, atol 1e-7). Each test that
// once gave a silently wrong result with exit 0 is a regression case here:
// Shape and Size folded at import (zeros), ConvTranspose's output_shape
// larger than the full output, Clip on int8 with default bounds, IsInf's
// detect_positive / detect_negative, bfloat16 references stored as uint16;
// an empty tensor crashed the scheduler; training-mode Dropout is refused.
// Given input values decide shapes (Reshape's shape as a graph input), ops
// defined as ONNX functions (the losses, CastLike, MVN) run as their bodies,
// and the ops added for the suite (Trilu, BitShift, EyeLike, the inverse and
// hyperbolic functions, Shrink, integer Pow, CumSum, OneHot, GatherND,
// ScatterElements, ScatterND, the quantization ops, Resize's cubic mode,
// GridSample in each mode and padding)
// agree with the test data.
// scripts/conformance runs the whole suite.

#include "cli_helpers.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using stagecraft::test::failed;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

const char* kData = "/usr/share/libonnx-testdata/data/";

QString testDir(const char* test) {
    return s(kData) + s(test);
}

} // namespace

class TestCliConformance : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    stagecraft::test::CliResult run(const char* test) {
        QString d = testDir(test);
        QString data = d + s("/test_data_set_0");
        return runCli({s("run"), d + s("/model.onnx"), s("--inputs"), data, s("--reference"), data,
                       s("--outputs"), dir_.filePath(s("out.json")), s("--tolerance"), s("1e-3"),
                       s("--atol"), s("1e-7")});
    }

private slots:
    void initTestCase() {
        QVERIFY2(QDir(s(kData)).exists(),
                 "libonnx-testdata is missing: scripts/setup-deps installs it");
    }

    void passes_data() {
        QTest::addColumn<QString>("test");
        for (const char* t :
             {// once silently wrong
              "node/test_shape", "node/test_shape_start_1", "node/test_shape_end_negative_1",
              "node/test_size", "node/test_size_example", "node/test_convtranspose_output_shape",
              "node/test_clip_default_int8_inbounds", "node/test_isinf_negative",
              "node/test_isinf_positive", "node/test_cast_FLOAT_to_BFLOAT16",
              // once crashed (an empty dim)
              "node/test_tril_zero",
              // shapes and operands from the given values; functions inlined
              "node/test_reshape_extended_dims", "node/test_resize_downsample_scales_linear",
              "node/test_reduce_sum_keepdims_example", "node/test_clip", "node/test_nllloss_NC",
              "node/test_sce_NCd1d2d3_sum_weight_high_ii_log_prob",
              "node/test_layer_normalization_2d_axis0", "node/test_castlike_FLOAT_to_DOUBLE",
              "node/test_mvn",                 // a function body with the schema's default axes
              "node/test_hannwindow_expanded", // Range's limit computed from the given size
                                               // ops added for the suite
              "node/test_tril_neg", "node/test_triu_square", "node/test_bitshift_right_uint16",
              "node/test_eyelike_populate_off_main_diagonal", "node/test_sinh",
              "node/test_shrink_soft", "node/test_pow_types_int64_int64",
              "node/test_cast_BFLOAT16_to_FLOAT", // a bf16 input stored as u16
              "node/test_cumsum_1d_reverse_exclusive", "node/test_cumsum_2d_negative_axis",
              "node/test_onehot_negative_indices", "node/test_onehot_with_axis",
              "node/test_gathernd_example_int32_batch_dim1",
              "node/test_scatter_elements_with_duplicate_indices",
              "node/test_scatter_elements_with_negative_indices",
              "node/test_scatter_with_axis", // Scatter, ScatterElements' name before opset 11
              "node/test_scatternd_multiply", "node/test_quantizelinear_axis",
              "node/test_dequantizelinear_axis", "node/test_dynamicquantizelinear_min_adjusted",
              "node/test_convinteger_with_padding", "node/test_matmulinteger",
              "node/test_qlinearconv", "node/test_qlinearmatmul_3D",
              "node/test_resize_upsample_scales_cubic_A_n0p5_exclude_outside",
              "node/test_resize_downsample_sizes_cubic", "node/test_gridsample_bicubic",
              "node/test_gridsample_reflection_padding", "node/test_gridsample_border_padding",
              "node/test_gridsample_nearest", "node/test_gridsample_aligncorners_true",
              // the condition, a given input, folds the If; Loop and Scan unrolled
              "node/test_if", "node/test_loop11", "node/test_scan9_sum",
              "node/test_compress_default_axis", "node/test_einsum_batch_diagonal",
              "node/test_einsum_inner_prod", "node/test_lstm_with_peepholes",
              "node/test_gru_with_initial_bias", "node/test_simple_rnn_batchwise",
              // opset 6: a per-channel PRelu slope; converted with shapes inferred
              "pytorch-converted/test_PReLU_2d_multiparam", "pytorch-operator/test_operator_addmm",
              // a spread of what passes
              "node/test_conv_with_strides_padding", "node/test_convtranspose_autopad_same",
              "node/test_gemm_default_no_bias", "node/test_matmul_3d", "node/test_softmax_axis_1",
              "node/test_reduce_mean_keepdims_example", "node/test_dropout_default",
              "node/test_maxpool_2d_pads", "node/test_transpose_all_permutations_3",
              "pytorch-converted/test_ConvTranspose2d", "pytorch-operator/test_operator_maxpool"})
            QTest::newRow(t) << s(t);
    }
    void passes() {
        QFETCH(QString, test);
        QByteArray name = test.toUtf8();
        auto r = run(name.constData());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(s("not close (first")), qPrintable(r.out));
        QVERIFY(r.out.contains(s(" 0 of ")));
    }

    void trainingDropoutIsRefusedInOneLine() {
        auto r = run("node/test_training_dropout");
        QVERIFY(failed(r, 1,
                       s("(Dropout): runs in training mode (training_mode is true, ratio 0.75)")));
    }

    void otherDomainsAreRefusedNamingThem() {
        auto r = run("node/test_adagrad");
        QVERIFY(failed(r, 1,
                       s("the model imports only ai.onnx.preview.training (its first op: "
                         "Adagrad), not the default ONNX domain")));
    }

    void sequenceInputsAreRefusedInOneLine() {
        auto r = run("node/test_identity_sequence");
        QVERIFY(failed(r, 1, s("input 'x' is a sequence, optional or map")));
    }

    /// An op no kernel can compute is refused at emission in one line (the
    /// import's warnings before it): an If or Loop the import kept opaque,
    /// naming the values that would fold it, and an op whose output shape
    /// depends on the data.
    void unfoldableOpsAreRefusedInOneLine_data() {
        QTest::addColumn<QString>("test");
        QTest::addColumn<QString>("error");
        QTest::newRow("if")
            << s("node/test_if")
            << s("op 'If_0' (If): an If whose condition the import did not know "
                 "runs no code: give --value cond=V so that the import can fold it");
        QTest::newRow("loop") << s("node/test_loop11")
                              << s("op 'Loop_0' (Loop): a Loop the import could not unroll runs no "
                                   "code: give --value cond=V --value trip_count=V");
        QTest::newRow("nonzero")
            << s("node/test_nonzero_example")
            << s("op 'NonZero_0' (NonZero): its output's shape depends on the data");
        QTest::newRow("unique")
            << s("node/test_unique_not_sorted_without_axis")
            << s("op 'Unique_0' (Unique): its output's shape depends on the data");
    }
    void unfoldableOpsAreRefusedInOneLine() {
        QFETCH(QString, test);
        QFETCH(QString, error);
        QByteArray name = test.toUtf8();
        auto r = runCli({s("emit"), testDir(name.constData()) + s("/model.onnx"), s("--out"),
                         dir_.filePath(s("unfoldable"))});
        QCOMPARE(r.exitCode, 1);
        QStringList lines = r.err.trimmed().split(QLatin1Char('\n'));
        for (qsizetype i = 0; i + 1 < lines.size(); ++i)
            QVERIFY2(lines[i].contains(s(": warning: ")), qPrintable(r.err));
        QVERIFY2(lines.back().contains(error), qPrintable(r.err));
    }

    /// Resize's scales and sizes decide its output shape: given as graph
    /// inputs, the error names the input and the flag that gives its value.
    void shapeDecidingResizeInputsAreNamed_data() {
        QTest::addColumn<QString>("test");
        QTest::addColumn<QString>("error");
        QTest::newRow("scales") << s("node/test_resize_downsample_scales_linear")
                                << s("scales (input 2) is the graph input 'scales', which must be "
                                     "a constant here: give its value with --value scales=V");
        QTest::newRow("sizes") << s("node/test_resize_downsample_sizes_nearest")
                               << s("sizes (input 3) is the graph input 'sizes', which must be a "
                                    "constant here: give its value with --value sizes=V");
    }
    void shapeDecidingResizeInputsAreNamed() {
        QFETCH(QString, test);
        QFETCH(QString, error);
        QByteArray name = test.toUtf8();
        auto r = runCli({s("inspect"), testDir(name.constData()) + s("/model.onnx")});
        QVERIFY(failed(r, 1, error));
    }

    void aWrongReferenceFails() {
        // One .pb file as --inputs; then test_shape's output against test_size's.
        QString model = testDir("node/test_shape") + s("/model.onnx");
        QString data = testDir("node/test_shape") + s("/test_data_set_0");
        auto r = runCli({s("run"), model, s("--inputs"), data + s("/input_0.pb"), s("--reference"),
                         data, s("--outputs"), dir_.filePath(s("o.json")), s("--atol"), s("0")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QDir(dir_.path()).mkpath(s("ref")));
        QVERIFY(QFile::copy(testDir("node/test_size") + s("/test_data_set_0/output_0.pb"),
                            dir_.filePath(s("ref/output_0.pb"))));
        auto wrong =
            runCli({s("run"), model, s("--inputs"), data, s("--reference"), dir_.filePath(s("ref")),
                    s("--outputs"), dir_.filePath(s("o.json")), s("--atol"), s("0")});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains(s("differ from")), qPrintable(wrong.err));
    }

    void badTensorFilesAreOneLineErrors() {
        QString model = testDir("node/test_abs") + s("/model.onnx");
        QDir(dir_.path()).mkpath(s("empty"));
        auto none = runCli({s("run"), model, s("--inputs"), dir_.filePath(s("empty")),
                            s("--outputs"), dir_.filePath(s("o.json"))});
        QVERIFY(failed(none, 1, s("has no input_0.pb")));
        QFile junk(dir_.filePath(s("junk.pb")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("\xff\xff\xff\xff not a tensor");
        junk.close();
        auto garbage = runCli({s("run"), model, s("--inputs"), dir_.filePath(s("junk.pb")),
                               s("--outputs"), dir_.filePath(s("o.json"))});
        QVERIFY(failed(garbage, 1, s("junk.pb: not an ONNX TensorProto file")));
        auto atol = runCli({s("run"), model, s("--seeded"), s("--outputs"),
                            dir_.filePath(s("o.json")), s("--atol"), s("1e-7")});
        QVERIFY(failed(atol, 2, s("--atol goes with --reference")));
    }
};

QTEST_GUILESS_MAIN(TestCliConformance)
#include "test_cli_conformance.moc"
