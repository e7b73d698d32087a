// Rendering DOT to SVG with Graphviz's dot in a child process: the DOT text
// is written to its stdin from a thread while its stdout is read, so neither
// pipe can fill and block the other; stderr (Graphviz's warnings) is dropped.

#include "cli/report_graph.h"

#include "io/dot_export.h"

#include <cerrno>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace stagecraft::cli {

namespace {

constexpr size_t kDotExpandedOps = 2000;

/// A pipe's two ends, closed when it goes.
struct Pipe {
    int fd[2] = {-1, -1};
    ~Pipe() {
        for (int f : fd)
            if (f >= 0)
                ::close(f);
    }
    void close(int end) {
        if (fd[end] >= 0)
            ::close(fd[end]);
        fd[end] = -1;
    }
};

void writeAll(int fd, std::string_view text) {
    while (!text.empty()) {
        ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text.remove_prefix(static_cast<size_t>(n));
    }
}

std::string readAll(int fd) {
    std::string text;
    char buffer[65536];
    for (;;) {
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return text;
        text.append(buffer, static_cast<size_t>(n));
    }
}

Expected<std::string> runDot(std::string_view dot) {
    Pipe in, out;
    if (::pipe2(in.fd, O_CLOEXEC) != 0 || ::pipe2(out.fd, O_CLOEXEC) != 0)
        return Error("cannot run Graphviz's dot: no pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in.fd[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    char* args[] = {const_cast<char*>("dot"), const_cast<char*>("-Tsvg"), nullptr};
    pid_t pid = 0;
    int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, args, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return Error("Graphviz's dot was not found (install the graphviz package)");
    in.close(0);
    out.close(1);
    // A dot that dies early must not kill this process with SIGPIPE.
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &previous);
    std::thread writer([&] {
        writeAll(in.fd[1], dot);
        in.close(1);
    });
    std::string svg = readAll(out.fd[0]);
    writer.join();
    ::sigaction(SIGPIPE, &previous, nullptr);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || svg.find("<svg") == std::string::npos)
        return Error("Graphviz's dot could not lay the graph out");
    return svg;
}

/// \p text without every span from \p open to \p close (included).
std::string without(const std::string& text, std::string_view open, std::string_view close) {
    std::string out;
    out.reserve(text.size());
    size_t at = 0;
    for (size_t found; (found = text.find(open, at)) != std::string::npos;) {
        size_t end = text.find(close, found + open.size());
        if (end == std::string::npos)
            break;
        out.append(text, at, found - at);
        at = end + close.size();
    }
    out.append(text, at);
    return out;
}

/// The `<svg>` element of dot's output, for HTML: no prolog, doctype,
/// comments or namespace declarations (HTML puts `<svg>` in its namespace).
std::string inlineSvg(std::string svg) {
    svg.erase(0, svg.find("<svg"));
    svg = without(svg, "<!--", "-->\n");
    svg = without(svg, " xmlns=\"", "\"");
    return without(svg, " xmlns:xlink=\"", "\"");
}

} // namespace

Expected<std::string> renderDotSvg(std::string_view dot) {
    SC_ASSIGN_OR_RETURN(std::string svg, runDot(dot));
    return inlineSvg(std::move(svg));
}

Expected<std::string> groupedGraphSvg(const ir::Graph& graph, const partition::Partition& partition,
                                      const std::string& title) {
    io::DotOptions options;
    options.title = title;
    options.collapsed = graph.opCount() > kDotExpandedOps;
    return renderDotSvg(io::groupedGraphDot(graph, partition, options));
}

} // namespace stagecraft::cli
