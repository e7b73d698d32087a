// weights.bin of a model library (model_library.h): the initial bytes of
// the tensor table's slots, each at a 64-byte aligned offset, in slot order.
// A weight is stored as the kernels of the target read it: the graph's data
// (folded at import, converted to the emitted precision), on the host
// transposed, with padded rows or in blocks (of channels, or of columns
// with 4 reduction steps interleaved) where the plan says so; a graph
// output that import folded to a constant holds its value.
// Other slots start zeroed and take no room.

#include "codegen/model_library.h"

#include <algorithm>
#include <cstring>

namespace stagecraft::codegen {

namespace {

/// \p t's elements stored as [dim / B][the other dims in order][B] for
/// g.hostBlockDim's dim and B = g.hostBlock (GlobalTensor::hostBlock).
std::vector<std::byte> storedInBlocks(const ir::Tensor& t, const GlobalTensor& g,
                                      std::span<const std::byte> bytes) {
    const auto width = static_cast<size_t>(ir::dtypeSize(t.dtype));
    const auto block = static_cast<size_t>(g.hostBlock);
    const auto dim = static_cast<size_t>(g.hostBlockDim);
    const auto blocked = static_cast<size_t>(t.shape[dim]);
    size_t after = 1; // elements of the dims after the blocked one
    for (size_t d = dim + 1; d < t.shape.size(); ++d)
        after *= static_cast<size_t>(t.shape[d]);
    const size_t others = static_cast<size_t>(t.elementCount()) / blocked;
    std::vector<std::byte> out(bytes.size());
    if (after == 1) { // the blocked dim last: a block's elements are consecutive
        for (size_t before = 0; before < others; ++before)
            for (size_t c = 0; c < blocked; c += block)
                std::memcpy(&out[(c / block * others + before) * block * width],
                            &bytes[(before * blocked + c) * width], block * width);
        return out;
    }
    for (size_t before = 0; before < others / after; ++before)
        for (size_t c = 0; c < blocked; ++c)
            for (size_t i = 0; i < after; ++i) {
                const size_t at = (c / block * others + before * after + i) * block + c % block;
                std::memcpy(&out[at * width], &bytes[((before * blocked + c) * after + i) * width],
                            width);
            }
    return out;
}

/// A 2-D \p t stored as [dim / B][other / G][B][G] (GlobalTensor::hostBlockGroup).
std::vector<std::byte> storedInGroups(const ir::Tensor& t, const GlobalTensor& g,
                                      std::span<const std::byte> bytes) {
    const auto width = static_cast<size_t>(ir::dtypeSize(t.dtype));
    const auto block = static_cast<size_t>(g.hostBlock);
    const auto group = static_cast<size_t>(g.hostBlockGroup);
    const auto dim = static_cast<size_t>(g.hostBlockDim);
    const auto blocked = static_cast<size_t>(t.shape[dim]);
    const auto other = static_cast<size_t>(t.shape[1 - dim]);
    std::vector<std::byte> out(bytes.size());
    for (size_t c = 0; c < blocked; ++c)
        for (size_t o = 0; o < other; ++o) {
            const size_t at = c / block * other * block + o / group * block * group +
                              c % block * group + o % group;
            const size_t from = dim == 1 ? o * blocked + c : c * other + o;
            std::memcpy(&out[at * width], &bytes[from * width], width);
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
Expected<std::pair<bool, std::vector<std::byte>>>
initialBytes(const ir::Graph& graph, const GlobalTensor& g, Target target) {
    const ir::Tensor& t = graph.tensor(g.tensor);
    const bool constant = g.role == TensorRole::Weight || (t.isConstant() && t.data);
    if (!constant || !t.data || g.role == TensorRole::Input)
        return std::pair<bool, std::vector<std::byte>>{false, {}};
    auto bytes = t.data->bytes();
    if (!bytes.ok())
        return Error("weight '" + t.name + "': " + bytes.error().message());
    if (target == Target::Host && g.hostRelaid())
        return std::pair<bool, std::vector<std::byte>>{true, hostStoredWeight(graph, g, *bytes)};
    std::vector<std::byte> copy(bytes->begin(), bytes->end());
    if (static_cast<int64_t>(copy.size()) < g.bytes)
        copy.resize(static_cast<size_t>(g.bytes), std::byte{0});
    return std::pair<bool, std::vector<std::byte>>{true, std::move(copy)};
}

} // namespace

std::vector<std::byte> hostStoredWeight(const ir::Graph& graph, const GlobalTensor& g,
                                        std::span<const std::byte> bytes) {
    const ir::Tensor& t = graph.tensor(g.tensor);
    const auto width = static_cast<size_t>(ir::dtypeSize(t.dtype));
    if (g.hostBlock > 0 && g.hostBlockGroup > 1)
        return storedInGroups(t, g, bytes);
    if (g.hostBlock > 0)
        return storedInBlocks(t, g, bytes);
    const auto rows = static_cast<size_t>(t.shape[0]), cols = static_cast<size_t>(t.shape[1]);
    const size_t stored = g.hostTransposed ? rows : cols;
    const size_t pitch = g.hostRowPitch > 0 ? static_cast<size_t>(g.hostRowPitch) : stored;
    std::vector<std::byte> out(static_cast<size_t>(hostStoredBytes(graph, g)));
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
