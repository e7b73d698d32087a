// The object cache (codegen/object_cache.h, issue 18): a second emission of
// a plan reads every kernel back, byte-identical to compiling it; after a
// change to the schedule exactly the kernels whose IR changed are compiled;
// a corrupt, truncated or foreign entry is compiled again and replaced,
// never trusted; an entry planted with a valid checksum but without this
// user's secret is a miss, never linked; a link planted where an entry goes
// is replaced, never followed; a cache folder of another user or writable by
// others is not used, and the emission says why; emissions on several
// threads sharing one cache leave only intact entries.

#include "codegen/codegen.h"
#include "codegen/object_cache.h"
#include "codegen_fixture.h"
#include "coretestsupport.h"
#include "support/file.h"
#include "support/sha256.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <thread>
#include <unistd.h>

using namespace stagecraft;
using namespace stagecraft::test;
namespace fs = std::filesystem;

namespace {

class TestObjectCache : public ::testing::Test {
protected:
    void SetUp() override {
        // The cache's secret goes to a config folder of the test's own.
        ::setenv("STAGECRAFT_CONFIG_DIR", dir_.filePath("config").c_str(), 1);
        ModelFile file = writeZoo(dir_.filePath("fig3"), "fig3-chain");
        auto planned = plan(file, "teaching", "graphturbo");
        ASSERT_TRUE(planned.ok()) << planned.error().message();
        planned_ = std::move(planned).value();
        changed_ = changedSplit(file, "teaching");
        file_ = file;
    }

    Expected<codegen::EmittedProgram> emit(const Planned& p, const fs::path& cache,
                                           int threads = 0) const {
        codegen::EmitOptions options{codegen::Target::RiscV64, 2, threads, true, cache};
        return codegen::emitProgram(p.graph, *p.evaluation.schedule.semantics, p.plan, options);
    }

    static size_t hits(const codegen::EmittedProgram& program) {
        size_t n = 0;
        for (const codegen::EmittedKernel& k : program.kernels)
            n += k.cached ? 1 : 0;
        return n;
    }

    static void expectSameBytes(const codegen::EmittedProgram& a,
                                const codegen::EmittedProgram& b) {
        ASSERT_EQ(a.kernels.size(), b.kernels.size());
        for (size_t i = 0; i < a.kernels.size(); ++i) {
            ASSERT_EQ(a.kernels[i].parts.size(), b.kernels[i].parts.size());
            for (size_t p = 0; p < a.kernels[i].parts.size(); ++p) {
                const codegen::EmittedPart& x = a.kernels[i].parts[p];
                const codegen::EmittedPart& y = b.kernels[i].parts[p];
                EXPECT_TRUE(x.object == y.object) << a.kernels[i].fileStem(p);
                EXPECT_TRUE(x.ir == y.ir) << a.kernels[i].fileStem(p);
            }
            EXPECT_EQ(a.kernels[i].instructions, b.kernels[i].instructions);
        }
    }

    /// Kernel \p i's unoptimized IR, all its layers in one module (what the
    /// keys of its parts hash, less the target; fig3-chain's kernels are one
    /// part each).
    static std::string lowered(const Planned& p, size_t i) {
        auto text = codegen::lowerKernelText(p.graph, *p.evaluation.schedule.semantics, p.plan, i);
        EXPECT_TRUE(text.ok());
        return text.ok() ? *text : std::string();
    }

    /// Parts of every kernel: one cache entry each.
    static size_t partCount(const codegen::EmittedProgram& program) {
        size_t n = 0;
        for (const codegen::EmittedKernel& k : program.kernels)
            n += k.parts.size();
        return n;
    }

    /// The entry files under \p cache.
    static std::vector<fs::path> entries(const fs::path& cache) {
        std::vector<fs::path> found;
        for (const auto& e : fs::recursive_directory_iterator(cache))
            if (e.is_regular_file())
                found.push_back(e.path());
        std::sort(found.begin(), found.end());
        return found;
    }

