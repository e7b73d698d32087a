// An emission's files in the folder the user named (manifest.h). The new
// files are written into a staging folder inside it (0700, a name of our
// own, so nothing planted is followed), then switched in: the old
// manifest.json goes first, the kernel files are renamed over their names
// (a link of that name is replaced, never followed), the new manifest comes
// last. A reader therefore sees an old consistent set, a folder without a
// manifest (an emission in progress, or killed), or the new set; never a
// manifest that describes other files. What a killed emission leaves (its
// staging folder, the temporary files of older versions) is removed by the
// next one and said; files an earlier manifest recorded and this emission
// does not write are removed while they hold what was written.

#include "codegen/manifest.h"
#include "support/file.h"
#include "support/json_depth.h"
#include "support/sha256.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <map>
#include <signal.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace stagecraft::codegen {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::string_view kStagingPrefix = ".stagecraft-emit-";

Error systemError(const fs::path& path, const char* what) {
    return Error(path.string() + ": " + what + ": " + std::strerror(errno));
}

/// What an existing manifest in \p dir says this program wrote there.
struct PreviousEmission {
    /// File name → the SHA-256 it had when written (format version 2).
    std::map<std::string, std::string> files;
};

/// The folder of a model library's runtime sources.
constexpr std::string_view kRuntimeFolder = "runtime";

/// A name emit gives its kernel files: "sc_k<index>_<instance>.ll" or ".o"
/// (with ".part<N>" before the extension for a kernel's further parts), in
/// the directory itself.
bool isKernelFileName(const std::string& name) {
    fs::path path(name);
    return name.rfind("sc_k", 0) == 0 && path.filename().string() == name &&
           (path.extension() == ".ll" || path.extension() == ".o");
}

/// A name emit gives its files: a kernel file's, or one of the model
/// library's fixed names. Only such files are ever removed.
bool isEmittedFileName(const std::string& name) {
    static const char* const kLibraryNames[] = {"weights.bin",
                                                "model.h",
                                                "model.c",
                                                "example.c",
                                                "CMakeLists.txt",
                                                "Makefile",
                                                "runtime/sc_runtime.h",
                                                "runtime/sc_runtime.c",
                                                "runtime/sc_tensors.h",
                                                "runtime/sc_tensors.c",
                                                kVectorReportFile};
    return isKernelFileName(name) || std::any_of(std::begin(kLibraryNames), std::end(kLibraryNames),
                                                 [&](const char* known) { return name == known; });
}

/// Whether \p name lies in a folder of \p dir that is a link (never
/// followed to remove or write a file).
bool inLinkedFolder(const fs::path& dir, const std::string& name) {
    const size_t slash = name.find('/');
    if (slash == std::string::npos)
        return false;
    struct stat info {};
    return ::lstat((dir / name.substr(0, slash)).c_str(), &info) != 0 || !S_ISDIR(info.st_mode);
}

/// Reads \p dir/manifest.json if there is one. An unreadable file or another
/// program's manifest is an error: emit must not replace it.
Expected<PreviousEmission> readPrevious(const fs::path& dir) {
    PreviousEmission previous;
    fs::path path = dir / "manifest.json";
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec)))
        return previous;
    SC_ASSIGN_OR_RETURN(std::string text, readFile(path));
    Json doc = checkJsonDepth(text).ok() ? Json::parse(text, nullptr, false) : Json();
    if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != kManifestFormat)
        return Error(path.string() + ": not a stagecraft-kernels manifest; refusing to replace it "
                                     "(emit into an empty directory or remove the file)");
    const Json* files = doc.contains("files") && doc["files"].is_object() ? &doc["files"] : nullptr;
    if (files == nullptr)
        return previous; // version 1 recorded no hashes: nothing of it is removed
    for (const auto& [name, hash] : files->items())
        if (isEmittedFileName(name) && hash.is_string())
            previous.files[name] = hash.get<std::string>();
    return previous;
}

