// Index expressions of the loop-nest model: evaluation, interval ranges,
// dependence queries and printing (docs/op-semantics.md). indexRange() gives
// the footprint of a split (GraphTurbo §3.1's halo and §4.1's tile sizes),
// dimsDependingOn() is Algorithm 1's match_dim.
//
// Evaluation uses floor division and a non-negative modulo, so a negative
// sum (a Conv window reaching into the padding) stays negative and reads
// padding. indexRange() is interval arithmetic over the loop box: each term
// is monotone in its loop, so a sum of plain terms gives its exact bounds;
// a term or expression modulo m gives [0, m-1] whenever its range wraps.
// Plain terms on the same loop are merged first so that `i - i` is exact.

#include "ops/loop_nest.h"

#include "support/expected.h"

#include <algorithm>
#include <optional>

namespace stagecraft::ops {

namespace {

int64_t floorDiv(int64_t value, int64_t divisor) {
    SC_ASSERT(divisor > 0, "index divisors are positive");
    int64_t quotient = value / divisor;
    if (value % divisor != 0 && value < 0)
        --quotient;
    return quotient;
}

int64_t floorMod(int64_t value, int64_t modulus) {
    SC_ASSERT(modulus > 0, "index moduli are positive");
    int64_t rest = value % modulus;
    return rest < 0 ? rest + modulus : rest;
}

Interval divide(Interval range, int64_t divisor) {
    return {floorDiv(range.lo, divisor), floorDiv(range.hi, divisor)};
}

/// Exact when the range does not wrap around a multiple of \p modulus.
Interval modulo(Interval range, int64_t modulus) {
    if (range.hi - range.lo + 1 >= modulus)
        return {0, modulus - 1};
    int64_t lo = floorMod(range.lo, modulus), hi = floorMod(range.hi, modulus);
    if (lo > hi)
        return {0, modulus - 1};
    return {lo, hi};
}

Interval scale(Interval range, int64_t factor) {
    if (factor >= 0)
        return {range.lo * factor, range.hi * factor};
    return {range.hi * factor, range.lo * factor};
}

Interval termRange(const IndexTerm& term, Interval loopRange) {
    Interval range = divide(loopRange, term.div);
    if (term.mod != 0)
        range = modulo(range, term.mod);
    return scale(range, term.coeff);
}

bool isPlain(const IndexTerm& term) {
    return term.div == 1 && term.mod == 0;
}

/// The summed coefficient of the plain terms on the loop of plain term \p i,
/// so that opposite signs cancel exactly; nullopt when an earlier plain term
/// has the same loop (it carries the sum). Index expressions have a handful
/// of terms, so the quadratic scan beats any map.
std::optional<int64_t> mergedPlainCoeff(std::span<const IndexTerm> terms, size_t i) {
    int64_t coeff = 0;
    for (size_t j = 0; j < terms.size(); ++j) {
        if (!isPlain(terms[j]) || terms[j].loop != terms[i].loop)
            continue;
        if (j < i)
            return std::nullopt;
        coeff += terms[j].coeff;
    }
    return coeff;
}

std::string loopName(int loop, std::span<const LoopDim> loops) {
    if (loop >= 0 && static_cast<size_t>(loop) < loops.size())
        return loops[static_cast<size_t>(loop)].name;
    return "l" + std::to_string(loop);
}

/// A term without its sign: "oh", "2*oh", "co/16*8", "(co % 4)*8".
std::string formatMagnitude(const IndexTerm& term, std::span<const LoopDim> loops) {
    std::string base = loopName(term.loop, loops);
    int64_t magnitude = term.coeff < 0 ? -term.coeff : term.coeff;
    if (isPlain(term))
        return magnitude == 1 ? base : std::to_string(magnitude) + "*" + base;
    if (term.div != 1)
        base += "/" + std::to_string(term.div);
    if (term.mod != 0) {
        base += " % " + std::to_string(term.mod);
        if (magnitude != 1)
            base = "(" + base + ")";
    }
    return magnitude == 1 ? base : base + "*" + std::to_string(magnitude);
}

std::string formatSum(const IndexExpr& expr, std::span<const LoopDim> loops) {
    std::string out;
    for (const IndexTerm& term : expr.terms) {
        if (term.coeff == 0)
            continue;
        if (out.empty())
            out = term.coeff < 0 ? "-" : "";
        else
            out += term.coeff < 0 ? " - " : " + ";
        out += formatMagnitude(term, loops);
    }
    if (out.empty())
        return std::to_string(expr.offset);
    if (expr.offset > 0)
        out += " + " + std::to_string(expr.offset);
    else if (expr.offset < 0)
        out += " - " + std::to_string(-expr.offset);
    return out;
}

} // namespace

const AccessMap* LoopNest::accessFor(int operand) const {
    for (const AccessMap& map : inputs)
        if (map.operand == operand)
            return &map;
    return nullptr;
}

int64_t evaluateIndex(const IndexExpr& expr, std::span<const int64_t> loopValues) {
    if (expr.full)
        return 0;
    int64_t sum = expr.offset;
    for (const IndexTerm& term : expr.terms) {
        SC_ASSERT(term.loop >= 0 && static_cast<size_t>(term.loop) < loopValues.size(),
                  "index term refers to a loop outside the nest");
        int64_t value = floorDiv(loopValues[static_cast<size_t>(term.loop)], term.div);
        if (term.mod != 0)
            value = floorMod(value, term.mod);
        sum += term.coeff * value;
    }
    sum = floorDiv(sum, expr.div);
    return expr.mod != 0 ? floorMod(sum, expr.mod) : sum;
}

Interval indexRange(const IndexExpr& expr, std::span<const Interval> loopRanges, int64_t extent) {
    if (extent <= 0)
        return {};
    if (std::any_of(loopRanges.begin(), loopRanges.end(), [](Interval r) { return r.empty(); }))
        return {};
    if (expr.full)
        return {0, extent - 1};
    Interval sum{expr.offset, expr.offset};
    for (size_t i = 0; i < expr.terms.size(); ++i) {
        const IndexTerm& term = expr.terms[i];
        SC_ASSERT(term.loop >= 0 && static_cast<size_t>(term.loop) < loopRanges.size(),
                  "index term refers to a loop outside the nest");
        Interval range;
        if (isPlain(term)) {
            std::optional<int64_t> coeff = mergedPlainCoeff(expr.terms, i);
            if (!coeff)
                continue; // merged into an earlier term on the same loop
            range = scale(loopRanges[static_cast<size_t>(term.loop)], *coeff);
        } else {
            range = termRange(term, loopRanges[static_cast<size_t>(term.loop)]);
        }
        sum = {sum.lo + range.lo, sum.hi + range.hi};
    }
    sum = divide(sum, expr.div);
    if (expr.mod != 0)
        sum = modulo(sum, expr.mod);
    Interval clipped{std::max<int64_t>(sum.lo, 0), std::min(sum.hi, extent - 1)};
    return clipped.empty() ? Interval{} : clipped;
}

bool alwaysInside(const IndexExpr& expr, std::span<const LoopDim> loops, int64_t extent) {
    if (expr.full || expr.div != 1 || expr.mod != 0)
        return false;
    int64_t lo = expr.offset, hi = expr.offset;
    for (const IndexTerm& t : expr.terms) {
        if (t.div != 1 || t.mod != 0)
            return false;
        const int64_t last = t.coeff * (loops[static_cast<size_t>(t.loop)].extent - 1);
        lo += std::min<int64_t>(0, last);
        hi += std::max<int64_t>(0, last);
    }
    return lo >= 0 && hi < extent;
}

std::vector<int> dimsDependingOn(const AccessMap& map, int loop) {
    std::vector<int> dims;
    for (size_t dim = 0; dim < map.dims.size(); ++dim) {
        const IndexExpr& expr = map.dims[dim];
        if (expr.full)
            continue;
        bool depends = std::any_of(expr.terms.begin(), expr.terms.end(), [&](const IndexTerm& t) {
            return t.loop == loop && t.coeff != 0 && t.mod != 1;
        });
        if (depends)
            dims.push_back(static_cast<int>(dim));
    }
    return dims;
}

std::string formatIndex(const IndexExpr& expr, std::span<const LoopDim> loops) {
    if (expr.full)
        return "all";
    std::string sum = formatSum(expr, loops);
    if (expr.div == 1 && expr.mod == 0)
        return sum;
    bool compound = sum.find(' ') != std::string::npos || sum.front() == '-';
    std::string out = compound ? "(" + sum + ")" : sum;
    if (expr.div != 1)
        out += "/" + std::to_string(expr.div);
    if (expr.mod != 0)
        out += " % " + std::to_string(expr.mod);
    return out;
}

} // namespace stagecraft::ops