    TempDir dir_;
    ModelFile file_;
    std::unique_ptr<Planned> planned_;
    std::optional<schedule::Overrides> changed_;
};

TEST_F(TestObjectCache, aSecondEmissionReadsEveryKernelBackByteIdentical) {
    fs::path cache = dir_.filePath("cache");
    auto plain = emit(*planned_, {});
    auto first = emit(*planned_, cache);
    auto second = emit(*planned_, cache);
    ASSERT_TRUE(plain.ok() && first.ok() && second.ok());
    EXPECT_FALSE(plain->objectCache);
    EXPECT_EQ(hits(*first), 0u);
    EXPECT_EQ(hits(*second), second->kernels.size());
    expectSameBytes(*plain, *first);
    expectSameBytes(*plain, *second);
    EXPECT_EQ(entries(cache).size(), partCount(*first));
}

TEST_F(TestObjectCache, onlyTheKernelsWhoseIrChangedAreCompiled) {
    ASSERT_TRUE(changed_.has_value()) << "fig3-chain has a group whose split can change";
    auto other = plan(file_, "teaching", "graphturbo", *changed_);
    ASSERT_TRUE(other.ok()) << other.error().message();
    fs::path cache = dir_.filePath("cache");
    ASSERT_TRUE(emit(*planned_, cache).ok());
    auto again = emit(**other, cache);
    ASSERT_TRUE(again.ok());
    std::set<std::string> before;
    for (size_t i = 0; i < planned_->plan.kernels.size(); ++i)
        before.insert(lowered(*planned_, i));
    size_t changed = 0;
    for (size_t i = 0; i < (*other)->plan.kernels.size(); ++i) {
        std::string text = lowered(**other, i);
        bool seen = before.count(text) > 0;
        changed += seen ? 0 : 1;
        EXPECT_EQ(again->kernels[i].cached, seen) << again->kernels[i].symbol;
    }
    EXPECT_GT(changed, 0u) << "the split changed some kernel";
    EXPECT_GT(hits(*again), 0u) << "the groups the split left alone are read back";
}

TEST_F(TestObjectCache, aCorruptTruncatedOrForeignEntryIsCompiledAgain) {
    fs::path cache = dir_.filePath("cache");
    auto first = emit(*planned_, cache);
    ASSERT_TRUE(first.ok());
    std::vector<fs::path> files = entries(cache);
    ASSERT_GE(files.size(), 3u);
    {
        auto read = readFile(files[0]);
        ASSERT_TRUE(read.ok());
        std::string bytes = *read;
        bytes[bytes.size() - 10] = static_cast<char>(bytes[bytes.size() - 10] ^ 0x5a);
        std::ofstream(files[0], std::ios::binary | std::ios::trunc) << bytes;
    }
    fs::resize_file(files[1], fs::file_size(files[1]) / 2);
    std::ofstream(files[2], std::ios::binary | std::ios::trunc) << "not an entry\n\nat all";
    auto second = emit(*planned_, cache);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(hits(*second), second->kernels.size() - 3);
    expectSameBytes(*first, *second);
    auto third = emit(*planned_, cache);
    ASSERT_TRUE(third.ok());
    EXPECT_EQ(hits(*third), third->kernels.size()) << "the bad entries were replaced";
}

/// An entry whose header names the right key and whose SHA-256 matches its
/// payload, but which was not sealed with this user's secret (a planted
/// object that would run in the process), is a miss: compiled again and
/// replaced.
TEST_F(TestObjectCache, aPlantedEntryIsAMissNeverLinked) {
    fs::path cache = dir_.filePath("cache");
    auto first = emit(*planned_, cache);
    ASSERT_TRUE(first.ok());
    fs::path entry = entries(cache).front();
    auto read = readFile(entry);
    ASSERT_TRUE(read.ok());
    std::string bytes = *read;
    size_t seal = bytes.find("\nhmac ");
    ASSERT_NE(seal, std::string::npos);
    std::string planted = bytes.substr(0, seal + 1) + "hmac " +
                          hmacSha256Hex("not this user's secret", bytes.substr(0, seal + 1)) +
                          bytes.substr(bytes.find("\n\n", seal));
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << planted;
    auto second = emit(*planned_, cache);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(hits(*second), second->kernels.size() - 1);
    EXPECT_EQ(*readFile(entry), bytes) << "the planted entry was replaced";
}

/// A link planted where an entry will be stored is replaced by the entry;
/// the file it pointed to is left as it was.
TEST_F(TestObjectCache, aLinkWhereAnEntryGoesIsReplacedNotFollowed) {
    fs::path cache = dir_.filePath("cache");
    auto first = emit(*planned_, cache);
    ASSERT_TRUE(first.ok());
    fs::path entry = entries(cache).front();
    fs::path victim = dir_.filePath("victim");
    std::ofstream(victim) << "precious";
    fs::remove(entry);
    fs::create_symlink(victim, entry);
    auto second = emit(*planned_, cache);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(hits(*second), second->kernels.size() - 1) << "a link is never read as an entry";
    EXPECT_EQ(*readFile(victim), std::string("precious"));
    EXPECT_FALSE(fs::is_symlink(entry));
}

/// A cache folder writable by others, or another user's, is not used: the
/// emission compiles everything, writes nothing there and says why.
TEST_F(TestObjectCache, aFolderOthersMayWriteIsNotUsed) {
    fs::path cache = dir_.filePath("cache");
    ASSERT_TRUE(emit(*planned_, cache).ok());
    fs::permissions(cache, fs::perms::all);
    auto shared = emit(*planned_, cache);
    ASSERT_TRUE(shared.ok());
    EXPECT_FALSE(shared->objectCache);
    EXPECT_EQ(hits(*shared), 0u);
    EXPECT_NE(shared->cacheNote.find("others may write to it (mode 0777)"), std::string::npos)
        << shared->cacheNote;
    fs::permissions(cache, fs::perms::owner_all, fs::perm_options::replace);
    if (::geteuid() == 0) { // only root can give a folder away
        ASSERT_EQ(::chown(cache.c_str(), 65534, 65534), 0);
        auto foreign = emit(*planned_, cache);
        ASSERT_TRUE(foreign.ok());
        EXPECT_FALSE(foreign->objectCache);
        EXPECT_NE(foreign->cacheNote.find("belongs to another user (uid 65534)"), std::string::npos)
            << foreign->cacheNote;
    }
}

TEST_F(TestObjectCache, theKeyFollowsTheIrTheTargetAndTheLevel) {
    codegen::TargetInfo rv = codegen::targetInfo(codegen::Target::RiscV64);
    codegen::TargetInfo host = codegen::targetInfo(codegen::Target::Host);
    std::string key = codegen::ObjectCache::keyOf("define void @f() {}", rv, 2);
    EXPECT_EQ(key.size(), 64u);
    EXPECT_EQ(key, codegen::ObjectCache::keyOf("define void @f() {}", rv, 2));
    EXPECT_NE(key, codegen::ObjectCache::keyOf("define void @g() {}", rv, 2));
    EXPECT_NE(key, codegen::ObjectCache::keyOf("define void @f() {}", host, 2));
    EXPECT_NE(key, codegen::ObjectCache::keyOf("define void @f() {}", rv, 3));
}

TEST_F(TestObjectCache, emissionsSharingTheCacheLeaveOnlyIntactEntries) {
    fs::path cache = dir_.filePath("cache");
    auto reference = emit(*planned_, {});
    ASSERT_TRUE(reference.ok());
    std::vector<Expected<codegen::EmittedProgram>> results(4, Error("not run"));
    std::vector<std::thread> threads;
    for (size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] { results[t] = emit(*planned_, cache, 1); });
    for (std::thread& t : threads)
        t.join();
    for (const auto& r : results) {
        ASSERT_TRUE(r.ok()) << r.error().message();
        expectSameBytes(*reference, *r);
    }
    auto reader = codegen::ObjectCache::open(cache);
    ASSERT_TRUE(reader.ok()) << reader.error().message();
    for (const fs::path& entry : entries(cache))
        EXPECT_TRUE(reader->load(entry.stem().string()).has_value()) << entry;
    auto after = emit(*planned_, cache);
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(hits(*after), after->kernels.size());
    EXPECT_EQ(entries(cache).size(), partCount(*reference)) << "no temporary file is left";
}

} // namespace

