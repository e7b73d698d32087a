#pragma once
/// \file
/// A kernel plan as readable pseudo-code (GraphTurbo §4.1–4.2, Fig. 11
/// right): per layer its buffers and where they live (global tensors,
/// stitched buffers in the arena, fused intermediates and promoted weights
/// in the core's scratch), its anchor's tile loops, the weight promotions
/// and the fused ops on one tile, then the cores' barrier. Every line says
/// which op it belongs to, so a view can link it with the op and with the
/// LLVM IR and assembly lines that carry its line number (kernel_explain.h).
/// Plain data, deterministic, no LLVM.

#include "codegen/code_plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::codegen {

struct ListingLine {
    enum class Kind : uint8_t {
        /// Explanations: the kernel's and layers' headers, buffer lists.
        Comment,
        /// A tile loop of a layer's anchor (belongs to the anchor).
        Loop,
        /// A weight copied into the core's scratch (belongs to its first reader).
        Promotion,
        /// One op's computation on the current tile.
        Statement,
        /// The cores meet before the next layer.
        Barrier,
    };
    Kind kind = Kind::Comment;
    std::string text;
    /// The op the line belongs to, or kNoOp.
    ir::OpId op = ir::kNoOp;
    /// The layer the line is in, or -1 (the kernel's header).
    int layer = -1;
    /// Of a promotion: the weight it copies.
    ir::TensorId weight = ir::kNoTensor;
};

struct KernelListing {
    std::string symbol;
    std::vector<ListingLine> lines;

    /// 1-based number of the statement line of \p op, or 0 when the kernel
    /// does not compute it.
    int statementLine(ir::OpId op) const;
    /// 1-based number of the "# layer N" line of layer \p layer, or 0.
    int headerLine(int layer) const;
    /// 1-based number of the outermost loop line of layer \p layer (its
    /// statement's line when the layer is one tile).
    int layerLine(int layer) const;
    /// 1-based number of the promotion line of weight \p weight in layer
    /// \p layer, or 0.
    int promotionLine(int layer, ir::TensorId weight) const;
    /// The op of 1-based line \p line, or kNoOp.
    ir::OpId opOfLine(int line) const;
};

/// The pseudo-code of kernel \p index of \p plan (the DSA's tiles, as
/// planned). An index out of range gives an empty listing.
KernelListing listKernel(const ir::Graph& graph, const CodePlan& plan, size_t index);

/// The listing as text, one line per entry, ending with a newline.
std::string listingText(const KernelListing& listing);

} // namespace stagecraft::codegen
