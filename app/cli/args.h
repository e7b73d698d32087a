#pragma once
/// \file
/// A small command-line parser for the stagecraft subcommands: options with a
/// value (`--arch A` or `--arch=A`), repeatable options, switches, positional
/// arguments and a generated --help text.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::cli {

/// Exit codes shared by every subcommand.
enum ExitCode : int { kExitOk = 0, kExitBadInput = 1, kExitBadUsage = 2 };

class ArgParser {
public:
    /// \p usage is the synopsis line, e.g. "stagecraft inspect MODEL [options]".
    ArgParser(std::string usage, std::string description);

    void addOption(std::string name, std::string valueName, std::string help);
    void addRepeatedOption(std::string name, std::string valueName, std::string help);
    void addSwitch(std::string name, std::string help);
    void addPositional(std::string name, std::string help, bool required = true);

    /// Parses \p args (without the program and subcommand names). On failure
    /// error() says why in one line.
    bool parse(const std::vector<std::string>& args);
    const std::string& error() const { return error_; }
    bool helpRequested() const { return help_; }
    std::string helpText() const;

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string value(const std::string& name, const std::string& fallback) const;
    std::vector<std::string> values(const std::string& name) const;
    std::optional<std::string> positional(const std::string& name) const;

private:
    struct Spec {
        std::string valueName;
        std::string help;
        bool takesValue = true;
        bool repeated = false;
    };
    struct PositionalSpec {
        std::string name;
        std::string help;
        bool required = true;
    };

    bool takeOption(const std::string& arg, const std::vector<std::string>& args, size_t& i);

    std::string usage_;
    std::string description_;
    std::vector<std::string> order_;
    std::map<std::string, Spec> specs_;
    std::vector<PositionalSpec> positionalSpecs_;
    std::map<std::string, std::vector<std::string>> values_;
    std::map<std::string, std::string> positionals_;
    std::string error_;
    bool help_ = false;
};

} // namespace stagecraft::cli
