#pragma once
/// \file
/// How a riscv64 kernel uses the vector unit (docs/codegen.md, "Vector use
/// on the DSA"): a static reading of the assembly LLVM prints for a kernel
/// part, loop by innermost loop. No LLVM: the input is the text, with the
/// loop comments LLVM's verbose assembly carries ("This Inner Loop Header",
/// "This Loop Header", "in Loop: Header=... Depth=...") and its
/// "Spill"/"Reload" notes.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::codegen {

/// What a vector instruction runs at, as the last vsetvli before it (in
/// layout order) set it.
struct VectorShape {
    /// Element bits (SEW).
    int sew = 32;
    /// LMUL in eighths: mf8 1, mf4 2, mf2 4, m1 8 ... m8 64.
    int lmulEighths = 8;
    /// The vector length asked for: kVlMax (AVL zero: every lane), a
    /// register (kVlRegister: strip-mined, at most every lane) or a constant
    /// (vsetivli), which fills fewer lanes on a wider machine.
    int64_t vl = kVlMax;

    static constexpr int64_t kVlMax = 0;
    static constexpr int64_t kVlRegister = -1;

    /// Elements a vector register group holds at \p vlen bits.
    int64_t capacity(int vlen) const;
    /// Elements the instruction works on at \p vlen: a constant vl, at most
    /// the capacity; else the capacity.
    int64_t lanes(int vlen) const;
    /// The lanes the instruction occupies at \p vlen: those of its register
    /// group, and of a whole register at a fractional LMUL (mf2 at VLEN 256
    /// holds 4 f32 of a register's 8: it fills half the lanes).
    int64_t unitLanes(int vlen) const;
    /// As vsetvli spells it: "e32,m2,vl=max" (or vl=reg, vl=8).
    std::string text() const;

    auto operator<=>(const VectorShape&) const = default;
};

/// One loop of a function of a kernel part, with the instructions of the
/// blocks directly in it (those of loops nested in it are theirs).
struct CodeLoop {
    /// The function: "sc_k000_a1.layer3" or a chunk "sc_k000_a1.layer3.ops1".
    std::string function;
    /// The kernel's layer the function belongs to, from its name; -1 for
    /// the kernel function itself.
    int layer = -1;
    /// The loop header's label, e.g. ".LBB3_8".
    std::string header;
    /// 1 for an outermost loop; whether no loop is nested in it.
    int depth = 0;
    bool innermost = false;
    int64_t instructions = 0;
    /// Vector instructions other than vsetvli/vsetivli.
    int64_t vectorInstructions = 0;
    /// vsetvli/vsetivli inside the loop.
    int64_t vectorConfigs = 0;
    /// fmadd/fmsub/fnmadd/fnmsub (.h, .s, .d): one multiply-add each.
    int64_t scalarFmas = 0;
    /// The element bits of the scalar multiply-adds (the widest seen).
    int scalarFmaBits = 0;
    /// Vector register stores and loads LLVM marks as a spill or reload.
    int64_t vectorSpills = 0;
    int64_t vectorReloads = 0;
    /// Vector instructions that honour vl (whole-register moves, loads and
    /// stores do not), by the shape they run at; and of them the vector
    /// multiply-adds (vfmacc, vfmadd, vmacc, ... and widening forms).
    std::map<VectorShape, int64_t> vectorOps;
    std::map<VectorShape, int64_t> vectorFmas;

    int64_t vectorFmaCount() const;
    bool multiplyAdds() const { return scalarFmas > 0 || vectorFmaCount() > 0; }
    /// The share of the lanes filled at \p vlen: over the loop's
    /// multiply-adds if it has any (a scalar one fills 1 of vlen/bits lanes),
    /// else over its vector instructions; -1 with neither.
    double laneFill(int vlen) const;
    /// Multiply-adds per vector multiply-add instruction at \p vlen; 0
    /// without any.
    double multiplyAddsPerVectorFma(int vlen) const;
};

/// The loops of \p assembly (RISC-V, as LLVM prints it verbosely), in the
/// layout order of their first block; each instruction is counted in the
/// innermost loop that holds it. Vector state is followed in layout order
/// through each function, as RISCVInsertVSETVLI leaves it consistent on
/// every path.
std::vector<CodeLoop> readLoops(std::string_view assembly);

} // namespace stagecraft::codegen
