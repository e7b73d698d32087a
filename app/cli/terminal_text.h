#pragma once
/// \file
/// Standard output and error of the CLI with control characters escaped: a
/// name read from a model (an op, a tensor, a file) may hold ESC sequences
/// that would clear the screen or move the cursor. Newlines and tabs pass;
/// every other C0 control byte becomes "\xNN". JSON output is unchanged (it
/// never holds a raw control byte).

#include <iosfwd>
#include <memory>
#include <streambuf>

namespace stagecraft::cli {

/// A stream buffer that forwards to \p target with control bytes escaped.
class EscapingBuffer : public std::streambuf {
public:
    explicit EscapingBuffer(std::streambuf* target)
        : target_(target) {}

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize count) override;
    int sync() override;

private:
    bool put(char c);
    std::streambuf* target_;
};

/// Installs EscapingBuffers on std::cout and std::cerr for as long as the
/// returned guard lives.
class TerminalGuard {
public:
    TerminalGuard();
    ~TerminalGuard();
    TerminalGuard(const TerminalGuard&) = delete;
    TerminalGuard& operator=(const TerminalGuard&) = delete;

private:
    std::unique_ptr<EscapingBuffer> out_;
    std::unique_ptr<EscapingBuffer> err_;
    std::streambuf* savedOut_;
    std::streambuf* savedErr_;
};

} // namespace stagecraft::cli
