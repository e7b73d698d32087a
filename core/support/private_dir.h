#pragma once
/// \file
/// The user's own directories for what Stagecraft keeps between runs
/// (docs/limits.md, "Who may write where"): the cache (compiled kernels, zoo
/// models), the data (host-cpu's calibration) and the config (the cache's
/// key). Each lies under the user's directories only — its variable
/// ($STAGECRAFT_CACHE_DIR, $STAGECRAFT_DATA_DIR), else $XDG_*_HOME, else
/// $HOME — never under a shared folder; without them there is none. A
/// directory is created 0700 where missing and used only when it is owned by
/// the user and writable by no one else. Its files are reached through the
/// directory's descriptor and opened without following symbolic links, so a
/// link planted in it cannot redirect a read or a write.

#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft {

enum class StateKind { Cache, Data, Config };

/// A regular file or directory in a private directory (links and other
/// kinds are not listed).
struct DirEntry {
    std::string name;
    bool directory = false;
    int64_t bytes = 0;
    /// Bytes it takes on disk (less than bytes for a sparse file).
    int64_t diskBytes = 0;
    /// Last modification, nanoseconds since the epoch.
    int64_t modifiedNs = 0;
};

class PrivateDir {
public:
    /// The user's directory of \p kind for Stagecraft, created if missing
    /// and checked; an error saying why there is none (no $HOME, another
    /// user's directory, one writable by others, a symbolic link).
    static Expected<PrivateDir> open(StateKind kind);
    /// As open(), but a directory that does not exist yet is not created:
    /// nullopt then (readers that must write nothing).
    static Expected<std::optional<PrivateDir>> openExisting(StateKind kind);
    /// \p dir (its parents created 0700 where missing), checked as above;
    /// \p followLink: the user named it, so a link to it is followed (the
    /// directory it names is still checked).
    static Expected<PrivateDir> openPath(const std::filesystem::path& dir, bool followLink);

    /// Subdirectory \p name (one component), created 0700 and checked.
    Expected<PrivateDir> sub(std::string_view name) const;

    /// The bytes of regular file \p name (one component), not following a
    /// link; nullopt when it does not exist.
    Expected<std::optional<std::string>> read(std::string_view name, int64_t maxBytes) const;
    /// Writes \p name atomically (a 0600 temporary file renamed over it); a
    /// link of that name is replaced, never followed.
    Status write(std::string_view name, std::string_view bytes) const;
    /// Writes \p name only if no file of that name exists; false when one
    /// did (its bytes are left as they are).
    Expected<bool> create(std::string_view name, std::string_view bytes) const;
    /// Removes file \p name if present (a link is removed, not followed).
    Status remove(std::string_view name) const;
    /// Moves entry \p name of \p from (another private directory) here,
    /// replacing what had that name.
    Status moveIn(const PrivateDir& from, std::string_view name) const;
    /// Whether \p name is a regular file here (a link is not).
    bool hasFile(std::string_view name) const;
    /// The regular files and directories here, by name.
    Expected<std::vector<DirEntry>> list() const;
    /// Marks file \p name as modified now (a link is not followed); what a
    /// least-recently-used cache calls on a hit.
    void touch(std::string_view name) const;

    /// An exclusive lock on file \p name here (created 0600, a link not
    /// followed), held while the result lives; an error saying who holds it
    /// when another process does (\p holder, e.g. "another calibration").
    Expected<std::shared_ptr<const void>> lock(std::string_view name,
                                               std::string_view holder) const;

    const std::filesystem::path& path() const { return path_; }

private:
    struct Fd;
    PrivateDir(std::filesystem::path path, std::shared_ptr<const Fd> fd)
        : path_(std::move(path))
        , fd_(std::move(fd)) {}
    int fd() const;

    std::filesystem::path path_;
    std::shared_ptr<const Fd> fd_;
};

/// The path \p kind's directory would have (not created, not checked), or
/// nullopt without any of its variables: what messages name.
std::optional<std::filesystem::path> privateDirPath(StateKind kind);

} // namespace stagecraft
