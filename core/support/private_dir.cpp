// The user's private directories (private_dir.h). A directory is opened once
// (O_DIRECTORY, O_NOFOLLOW where Stagecraft picked its name), checked on its
// descriptor (owner, mode), and everything in it is reached with *at() calls
// from that descriptor, links never followed: the checked directory is the
// one used, whatever happens to paths meanwhile.

#include "support/private_dir.h"

#include "support/strings.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stagecraft {

namespace fs = std::filesystem;

struct PrivateDir::Fd {
    int fd = -1;
    explicit Fd(int f)
        : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd >= 0)
            ::close(fd);
    }
};

namespace {

std::optional<fs::path> variable(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0')
        return std::nullopt;
    return fs::path(value);
}

struct Location {
    fs::path path;
    /// The user named it ($STAGECRAFT_*_DIR): a link to it is followed.
    bool named = false;
};

std::optional<Location> locate(StateKind kind) {
    const char* own = kind == StateKind::Cache  ? "STAGECRAFT_CACHE_DIR"
                      : kind == StateKind::Data ? "STAGECRAFT_DATA_DIR"
                                                : "STAGECRAFT_CONFIG_DIR";
    const char* xdg = kind == StateKind::Cache  ? "XDG_CACHE_HOME"
                      : kind == StateKind::Data ? "XDG_DATA_HOME"
                                                : "XDG_CONFIG_HOME";
    const char* underHome = kind == StateKind::Cache  ? ".cache"
                            : kind == StateKind::Data ? ".local/share"
                                                      : ".config";
    if (auto dir = variable(own))
        return Location{*dir, true};
    if (auto dir = variable(xdg))
        return Location{*dir / "stagecraft", false};
    if (auto home = variable("HOME"))
        return Location{*home / underHome / "stagecraft", false};
    return std::nullopt;
}

Error systemError(const fs::path& path, const char* what) {
    return Error(path.string() + ": " + what + ": " + std::strerror(errno));
}

/// An error unless \p fd, a directory, is the user's and writable by no one
/// else.
Status checkOwned(int fd, const fs::path& path) {
    struct stat info {};
    if (::fstat(fd, &info) != 0)
        return systemError(path, "cannot inspect");
    if (!S_ISDIR(info.st_mode))
        return Error(path.string() + ": is not a directory");
    if (info.st_uid != ::geteuid())
        return Error(path.string() + ": belongs to another user (uid " +
                     std::to_string(info.st_uid) + "); Stagecraft keeps nothing there");
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", info.st_mode & 07777);
        return Error(path.string() + ": others may write to it (mode " + mode +
                     "); Stagecraft keeps nothing there");
    }
    return Status::success();
}

/// Creates the missing directories of \p dir, each 0700.
Status makeDirectories(const fs::path& dir) {
    fs::path partial;
    for (const fs::path& part : dir) {
        partial /= part;
        if (part == partial.root_path() || part.empty())
            continue;
        if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST)
            return systemError(partial, "cannot create");
    }
    return Status::success();
}

bool oneComponent(std::string_view name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find('/') == std::string_view::npos && name.find('\0') == std::string_view::npos;
}

std::string temporaryName(std::string_view name) {
    static std::atomic<uint64_t> counter{0};
    return "." + std::string(name) + "." + std::to_string(::getpid()) + "." +
           std::to_string(counter.fetch_add(1)) + ".tmp";
}

Status writeAll(int fd, std::string_view bytes, const fs::path& path) {
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return systemError(path, "cannot write");
        bytes.remove_prefix(static_cast<size_t>(n));
    }
    return ::fsync(fd) == 0 ? Status::success() : systemError(path, "cannot write");
}

} // namespace

std::optional<fs::path> privateDirPath(StateKind kind) {
    auto where = locate(kind);
    return where ? std::optional<fs::path>(where->path) : std::nullopt;
}

Expected<PrivateDir> PrivateDir::open(StateKind kind) {
    auto where = locate(kind);
    if (!where)
        return Error(std::string("neither $HOME nor $XDG_") +
                     (kind == StateKind::Cache  ? "CACHE"
                      : kind == StateKind::Data ? "DATA"
                                                : "CONFIG") +
                     "_HOME is set, so there is no private directory for it");
    return openPath(where->path, where->named);
}

Expected<std::optional<PrivateDir>> PrivateDir::openExisting(StateKind kind) {
    auto where = locate(kind);
    if (!where)
        return std::optional<PrivateDir>();
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(where->path, ec)))
        return std::optional<PrivateDir>();
    SC_ASSIGN_OR_RETURN(PrivateDir dir, openPath(where->path, where->named));
    return std::optional<PrivateDir>(std::move(dir));
}

Expected<PrivateDir> PrivateDir::openPath(const fs::path& dir, bool followLink) {
    fs::path absolute = dir.is_absolute() ? dir : fs::absolute(dir);
    SC_RETURN_IF_ERROR(makeDirectories(absolute));
    int fd = ::open(absolute.c_str(),
                    O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followLink ? 0 : O_NOFOLLOW));
    if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
        return Error(dir.string() + ": is a symbolic link or not a directory; Stagecraft keeps "
                                    "nothing there");
    if (fd < 0)
        return systemError(dir, "cannot open");
    auto held = std::make_shared<const Fd>(fd);
    SC_RETURN_IF_ERROR(checkOwned(fd, dir));
    return PrivateDir(dir, std::move(held));
}

int PrivateDir::fd() const {
    return fd_->fd;
}

