#pragma once
// How the inspector writes schedule facts: shapes, bytes, splits, bindings,
// instance and group names. One place, so the tree, the tables, the combos
// and the undo descriptions read alike.

#include "common/pipeline_result.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace stagecraft::views::inspector {

QString toQString(std::string_view text);
/// "8x16x16x16", "scalar".
QString shapeText(const ir::Shape& shape);
/// "16 KiB": sizes in memory in binary units, as buffers are given
/// (common/byte_text.h).
QString bytesText(int64_t bytes);
/// "[8x16x16x16] float32".
QString tensorTypeText(const ir::Tensor& tensor);
/// "dim 0 × 8", or "unsplit" for no split or factor 1.
QString splitText(const std::optional<partition::SplitCandidate>& split);
/// "[1,4]": the binding without trailing 1s, as Fig. 9 prints it.
QString bindingText(const schedule::Binding& binding);
/// "[1,8]: 8 cores, output dim 1 over 8": the binding with what it means
/// (§3.4: cores per dim of the instance's output).
QString bindingGloss(const schedule::Binding& binding);
/// "a", "b", … .
QString groupLabel(schedule::GroupId group);
/// "a3 (group a, #3)".
QString instanceText(const schedule::Schedule& schedule, schedule::InstanceId instance);
QString yesNo(bool value);

} // namespace stagecraft::views::inspector
