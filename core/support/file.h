#pragma once
/// \file
/// File access for the core: read-only memory maps (weights are mapped, never
/// copied) and atomic writes (a saved file is either the old or the new one,
/// never half-written).

#include "support/expected.h"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace stagecraft {

/// A read-only, private memory map of a whole file. Unmapped on destruction.
class MappedFile {
public:
    /// Maps \p path; the error names the file and the reason.
    static Expected<std::shared_ptr<const MappedFile>> open(const std::filesystem::path& path);

    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    std::span<const std::byte> bytes() const { return {data_, size_}; }
    const std::filesystem::path& path() const { return path_; }

private:
    MappedFile(std::filesystem::path path, const std::byte* data, size_t size)
        : path_(std::move(path))
        , data_(data)
        , size_(size) {}

    std::filesystem::path path_;
    const std::byte* data_;
    size_t size_;
};

/// Maps \p path, sharing one mapping per canonical path across the process for
/// as long as someone holds it. Thread-safe.
Expected<std::shared_ptr<const MappedFile>> mapShared(const std::filesystem::path& path);

/// Reads a whole file into a string.
Expected<std::string> readFile(const std::filesystem::path& path);

/// Writes \p contents to \p path atomically: a temporary file in the same
/// directory is written, flushed to disk and renamed over \p path.
Status writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

} // namespace stagecraft
