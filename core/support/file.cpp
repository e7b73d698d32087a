// Reading and writing files: regular files only, memory maps, size caps,
// atomic replacement that keeps modes and honours the umask.

#include "support/file.h"

#include "support/limits.h"
#include "support/strings.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stagecraft {

namespace {

namespace fs = std::filesystem;

Error systemError(const fs::path& path, std::string_view what) {
    return Error(path.string() + ": " + std::string(what) + ": " + std::strerror(errno));
}

const char* fileKind(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

Error notRegular(const fs::path& path, mode_t mode) {
    return Error(path.string() + ": is " + fileKind(mode) + ", not a regular file");
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd)
        : fd_(fd) {}
    FileDescriptor(FileDescriptor&& other) noexcept
        : fd_(std::exchange(other.fd_, -1)) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    int get() const { return fd_; }
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_;
};

struct OpenedFile {
    FileDescriptor fd;
    int64_t size = 0;
};

/// Opens a regular file for reading. The type is checked with stat() before
/// the open (opening a FIFO or a tape has effects) and again on the
/// descriptor (the path may have changed in between).
Expected<OpenedFile> openRegular(const fs::path& path) {
    SC_RETURN_IF_ERROR(checkRegularFile(path));
    FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0)
        return systemError(path, "cannot open");
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return systemError(path, "cannot stat");
    if (!S_ISREG(info.st_mode))
        return notRegular(path, info.st_mode);
    return OpenedFile{std::move(fd), static_cast<int64_t>(info.st_size)};
}

Status writeAll(int fd, const fs::path& shown, const char* data, size_t left) {
    while (left > 0) {
        ssize_t written = ::write(fd, data, left);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return systemError(shown, "cannot write");
        }
        data += written;
        left -= static_cast<size_t>(written);
    }
    return Status::success();
}

/// A fresh name next to \p target for its temporary file.
fs::path temporaryName(const fs::path& target) {
    static std::atomic<uint64_t> counter{0};
    fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    return dir / ("." + target.filename().string() + "." + std::to_string(::getpid()) + "." +
                  std::to_string(counter++) + ".tmp");
}

} // namespace

Status checkRegularFile(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return systemError(path, "cannot open");
    if (!S_ISREG(info.st_mode))
        return notRegular(path, info.st_mode);
    return Status::success();
}

Status checkOutputPath(const fs::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
        if (!S_ISREG(info.st_mode))
            return Error(notRegular(path, info.st_mode).message() + "; refusing to replace it");
        return Status::success();
    }
    if (errno != ENOENT)
        return systemError(path, "cannot write");
    fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return Error(path.string() + ": cannot create: the directory " + dir.string() +
                     " does not exist");
    return Status::success();
}

Expected<std::shared_ptr<const MappedFile>> MappedFile::open(const fs::path& path) {
    SC_ASSIGN_OR_RETURN(OpenedFile file, openRegular(path));
    auto size = static_cast<size_t>(file.size);
    if (size == 0)
        return std::shared_ptr<const MappedFile>(new MappedFile(path, nullptr, 0));
    void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd.get(), 0);
    if (data == MAP_FAILED)
        return systemError(path, "cannot map");
    return std::shared_ptr<const MappedFile>(
        new MappedFile(path, static_cast<const std::byte*>(data), size));
}

MappedFile::~MappedFile() {
    if (data_ != nullptr)
        ::munmap(const_cast<std::byte*>(data_), size_);
}

Expected<std::shared_ptr<const MappedFile>> mapShared(const fs::path& path) {
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<const MappedFile>> cache;
    std::error_code ec;
    std::string key = fs::weakly_canonical(path, ec).string();
    if (ec)
        key = path.string();
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) {
        if (auto mapped = it->second.lock())
            return mapped;
    }
    auto mapped = MappedFile::open(path);
    if (mapped.ok())
        cache[key] = *mapped;
    return mapped;
}

