// References shared by the brute-force cases.

#include "read_cases.h"

namespace stagecraft::test {

using ir::Shape;

/// numpy broadcasting of an input of shape \p in onto the output.
Reference broadcastRef(Shape in) {
    return [in](const Coord& out, const Read& read) {
        size_t lead = out.size() - in.size();
        Coord c(in.size());
        for (size_t j = 0; j < in.size(); ++j)
            c[j] = in[j] == 1 ? 0 : out[lead + j];
        read(c);
    };
}

/// A reshape: output element k is input element k in row-major order.
Reference sameFlatRef(Shape in, Shape out) {
    return [in, out](const Coord& o, const Read& read) {
        read(unflatten(flatIndex(o, out), in));
    };
}

/// Reads input coordinate \p pick(out).
Reference pickRef(std::function<Coord(const Coord&)> pick) {
    return [pick](const Coord& out, const Read& read) {
        read(pick(out));
    };
}

Reference scatterRef(std::shared_ptr<const std::map<int64_t, std::vector<Coord>>> table,
                     Shape out) {
    return [table, out](const Coord& o, const Read& read) {
        auto it = table->find(flatIndex(o, out));
        if (it != table->end())
            for (const Coord& c : it->second)
                read(c);
    };
}

} // namespace stagecraft::test
