#pragma once
// The options of stagecraft-studio as a table: one entry per flag with its
// name, value, help and how it applies to StudioOptions. parseStudioOptions
// builds the command-line parser, --help and so the man page (help2man reads
// --help) from it, and applies the entries in the table's order.

#include "studio/studio_options.h"

#include <QString>
#include <QStringList>

#include <span>

namespace stagecraft::studio {

struct StudioOptionSpec {
    QString name;
    /// The value's name in --help; empty for a switch.
    QString valueName;
    QString help;
    /// The value when not given (shown by --help); empty for none.
    QString defaultValue;
    /// What giving it means beyond its value: it fixes the zoo setup
    /// (--arch, --level) or the Table 2 batch (--batch, --per-cluster, --seq).
    bool fixesSetup = false;
    bool fixesBatch = false;
    /// Applies the values given (every one for a repeated option; the
    /// default when not given and there is one) to \p options; returns a
    /// one-line error naming the flag, or an empty string.
    QString (*apply)(const QStringList& values, StudioOptions& options) = nullptr;
};

/// Every option, in the order --help lists and the parser applies them.
std::span<const StudioOptionSpec> studioOptionTable();

} // namespace stagecraft::studio
