#pragma once
/// \file
/// The architecture of a sweep point: the spec's base with each axis field
/// set to the point's value. Fields are set in the stagecraft-arch JSON and
/// the result is read back, so every variant is validated as a file is.

#include "arch/arch.h"
#include "sweep/spec.h"

namespace stagecraft::sweep {

/// An error naming \p source and the axis unless every axis of \p spec names
/// a field of \p base (a JSON pointer to a number, or a short name that
/// resolves to one).
Status checkAxes(const arch::Arch& base, const SweepSpec& spec, std::string_view source);

/// \p base with the point's axis values; an error (e.g. "clusters = 0: must
/// be a positive integer") when the variant is not a valid architecture.
Expected<arch::Arch> archVariant(const arch::Arch& base, const SweepSpec& spec,
                                 const SweepPoint& point);

} // namespace stagecraft::sweep
