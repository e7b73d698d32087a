#pragma once
// The HTML sections of the report (cli/report_html.h) that are tables and
// static charts: the model summary, the strategies compared and their
// energy. Each returns escaped markup.

#include "cli/report_html.h"

#include <string>

namespace stagecraft::cli {

std::string summarySection(const ReportInput& input);
std::string compareSection(const ReportInput& input);
std::string energySection(const ReportInput& input);

/// \p value with printf \p format ("%.3g"...).
std::string formatted(const char* format, double value);

} // namespace stagecraft::cli
