#include "support/file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace stagecraft {

namespace {

Error systemError(const std::filesystem::path& path, std::string_view what) {
    return Error(path.string() + ": " + std::string(what) + ": " + std::strerror(errno));
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd)
        : fd_(fd) {}
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

} // namespace

Expected<std::shared_ptr<const MappedFile>> MappedFile::open(const std::filesystem::path& path) {
    FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0)
        return systemError(path, "cannot open");
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return systemError(path, "cannot stat");
    if (S_ISDIR(info.st_mode))
        return Error(path.string() + ": is a directory, not a file");
    auto size = static_cast<size_t>(info.st_size);
    if (size == 0)
        return std::shared_ptr<const MappedFile>(new MappedFile(path, nullptr, 0));
    void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (data == MAP_FAILED)
        return systemError(path, "cannot map");
    return std::shared_ptr<const MappedFile>(
        new MappedFile(path, static_cast<const std::byte*>(data), size));
}

MappedFile::~MappedFile() {
    if (data_ != nullptr)
        ::munmap(const_cast<std::byte*>(data_), size_);
}

Expected<std::shared_ptr<const MappedFile>> mapShared(const std::filesystem::path& path) {
    static std::mutex mutex;
    static std::map<std::string, std::weak_ptr<const MappedFile>> cache;
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(path, ec).string();
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

Expected<std::string> readFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Error(path.string() + ": is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return systemError(path, "cannot open");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad())
        return systemError(path, "cannot read");
    return std::move(buffer).str();
}

Status writeFileAtomic(const std::filesystem::path& path, std::string_view contents) {
    std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
    std::string pattern = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
    FileDescriptor fd(::mkstemp(pattern.data()));
    if (fd.get() < 0)
        return systemError(path, "cannot create a temporary file next to it");
    const char* data = contents.data();
    size_t left = contents.size();
    while (left > 0) {
        ssize_t written = ::write(fd.get(), data, left);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            Error error = systemError(path, "cannot write");
            ::unlink(pattern.c_str());
            return error;
        }
        data += written;
        left -= static_cast<size_t>(written);
    }
    if (::fchmod(fd.get(), 0644) != 0 || ::fsync(fd.get()) != 0 || ::close(fd.release()) != 0) {
        Error error = systemError(path, "cannot flush");
        ::unlink(pattern.c_str());
        return error;
    }
    if (::rename(pattern.c_str(), path.c_str()) != 0) {
        Error error = systemError(path, "cannot replace");
        ::unlink(pattern.c_str());
        return error;
    }
    return Status::success();
}

} // namespace stagecraft