/// Removes the files an earlier emission wrote and this one did not, when
/// they still hold what was written; a file changed since is kept and named
/// in \p notes.
void removeStale(const fs::path& dir, const PreviousEmission& previous,
                 const std::map<std::string, std::string>& written,
                 std::vector<std::string>& notes) {
    for (const auto& [name, hash] : previous.files) {
        if (written.count(name))
            continue;
        fs::path path = dir / name;
        std::error_code ec;
        if (inLinkedFolder(dir, name) || !fs::is_regular_file(fs::symlink_status(path, ec)))
            continue;
        Expected<std::string> now = fileSha256(path);
        if (!now.ok() || *now != hash) {
            notes.push_back("kept " + path.string() +
                            ": an earlier emission wrote it, but it has changed since");
            continue;
        }
        fs::remove(path, ec);
    }
}

/// The process id a leftover of an emission names ("<prefix><pid>-<n>", or
/// ".<file>.<pid>.<n>.tmp" of older versions), or 0.
pid_t leftoverPid(const std::string& name) {
    std::string digits;
    if (name.rfind(kStagingPrefix, 0) == 0) {
        digits = name.substr(kStagingPrefix.size());
        digits = digits.substr(0, digits.find('-'));
    } else if (name.size() > 5 && name.front() == '.' && name.ends_with(".tmp")) {
        std::string inner = name.substr(0, name.size() - 4); // ".<file>.<pid>.<n>"
        size_t last = inner.rfind('.');
        size_t pid = last == std::string::npos ? std::string::npos : inner.rfind('.', last - 1);
        if (pid != std::string::npos && isKernelFileName(inner.substr(1, pid - 1)))
            digits = inner.substr(pid + 1, last - pid - 1);
    }
    if (digits.empty() || digits.size() > 9 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
        return 0;
    return static_cast<pid_t>(std::stol(digits));
}

/// Removes what emissions killed mid-way left in \p dir (their process is
/// gone), saying so in \p notes.
void removeInterrupted(const fs::path& dir, std::vector<std::string>& notes) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        std::string name = entry.path().filename().string();
        pid_t pid = leftoverPid(name);
        if (pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        std::error_code removed;
        fs::remove_all(entry.path(), removed);
        if (!removed)
            notes.push_back("removed " + entry.path().string() +
                            ": left by an emission that was interrupted");
    }
}

/// The staging folder of this emission, removed with what is left in it.
class Staging {
public:
    static Expected<Staging> create(const fs::path& dir) {
        static std::atomic<int> counter{0};
        fs::path path = dir / (std::string(kStagingPrefix) + std::to_string(::getpid()) + "-" +
                               std::to_string(counter.fetch_add(1)));
        if (::mkdir(path.c_str(), 0700) != 0)
            return systemError(path, "cannot create the staging folder");
        return Staging(path);
    }
    Staging(Staging&& other) noexcept
        : path_(std::exchange(other.path_, {})) {}
    Staging(const Staging&) = delete;
    Staging& operator=(const Staging&) = delete;
    Staging& operator=(Staging&&) = delete;
    ~Staging() {
        std::error_code ignored;
        if (!path_.empty())
            fs::remove_all(path_, ignored);
    }

