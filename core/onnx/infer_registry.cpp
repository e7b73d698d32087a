// The table of shape-inference rules by op type (default ONNX domain).

#include "onnx/internal/infer_rules.h"

#include <map>

namespace stagecraft::onnxio {

namespace {

const std::map<std::string, InferRule>& rules() {
    static const std::map<std::string, InferRule> table = [] {
        std::map<std::string, InferRule> t;
        for (const char* op : {"Relu",        "LeakyRelu", "Elu",
                               "Selu",        "Celu",      "Sigmoid",
                               "HardSigmoid", "HardSwish", "Tanh",
                               "Exp",         "Log",       "Sqrt",
                               "Reciprocal",  "Neg",       "Abs",
                               "Erf",         "Gelu",      "Softplus",
                               "Softsign",    "Sin",       "Cos",
                               "Floor",       "Ceil",      "Round",
                               "Sign",        "Identity",  "ThresholdedRelu",
                               "Mish",        "Not",       "Tan",
                               "Acos",        "Asin",      "Atan",
                               "Acosh",       "Asinh",     "Atanh",
                               "Cosh",        "Sinh",      "Shrink",
                               "BitwiseNot"})
            t[op] = inferUnary;
        for (const char* op : {"IsNaN", "IsInf"})
            t[op] = inferUnaryToBool;
        for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum",
                               "Mean", "PRelu", "BitwiseAnd", "BitwiseOr", "BitwiseXor"})
            t[op] = inferBroadcast;
        for (const char* op :
             {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"})
            t[op] = inferCompare;
        for (const char* op :
             {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
              "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"})
            t[op] = inferReduce;
        for (const char* op : {"MaxPool", "AveragePool", "LpPool"})
            t[op] = inferPool;
        for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"})
            t[op] = inferGlobalPool;
        for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"})
            t[op] = inferSoftmax;
        for (const char* op : {"ArgMax", "ArgMin"})
            t[op] = inferArgReduce;
        for (const char* op : {"Resize", "Upsample"})
            t[op] = inferResize;
        t["GridSample"] = inferGridSample;
        t["Cast"] = inferCast;
        t["Where"] = inferWhere;
        t["Clip"] = inferClip;
        t["Trilu"] = inferTrilu;
        t["EyeLike"] = inferEyeLike;
        t["BitShift"] = inferBroadcast;
        t["BatchNormalization"] = inferBatchNorm;
        t["Dropout"] = inferDropout;
        t["Conv"] = inferConv;
        t["ConvTranspose"] = inferConvTranspose;
        t["MatMul"] = inferMatMul;
        t["Gemm"] = inferGemm;
        t["LayerNormalization"] = inferLayerNorm;
        t["InstanceNormalization"] = inferInstanceNorm;
        t["TopK"] = inferTopK;
        t["Reshape"] = inferReshape;
        t["Flatten"] = inferFlatten;
        t["Squeeze"] = inferSqueeze;
        t["Unsqueeze"] = inferUnsqueeze;
        t["Expand"] = inferExpand;
        t["Transpose"] = inferTranspose;
        t["Concat"] = inferConcat;
        t["Split"] = inferSplit;
        t["Slice"] = inferSlice;
        t["Pad"] = inferPad;
        t["Tile"] = inferTile;
        t["Gather"] = inferGather;
        t["GatherElements"] = inferGatherElements;
        t["GatherND"] = inferGatherNd;
        t["CumSum"] = inferCumSum;
        t["OneHot"] = inferOneHot;
        t["ScatterElements"] = inferScatterElements;
        t["Scatter"] = inferScatterElements;
        t["ScatterND"] = inferScatterNd;
        t["DepthToSpace"] = inferDepthToSpace;
        t["SpaceToDepth"] = inferSpaceToDepth;
        t["Shape"] = inferShape;
        t["Size"] = inferSize;
        t["ConstantOfShape"] = inferConstantOfShape;
        t["Range"] = inferRange;
        t["QuantizeLinear"] = inferQuantizeLinear;
        t["DequantizeLinear"] = inferDequantizeLinear;
        t["ConvInteger"] = inferConvInteger;
        t["QLinearConv"] = inferQLinearConv;
        t["MatMulInteger"] = inferMatMulInteger;
        t["QLinearMatMul"] = inferQLinearMatMul;
        return t;
    }();
    return table;
}

} // namespace

InferRule findInferRule(const std::string& opType) {
    auto it = rules().find(opType);
    return it == rules().end() ? nullptr : it->second;
}

std::vector<std::string> inferRuleOpTypes() {
    std::vector<std::string> types;
    for (const auto& [type, rule] : rules())
        types.push_back(type);
    return types;
}

} // namespace stagecraft::onnxio
