// Reshape, Flatten, Squeeze and Unsqueeze as loop nests, from the input and
// output shapes alone (row-major order is kept, only the dims change).
//
// Size-1 dims are set aside: an input dim of size 1 reads index 0, an output
// dim of size 1 is a loop nothing reads. The other dims are cut into blocks
// of equal products, scanning both shapes from the left and growing the side
// with the smaller product until they agree. A block with one input and one
// output dim is the identity. Otherwise the block's output loops give a
// linear position L = sum(o_i * stride_i) (row-major strides inside the
// block) and each input dim of the block reads (L / innerStride) % extent,
// where innerStride is the product of the block's input dims after it; the
// first input dim of a block needs no modulo. Merges give L/6 and L % 6,
// splits give 6*d0 + d1, non-aligned blocks ([6,4] -> [4,6]) give both.
// Empty tensors (a zero dim) read every input dim `full`.

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

namespace {

struct Block {
    std::vector<size_t> in, out;
};

std::vector<size_t> nonUnitDims(const ir::Shape& shape) {
    std::vector<size_t> dims;
    for (size_t i = 0; i < shape.size(); ++i)
        if (shape[i] != 1)
            dims.push_back(i);
    return dims;
}

/// Groups the non-unit dims of two shapes with equal element counts.
std::vector<Block> blocksOf(const ir::Shape& in, const ir::Shape& out) {
    std::vector<size_t> inDims = nonUnitDims(in), outDims = nonUnitDims(out);
    std::vector<Block> blocks;
    size_t a = 0, b = 0;
    while (a < inDims.size() && b < outDims.size()) {
        Block block{{inDims[a]}, {outDims[b]}};
        int64_t inProduct = in[inDims[a++]], outProduct = out[outDims[b++]];
        while (inProduct != outProduct) {
            if (inProduct < outProduct) {
                SC_ASSERT(a < inDims.size(), "reshape blocks need equal element counts");
                block.in.push_back(inDims[a]);
                inProduct *= in[inDims[a++]];
            } else {
                SC_ASSERT(b < outDims.size(), "reshape blocks need equal element counts");
                block.out.push_back(outDims[b]);
                outProduct *= out[outDims[b++]];
            }
        }
        blocks.push_back(std::move(block));
    }
    SC_ASSERT(a == inDims.size() && b == outDims.size(), "reshape blocks cover every dim");
    return blocks;
}

void mapBlock(const Block& block, const ir::Shape& in, const ir::Shape& out, AccessMap& map) {
    if (block.in.size() == 1 && block.out.size() == 1) {
        map.dims[block.in[0]] = loopIndex(static_cast<int>(block.out[0]));
        return;
    }
    IndexExpr linear;
    int64_t stride = 1;
    for (size_t i = block.out.size(); i-- > 0;) {
        linear.terms.insert(linear.terms.begin(),
                            IndexTerm{static_cast<int>(block.out[i]), stride, 1, 0});
        stride *= out[block.out[i]];
    }
    int64_t innerStride = 1;
    for (size_t j = block.in.size(); j-- > 0;) {
        IndexExpr index = linear;
        index.div = innerStride;
        index.mod = j == 0 ? 0 : in[block.in[j]];
        map.dims[block.in[j]] = std::move(index);
        innerStride *= in[block.in[j]];
    }
}

} // namespace

Nests buildReshape(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& in = ctx.inputShape(0);
    const ir::Shape& out = ctx.outputShape(0);
    if (ir::elementCount(in) != ir::elementCount(out))
        return ctx.error("input shape " + ir::formatShape(in) + " and output shape " +
                         ir::formatShape(out) + " hold different numbers of elements");
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap map{0, std::vector<IndexExpr>(in.size(), constantIndex(0))};
    if (ir::elementCount(in) == 0) {
        map = fullMap(ctx, 0);
    } else {
        for (const Block& block : blocksOf(in, out))
            mapBlock(block, in, out, map);
    }
    nest.inputs.push_back(std::move(map));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
