#include "cli/args.h"

#include <algorithm>

namespace stagecraft::cli {

ArgParser::ArgParser(std::string usage, std::string description)
    : usage_(std::move(usage))
    , description_(std::move(description)) {
    addSwitch("help", "show this help and exit");
}

void ArgParser::addOption(std::string name, std::string valueName, std::string help) {
    order_.push_back(name);
    specs_[std::move(name)] = Spec{std::move(valueName), std::move(help), true, false};
}

void ArgParser::addRepeatedOption(std::string name, std::string valueName, std::string help) {
    order_.push_back(name);
    specs_[std::move(name)] = Spec{std::move(valueName), std::move(help), true, true};
}

void ArgParser::addSwitch(std::string name, std::string help) {
    order_.push_back(name);
    specs_[std::move(name)] = Spec{{}, std::move(help), false, false};
}

void ArgParser::addPositional(std::string name, std::string help, bool required) {
    positionalSpecs_.push_back({std::move(name), std::move(help), required});
}

bool ArgParser::takeOption(const std::string& arg, const std::vector<std::string>& args,
                           size_t& i) {
    std::string name = arg.substr(2);
    std::optional<std::string> inlineValue;
    if (auto eq = name.find('='); eq != std::string::npos) {
        inlineValue = name.substr(eq + 1);
        name = name.substr(0, eq);
    }
    auto spec = specs_.find(name);
    if (spec == specs_.end()) {
        error_ = "unknown option --" + name;
        return false;
    }
    if (!spec->second.takesValue) {
        if (inlineValue) {
            error_ = "option --" + name + " takes no value";
            return false;
        }
        if (name == "help")
            help_ = true;
        values_[name].push_back("");
        return true;
    }
    std::string value;
    if (inlineValue) {
        value = *inlineValue;
    } else if (i + 1 < args.size()) {
        value = args[++i];
    } else {
        error_ = "option --" + name + " needs a value (" + spec->second.valueName + ")";
        return false;
    }
    auto& slot = values_[name];
    if (!spec->second.repeated && !slot.empty()) {
        error_ = "option --" + name + " is given twice";
        return false;
    }
    slot.push_back(std::move(value));
    return true;
}

bool ArgParser::parse(const std::vector<std::string>& args) {
    size_t nextPositional = 0;
    bool onlyPositionals = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (!onlyPositionals && arg == "--") {
            onlyPositionals = true;
        } else if (!onlyPositionals && arg.size() > 2 && arg.rfind("--", 0) == 0) {
            if (!takeOption(arg, args, i))
                return false;
        } else if (!onlyPositionals && arg == "-h") {
            help_ = true;
        } else if (!onlyPositionals && arg.size() > 1 && arg[0] == '-') {
            error_ = "unknown option " + arg;
            return false;
        } else if (nextPositional < positionalSpecs_.size()) {
            positionals_[positionalSpecs_[nextPositional++].name] = arg;
        } else {
            error_ = "unexpected argument '" + arg + "'";
            return false;
        }
    }
    if (help_)
        return true;
    for (size_t i = nextPositional; i < positionalSpecs_.size(); ++i)
        if (positionalSpecs_[i].required) {
            error_ = "missing " + positionalSpecs_[i].name;
            return false;
        }
    return true;
}

std::string ArgParser::helpText() const {
    std::string text = "usage: " + usage_ + "\n\n" + description_ + "\n";
    if (!positionalSpecs_.empty()) {
        text += "\narguments:\n";
        for (const auto& p : positionalSpecs_)
            text += "  " + p.name + std::string(p.name.size() < 22 ? 22 - p.name.size() : 1, ' ') +
                    p.help + "\n";
    }
    text += "\noptions:\n";
    for (const std::string& name : order_) {
        const Spec& spec = specs_.at(name);
        std::string left = "--" + name + (spec.takesValue ? " " + spec.valueName : "");
        text += "  " + left + std::string(left.size() < 22 ? 22 - left.size() : 1, ' ') +
                spec.help + (spec.repeated ? " (repeatable)" : "") + "\n";
    }
    return text;
}

bool ArgParser::has(const std::string& name) const {
    return values_.count(name) > 0;
}

std::optional<std::string> ArgParser::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::string ArgParser::value(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

std::vector<std::string> ArgParser::values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::optional<std::string> ArgParser::positional(const std::string& name) const {
    auto it = positionals_.find(name);
    if (it == positionals_.end())
        return std::nullopt;
    return it->second;
}

} // namespace stagecraft::cli
