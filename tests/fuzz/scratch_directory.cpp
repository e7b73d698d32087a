// The per-process scratch directory of the harnesses (fuzz_support.h).

#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace stagecraft::fuzz {

namespace {

std::filesystem::path scratchBase() {
    if (const char* dir = std::getenv("STAGECRAFT_FUZZ_TMP"); dir != nullptr && *dir != '\0')
        return dir;
    std::error_code ec;
    if (std::filesystem::is_directory("/dev/shm", ec))
        return "/dev/shm";
    return std::filesystem::temp_directory_path();
}

/// Made by mkdtemp, removed with everything in it when the process exits.
struct ScratchDirectory {
    std::filesystem::path path;

    ScratchDirectory() {
        std::string pattern = (scratchBase() / "stagecraft-fuzz-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            std::perror("fuzz: cannot make a scratch directory");
            std::abort();
        }
        path = pattern;
    }
    ~ScratchDirectory() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
};

} // namespace

const std::filesystem::path& scratchDirectory() {
    static const ScratchDirectory directory;
    return directory.path;
}

} // namespace stagecraft::fuzz