/// Beyond its cap the cache removes the least recently used entries first,
/// a hit counting as a use; emission keeps it within $STAGECRAFT_CACHE_MAX.
TEST_F(TestObjectCache, theLeastRecentlyUsedEntriesGoFirst) {
    fs::path dir = dir_.filePath("lru");
    auto cache = codegen::ObjectCache::open(dir);
    ASSERT_TRUE(cache.ok()) << cache.error().message();
    const std::string keys[] = {std::string(64, 'a'), std::string(64, 'b'), std::string(64, 'c')};
    auto base = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(cache->store(keys[i], {"ir", "object", 1}).ok());
        fs::last_write_time(cache->pathOf(keys[i]), base + std::chrono::minutes(i));
    }
    auto held = cache->use();
    ASSERT_TRUE(held.ok());
    ASSERT_EQ(held->entries, 3);
    ASSERT_TRUE(cache->load(keys[0]).has_value()); // a's use is now the latest
    auto removed = cache->prune(held->bytes - 1);
    ASSERT_TRUE(removed.ok()) << removed.error().message();
    EXPECT_EQ(removed->entries, 1);
    EXPECT_FALSE(cache->load(keys[1]).has_value()) << "b was the least recently used";
    EXPECT_TRUE(cache->load(keys[0]).has_value());
    EXPECT_TRUE(cache->load(keys[2]).has_value());
    auto none = cache->prune(0);
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->entries, 2);
    EXPECT_EQ(cache->use()->entries, 0);

    // Emission prunes to the cap: one byte keeps nothing.
    ::setenv("STAGECRAFT_CACHE_MAX", "1", 1);
    fs::path capped = dir_.filePath("capped");
    auto program = emit(*planned_, capped);
    ::unsetenv("STAGECRAFT_CACHE_MAX");
    ASSERT_TRUE(program.ok()) << program.error().message();
    EXPECT_TRUE(entries(capped).empty());
    EXPECT_EQ(codegen::objectCacheMaxBytes(), int64_t{1} << 30);
}
