#pragma once
// The inline style sheet and script of the HTML report (cli/report_html.h).

#include <string_view>

namespace stagecraft::cli {

/// The page's CSS.
std::string_view reportStyle();

/// The page's JS: draws the timeline and the occupancy from the JSON of
/// `#timeline-data` on canvases, zoomed by the wheel, a drag or the buttons;
/// sets `data-drawn` on `#timeline` to the tasks drawn.
std::string_view reportScript();

} // namespace stagecraft::cli