Expected<std::string> readFile(const fs::path& path, int64_t maxBytes) {
    if (maxBytes < 0)
        maxBytes = memoryCap() / 4;
    SC_ASSIGN_OR_RETURN(OpenedFile file, openRegular(path));
    if (file.size > maxBytes)
        return Error(path.string() + ": " + formatBytes(file.size) + " is more than the " +
                     formatBytes(maxBytes) +
                     " a file read into memory may have (set STAGECRAFT_MAX_MEMORY to allow more)");
    std::string text(static_cast<size_t>(file.size), '\0');
    size_t done = 0;
    while (done < text.size()) {
        ssize_t got = ::read(file.fd.get(), text.data() + done, text.size() - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return systemError(path, "cannot read");
        if (got == 0)
            break;
        done += static_cast<size_t>(got);
    }
    text.resize(done);
    return text;
}

Expected<AtomicFile> AtomicFile::create(const fs::path& path) {
    fs::path target = path;
    struct stat info {};
    bool exists = ::stat(path.c_str(), &info) == 0;
    if (!exists && errno != ENOENT)
        return systemError(path, "cannot write");
    if (exists && !S_ISREG(info.st_mode))
        return Error(notRegular(path, info.st_mode).message() + "; refusing to replace it");
    std::error_code ec;
    if (exists && fs::is_symlink(path, ec)) {
        target = fs::canonical(path, ec);
        if (ec)
            return Error(path.string() + ": cannot resolve the symbolic link: " + ec.message());
    }
    for (int attempt = 0; attempt < 100; ++attempt) {
        fs::path temp = temporaryName(target);
        int fd =
            ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0600 : 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return systemError(path, "cannot create a temporary file next to it");
        AtomicFile file(path, target, temp, fd);
        // An existing file keeps its permissions and, when we may, its owner.
        if (exists && (::fchmod(fd, info.st_mode & 07777) != 0 ||
                       (::geteuid() == 0 && ::fchown(fd, info.st_uid, info.st_gid) != 0)))
            return systemError(path, "cannot keep the file's mode");
        return file;
    }
    return Error(path.string() + ": cannot create a temporary file next to it");
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : shown_(std::move(other.shown_))
    , target_(std::move(other.target_))
    , temp_(std::move(other.temp_))
    , fd_(std::exchange(other.fd_, -1)) {}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) {
        ::close(fd_);
        ::unlink(temp_.c_str());
    }
}

Status AtomicFile::write(std::string_view bytes) {
    return writeAll(fd_, shown_, bytes.data(), bytes.size());
}

Status AtomicFile::truncate(int64_t bytes) {
    if (::ftruncate(fd_, bytes) != 0)
        return systemError(shown_, "cannot write");
    return Status::success();
}

Status AtomicFile::commit() {
    FileDescriptor fd(std::exchange(fd_, -1));
    if (::fsync(fd.get()) != 0 || ::close(fd.release()) != 0) {
        Error error = systemError(shown_, "cannot flush");
        ::unlink(temp_.c_str());
        return error;
    }
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
        Error error = systemError(shown_, "cannot replace");
        ::unlink(temp_.c_str());
        return error;
    }
    return Status::success();
}

Status writeFileAtomic(const fs::path& path, std::string_view contents) {
    SC_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    SC_RETURN_IF_ERROR(file.write(contents));
    return file.commit();
}

Expected<bool> createFileExclusive(const fs::path& path, std::string_view contents) {
    fs::path temp = temporaryName(path);
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return systemError(path, "cannot create a temporary file next to it");
    bool written = true;
    for (std::string_view rest = contents; !rest.empty() && written;) {
        ssize_t n = ::write(fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR)
            continue;
        written = n > 0;
        if (written)
            rest.remove_prefix(static_cast<size_t>(n));
    }
    written = written && ::fsync(fd) == 0;
    ::close(fd);
    if (!written) {
        Error error = systemError(path, "cannot write");
        ::unlink(temp.c_str());
        return error;
    }
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) {
        int reason = errno;
        ::unlink(temp.c_str());
        if (reason == EEXIST)
            return false;
        errno = reason;
        return systemError(path, "cannot write");
    }
    return true;
}

} // namespace stagecraft
