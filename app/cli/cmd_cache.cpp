// stagecraft cache: what Stagecraft keeps in the user's cache directory —
// compiled kernels (objects/, bounded: least recently used removed first
// beyond $STAGECRAFT_CACHE_MAX) and the zoo models written for zoo:NAME
// (zoo/) — and, with --clear, removes them. Other files there (a fetched
// test model, say) are not Stagecraft's and are left alone.

#include "cli/args.h"
#include "cli/commands.h"
#include "codegen/object_cache.h"
#include "support/private_dir.h"
#include "support/strings.h"

#include <optional>
#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft cache: ";

ArgParser makeParser() {
    ArgParser parser("stagecraft cache [--info | --clear]",
                     "Shows what Stagecraft keeps in the user's cache directory\n"
                     "($STAGECRAFT_CACHE_DIR, else $XDG_CACHE_HOME/stagecraft, else\n"
                     "~/.cache/stagecraft): compiled kernels (objects/; at most\n"
                     "$STAGECRAFT_CACHE_MAX bytes, e.g. 512M or 2G, 1 GiB by default, the least\n"
                     "recently used removed first) and the zoo models written for zoo:NAME\n"
                     "(zoo/). --clear removes both; nothing else there is touched.");
    parser.addSwitch("info", "show the directory and what it holds (the default)");
    parser.addSwitch("clear", "remove the compiled kernels and the zoo models");
    return parser;
}

/// The subdirectory \p name of \p root when it exists (nothing is created).
Expected<std::optional<PrivateDir>> existingSub(const PrivateDir& root, const std::string& name) {
    SC_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, root.list());
    for (const DirEntry& e : entries)
        if (e.directory && e.name == name) {
            SC_ASSIGN_OR_RETURN(PrivateDir sub, root.sub(name));
            return std::optional<PrivateDir>(std::move(sub));
        }
    return std::optional<PrivateDir>();
}

struct Held {
    int64_t files = 0;
    int64_t diskBytes = 0;
};

/// The zoo's files (each model is an .onnx, its .weights and a checksum).
Expected<Held> zooFiles(const PrivateDir& zoo, bool remove) {
    SC_ASSIGN_OR_RETURN(std::vector<DirEntry> entries, zoo.list());
    Held held;
    for (const DirEntry& e : entries) {
        if (e.directory)
            continue;
        if (remove)
            SC_RETURN_IF_ERROR(zoo.remove(e.name));
        ++held.files;
        held.diskBytes += e.diskBytes;
    }
    return held;
}

Status report(const PrivateDir& root, bool clear, std::ostream& out) {
    out << "cache    " << root.path().string() << "\n";
    SC_ASSIGN_OR_RETURN(std::optional<PrivateDir> objects, existingSub(root, "objects"));
    codegen::CacheUse kernels;
    if (objects) {
        SC_ASSIGN_OR_RETURN(kernels, clear ? codegen::pruneObjectCache(*objects, 0)
                                           : codegen::objectCacheUse(*objects));
    }
    out << "objects  " << kernels.entries << " compiled kernel parts, "
        << formatBytes(kernels.bytes) << (clear ? " removed" : "") << " (at most "
        << formatBytes(codegen::objectCacheMaxBytes()) << ", $STAGECRAFT_CACHE_MAX)\n";
    SC_ASSIGN_OR_RETURN(std::optional<PrivateDir> zoo, existingSub(root, "zoo"));
    Held models;
    if (zoo) {
        SC_ASSIGN_OR_RETURN(models, zooFiles(*zoo, clear));
    }
    out << "zoo      " << models.files << " files, " << formatBytes(models.diskBytes) << " on disk"
        << (clear ? " removed" : "") << "\n";
    return Status::success();
}

} // namespace

int runCache(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see --help)\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    if (parser.has("info") && parser.has("clear")) {
        err << kName << "--info and --clear exclude each other\n";
        return kExitBadUsage;
    }
    Expected<std::optional<PrivateDir>> root = PrivateDir::openExisting(StateKind::Cache);
    if (!root.ok()) {
        err << kName << root.error().message() << "\n";
        return kExitBadInput;
    }
    if (!*root) {
        out << "cache    none yet (nothing has been cached)\n";
        return kExitOk;
    }
    if (Status status = report(**root, parser.has("clear"), out); !status.ok()) {
        err << kName << status.error().message() << "\n";
        return kExitBadInput;
    }
    return kExitOk;
}

} // namespace stagecraft::cli