    /// Writes \p name (a new file: nothing of that name can be followed),
    /// "runtime/<file>" in a folder of the staging folder's own.
    Status write(const std::string& name, std::string_view bytes) const {
        fs::path path = path_ / name;
        if (name.find('/') != std::string::npos && ::mkdir(path.parent_path().c_str(), 0700) != 0 &&
            errno != EEXIST)
            return systemError(path.parent_path(), "cannot create");
        int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0)
            return systemError(path, "cannot write");
        while (!bytes.empty()) {
            ssize_t n = ::write(fd, bytes.data(), bytes.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                Error error = systemError(path, "cannot write");
                ::close(fd);
                return error;
            }
            bytes.remove_prefix(static_cast<size_t>(n));
        }
        bool synced = ::fsync(fd) == 0;
        ::close(fd);
        return synced ? Status::success() : systemError(path, "cannot write");
    }

    /// Renames \p name over \p dir / \p name (a link there is replaced).
    /// A name in a folder goes into \p dir's real folder of that name,
    /// created if missing; a link of that name is refused, never followed.
    Status moveTo(const fs::path& dir, const std::string& name) const {
        const size_t slash = name.find('/');
        if (slash == std::string::npos) {
            if (::rename((path_ / name).c_str(), (dir / name).c_str()) != 0)
                return systemError(dir / name, "cannot write");
            return Status::success();
        }
        const fs::path folder = dir / name.substr(0, slash);
        if (::mkdir(folder.c_str(), 0777) != 0 && errno != EEXIST)
            return systemError(folder, "cannot create");
        const int into = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (into < 0)
            return systemError(folder, "is not a folder emit may write into (a link?)");
        const int from = ::open((path_ / name.substr(0, slash)).c_str(),
                                O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        const std::string file = name.substr(slash + 1);
        const bool moved = from >= 0 && ::renameat(from, file.c_str(), into, file.c_str()) == 0;
        Error error = systemError(dir / name, "cannot write");
        if (from >= 0)
            ::close(from);
        ::close(into);
        return moved ? Status::success() : Status(error);
    }

private:
    explicit Staging(fs::path path)
        : path_(std::move(path)) {}
    fs::path path_;
};

} // namespace

Status prepareKernelDirectory(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error || !fs::is_directory(dir))
        return Error(dir.string() + ": cannot create the directory" +
                     (error ? ": " + error.message() : std::string()));
    Expected<PreviousEmission> previous = readPrevious(dir);
    return previous.ok() ? Status::success() : Status(previous.error());
}

Expected<std::vector<std::string>> writeKernelFiles(const fs::path& dir, const ir::Graph& graph,
                                                    const CodePlan& plan,
                                                    const EmittedProgram& program,
                                                    const ManifestInfo& info,
                                                    const ModelLibrary* library) {
    SC_RETURN_IF_ERROR(prepareKernelDirectory(dir));
    SC_ASSIGN_OR_RETURN(PreviousEmission previous, readPrevious(dir));
    std::vector<std::string> notes;
    removeInterrupted(dir, notes);
    SC_ASSIGN_OR_RETURN(Staging staging, Staging::create(dir));
    std::map<std::string, std::string> written;
    for (const EmittedKernel& k : program.kernels)
        for (size_t p = 0; p < k.parts.size(); ++p) {
            std::string stem = k.fileStem(p);
            if (!k.parts[p].ir.empty()) {
                SC_RETURN_IF_ERROR(staging.write(stem + ".ll", k.parts[p].ir));
                written[stem + ".ll"] = "";
            }
            SC_RETURN_IF_ERROR(staging.write(stem + ".o", k.parts[p].object));
            written[stem + ".o"] = "";
        }
    if (library != nullptr) {
        SC_RETURN_IF_ERROR(staging.write("weights.bin", library->weights.bytes));
        written["weights.bin"] = "";
        for (const LibraryFile& f : library->files) {
            SC_RETURN_IF_ERROR(staging.write(f.path, f.bytes));
            written[f.path] = "";
        }
    }
    if (program.vectorReport) {
        SC_RETURN_IF_ERROR(staging.write(kVectorReportFile, program.vectorReportJson));
        written[kVectorReportFile] = "";
    }
    SC_RETURN_IF_ERROR(
        staging.write("manifest.json", writeManifestJson(graph, plan, program, info, library)));
    if (library != nullptr && inLinkedFolder(dir, std::string(kRuntimeFolder) + "/") &&
        fs::exists(fs::symlink_status(dir / kRuntimeFolder)))
        return Error((dir / kRuntimeFolder).string() +
                     ": is not a folder emit may write into (a link?)");
    // The switch: no reader may pair the old manifest with new files.
    if (::unlink((dir / "manifest.json").c_str()) != 0 && errno != ENOENT)
        return systemError(dir / "manifest.json", "cannot replace");
    for (const auto& [name, hash] : written)
        SC_RETURN_IF_ERROR(staging.moveTo(dir, name));
    SC_RETURN_IF_ERROR(staging.moveTo(dir, "manifest.json"));
    removeStale(dir, previous, written, notes);
    return notes;
}

} // namespace stagecraft::codegen
