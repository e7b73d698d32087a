#pragma once
/// \file
/// Net: a thin layer over onnxio::ModelBuilder used by the zoo's model files.
/// It names nodes and tensors the way torch.onnx does (a node per module path,
/// made unique with "_1", "_2"...; tensors "<node>_output_0"), shares one
/// Constant node per distinct constant value, and keeps the count of learnable
/// parameters apart from buffers (BatchNorm running statistics).

#include "onnx/model_builder.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace stagecraft::zoo {

/// A node just added: its first output and a handle to set its attributes.
struct Added {
    std::string output;
    onnxio::NodeBuilder node;
};

/// A node with several outputs just added.
struct AddedMulti {
    std::vector<std::string> outputs;
    onnxio::NodeBuilder node;
};

class Net {
public:
    /// \p graphName names the ONNX graph; the opset is 13.
    explicit Net(const std::string& graphName);

    onnxio::ModelBuilder& builder() { return builder_; }

    /// Adds a node named \p name (made unique) with one output, called
    /// \p output when given and "<node name>_output_0" otherwise.
    Added add(const std::string& opType, const std::vector<std::string>& inputs,
              const std::string& name, const std::string& output = {});
    /// Adds a node with \p count outputs "<node name>_output_<i>".
    AddedMulti addMulti(const std::string& opType, const std::vector<std::string>& inputs,
                        const std::string& name, int count);

    /// A learnable float32 weight stored in the external data file.
    std::string param(const std::string& name, const ir::Shape& shape);
    /// A float32 buffer (not learned) stored in the external data file.
    std::string buffer(const std::string& name, const ir::Shape& shape);
    /// A float32 buffer that must stay positive (BatchNorm running_var),
    /// stored in the external data file.
    std::string positiveBuffer(const std::string& name, const ir::Shape& shape);
    /// An int64 initializer stored in the model file (indices, position ids).
    std::string intInitializer(const std::string& name, const ir::Shape& shape,
                               const std::vector<int64_t>& values);

    /// A rank-0 float32 Constant, one node per distinct value.
    std::string scalar(float value);
    /// A rank-0 int64 Constant (a Gather index), one node per distinct value.
    std::string scalarInt(int64_t value);
    /// A 1-D int64 Constant (a Reshape shape, Unsqueeze axes), one per value.
    std::string ints(const std::vector<int64_t>& values);

    /// The learnable parameters added so far.
    int64_t learnableCount() const { return learnable_; }

private:
    std::string uniqueNodeName(const std::string& name);
    void claimInitializer(const std::string& name);

    onnxio::ModelBuilder builder_;
    /// The last suffix given to each requested name, and every name given out.
    std::map<std::string, int> nodeNames_;
    std::set<std::string> usedNames_;
    std::set<std::string> initializers_;
    std::map<float, std::string> floatConstants_;
    std::map<int64_t, std::string> intConstants_;
    std::map<std::vector<int64_t>, std::string> intVectorConstants_;
    int64_t learnable_ = 0;
};

} // namespace stagecraft::zoo
