#pragma once
/// \file
/// Internal: the preset files of resources/arch, embedded at build time by
/// embed_presets.cmake into a generated preset_data.cpp.

#include <cstddef>
#include <span>
#include <string_view>

namespace stagecraft::arch::detail {

struct EmbeddedPreset {
    std::string_view name;
    const unsigned char* data;
    size_t size;
};

/// The embedded presets in the order CMakeLists.txt lists them.
std::span<const EmbeddedPreset> embeddedPresets();

} // namespace stagecraft::arch::detail
