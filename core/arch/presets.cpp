// Presets: the embedded resources/arch files (parsed and validated on each
// load, so a broken preset is an error, never a crash) and host-cpu.

#include "arch/presets.h"

#include "arch/arch_json.h"
#include "arch/host_cpu.h"
#include "arch/preset_data.h"
#include "support/strings.h"

#include <filesystem>
#include <system_error>

namespace stagecraft::arch {

std::vector<std::string> presetNames() {
    std::vector<std::string> names;
    for (const detail::EmbeddedPreset& preset : detail::embeddedPresets())
        names.emplace_back(preset.name);
    names.emplace_back(kHostCpuPreset);
    return names;
}

Expected<Arch> loadPreset(std::string_view name) {
    if (name == kHostCpuPreset)
        return hostCpuPreset();
    for (const detail::EmbeddedPreset& preset : detail::embeddedPresets())
        if (preset.name == name) {
            std::string_view text(reinterpret_cast<const char*>(preset.data), preset.size);
            return parseArch(text, "preset " + std::string(name));
        }
    return Error("unknown preset " + quote(name) + " (presets: " + join(presetNames(), ", ") + ")");
}

Expected<Arch> resolveArch(std::string_view nameOrPath) {
    std::vector<std::string> names = presetNames();
    for (const std::string& name : names)
        if (name == nameOrPath)
            return loadPreset(name);
    std::filesystem::path path(nameOrPath);
    std::error_code ec;
    if (!nameOrPath.empty() && std::filesystem::exists(path, ec))
        return loadArchFile(path);
    std::string presets = "presets: " + join(names, ", ");
    if (nameOrPath.find('/') != nameOrPath.npos || nameOrPath.ends_with(".json"))
        return Error(std::string(nameOrPath) + ": no such file (and not a preset; " + presets +
                     ")");
    return Error("no preset or file named " + quote(nameOrPath) + " (" + presets + ")");
}

} // namespace stagecraft::arch
