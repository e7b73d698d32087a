// weights.bin of a model library (model_library.h): the initial bytes of
// the tensor table's slots, each at a 64-byte aligned offset, in slot order.
// A weight is stored as the kernels of the target read it: the graph's data
// (folded at import, converted to the emitted precision), on the host
// transposed, with padded rows or in blocks (of channels, or with 4
// reduction steps interleaved for byte dot products) where the plan says
// so; a graph output that import folded to a constant holds its value.
// Other slots start zeroed and take no room.

#include "codegen/model_library.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace stagecraft::codegen {

namespace {

/// Where a weight stored in blocks (GlobalTensor::hostBlock) keeps each
/// element: [dim / B][the other dims in order, dim hostBlockGroupDim in
/// groups of G][B][G], the strides the kernels read it with
/// (stored_layout.cpp).
class BlockedOffsets {
public:
    BlockedOffsets(const ir::Tensor& t, const GlobalTensor& g)
        : block_(static_cast<size_t>(g.hostBlock))
        , group_(static_cast<size_t>(g.hostBlockGroup))
        , blockDim_(static_cast<size_t>(g.hostBlockDim))
        , groupDim_(group_ > 1 ? static_cast<size_t>(g.hostBlockGroupDim) : t.shape.size())
        , stride_(t.shape.size(), 0) {
        size_t inner = block_ * group_;
        for (size_t d = t.shape.size(); d-- > 0;) {
            if (d == blockDim_)
                continue;
            stride_[d] = inner;
            const auto extent = static_cast<size_t>(t.shape[d]);
            inner *= d == groupDim_ ? (extent + group_ - 1) / group_ : extent;
        }
        blockStride_ = inner;
    }

    /// The stored element of index \p i of dim \p d, relative to index 0.
    size_t of(size_t d, size_t i) const {
        if (d == blockDim_)
            return i / block_ * blockStride_ + i % block_ * group_;
        if (d == groupDim_)
            return i / group_ * stride_[d] + i % group_;
        return i * stride_[d];
    }

    /// Whether the last dim's elements are stored in runs of runLength().
    bool lastInRuns(size_t last) const { return last == blockDim_ && group_ == 1; }
    size_t runLength() const { return block_; }

private:
    size_t block_, group_, blockDim_, groupDim_;
    std::vector<size_t> stride_;
    size_t blockStride_ = 0;
};

/// \p t's elements stored in blocks (GlobalTensor::hostBlock), a row of
/// the last dim at a time: in runs of a block where that dim is blocked
/// and ungrouped (a MatMul's f32 B), else element by element; \p stored
/// bytes in all, a partial group's missing elements zero.
AlignedBytes storedInBlocks(const ir::Tensor& t, const GlobalTensor& g,
                            std::span<const std::byte> bytes, int64_t stored) {
    const auto width = static_cast<size_t>(ir::dtypeSize(t.dtype));
    const BlockedOffsets offsets(t, g);
    const size_t rank = t.shape.size(), last = rank - 1;
    const auto inner = static_cast<size_t>(t.shape[last]);
    AlignedBytes out(static_cast<size_t>(stored), std::byte{0});
    std::vector<size_t> index(rank, 0);
    for (size_t row = 0; row * inner * width < bytes.size(); ++row) {
        size_t base = 0;
        for (size_t d = 0; d < last; ++d)
            base += offsets.of(d, index[d]);
        const std::byte* from = &bytes[row * inner * width];
        if (offsets.lastInRuns(last)) {
            const size_t run = offsets.runLength();
            for (size_t i = 0; i < inner; i += run)
                std::memcpy(&out[(base + offsets.of(last, i)) * width], from + i * width,
                            std::min(run, inner - i) * width);
        } else {
            for (size_t i = 0; i < inner; ++i)
                std::memcpy(&out[(base + offsets.of(last, i)) * width], from + i * width, width);
        }
        for (size_t d = last; d-- > 0 && ++index[d] == static_cast<size_t>(t.shape[d]);)
            index[d] = 0;
    }
    return out;
}

uint64_t wordsFnv1a(std::string_view bytes) {
    uint64_t hash = 14695981039346656037ull;
    for (size_t at = 0; at < bytes.size(); at += 8) {
        uint64_t word = 0;
        const size_t n = std::min<size_t>(8, bytes.size() - at);
        for (size_t i = 0; i < n; ++i)
            word |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
        hash = (hash ^ word) * 1099511628211ull;
    }
    return hash;
}

/// The bytes slot \p g starts with, or an empty vector and false: none.
Expected<std::pair<bool, AlignedBytes>> initialBytes(const ir::Graph& graph, const GlobalTensor& g,
                                                     Target target) {
    const ir::Tensor& t = graph.tensor(g.tensor);
    const bool constant = g.role == TensorRole::Weight || (t.isConstant() && t.data);
    if (!constant || !t.data || g.role == TensorRole::Input)
        return std::pair<bool, AlignedBytes>{false, {}};
    auto bytes = t.data->bytes();
    if (!bytes.ok())
        return Error("weight '" + t.name + "': " + bytes.error().message());
    if (target == Target::Host && g.hostRelaid())
        return std::pair<bool, AlignedBytes>{true, hostStoredWeight(graph, g, *bytes)};
    AlignedBytes copy(bytes->begin(), bytes->end());
    if (static_cast<int64_t>(copy.size()) < g.bytes)
        copy.resize(static_cast<size_t>(g.bytes), std::byte{0});
    return std::pair<bool, AlignedBytes>{true, std::move(copy)};
}

} // namespace

AlignedBytes hostStoredWeight(const ir::Graph& graph, const GlobalTensor& g,
                              std::span<const std::byte> bytes) {
    const ir::Tensor& t = graph.tensor(g.tensor);
    const auto width = static_cast<size_t>(ir::dtypeSize(t.dtype));
    if (g.hostBlock > 0)
        return storedInBlocks(t, g, bytes, hostStoredBytes(graph, g));
    const auto rows = static_cast<size_t>(t.shape[0]), cols = static_cast<size_t>(t.shape[1]);
    const size_t stored = g.hostTransposed ? rows : cols;
    const size_t pitch = g.hostRowPitch > 0 ? static_cast<size_t>(g.hostRowPitch) : stored;
    AlignedBytes out(static_cast<size_t>(hostStoredBytes(graph, g)));
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < cols; ++c) {
            const size_t at = g.hostTransposed ? c * pitch + r : r * pitch + c;
            std::memcpy(&out[at * width], &bytes[(r * cols + c) * width], width);
        }
    return out;
}

Expected<WeightsImage> weightsImage(const ir::Graph& graph, const CodePlan& plan, Target target) {
    WeightsImage image;
    image.offsets.assign(plan.globals.size(), -1);
    image.storedBytes.assign(plan.globals.size(), 0);
    for (size_t slot = 0; slot < plan.globals.size(); ++slot) {
        SC_ASSIGN_OR_RETURN(auto initial, initialBytes(graph, plan.globals[slot], target));
        if (!initial.first)
            continue;
        const size_t padding =
            (kWeightsAlignment - image.bytes.size() % kWeightsAlignment) % kWeightsAlignment;
        image.bytes.append(padding, '\0');
        image.offsets[slot] = static_cast<int64_t>(image.bytes.size());
        image.storedBytes[slot] = static_cast<int64_t>(initial.second.size());
        image.bytes.append(reinterpret_cast<const char*>(initial.second.data()),
                           initial.second.size());
    }
    image.fnv1a64 = wordsFnv1a(image.bytes);
    return image;
}

} // namespace stagecraft::codegen
