#pragma once
// Shared by the inspector suites: the results they inspect (computed once per
// process) and lookups by name in results and item models.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "result_fixture.h"

#include <QAbstractItemModel>
#include <QStringList>

namespace stagecraft::test {

/// A spec by assignment (designated initializers that leave out members
/// trip -Wmissing-field-initializers in GCC 12).
ResultSpec specFor(const std::string& zoo, const std::string& arch, int64_t batch = 0);

/// fig3-chain on `teaching` (the paper's Fig. 3 on the teaching DSA).
views::ResultPtr fig3Chain();
/// ResNet-50, batch 16 per cluster, on stcp920 at LB.
views::ResultPtr resnet50();

views::Selection opNamed(const views::PipelineResult& result, const std::string& name);
views::Selection tensorNamed(const views::PipelineResult& result, const std::string& name);
views::Selection instanceLabelled(const views::PipelineResult& result, const std::string& label);
/// The group containing the op \p name.
views::Selection groupOfOp(const views::PipelineResult& result, const std::string& name);

/// The value (column 1) of the row reached by following \p path through the
/// names in column 0, or a null QVariant when a step is missing.
QVariant valueAt(const QAbstractItemModel& model, const QStringList& path);
/// The column-0 names of the children of the row at \p path.
QStringList childNames(const QAbstractItemModel& model, const QStringList& path);

} // namespace stagecraft::test
