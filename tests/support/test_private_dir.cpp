// The user's private directories (support/private_dir.h): where each kind
// lives by the environment, and none without it (never a shared folder);
// created 0700; refused when another user's, writable by others or a link;
// files read and written without following links, atomically, a create
// that never replaces.

#include "coretestsupport.h"
#include "support/private_dir.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace stagecraft;
namespace fs = std::filesystem;

namespace {

/// Sets the environment variables of a test and puts back what was there.
class Environment {
public:
    void set(const char* name, const std::string& value) {
        remember(name);
        ::setenv(name, value.c_str(), 1);
    }
    void unset(const char* name) {
        remember(name);
        ::unsetenv(name);
    }
    ~Environment() {
        for (const auto& [name, value] : saved_)
            if (value)
                ::setenv(name.c_str(), value->c_str(), 1);
            else
                ::unsetenv(name.c_str());
    }

private:
    void remember(const char* name) {
        const char* value = std::getenv(name);
        saved_.emplace_back(name, value ? std::optional<std::string>(value) : std::nullopt);
    }
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

unsigned modeOf(const fs::path& path) {
    struct stat info {};
    ::lstat(path.c_str(), &info);
    return info.st_mode & 07777;
}

} // namespace

TEST(TestPrivateDir, eachKindLivesWhereTheEnvironmentSays) {
    test::TempDir dir;
    Environment env;
    for (const char* name : {"STAGECRAFT_CACHE_DIR", "STAGECRAFT_DATA_DIR", "STAGECRAFT_CONFIG_DIR",
                             "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"})
        env.unset(name);
    env.set("HOME", dir.path().string());
    ASSERT_EQ(privateDirPath(StateKind::Cache), dir.path() / ".cache/stagecraft");
    ASSERT_EQ(privateDirPath(StateKind::Data), dir.path() / ".local/share/stagecraft");
    ASSERT_EQ(privateDirPath(StateKind::Config), dir.path() / ".config/stagecraft");
    env.set("XDG_CACHE_HOME", dir.filePath("xdg"));
    ASSERT_EQ(privateDirPath(StateKind::Cache), dir.path() / "xdg/stagecraft");
    env.set("STAGECRAFT_CACHE_DIR", dir.filePath("own"));
    ASSERT_EQ(privateDirPath(StateKind::Cache), dir.path() / "own");
    // Nothing set: no directory at all, rather than one in a shared folder.
    env.unset("HOME");
    env.unset("XDG_DATA_HOME");
    ASSERT_EQ(privateDirPath(StateKind::Data), std::nullopt);
    auto none = PrivateDir::open(StateKind::Data);
    ASSERT_TRUE(!none.ok());
    ASSERT_NE(none.error().message().find("no private directory"), std::string::npos);
}

TEST(TestPrivateDir, createdOwnerOnlyAndCheckedOnEveryOpen) {
    test::TempDir dir;
    fs::path state = dir.path() / "home/.cache/stagecraft";
    auto made = PrivateDir::openPath(state, false);
    ASSERT_TRUE(made.ok()) << made.error().message();
    ASSERT_EQ(modeOf(dir.path() / "home"), 0700u);
    ASSERT_EQ(modeOf(state), 0700u);
    ::chmod(state.c_str(), 0775);
    auto shared = PrivateDir::openPath(state, false);
    ASSERT_TRUE(!shared.ok());
    ASSERT_EQ(shared.error().message(),
              state.string() + ": others may write to it (mode 0775); Stagecraft keeps nothing "
                               "there");
    ::chmod(state.c_str(), 0700);
    if (::geteuid() == 0) { // only root can give a folder away
        ASSERT_EQ(::chown(state.c_str(), 65534, 65534), 0);
        auto foreign = PrivateDir::openPath(state, false);
        ASSERT_TRUE(!foreign.ok());
        ASSERT_NE(foreign.error().message().find("belongs to another user (uid 65534)"),
                  std::string::npos);
        ASSERT_EQ(::chown(state.c_str(), 0, 0), 0);
    }
}

TEST(TestPrivateDir, aLinkIsFollowedOnlyWhereTheUserNamedIt) {
    test::TempDir dir;
    fs::path real = dir.path() / "real";
    ASSERT_TRUE(PrivateDir::openPath(real, false).ok());
    fs::create_symlink(real, dir.path() / "link");
    auto picked = PrivateDir::openPath(dir.path() / "link", false);
    ASSERT_TRUE(!picked.ok());
    ASSERT_NE(picked.error().message().find("is a symbolic link"), std::string::npos);
    ASSERT_TRUE(PrivateDir::openPath(dir.path() / "link", true).ok());
    auto base = PrivateDir::openPath(real, false);
    ASSERT_TRUE(base.ok());
    fs::create_symlink(dir.path(), real / "sub");
    ASSERT_TRUE(!base->sub("sub").ok()) << "a subdirectory is never reached through a link";
}

TEST(TestPrivateDir, filesAreNeverReachedThroughLinks) {
    test::TempDir dir;
    auto base = PrivateDir::openPath(dir.path() / "state", false);
    ASSERT_TRUE(base.ok());
    fs::path victim = dir.path() / "victim";
    std::ofstream(victim) << "precious";
    fs::create_symlink(victim, base->path() / "entry");
    auto read = base->read("entry", 1024);
    ASSERT_TRUE(!read.ok());
    ASSERT_NE(read.error().message().find("is a symbolic link; not followed"), std::string::npos);
    ASSERT_TRUE(base->write("entry", "new").ok());
    std::ifstream kept(victim);
    std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
    ASSERT_EQ(text, "precious");
    ASSERT_FALSE(fs::is_symlink(base->path() / "entry"));
    ASSERT_EQ(**base->read("entry", 1024), "new");
    ASSERT_EQ(modeOf(base->path() / "entry"), 0600u);
    ASSERT_EQ(*base->read("missing", 1024), std::nullopt);
    ASSERT_TRUE(!base->read("../victim", 1024).ok()) << "one component only";
}

TEST(TestPrivateDir, createNeverReplaces) {
    test::TempDir dir;
    auto base = PrivateDir::openPath(dir.path() / "state", false);
    ASSERT_TRUE(base.ok());
    ASSERT_EQ(*base->create("key", "first"), true);
    ASSERT_EQ(*base->create("key", "second"), false);
    ASSERT_EQ(**base->read("key", 1024), "first");
    ASSERT_TRUE(base->remove("key").ok());
    ASSERT_EQ(*base->read("key", 1024), std::nullopt);
    ASSERT_TRUE(base->remove("key").ok()) << "removing what is not there is no error";
}

TEST(TestPrivateDir, aLockIsHeldByOneAtATimeAndNeverThroughALink) {
    test::TempDir dir;
    auto base = PrivateDir::openPath(dir.path() / "state", false);
    ASSERT_TRUE(base.ok());
    {
        auto first = base->lock("work.lock", "another run");
        ASSERT_TRUE(first.ok()) << first.error().message();
        auto second = base->lock("work.lock", "another run");
        ASSERT_FALSE(second.ok());
        ASSERT_NE(second.error().message().find("another run holds this lock"), std::string::npos)
            << second.error().message();
    }
    ASSERT_TRUE(base->lock("work.lock", "another run").ok()) << "released with its holder";
    ASSERT_EQ(modeOf(base->path() / "work.lock"), 0600u);
    fs::path victim = dir.path() / "victim";
    std::ofstream(victim) << "precious";
    fs::create_symlink(victim, base->path() / "planted.lock");
    ASSERT_FALSE(base->lock("planted.lock", "another run").ok()) << "a link is not followed";
}
