#pragma once
/// \file
/// The session file of stagecraft-studio (`.stagecraft`, docs/session-format.md):
/// `{"format": "stagecraft-session", "version": 1, "model": {"path": …,
/// "sha256": …, "seq": …}, "inputs": {…}, "dims": {…}, "arch": {the full
/// architecture description}, "strategy": …, "level": …, "order": …,
/// "batch": {"total": …, "per_cluster": …}, "overrides": {…}}`.
/// Written deterministically; read back with the JSON path of every error.

#include "arch/arch.h"
#include "ir/shape.h"
#include "schedule/clusters.h"
#include "schedule/pipeline.h"
#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace stagecraft::io {

inline constexpr std::string_view kSessionFormat = "stagecraft-session";
inline constexpr int kSessionVersion = 1;

/// Everything needed to rebuild the same schedule of the same model.
struct Session {
    /// The model file, absolute.
    std::string modelPath;
    /// SHA-256 of the model file when the session was saved, lowercase hex.
    std::string modelSha256;
    /// Whole input shapes bound by the user (onnxio::ImportOptions::inputShapes).
    std::map<std::string, ir::Shape> inputShapes;
    /// Symbolic dims bound by the user (onnxio::ImportOptions::dims).
    std::map<std::string, int64_t> dims;
    /// Input values bound by the user, as given (onnxio::ImportOptions::values).
    std::map<std::string, std::string> values;
    /// The architecture, as edited (written with arch::toJson).
    arch::Arch arch;
    /// A name of sim::strategies().
    std::string strategy = "graphturbo";
    /// LB, GB or auto (nullopt).
    schedule::LevelChoice level;
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    /// The batch asked for: the total over the clusters and the samples per
    /// cluster (driver/batch_plan.h). Written only when set.
    schedule::BatchChoice batch;
    /// The sequence length a zoo model is written at (0: its default).
    int64_t seq = 0;
    /// The floating-point type the model runs at (ir/precision.h); nullopt:
    /// as the model stores it. Written only when set.
    std::optional<ir::DType> precision;
    schedule::Overrides overrides;

    bool operator==(const Session&) const = default;
};

/// The strategy names a session may name: those of sim::strategies(), in its
/// order. Kept here because io does not link the simulator; a test checks that
/// the two lists agree.
std::span<const std::string_view> sessionStrategyNames();

/// \p session as JSON: keys in a fixed order, 2-space indent, a trailing
/// newline; the same session gives the same bytes.
std::string writeSessionJson(const Session& session);

/// Reads a session file. Errors are one line, "<source>: <field path>:
/// <reason>"; the architecture is validated as arch::parseArch does, the
/// overrides as io::readOverridesJson does, the strategy must be known.
Expected<Session> readSessionJson(std::string_view text, std::string_view source);

/// Writes \p session to \p path atomically (a temporary file, then rename).
Status saveSession(const std::filesystem::path& path, const Session& session);

/// Reads the session file at \p path (errors name the path).
Expected<Session> loadSession(const std::filesystem::path& path);

} // namespace stagecraft::io
