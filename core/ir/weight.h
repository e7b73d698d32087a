#pragma once
/// \file
/// Lazy constant data of weight tensors. A weight knows where its bytes are
/// (inline bytes kept from the model file, a range of an external data file,
/// or a recipe deriving it from other weights, as BatchNorm folding does) and
/// reads them only when asked. Scheduling never asks; code generation and
/// host execution do. Reading is thread-safe and cached.

#include "support/expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace stagecraft::ir {

enum class WeightStorage { Inline, External, Derived };

class WeightSource {
public:
    virtual ~WeightSource() = default;
    virtual WeightStorage storage() const = 0;
    /// Size of the data in bytes, known without reading it.
    virtual int64_t byteSize() const = 0;
    /// The bytes, read (mapped or computed) on first use. The span lives as
    /// long as this source.
    virtual Expected<std::span<const std::byte>> bytes() const = 0;
    /// "inline", "external bert.weights@1024+2359296", "derived (fold BatchNorm)".
    virtual std::string describe() const = 0;
};

using WeightPtr = std::shared_ptr<const WeightSource>;

/// Bytes already in memory, copied once to a cache line's boundary (the
/// argument is freed with the call's temporary).
WeightPtr makeInlineWeight(std::vector<std::byte> bytes);
/// Bytes held in a string, e.g. moved out of a protobuf raw_data field;
/// copied so too.
WeightPtr makeInlineWeight(std::string bytes);

/// \p length bytes at \p offset of \p file, memory-mapped on first use.
WeightPtr makeExternalWeight(std::filesystem::path file, int64_t offset, int64_t length);

/// Data computed by \p compute on first use (kept at a cache line's
/// boundary); \p byteSize must match its result.
WeightPtr makeDerivedWeight(int64_t byteSize, std::string description,
                            std::function<Expected<std::vector<std::byte>>()> compute);

} // namespace stagecraft::ir
