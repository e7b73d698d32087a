// Vector use of a riscv64 kernel part, read from the assembly LLVM prints
// (docs/codegen.md, "Vector use on the DSA"). Two passes: the first walks
// the text in layout order, following the vector configuration (vsetvli
// sets SEW, LMUL and the vector length; "vsetvli zero, zero" keeps the
// length) and noting per basic block the innermost loop LLVM's comments put
// it in and what its instructions are; the second gathers the blocks of
// every loop into its counts.

#include "codegen/vector_use.h"

#include "support/strings.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>

namespace stagecraft::codegen {

int64_t VectorShape::capacity(int vlen) const {
    return std::max<int64_t>(1, int64_t{vlen} * lmulEighths / 8 / std::max(sew, 1));
}

int64_t VectorShape::lanes(int vlen) const {
    int64_t all = capacity(vlen);
    return vl > 0 ? std::min(vl, all) : all;
}

int64_t VectorShape::unitLanes(int vlen) const {
    return std::max<int64_t>(1, int64_t{vlen} * std::max(lmulEighths, 8) / 8 / std::max(sew, 1));
}

std::string VectorShape::text() const {
    std::string lmul = lmulEighths >= 8 ? "m" + std::to_string(lmulEighths / 8)
                                        : "mf" + std::to_string(8 / std::max(lmulEighths, 1));
    std::string length = vl == kVlMax ? "max" : vl == kVlRegister ? "reg" : std::to_string(vl);
    return "e" + std::to_string(sew) + "," + lmul + ",vl=" + length;
}

int64_t CodeLoop::vectorFmaCount() const {
    int64_t count = 0;
    for (const auto& [shape, n] : vectorFmas)
        count += n;
    return count;
}

double CodeLoop::laneFill(int vlen) const {
    const auto& ops = multiplyAdds() ? vectorFmas : vectorOps;
    double used = 0;
    double room = 0;
    for (const auto& [shape, n] : ops) {
        used += static_cast<double>(shape.lanes(vlen) * n);
        room += static_cast<double>(shape.unitLanes(vlen) * n);
    }
    if (multiplyAdds() && scalarFmas > 0) {
        used += static_cast<double>(scalarFmas);
        room += static_cast<double>(scalarFmas * std::max(1, vlen / std::max(scalarFmaBits, 8)));
    }
    return room > 0 ? used / room : -1;
}

double CodeLoop::multiplyAddsPerVectorFma(int vlen) const {
    double macs = 0;
    for (const auto& [shape, n] : vectorFmas)
        macs += static_cast<double>(shape.lanes(vlen) * n);
    int64_t count = vectorFmaCount();
    return count > 0 ? macs / static_cast<double>(count) : 0;
}

namespace {

/// One instruction as the reading needs it.
struct Instruction {
    std::string mnemonic;
    VectorShape shape;
    bool spill = false;
    bool reload = false;
};

/// A basic block: its function, the loop header LLVM names for it ("" when
/// outside loops) and its instructions.
struct Block {
    std::string function;
    std::string loop;
    std::vector<Instruction> instructions;
};

/// Calls \p visit with each line of \p text.
template <typename Visit>
void forEachLine(std::string_view text, Visit&& visit) {
    while (!text.empty()) {
        size_t end = text.find('\n');
        visit(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
}

/// The integer after \p key in \p text, or -1.
int64_t numberAfter(std::string_view text, std::string_view key) {
    size_t at = text.find(key);
    if (at == std::string_view::npos)
        return -1;
    int64_t value = -1;
    std::string_view rest = text.substr(at + key.size());
    std::from_chars(rest.data(), rest.data() + rest.size(), value);
    return value;
}

/// The word after \p key in \p text ("Header=BB0_5" gives "BB0_5"), or "".
std::string wordAfter(std::string_view text, std::string_view key) {
    size_t at = text.find(key);
    if (at == std::string_view::npos)
        return {};
    std::string_view rest = text.substr(at + key.size());
    return std::string(rest.substr(0, rest.find_first_of(" \t")));
}

/// "e32" gives 32; "m2" gives 16 eighths, "mf2" 4.
bool readVtype(const std::vector<std::string>& fields, size_t from, VectorShape& shape) {
    if (fields.size() < from + 2 || fields[from].size() < 2 || fields[from][0] != 'e')
        return false;
    int64_t sew = numberAfter(fields[from], "e");
    const std::string& lmul = fields[from + 1];
    int64_t factor = numberAfter(lmul, lmul.rfind("mf", 0) == 0 ? "mf" : "m");
    if (sew <= 0 || factor <= 0 || factor > 8)
        return false;
    shape.sew = static_cast<int>(sew);
    shape.lmulEighths = static_cast<int>(lmul.rfind("mf", 0) == 0 ? 8 / factor : 8 * factor);
    return true;
}

/// The operands of an instruction line, split at commas.
std::vector<std::string> operandsOf(std::string_view code) {
    std::vector<std::string> fields;
    size_t space = code.find_first_of(" \t");
    if (space == std::string_view::npos)
        return fields;
    for (const std::string& part : split(code.substr(space + 1), ','))
        fields.emplace_back(trim(part));
    return fields;
}

/// Follows a vsetvli/vsetivli in \p code into \p shape.
void applyConfig(std::string_view mnemonic, std::string_view code, VectorShape& shape) {
    std::vector<std::string> ops = operandsOf(code);
    if (ops.size() < 4)
        return; // vsetvl with a register vtype: keep what is known
    VectorShape next = shape;
    if (!readVtype(ops, 2, next))
        return;
    if (mnemonic == "vsetivli")
        next.vl = numberAfter(ops[1], "");
    else if (ops[1] != "zero")
        next.vl = VectorShape::kVlRegister;
    else if (ops[0] != "zero")
        next.vl = VectorShape::kVlMax;
    // "vsetvli zero, zero": the length stays (the SEW/LMUL ratio does too).
    shape = next;
}

bool isVectorFma(std::string_view mnemonic) {
    static const std::set<std::string_view> names = {
        "vfmacc",  "vfnmacc", "vfmsac",   "vfnmsac", "vfmadd",   "vfnmadd", "vfmsub",
        "vfnmsub", "vfwmacc", "vfwnmacc", "vfwmsac", "vfwnmsac", "vmacc",   "vnmsac",
        "vmadd",   "vnmsub",  "vwmacc",   "vwmaccu", "vwmaccsu", "vwmaccus"};
    return names.count(mnemonic.substr(0, mnemonic.find('.'))) > 0;
}

/// Element bits of a scalar multiply-add ("fmadd.s" 32), or 0 for none.
int scalarFmaBits(std::string_view mnemonic) {
    static const std::array<std::string_view, 4> names = {"fmadd.", "fmsub.", "fnmadd.", "fnmsub."};
    for (std::string_view name : names)
        if (mnemonic.rfind(name, 0) == 0 && mnemonic.size() == name.size() + 1) {
            char kind = mnemonic.back();
            return kind == 'h' ? 16 : kind == 's' ? 32 : kind == 'd' ? 64 : 0;
        }
    return 0;
}

/// Whole-register moves, loads and stores (vmv<N>r.v, vl<N>r.v,
/// vl<N>re<EEW>.v, vs<N>r.v): they ignore vl.
bool wholeRegister(std::string_view mnemonic) {
    for (std::string_view prefix : {"vmv", "vl", "vs"})
        if (mnemonic.rfind(prefix, 0) == 0 && mnemonic.size() > prefix.size() + 1) {
            char n = mnemonic[prefix.size()];
            return (n == '1' || n == '2' || n == '4' || n == '8') &&
                   mnemonic[prefix.size() + 1] == 'r';
        }
    return false;
}

/// The kernel layer of a function name: ".layer<N>" gives N, else -1.
int layerOf(std::string_view function) {
    int64_t layer = numberAfter(function, ".layer");
    return layer >= 0 && layer < (int64_t{1} << 30) ? static_cast<int>(layer) : -1;
}

/// What LLVM's comments say of each loop header.
struct Header {
    int depth = 0;
    bool innermost = false;
};

/// The loop annotations of one comment into \p block, and headers.
void readLoopComment(std::string_view comment, const std::string& label, Block& block,
                     std::map<std::string, Header>& headers) {
    const bool inner = comment.find("This Inner Loop Header") != std::string_view::npos;
    if (inner || comment.find("This Loop Header") != std::string_view::npos) {
        block.loop = label;
        headers[label] = {static_cast<int>(numberAfter(comment, "Depth=")), inner};
    } else if (comment.find("in Loop: Header=") != std::string_view::npos) {
        block.loop = wordAfter(comment, "Header=");
    }
}

struct Reading {
    std::vector<Block> blocks;
    std::map<std::string, Header> headers;
    /// ".LBB0_8" by the header's name in LLVM's comments, "BB0_8".
    std::map<std::string, std::string> labelOf;
};

Reading readBlocks(std::string_view assembly) {
    Reading reading;
    std::string function;
    std::string label;
    VectorShape shape;
    bool annotating = false;
    forEachLine(assembly, [&](std::string_view raw) {
        std::string_view line = trim(raw);
        size_t hash = line.find('#');
        std::string_view code = trim(line.substr(0, hash));
        std::string_view comment = hash == std::string_view::npos ? "" : line.substr(hash);
        bool labelLine = !code.empty() && code.back() == ':';
        if (labelLine && code[0] != '.') { // a function begins
            function = std::string(code.substr(0, code.size() - 1));
            shape = VectorShape{};
        }
        // A block begins at a ".LBB" label, or at a "# %bb.N:" comment where
        // it needs none; other local labels (".Lpcrel_hi3") are inside one.
        const bool blockLabel = labelLine && code.rfind(".LBB", 0) == 0;
        if (blockLabel || (labelLine && code[0] != '.') || comment.rfind("# %bb.", 0) == 0) {
            label = blockLabel ? std::string(code.substr(2, code.size() - 3)) : std::string();
            if (blockLabel)
                reading.labelOf[label] = std::string(code.substr(0, code.size() - 1));
            reading.blocks.push_back({function, {}, {}});
            annotating = true;
        }
        if (annotating && !comment.empty() && !reading.blocks.empty())
            readLoopComment(comment, label, reading.blocks.back(), reading.headers);
        if (labelLine || code.empty() || code[0] == '.')
            return;
        annotating = false;
        if (reading.blocks.empty())
            reading.blocks.push_back({function, {}, {}});
        std::string mnemonic(code.substr(0, code.find_first_of(" \t")));
        if (mnemonic == "vsetvli" || mnemonic == "vsetivli")
            applyConfig(mnemonic, code, shape);
        Instruction instruction{mnemonic, shape, comment.find("Spill") != std::string_view::npos,
                                comment.find("Reload") != std::string_view::npos};
        reading.blocks.back().instructions.push_back(std::move(instruction));
    });
    return reading;
}

void count(const Instruction& instruction, CodeLoop& loop) {
    const std::string& m = instruction.mnemonic;
    ++loop.instructions;
    if (int bits = scalarFmaBits(m)) {
        ++loop.scalarFmas;
        loop.scalarFmaBits = std::max(loop.scalarFmaBits, bits);
    }
    if (m.empty() || m[0] != 'v')
        return;
    if (m == "vsetvli" || m == "vsetivli" || m == "vsetvl") {
        ++loop.vectorConfigs;
        return;
    }
    ++loop.vectorInstructions;
    loop.vectorSpills += instruction.spill ? 1 : 0;
    loop.vectorReloads += instruction.reload ? 1 : 0;
    if (wholeRegister(m))
        return;
    ++loop.vectorOps[instruction.shape];
    if (isVectorFma(m))
        ++loop.vectorFmas[instruction.shape];
}

} // namespace

std::vector<CodeLoop> readLoops(std::string_view assembly) {
    Reading reading = readBlocks(assembly);
    std::vector<CodeLoop> loops;
    std::map<std::string, size_t> indexOf;
    for (const Block& block : reading.blocks) {
        if (block.loop.empty())
            continue;
        auto [at, fresh] = indexOf.emplace(block.loop, loops.size());
        if (fresh) {
            CodeLoop loop;
            loop.function = block.function;
            loop.layer = layerOf(block.function);
            auto label = reading.labelOf.find(block.loop);
            loop.header = label != reading.labelOf.end() ? label->second : block.loop;
            auto header = reading.headers.find(block.loop);
            if (header != reading.headers.end()) {
                loop.depth = header->second.depth;
                loop.innermost = header->second.innermost;
            }
            loops.push_back(std::move(loop));
        }
        for (const Instruction& instruction : block.instructions)
            count(instruction, loops[at->second]);
    }
    return loops;
}

} // namespace stagecraft::codegen
