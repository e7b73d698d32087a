#include "cli/terminal_text.h"

#include <iostream>

namespace stagecraft::cli {

bool EscapingBuffer::put(char c) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 || c == '\n' || c == '\t')
        return target_->sputc(c) != traits_type::eof();
    static const char* const hex = "0123456789abcdef";
    const char escaped[4] = {'\\', 'x', hex[byte >> 4], hex[byte & 15]};
    return target_->sputn(escaped, 4) == 4;
}

EscapingBuffer::int_type EscapingBuffer::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    return put(traits_type::to_char_type(c)) ? c : traits_type::eof();
}

std::streamsize EscapingBuffer::xsputn(const char* text, std::streamsize count) {
    for (std::streamsize i = 0; i < count; ++i)
        if (!put(text[i]))
            return i;
    return count;
}

int EscapingBuffer::sync() {
    return target_->pubsync();
}

TerminalGuard::TerminalGuard()
    : out_(std::make_unique<EscapingBuffer>(std::cout.rdbuf()))
    , err_(std::make_unique<EscapingBuffer>(std::cerr.rdbuf()))
    , savedOut_(std::cout.rdbuf(out_.get()))
    , savedErr_(std::cerr.rdbuf(err_.get())) {}

TerminalGuard::~TerminalGuard() {
    std::cout.flush();
    std::cerr.flush();
    std::cout.rdbuf(savedOut_);
    std::cerr.rdbuf(savedErr_);
}

} // namespace stagecraft::cli
