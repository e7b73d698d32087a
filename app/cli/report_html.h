#pragma once
// `stagecraft report` and Studio's File → Export → Report: one self-contained
// HTML page (inline CSS, JS and SVG; nothing fetched) with the model's
// summary, every strategy compared at its own best configuration, the
// chosen strategy's timeline and occupancy (drawn by inline JS from
// embedded JSON, zoomable), its roofline, the energy of every strategy and
// the grouped graph. The session that rebuilds the chosen schedule is
// embedded as JSON, so Studio opens the page as a session. Every string of
// the model is escaped; the same inputs give the same bytes.

#include "io/session_json.h"
#include "sim/compare.h"

#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::cli {

/// The id of the `<script type="application/json">` holding the session.
inline constexpr std::string_view kReportSessionId = "stagecraft-session";

struct ReportInput {
    /// The model as the user named it (a path or zoo:NAME).
    std::string model;
    const arch::Arch* arch = nullptr;
    /// The chosen strategy's run and the graph it ran on.
    const ir::Graph* graph = nullptr;
    const sim::Evaluation* chosen = nullptr;
    /// Every strategy compared, speedups filled (sim::fillSpeedups).
    std::vector<sim::Report> reports;
    /// Where the batch comes from (driver::Workload::chosenBy).
    std::string batchFrom;
    /// The session that rebuilds the chosen schedule.
    io::Session session;
    /// The grouped graph as an inline `<svg>` (cli/report_graph.h), or empty
    /// with \c graphNote saying why not.
    std::string graphSvg;
    std::string graphNote;
};

/// The page.
std::string writeHtmlReport(const ReportInput& input);

/// The session JSON a report embeds, or an error naming \p source when
/// \p html holds none.
Expected<std::string> reportSessionJson(std::string_view html, std::string_view source);

} // namespace stagecraft::cli
