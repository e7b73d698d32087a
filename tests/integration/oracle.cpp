#include "oracle.h"

#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <fstream>
#include <set>

namespace stagecraft::test {

namespace {

using Dims = std::vector<long long>;

struct RawGraph {
    const onnx::GraphProto& graph;
    std::set<std::string> constants;          // initializers, Constant outputs, folded outputs
    std::map<std::string, Dims> constantDims; // dims of initializers and Constant outputs
    std::map<std::string, int> producer;      // tensor -> node index
    std::map<std::string, int> consumers;     // tensor -> number of reading nodes
    std::vector<bool> removed;
};

Dims tensorDims(const onnx::TensorProto& t) {
    return Dims(t.dims().begin(), t.dims().end());
}

RawGraph analyze(const onnx::ModelProto& model) {
    RawGraph raw{model.graph(),
                 {},
                 {},
                 {},
                 {},
                 std::vector<bool>(static_cast<size_t>(model.graph().node_size()))};
    const auto& g = model.graph();
    for (const auto& init : g.initializer()) {
        raw.constants.insert(init.name());
        raw.constantDims[init.name()] = tensorDims(init);
    }
    for (int i = 0; i < g.node_size(); ++i) {
        const auto& node = g.node(i);
        for (const auto& out : node.output())
            raw.producer[out] = i;
        for (const auto& in : node.input())
            if (!in.empty())
                ++raw.consumers[in];
        if (node.op_type() == "Constant") {
            raw.removed[static_cast<size_t>(i)] = true;
            raw.constants.insert(node.output(0));
            for (const auto& attr : node.attribute())
                if (attr.name() == "value")
                    raw.constantDims[node.output(0)] = tensorDims(attr.t());
        }
    }
    return raw;
}

/// Constant propagation: a node with only constant inputs (or a Shape/Size
/// node: shapes are static) is folded away.
void foldConstants(RawGraph& raw) {
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < raw.graph.node_size(); ++i) {
            const auto& node = raw.graph.node(i);
            if (raw.removed[static_cast<size_t>(i)])
                continue;
            bool fold = node.op_type() == "Shape" || node.op_type() == "Size";
            if (!fold) {
                int present = 0, constant = 0;
                for (const auto& in : node.input())
                    if (!in.empty()) {
                        ++present;
                        constant += raw.constants.count(in) ? 1 : 0;
                    }
                fold = present > 0 && present == constant;
            }
            if (fold) {
                raw.removed[static_cast<size_t>(i)] = true;
                for (const auto& out : node.output())
                    raw.constants.insert(out);
                changed = true;
            }
        }
    }
}

bool isGraphOutput(const RawGraph& raw, const std::string& name) {
    for (const auto& out : raw.graph.output())
        if (out.name() == name)
            return true;
    return false;
}

void foldBatchNorms(RawGraph& raw) {
    for (int i = 0; i < raw.graph.node_size(); ++i) {
        const auto& bn = raw.graph.node(i);
        if (raw.removed[static_cast<size_t>(i)] || bn.op_type() != "BatchNormalization")
            continue;
        auto p = raw.producer.find(bn.input(0));
        if (p == raw.producer.end())
            continue;
        const auto& conv = raw.graph.node(p->second);
        bool convLike = conv.op_type() == "Conv" || conv.op_type() == "ConvTranspose";
        bool params = true;
        for (int k = 1; k < 5; ++k)
            params = params && raw.constants.count(bn.input(k));
        if (convLike && params && raw.constants.count(conv.input(1)) &&
            raw.consumers[bn.input(0)] == 1 && !isGraphOutput(raw, bn.input(0)))
            raw.removed[static_cast<size_t>(i)] = true;
    }
}

void removeIdentitiesAndDeadNodes(RawGraph& raw) {
    for (int i = 0; i < raw.graph.node_size(); ++i) {
        const auto& type = raw.graph.node(i).op_type();
        if (type == "Identity" || type == "Dropout")
            raw.removed[static_cast<size_t>(i)] = true;
    }
    std::set<std::string> needed;
    for (const auto& out : raw.graph.output())
        needed.insert(out.name());
    for (int i = raw.graph.node_size() - 1; i >= 0; --i) {
        const auto& node = raw.graph.node(i);
        bool live = false;
        for (const auto& out : node.output())
            live = live || needed.count(out);
        if (!live)
            raw.removed[static_cast<size_t>(i)] = true;
        if (live || node.op_type() == "Identity" || node.op_type() == "Dropout" ||
            node.op_type() == "BatchNormalization")
            for (const auto& in : node.input())
                needed.insert(in);
    }
}

RawGraph simplified(const onnx::ModelProto& model) {
    RawGraph raw = analyze(model);
    foldConstants(raw);
    foldBatchNorms(raw);
    removeIdentitiesAndDeadNodes(raw);
    return raw;
}

long long product(const Dims& dims, size_t from = 0) {
    long long p = 1;
    for (size_t i = from; i < dims.size(); ++i)
        p *= dims[i];
    return p;
}

bool isCompute(const std::string& type) {
    return type == "Conv" || type == "ConvTranspose" || type == "MatMul" || type == "Gemm";
}

} // namespace

std::optional<onnx::ModelProto> readRawModel(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    onnx::ModelProto model;
    if (!in || !model.ParseFromIstream(&in))
        return std::nullopt;
    return model;
}

