#pragma once
/// \file
/// The zoo's model builders (internal to core/zoo). Each adds the inputs,
/// nodes, initializers and outputs of one model to a Net; zoo.cpp validates the
/// options, picks the builder and writes the file.

#include "zoo/net.h"

#include <cstdint>
#include <string>

namespace stagecraft::zoo {

/// The resolved options of one build: batch and sequence length (0 when the
/// model has none).
struct ModelConfig {
    int64_t batch = 1;
    int64_t seq = 0;
};

/// DLRM embedding tables are capped at this many rows (MLPerf has up to 40M).
inline constexpr int64_t kMaxEmbeddingRows = 1000000;
/// The note DLRM's doc_string carries: the row cap and the rows used.
std::string dlrmDocNote();

/// The Conformer's shortest input in frames: its two 3x3/2 subsampling convs
/// leave a single frame.
inline constexpr int64_t kConformerMinFrames = 7;

void buildResNet50(Net& net, const ModelConfig& config);
void buildResNetReduced(Net& net, const ModelConfig& config);
void buildBertBase(Net& net, const ModelConfig& config);
void buildBert2Layer(Net& net, const ModelConfig& config);
void buildBertLarge(Net& net, const ModelConfig& config);
void buildDlrm(Net& net, const ModelConfig& config);
void buildMobileNetV2(Net& net, const ModelConfig& config);
void buildVitB16(Net& net, const ModelConfig& config);
void buildDenseNet121(Net& net, const ModelConfig& config);
void buildSqueezeNet11(Net& net, const ModelConfig& config);
void buildInceptionV3(Net& net, const ModelConfig& config);
void buildInceptionV3Block(Net& net, const ModelConfig& config);
void buildNasNetACell(Net& net, const ModelConfig& config);
void buildRandWireSmall(Net& net, const ModelConfig& config);
void buildConformer(Net& net, const ModelConfig& config);
void buildFig3Chain(Net& net, const ModelConfig& config);
void buildFig2Blocks(Net& net, const ModelConfig& config);

} // namespace stagecraft::zoo
