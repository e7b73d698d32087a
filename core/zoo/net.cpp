#include "zoo/net.h"

#include "support/strings.h"

#include <charconv>

namespace stagecraft::zoo {

namespace {

constexpr int64_t kOpset = 13;

/// The shortest text that reads back as \p value: "0.5", "1e-12".
std::string floatText(float value) {
    char text[32];
    auto result = std::to_chars(text, text + sizeof(text), value);
    SC_ASSERT(result.ec == std::errc(), "a float always fits in 32 characters");
    return std::string(text, result.ptr);
}

} // namespace

Net::Net(const std::string& graphName)
    : builder_(graphName, kOpset) {}

std::string Net::uniqueNodeName(const std::string& name) {
    int& lastSuffix = nodeNames_[name];
    std::string candidate = name;
    while (usedNames_.count(candidate) > 0)
        candidate = name + "_" + std::to_string(++lastSuffix);
    usedNames_.insert(candidate);
    return candidate;
}

void Net::claimInitializer(const std::string& name) {
    bool added = initializers_.insert(name).second;
    SC_ASSERT(added, "every initializer name is used once");
}

Added Net::add(const std::string& opType, const std::vector<std::string>& inputs,
               const std::string& name, const std::string& output) {
    std::string nodeName = uniqueNodeName(name);
    std::string out = output.empty() ? nodeName + "_output_0" : output;
    onnxio::NodeBuilder node = builder_.addNode(opType, inputs, {out}, nodeName);
    return {out, node};
}

AddedMulti Net::addMulti(const std::string& opType, const std::vector<std::string>& inputs,
                         const std::string& name, int count) {
    std::string nodeName = uniqueNodeName(name);
    std::vector<std::string> outputs;
    for (int i = 0; i < count; ++i)
        outputs.push_back(nodeName + "_output_" + std::to_string(i));
    onnxio::NodeBuilder node = builder_.addNode(opType, inputs, outputs, nodeName);
    return {outputs, node};
}

std::string Net::param(const std::string& name, const ir::Shape& shape) {
    claimInitializer(name);
    builder_.addExternalInitializer(name, ir::DType::Float32, shape);
    learnable_ += ir::elementCount(shape);
    return name;
}

std::string Net::buffer(const std::string& name, const ir::Shape& shape) {
    claimInitializer(name);
    builder_.addExternalInitializer(name, ir::DType::Float32, shape);
    return name;
}

std::string Net::positiveBuffer(const std::string& name, const ir::Shape& shape) {
    claimInitializer(name);
    builder_.addExternalInitializer(name, ir::DType::Float32, shape, onnxio::ValueRange::Positive);
    return name;
}

std::string Net::intInitializer(const std::string& name, const ir::Shape& shape,
                                const std::vector<int64_t>& values) {
    claimInitializer(name);
    SC_ASSERT(ir::elementCount(shape) == static_cast<int64_t>(values.size()),
              "initializer values match the shape");
    builder_.addInt64Initializer(name, shape, values);
    return name;
}

std::string Net::scalar(float value) {
    auto found = floatConstants_.find(value);
    if (found != floatConstants_.end())
        return found->second;
    std::string name = "const_f_" + floatText(value);
    builder_.addConstantFloat(name, {}, {value});
    floatConstants_.emplace(value, name);
    return name;
}

std::string Net::scalarInt(int64_t value) {
    auto found = intConstants_.find(value);
    if (found != intConstants_.end())
        return found->second;
    std::string name = "const_i_" + std::to_string(value);
    builder_.addConstantInt64(name, {}, {value});
    intConstants_.emplace(value, name);
    return name;
}

std::string Net::ints(const std::vector<int64_t>& values) {
    auto found = intVectorConstants_.find(values);
    if (found != intVectorConstants_.end())
        return found->second;
    std::vector<std::string> parts;
    for (int64_t v : values)
        parts.push_back(std::to_string(v));
    std::string name = "const_ints_" + join(parts, "_");
    builder_.addConstantInt64(name, {static_cast<int64_t>(values.size())}, values);
    intVectorConstants_.emplace(values, name);
    return name;
}

} // namespace stagecraft::zoo
