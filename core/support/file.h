#pragma once
/// \file
/// File access for the core: read-only memory maps (weights are mapped, never
/// copied) and atomic writes (a saved file is either the old or the new one,
/// never half-written).
///
/// Only regular files are read or written: a device, FIFO, socket or
/// directory is refused with one line before it is opened for reading (so a
/// FIFO cannot hang a command) or replaced (so `--out /dev/null` cannot turn
/// a device into a file). Writes keep an existing file's mode and create new
/// files as the umask says.

#include "support/expected.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace stagecraft {

/// A read-only, private memory map of a whole file. Unmapped on destruction.
class MappedFile {
public:
    /// Maps \p path, which must be a regular file; the error names the file
    /// and the reason.
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

/// An error unless \p path is a regular file (symbolic links followed):
/// "<path>: is a character device, not a regular file".
Status checkRegularFile(const std::filesystem::path& path);

/// An error unless \p path may be written by writeFileAtomic: it is missing
/// or a regular file, and its directory exists. Commands check their output
/// paths with it before long work, so a bad path fails at once.
Status checkOutputPath(const std::filesystem::path& path);

/// Reads a whole regular file into a string; a file larger than \p maxBytes
/// (default: a quarter of the memory cap, support/limits.h) is refused.
Expected<std::string> readFile(const std::filesystem::path& path, int64_t maxBytes = -1);

/// A file being written atomically: the bytes go to a temporary file next to
/// the target, which commit() flushes and renames over it. The target must be
/// a regular file or missing; a symbolic link is followed (the link stays).
/// An existing file keeps its mode (and, for root, its owner); a new one gets
/// 0666 minus the umask. Dropped without commit(), the temporary is removed.
class AtomicFile {
public:
    static Expected<AtomicFile> create(const std::filesystem::path& path);
    AtomicFile(AtomicFile&& other) noexcept;
    AtomicFile& operator=(AtomicFile&&) = delete;
    AtomicFile(const AtomicFile&) = delete;
    ~AtomicFile();

    Status write(std::string_view bytes);
    /// Makes the file \p bytes long (a sparse file when it grows).
    Status truncate(int64_t bytes);
    Status commit();

private:
    AtomicFile(std::filesystem::path shown, std::filesystem::path target,
               std::filesystem::path temp, int fd)
        : shown_(std::move(shown))
        , target_(std::move(target))
        , temp_(std::move(temp))
        , fd_(fd) {}

    std::filesystem::path shown_;
    std::filesystem::path target_;
    std::filesystem::path temp_;
    int fd_ = -1;
};

/// Writes \p contents to \p path atomically through an AtomicFile.
Status writeFileAtomic(const std::filesystem::path& path, std::string_view contents);

/// Writes \p path atomically only if nothing has that name (a link
/// included): true when written, false when something was there first (two
/// processes: exactly one writes).
Expected<bool> createFileExclusive(const std::filesystem::path& path, std::string_view contents);

} // namespace stagecraft