std::map<std::string, int> expectedHistogram(const onnx::ModelProto& model) {
    RawGraph raw = simplified(model);
    std::map<std::string, int> histogram;
    for (int i = 0; i < raw.graph.node_size(); ++i)
        if (!raw.removed[static_cast<size_t>(i)]) {
            std::string type = raw.graph.node(i).op_type();
            ++histogram[type == "Upsample" ? "Resize" : type];
        }
    return histogram;
}

OracleMacs oracleMacs(const onnx::ModelProto& model,
                      const std::map<std::string, ir::Shape>& inputShapes) {
    OracleMacs result;
    RawGraph raw = simplified(model);
    onnx::ModelProto probe = model;
    std::set<std::string> outputs;
    for (const auto& out : model.graph().output())
        outputs.insert(out.name());
    auto expose = [&](const std::string& name) {
        if (name.empty() || raw.constants.count(name) || outputs.count(name))
            return;
        outputs.insert(name);
        auto* info = probe.mutable_graph()->add_output();
        info->set_name(name);
        info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    };
    for (int i = 0; i < raw.graph.node_size(); ++i) {
        const auto& node = raw.graph.node(i);
        if (raw.removed[static_cast<size_t>(i)] || !isCompute(node.op_type()))
            continue;
        expose(node.input(0));
        expose(node.input(1));
        expose(node.output(0));
    }

    QTemporaryDir dir;
    std::string probePath = dir.filePath(QStringLiteral("probe.onnx")).toStdString();
    std::ofstream(probePath, std::ios::binary) << probe.SerializeAsString();
    QJsonObject inputs;
    std::set<std::string> initializers;
    for (const auto& init : model.graph().initializer())
        initializers.insert(init.name());
    for (const auto& input : model.graph().input()) {
        if (initializers.count(input.name()))
            continue;
        QJsonArray dims;
        if (auto bound = inputShapes.find(input.name()); bound != inputShapes.end())
            for (int64_t d : bound->second)
                dims.append(static_cast<qint64>(d));
        else
            for (const auto& d : input.type().tensor_type().shape().dim())
                dims.append(static_cast<qint64>(d.dim_value()));
        int type = input.type().tensor_type().elem_type();
        QJsonObject spec{{QStringLiteral("dims"), dims},
                         {QStringLiteral("dtype"), type == onnx::TensorProto::INT64
                                                       ? QStringLiteral("int64")
                                                       : QStringLiteral("float32")},
                         {QStringLiteral("fill"), 0.5}};
        inputs.insert(QString::fromStdString(input.name()), spec);
    }
    QString inputsPath = dir.filePath(QStringLiteral("inputs.json"));
    QString outPath = dir.filePath(QStringLiteral("out.json"));
    QFile inputsFile(inputsPath);
    if (!inputsFile.open(QIODevice::WriteOnly)) {
        result.error = "cannot write the oracle inputs";
        return result;
    }
    inputsFile.write(QJsonDocument(inputs).toJson());
    inputsFile.close();

    QProcess runtime;
    QString script = QString::fromStdString((sourceDir() / "tests/oracle/run-model.js").string());
    runtime.start(QStringLiteral("node"), {script, QString::fromStdString(probePath), inputsPath,
                                           outPath, QStringLiteral("--dims-only")});
    if (!runtime.waitForFinished(300000) || runtime.exitCode() != 0) {
        result.error = "ONNX Runtime failed (run scripts/setup-oracle): " +
                       QString::fromUtf8(runtime.readAllStandardError()).toStdString();
        return result;
    }
    QFile outFile(outPath);
    if (!outFile.open(QIODevice::ReadOnly)) {
        result.error = "no oracle output";
        return result;
    }
    QJsonObject shapes = QJsonDocument::fromJson(outFile.readAll()).object();
    auto dimsOf = [&](const std::string& name) -> Dims {
        QJsonValue entry = shapes.value(QString::fromStdString(name));
        if (entry.isObject()) {
            Dims dims;
            for (const auto& d : entry.toObject().value(QStringLiteral("dims")).toArray())
                dims.push_back(d.toInteger());
            return dims;
        }
        auto it = raw.constantDims.find(name);
        return it == raw.constantDims.end() ? Dims{} : it->second;
    };
    for (int i = 0; i < raw.graph.node_size(); ++i) {
        const auto& node = raw.graph.node(i);
        if (raw.removed[static_cast<size_t>(i)] || !isCompute(node.op_type()))
            continue;
        Dims out = dimsOf(node.output(0)), a = dimsOf(node.input(0)), w = dimsOf(node.input(1));
        if (out.empty() || a.empty() || w.empty()) {
            result.error = "no dims for node " + node.name();
            return result;
        }
        const std::string& type = node.op_type();
        if (type == "Conv")
            result.macs += product(out) * product(w, 1);
        else if (type == "ConvTranspose")
            result.macs += a[0] * a[1] * product(a, 2) * product(w, 1);
        else if (type == "MatMul")
            result.macs += product(out) * a.back();
        else {
            bool transA = false;
            for (const auto& attr : node.attribute())
                transA = transA || (attr.name() == "transA" && attr.i() != 0);
            result.macs += product(out) * (transA ? a[0] : a[1]);
        }
    }
    result.ok = true;
    return result;
}

} // namespace stagecraft::test
