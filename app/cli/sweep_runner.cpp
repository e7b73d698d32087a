#include "cli/sweep_runner.h"

#include "cli/sweep_point.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <unistd.h>

namespace stagecraft::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::string clockText(double seconds) {
    auto s = static_cast<int64_t>(seconds + 0.5);
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                      static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
    else
        std::snprintf(text, sizeof text, "%lld:%02lld", static_cast<long long>(s / 60),
                      static_cast<long long>(s % 60));
    return text;
}

/// "[#####.....]" for \p percent, on a terminal.
std::string bar(int64_t percent) {
    constexpr int64_t kWidth = 24;
    int64_t filled = percent * kWidth / 100;
    return "[" + std::string(static_cast<size_t>(filled), '#') +
           std::string(static_cast<size_t>(kWidth - filled), '.') + "]";
}

/// Whether stderr is a terminal that takes the progress bar's carriage
/// return and erase-line escape: not a file or pipe, and not TERM=dumb
/// (Emacs shells, some CI logs), which get a line every few seconds instead.
bool redrawableTerminal() {
    const char* term = std::getenv("TERM");
    return ::isatty(STDERR_FILENO) == 1 && term != nullptr && *term != '\0' &&
           std::string_view(term) != "dumb";
}

/// The progress line, printed by whichever worker finishes a point.
class Progress {
public:
    Progress(std::ostream& err, int64_t total)
        : err_(err)
        , total_(total)
        , tty_(redrawableTerminal())
        , start_(Clock::now())
        , last_(start_) {}

    void pointDone(bool failed) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++done_;
        failed_ += failed ? 1 : 0;
        Clock::time_point now = Clock::now();
        double sinceLast = std::chrono::duration<double>(now - last_).count();
        if (done_ < total_ && sinceLast < (tty_ ? 0.1 : 5.0))
            return;
        last_ = now;
        print(std::chrono::duration<double>(now - start_).count());
    }

private:
    void print(double elapsed) {
        int64_t percent = total_ == 0 ? 100 : done_ * 100 / total_;
        std::string line = "stagecraft sweep: " + std::to_string(done_) + "/" +
                           std::to_string(total_) + " points (" + std::to_string(percent) +
                           " %), " + std::to_string(failed_) + " failed, " + clockText(elapsed) +
                           " elapsed";
        if (done_ < total_ && done_ > 0)
            line += ", eta " + clockText(elapsed / static_cast<double>(done_) *
                                         static_cast<double>(total_ - done_));
        if (!tty_) {
            err_ << line << "\n";
            err_.flush();
            return;
        }
        // Straight to the terminal: the CLI's stderr escapes control bytes,
        // and this line is ours (no names read from a model).
        err_.flush();
        std::string text =
            "\r" + bar(percent) + " " + line + "\033[K" + (done_ < total_ ? "" : "\n");
        [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
    }

    std::ostream& err_;
    int64_t total_;
    bool tty_;
    Clock::time_point start_;
    Clock::time_point last_;
    std::mutex mutex_;
    int64_t done_ = 0;
    int64_t failed_ = 0;
};

/// \p todo in the order workers take it: strategy by strategy. The points
/// of one model, architecture, precision, batch and level share the level
/// `auto` picks (computed once, by the first to ask); handed out side by
/// side, the second worker would wait for the first's choice.
std::vector<const sweep::SweepPoint*> dispatchOrder(const sweep::SweepSpec& spec,
                                                    std::vector<const sweep::SweepPoint*> todo) {
    auto rank = [&spec](const sweep::SweepPoint* p) {
        return std::find(spec.strategies.begin(), spec.strategies.end(), p->strategy) -
               spec.strategies.begin();
    };
    std::stable_sort(
        todo.begin(), todo.end(),
        [&](const sweep::SweepPoint* a, const sweep::SweepPoint* b) { return rank(a) < rank(b); });
    return todo;
}

} // namespace

Status runSweepPoints(const sweep::SweepSpec& spec, const arch::Arch& base,
                      const std::vector<const sweep::SweepPoint*>& points, int jobs,
                      sweep::RecordAppender& appender, std::ostream& err) {
    std::vector<const sweep::SweepPoint*> todo = dispatchOrder(spec, points);
    std::shared_ptr<PointCache> cache = makePointCache();
    Progress progress(err, static_cast<int64_t>(todo.size()));
    std::atomic<size_t> next{0};
    std::mutex writeMutex;
    std::optional<Error> writeError;
    auto work = [&] {
        for (size_t i = next++; i < todo.size(); i = next++) {
            sweep::PointResult result = evaluatePoint(spec, base, *todo[i], *cache);
            std::string line = sweep::recordLine(spec, *todo[i], result);
            {
                std::lock_guard<std::mutex> lock(writeMutex);
                if (writeError)
                    return;
                if (Status written = appender.append(line); !written.ok()) {
                    writeError = written.error();
                    return;
                }
            }
            progress.pointDone(!result.error.empty());
        }
    };
    size_t threads = std::min<size_t>(static_cast<size_t>(std::max(jobs, 1)), todo.size());
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; ++t)
        workers.emplace_back(work);
    work();
    for (std::thread& worker : workers)
        worker.join();
    if (writeError)
        return *writeError;
    return Status::success();
}

} // namespace stagecraft::cli
