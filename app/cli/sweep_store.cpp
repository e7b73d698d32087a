#include "cli/sweep_store.h"

#include "support/file.h"
#include "support/strings.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <utility>

namespace stagecraft::cli {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shardFiles(const SweepDir& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(dir.shards(), ec))
        return files;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir.shards(), ec)) {
        std::string name = entry.path().filename().string();
        if (name.rfind("shard-", 0) == 0 && entry.path().extension() == ".jsonl")
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

bool samePoints(const sweep::SweepSpec& a, const std::vector<sweep::SweepPoint>& pointsA,
                const sweep::SweepSpec& b) {
    if (sweep::countPoints(b) != static_cast<int64_t>(pointsA.size()))
        return false;
    std::vector<sweep::SweepPoint> pointsB = sweep::expandPoints(b);
    for (size_t i = 0; i < pointsA.size(); ++i)
        if (sweep::pointKey(a, pointsA[i]) != sweep::pointKey(b, pointsB[i]))
            return false;
    return true;
}

} // namespace

fs::path SweepDir::shard(int64_t index, int64_t count) const {
    return shards() /
           ("shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".jsonl");
}

Expected<SweepLock> lockSweepDir(const SweepDir& dir, bool exclusive) {
    std::error_code ec;
    if (fs::exists(dir.root, ec) && !fs::is_directory(dir.root, ec))
        return Error(dir.root.string() + ": exists and is not a directory");
    if (!fs::exists(dir.root, ec)) {
        fs::path parent = dir.root.parent_path().empty() ? fs::path(".") : dir.root.parent_path();
        if (!fs::is_directory(parent, ec))
            return Error(dir.root.string() + ": cannot create: the directory " + parent.string() +
                         " does not exist");
        if (!fs::create_directory(dir.root, ec) && ec)
            return Error(dir.root.string() + ": cannot create: " + ec.message());
    }
    fs::path lock = dir.root / ".lock";
    int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return Error(lock.string() + ": cannot open the sweep's lock: " + std::strerror(errno));
    SweepLock held(fd);
    if (::flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0)
        return Error(dir.root.string() +
                     (errno == EWOULDBLOCK
                          ? std::string(": another sweep is running in it; wait for it to end "
                                        "or give another --out")
                          : ": cannot lock it: " + std::string(std::strerror(errno))));
    return held;
}

SweepLock::SweepLock(SweepLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

SweepLock::~SweepLock() {
    if (fd_ >= 0)
        ::close(fd_); // releases the lock
}

Status prepareSweepDir(const SweepDir& dir, const std::string& specText,
                       const sweep::SweepSpec& spec, const std::vector<sweep::SweepPoint>& points) {
    SC_ASSIGN_OR_RETURN(bool created, createFileExclusive(dir.spec(), specText));
    if (created)
        return Status::success();
    SC_ASSIGN_OR_RETURN(std::string stored, readFile(dir.spec(), 16 << 20));
    Expected<sweep::SweepSpec> old = sweep::parseSpec(stored, dir.spec().string());
    if (!old.ok() || old->arch != spec.arch || !samePoints(spec, points, *old))
        return Error(dir.root.string() + ": holds the results of another spec (" +
                     dir.spec().string() + "); give another --out or remove it");
    return Status::success();
}

Expected<sweep::Records> gatherRecords(const SweepDir& dir, const sweep::SweepSpec& spec,
                                       const std::vector<sweep::SweepPoint>& points,
                                       int64_t& torn) {
    sweep::Records records;
    SC_RETURN_IF_ERROR(sweep::readRecords(dir.results(), spec, points, records, torn));
    for (const fs::path& file : shardFiles(dir))
        SC_RETURN_IF_ERROR(sweep::readRecords(file, spec, points, records, torn));
    return records;
}

Status writeMerged(const SweepDir& dir, const sweep::SweepSpec& spec,
                   const sweep::Records& records) {
    SC_RETURN_IF_ERROR(writeFileAtomic(dir.results(), sweep::recordsJsonl(records)));
    SC_RETURN_IF_ERROR(writeFileAtomic(dir.csv(), sweep::recordsCsv(spec, records)));
    std::error_code ec;
    for (const fs::path& file : shardFiles(dir))
        fs::remove(file, ec);
    fs::remove(dir.shards(), ec); // only when empty
    return Status::success();
}

} // namespace stagecraft::cli
