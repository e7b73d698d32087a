#pragma once
/// \file
/// Output options are checked before a command does its work: a device, a
/// FIFO, a directory or a path in a missing directory fails at once with one
/// line, not after minutes of compiling (support/file.h).

#include "cli/args.h"
#include "support/expected.h"

#include <initializer_list>

namespace stagecraft::cli {

/// The first problem with the files the options \p names of \p parser name.
Status checkOutputOptions(const ArgParser& parser, std::initializer_list<const char*> names);

} // namespace stagecraft::cli
