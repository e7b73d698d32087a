// Fuzzes the schedule document reader, io::readScheduleJson
// (docs/schedule-format.md), against the graph of the zoo's fig2-blocks
// (imported once; the seeds are its schedules): any bytes give a document
// or a one-line error, never a crash, hang or exception. An accepted
// document is written, read back and written again to the same bytes, the
// promise of io/schedule_json.h.

#include "fuzz_harness.h"
#include "fuzz_support.h"
#include "io/schedule_json.h"

using namespace stagecraft;

namespace {

const ir::Graph& graph() {
    static const ir::Graph graph = fuzz::scheduleGraph();
    return graph;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto read = io::readScheduleJson(fuzz::asText(data, size), graph(), "fuzz.json");
    if (!read.ok())
        return 0;
    std::string written = io::writeScheduleJson(graph(), read->schedule, read->info);
    auto again = io::readScheduleJson(written, graph(), "again.json");
    fuzz::check(again.ok(), "readScheduleJson reads what writeScheduleJson writes");
    fuzz::check(io::writeScheduleJson(graph(), again->schedule, again->info) == written,
                "write(read(write(s))) == write(s)");
    return 0;
}