Expected<PrivateDir> PrivateDir::sub(std::string_view name) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    std::string text(name);
    if (::mkdirat(fd(), text.c_str(), 0700) != 0 && errno != EEXIST)
        return systemError(path, "cannot create");
    int sub = ::openat(fd(), text.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0 && (errno == ELOOP || errno == ENOTDIR))
        return Error(path.string() + ": is a symbolic link or not a directory; Stagecraft keeps "
                                     "nothing there");
    if (sub < 0)
        return systemError(path, "cannot open");
    auto held = std::make_shared<const Fd>(sub);
    SC_RETURN_IF_ERROR(checkOwned(sub, path));
    return PrivateDir(path, std::move(held));
}

Expected<std::optional<std::string>> PrivateDir::read(std::string_view name,
                                                      int64_t maxBytes) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    int file =
        ::openat(fd(), std::string(name).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (file < 0 && errno == ENOENT)
        return std::optional<std::string>();
    if (file < 0 && errno == ELOOP)
        return Error(path.string() + ": is a symbolic link; not followed");
    if (file < 0)
        return systemError(path, "cannot open");
    Fd held(file);
    struct stat info {};
    if (::fstat(file, &info) != 0)
        return systemError(path, "cannot inspect");
    if (!S_ISREG(info.st_mode))
        return Error(path.string() + ": is not a regular file");
    if (info.st_size > maxBytes)
        return Error(path.string() + ": " + std::to_string(info.st_size) +
                     " bytes, more than the " + std::to_string(maxBytes) + " expected");
    std::string bytes(static_cast<size_t>(info.st_size), '\0');
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::read(file, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return systemError(path, "cannot read");
        done += static_cast<size_t>(n);
    }
    return std::optional<std::string>(std::move(bytes));
}

namespace {

/// Writes \p bytes to a new 0600 temporary file in \p dir; its name.
Expected<std::string> writeTemporary(int dir, const fs::path& shown, std::string_view name,
                                     std::string_view bytes) {
    std::string temp = temporaryName(name);
    int file =
        ::openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (file < 0)
        return systemError(shown, "cannot create a temporary file next to it");
    Status written = writeAll(file, bytes, shown);
    ::close(file);
    if (!written.ok()) {
        ::unlinkat(dir, temp.c_str(), 0);
        return written.error();
    }
    return temp;
}

} // namespace

Status PrivateDir::write(std::string_view name, std::string_view bytes) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    SC_ASSIGN_OR_RETURN(std::string temp, writeTemporary(fd(), path, name, bytes));
    if (::renameat(fd(), temp.c_str(), fd(), std::string(name).c_str()) != 0) {
        Error error = systemError(path, "cannot write");
        ::unlinkat(fd(), temp.c_str(), 0);
        return error;
    }
    return Status::success();
}

Expected<bool> PrivateDir::create(std::string_view name, std::string_view bytes) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    SC_ASSIGN_OR_RETURN(std::string temp, writeTemporary(fd(), path, name, bytes));
    int renamed =
        ::renameat2(fd(), temp.c_str(), fd(), std::string(name).c_str(), RENAME_NOREPLACE);
    if (renamed != 0) {
        int error = errno;
        ::unlinkat(fd(), temp.c_str(), 0);
        if (error == EEXIST)
            return false;
        errno = error;
        return systemError(path, "cannot write");
    }
    return true;
}

Expected<std::shared_ptr<const void>> PrivateDir::lock(std::string_view name,
                                                       std::string_view holder) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    int lockFd =
        ::openat(fd(), std::string(name).c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lockFd < 0)
        return systemError(path, "cannot open the lock");
    auto held = std::make_shared<const Fd>(lockFd); // closing it releases the lock
    if (::flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            return Error(path.string() + ": " + std::string(holder) +
                         " holds this lock; wait for it to end");
        return systemError(path, "cannot lock");
    }
    return std::shared_ptr<const void>(held, held.get());
}

Status PrivateDir::remove(std::string_view name) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    if (::unlinkat(fd(), std::string(name).c_str(), 0) != 0 && errno != ENOENT)
        return systemError(path, "cannot remove");
    return Status::success();
}

Status PrivateDir::moveIn(const PrivateDir& from, std::string_view name) const {
    fs::path path = path_ / std::string(name);
    if (!oneComponent(name))
        return Error(path.string() + ": not a name of one component");
    std::string text(name);
    if (::renameat(from.fd(), text.c_str(), fd(), text.c_str()) != 0)
        return systemError(path, "cannot move in");
    return Status::success();
}

Expected<std::vector<DirEntry>> PrivateDir::list() const {
    int copy = ::openat(fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = copy < 0 ? nullptr : ::fdopendir(copy);
    if (dir == nullptr) {
        if (copy >= 0)
            ::close(copy);
        return systemError(path_, "cannot list");
    }
    std::vector<DirEntry> entries;
    while (const dirent* item = ::readdir(dir)) {
        const std::string name = item->d_name;
        struct stat info {};
        if (name == "." || name == ".." ||
            ::fstatat(fd(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0 ||
            !(S_ISREG(info.st_mode) || S_ISDIR(info.st_mode)))
            continue;
        entries.push_back(
            {name, S_ISDIR(info.st_mode), static_cast<int64_t>(info.st_size),
             static_cast<int64_t>(info.st_blocks) * 512,
             static_cast<int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec});
    }
    ::closedir(dir);
    std::sort(entries.begin(), entries.end(),
              [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    return entries;
}

void PrivateDir::touch(std::string_view name) const {
    if (oneComponent(name))
        (void)::utimensat(fd(), std::string(name).c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
}

bool PrivateDir::hasFile(std::string_view name) const {
    if (!oneComponent(name))
        return false;
    struct stat info {};
    return ::fstatat(fd(), std::string(name).c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(info.st_mode);
}

} // namespace stagecraft
