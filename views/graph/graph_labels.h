#pragma once
// The text of the graph view's nodes and clusters, and the size a block of
// label lines needs. Sizes use a fixed estimate per character, not font
// metrics, so a layout request is the same on every machine; text that
// changes without the graph changing (a group's split and footprint) gets
// room reserved for its longest form, so a new split needs no new layout.

#include "common/pipeline_result.h"
#include "graph/name_scopes.h"

#include <QSizeF>
#include <QString>
#include <QStringList>

#include <set>
#include <vector>

namespace stagecraft::views::graphview {

/// Points per character and per line of label text (9 px sans, in scene points).
inline constexpr double kCharWidth = 6.0;
inline constexpr double kLineHeight = 12.0;
/// Longest op name or shape shown before eliding the middle.
inline constexpr int kMaxLabelChars = 30;

/// "a", "b", …: the group's letter, as in the schedule's instance labels.
QString groupName(partition::GroupId group);
/// "dim 1 × 4", or "unsplit" when the group runs as one instance.
QString splitText(const schedule::Group& group);
/// The largest instance footprint of \p group; empty when the strategy sizes
/// none (tvm).
QString footprintText(const schedule::Schedule& schedule, partition::GroupId group);
QString opCountText(size_t ops);

/// Op name, op type, output shapes.
QStringList opLines(const ir::Graph& graph, ir::OpId op);
/// Tensor name and shape, for a graph input or output.
QStringList terminalLines(const ir::Graph& graph, ir::TensorId tensor);
/// Group name, op count, split, footprint: a collapsed group.
QStringList groupNodeLines(const PipelineResult& result, partition::GroupId group);
/// A folded name scope: its name, "61 ops", "group c" or "groups c–f".
QStringList scopeLines(const NameScope& scope, const std::set<partition::GroupId>& groups);
/// "a · 4 ops" and "dim 0 × 8 · 131.07 kB": the label of an expanded group.
QStringList clusterLines(const PipelineResult& result, partition::GroupId group);

/// Tooltips: the unelided name, type and shapes of an op; the tensors an
/// edge carries with their shapes and sizes.
QString opToolTip(const ir::Graph& graph, ir::OpId op, partition::GroupId group);
QString edgeToolTip(const ir::Graph& graph, const std::vector<ir::TensorId>& tensors);

/// \p text shortened to \p maxChars when longer. A hierarchical name
/// ("encoder.layer.11.attention.self.query/MatMul") keeps its first
/// numbered part and as much of its end as fits
/// ("…layer.11…self.query/MatMul"), so siblings stay apart; other text
/// loses its middle.
QString elided(const QString& text, int maxChars = kMaxLabelChars);

/// The box \p lines need with padding; \p reservedChars widens it for text
/// that may grow later.
QSizeF textBlockSize(const QStringList& lines, int reservedChars = 0);
/// Room reserved for a collapsed group's lines and for a cluster label.
QSizeF groupNodeSize(const PipelineResult& result, partition::GroupId group);
QSizeF clusterLabelSize(const PipelineResult& result, partition::GroupId group);

} // namespace stagecraft::views::graphview
