#pragma once
/// \file
/// Errors as values. A user-facing failure (bad file, bad field, infeasible
/// request) travels as an Error inside Expected<T> or Status up to the front
/// end, which prints its one-line message. Messages start lower-case, have no
/// trailing period and name the file, node or field they are about.
/// Broken internal invariants are not Errors: they are SC_ASSERT failures.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace stagecraft {

/// A user-facing error: one line that names what is wrong.
class Error {
public:
    explicit Error(std::string message)
        : message_(std::move(message)) {}

    const std::string& message() const { return message_; }

    /// \returns this error with "<context>: " put in front, e.g. a file name.
    Error withContext(std::string_view context) const {
        return Error(std::string(context) + ": " + message_);
    }

private:
    std::string message_;
};

/// Either a value or an Error. Must be checked before the value is used.
template <class T>
class [[nodiscard]] Expected {
public:
    Expected(T value)
        : state_(std::in_place_index<0>, std::move(value)) {}
    Expected(Error error)
        : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(state_); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::get<0>(std::move(state_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<1>(state_); }

private:
    std::variant<T, Error> state_;
};

/// Success or an Error.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error)
        : error_(std::move(error))
        , failed_(true) {}

    static Status success() { return {}; }

    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return error_; }

private:
    Error error_{std::string()};
    bool failed_ = false;
};

[[noreturn]] inline void assertionFailed(const char* condition, const char* message,
                                         const char* file, int line) {
    std::fprintf(stderr, "internal error: %s (%s) at %s:%d\n", message, condition, file, line);
    std::abort();
}

} // namespace stagecraft

/// Checks an internal invariant; a failure is a bug, never a user error.
#define SC_ASSERT(cond, message)                                                                   \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ::stagecraft::assertionFailed(#cond, message, __FILE__, __LINE__);                     \
    } while (false)

/// Returns the error of a failed Status or Expected from the enclosing function.
#define SC_RETURN_IF_ERROR(expr)                                                                   \
    do {                                                                                           \
        if (auto&& sc_status_ = (expr); !sc_status_.ok())                                          \
            return sc_status_.error();                                                             \
    } while (false)

#define SC_CONCAT_INNER(a, b) a##b
#define SC_CONCAT(a, b) SC_CONCAT_INNER(a, b)

/// `SC_ASSIGN_OR_RETURN(auto x, f());` declares x from a successful Expected or
/// returns its error from the enclosing function.
#define SC_ASSIGN_OR_RETURN(lhs, expr)                                                             \
    SC_ASSIGN_OR_RETURN_IMPL(SC_CONCAT(sc_expected_, __LINE__), lhs, expr)
#define SC_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                                                   \
    auto tmp = (expr);                                                                             \
    if (!tmp.ok())                                                                                 \
        return tmp.error();                                                                        \
    lhs = std::move(tmp).value()
