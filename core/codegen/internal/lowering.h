#pragma once
// Internal to core/codegen: the LLVM IR emission helpers and the op
// lowerings. Only codegen's .cpp files include this (it pulls in LLVM).

#include "codegen/code_plan.h"
#include "codegen/codegen.h"
#include "codegen/kernel_listing.h"
#include "ir/graph.h"
#include "ops/semantics.h"
#include "partition/slices.h"
#include "support/expected.h"

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class TargetMachine;
}

namespace stagecraft::codegen::detail {

using llvm::Value;

/// A half-open range [lo, hi) of one loop, as IR values.
struct Range {
    Value* lo = nullptr;
    Value* hi = nullptr;
};

/// How the function being emitted addresses one view of a tensor: element
/// (i0, i1, ...) is at base + sum((i_d - origin_d) * stride_d) (but the
/// blocked and grouped dims of a blocked weight).
struct Access {
    Value* base = nullptr;
    ir::DType dtype = ir::DType::Float32;
    std::vector<Value*> origin;
    std::vector<int64_t> strides;
    /// The tensor's whole shape (bounds of valid indices).
    ir::Shape shape;
    /// Stored in blocks of dim blockDim (GlobalTensor::hostBlock), or 0: that
    /// dim's index i is at (i / block) * blockStride + i % block (its stride
    /// 1, within a block).
    int64_t block = 0;
    int64_t blockStride = 0;
    size_t blockDim = 0;
    /// Elements of dim groupDim interleaved within a block
    /// (GlobalTensor::hostBlockGroup), or 1: that dim's index i is at
    /// (i / group) * stride + i % group, the blocked dim's stride (within a
    /// block) is group.
    int64_t group = 1;
    size_t groupDim = 0;
    /// Alias scope metadata of the accesses (AliasScopes), or null.
    llvm::MDNode* aliasScope = nullptr;
    llvm::MDNode* noAlias = nullptr;
};

/// The alias scopes of one layer function (alias_scopes.cpp): views that
/// cannot overlap get distinct scopes, and their accesses say so.
class AliasScopes {
public:
    AliasScopes(llvm::LLVMContext& context, const ir::Graph& graph, const LayerCode& layer,
                const std::string& name);
    /// Marks \p access, an access of \p view, with its scope and the others.
    void annotate(Access& access, const View& view) const;

private:
    /// A slot (space >= 0) or a byte range [lo, hi) of the arena or scratch.
    struct Region {
        int64_t space = 0;
        int64_t lo = 0;
        int64_t hi = 0;
    };
    Region regionOf(const View& view) const;
    static bool overlap(const Region& a, const Region& b);

    const ir::Graph* graph_;
    std::vector<int64_t> tileSizes_;
    std::vector<Region> regions_;
    /// Per region: its group of possibly overlapping regions.
    std::vector<size_t> groupOf_;
    /// Per group: its scope list and the list of the other groups' scopes.
    std::vector<llvm::MDNode*> scope_;
    std::vector<llvm::MDNode*> noAlias_;
};

/// IR building helpers shared by every op lowering.
/// Attaches the alias scopes of \p access to a load or store of it.
void markAliasing(llvm::Instruction* instruction, const Access& access);

class Emitter {
public:
    Emitter(llvm::Module& module, llvm::Function* function);

    llvm::IRBuilder<>& b() { return builder_; }
    llvm::LLVMContext& context() { return module_.getContext(); }
    llvm::Module& module() { return module_; }

    Value* i64(int64_t value);
    /// The register type of \p dtype (bool is i1; f16 and bf16 compute in
    /// f32) and its memory type (bool is i8; f16 and bf16 are i16 words).
    llvm::Type* valueType(ir::DType dtype);
    llvm::Type* memoryType(ir::DType dtype);
    /// A register value of \p dtype as the memory word stored for it.
    Value* toStorage(Value* value, ir::DType dtype);
    Value* constant(ir::DType dtype, double value);

    /// for (iv = lo; iv < hi; iv += step) body(iv); its header block named
    /// \p name in the IR.
    void forRange(Range range, const std::function<void(Value*)>& body, int64_t step = 1,
                  Value* stepValue = nullptr, const char* name = "loop");
    /// Nested loops over \p ranges, outermost first.
    void forBox(std::span<const Range> ranges,
                const std::function<void(const std::vector<Value*>&)>& body,
                const char* name = "loop");
    /// if (cond) then() ; else otherwise() when given.
    void ifThen(Value* cond, const std::function<void()>& then,
                const std::function<void()>& otherwise = {});

    /// A stack slot in the entry block (promoted to a register by the optimizer).
    Value* slot(llvm::Type* type, Value* initial);

    Value* elementPtr(const Access& access, std::span<Value* const> index);
    Value* load(const Access& access, std::span<Value* const> index);
    void store(const Access& access, std::span<Value* const> index, Value* value);
    /// The constant mask of \p lanes.
    Value* constantMask(const std::vector<bool>& lanes);
    /// A mask of \p lanes for a select of sums: on x86 with AVX-512 loaded
    /// from a hidden global of its bits, so that instruction selection keeps
    /// it in a mask register and the select merges into a masked FMA (under
    /// a constant mask the select becomes a blend, one more µop on the ports
    /// 512-bit FMAs issue on); a constant elsewhere.
    Value* laneMask(const std::vector<bool>& lanes);
    /// The lanes of \p value where \p lanes is set, else of \p otherwise: a
    /// select of laneMask(lanes) (on AVX-512 a masked FMA where \p value is
    /// one into \p otherwise); on riscv64 an llvm.vp.select of the constant
    /// mask over every lane, which instruction selection folds into a masked
    /// vfmacc (`v0.t`, the accumulator kept in place), where a constant
    /// select becomes a `vl`-limited merge after an unmasked vfmadd that
    /// overwrites its row operand (a copy per use, and spills).
    Value* keptLanes(const std::vector<bool>& lanes, Value* value, Value* otherwise);
    /// Lane i of the vector is the element \p shift + i elements after
    /// \p index's where \p read[i] is set, else poison; unset lanes are not
    /// read, so they may lie outside the tensor. For types whose memory word is
    /// their register value (f32, f64).
    Value* loadMasked(const Access& access, std::span<Value* const> index, int64_t shift,
                      const std::vector<bool>& read);
    /// As loadMasked, lane i the element \p step * i elements after the
    /// shifted one: one strided load (llvm.experimental.vp.strided.load,
    /// riscv64's vlse).
    Value* loadStrided(const Access& access, std::span<Value* const> index, int64_t shift,
                       int64_t step, const std::vector<bool>& read);
    /// Stores the first \p count lanes of \p vector (all when -1) in the
    /// elements that follow \p index; a shorter count is one store of
    /// vector length \p count (llvm.vp.store: RVV's vl on riscv64, a masked
    /// store on the host).
    void storeVector(const Access& access, std::span<Value* const> index, Value* vector,
                     int64_t count = -1);
    /// Stores the first \p count lanes of \p vector, lane i in the element
    /// \p step * i elements after \p index's: one masked scatter.
    void storeStrided(const Access& access, std::span<Value* const> index, Value* vector,
                      int64_t step, int64_t count);

    /// The index of \p expr at loop values \p loops (floor division and modulo).
    Value* evalIndex(const ops::IndexExpr& expr, std::span<Value* const> loops);
    Value* floorDiv(Value* a, int64_t b);
    Value* floorMod(Value* a, int64_t b);
    /// 0 <= index < extent.
    Value* inBounds(Value* index, int64_t extent);
    Value* clamp(Value* index, int64_t lo, int64_t hi);
    Value* min(Value* a, Value* b);
    Value* max(Value* a, Value* b);
    Value* all(std::span<Value* const> conditions);

    /// Converts a register value between element types (as ONNX Cast).
    Value* convert(Value* value, ir::DType from, ir::DType to);
    /// An f32 \p value (scalar or vector) known to be a whole number within
    /// \p to's range (rounded and saturated: a quantization) as the integer
    /// type \p to. On riscv64 by the f32 magic number 1.5 * 2^23 (an add,
    /// exact for such values, and an integer subtract) where \p to is 8 or
    /// 16 bits, not fptoui/fptosi: qemu 7.2 aborts on RVV's narrowing
    /// vfncvt.rtz.xu.f.w those lower to; else fptoui/fptosi.
    Value* wholeToInteger(Value* value, ir::DType to);
    /// Calls a libm function of one or two float arguments.
    Value* callMath(const char* f32Name, const char* f64Name, std::span<Value* const> args);
    Value* intrinsic(llvm::Intrinsic::ID id, std::span<Value* const> args);

private:
    Value* shiftedPointer(const Access& access, std::span<Value* const> index, int64_t shift);

    llvm::Module& module_;
    llvm::Function* function_;
    llvm::IRBuilder<> builder_;
};

/// One op to lower: its semantics and where its tensors are.
struct OpCall {
    const ir::Graph* graph = nullptr;
    ir::OpId id = ir::kNoOp;
    const ops::OpSemantics* semantics = nullptr;
    /// Per input slot (null Access base for an omitted input).
    std::vector<Access> inputs;
    std::vector<Access> outputs;
    /// Per output: the ranges of its dims to compute (empty output: no ranges).
    std::vector<std::vector<Range>> regions;

    /// A contraction's epilogue (lower_epilogue.cpp, epilogueLength): the
    /// elementwise ops after it in its layer, each reading the one before.
    /// The register-blocked lowering applies them to its sums before the one
    /// store and sets *epilogueApplied; otherwise they run as ops of their own.
    std::vector<OpCall> epilogue;
    bool* epilogueApplied = nullptr;
    /// The listing line an epilogue op's instructions are tied to (explained
    /// kernels, kernel_explain.h); empty otherwise.
    llvm::DebugLoc line;

    const ir::Op& op() const { return graph->op(id); }
    bool hasInput(int slot) const {
        return slot < static_cast<int>(inputs.size()) &&
               inputs[static_cast<size_t>(slot)].base != nullptr;
    }
    Error error(const std::string& what) const;
};

/// Registers the host's and RISC-V's LLVM targets (once per process).
void initializeTargets();
/// The target machine of \p info at \p optLevel (emit_program.cpp).
Expected<std::unique_ptr<llvm::TargetMachine>> makeMachine(const TargetInfo& info, int optLevel);
/// Runs the O0..O3 pipeline over \p module for \p machine.
void optimize(llvm::Module& module, llvm::TargetMachine& machine, int optLevel);
/// Records in \p module the width of \p machine's vector registers, which
/// the register-blocked lowering plans for (blocked_plan.cpp): on x86-64 512
/// with AVX-512, 256 with AVX, else 128; on riscv64 the least VLEN the
/// objects assume (+zvl<N>b), else 128; and its word dot product
/// (wordDotOf). So `--cpu` and `--vlen` decide the lanes, not the machine
/// that compiles (vector_flags.cpp).
void setVectorBits(llvm::Module& module, const llvm::TargetMachine& machine);
/// What setVectorBits recorded in \p module, or 0.
int vectorBitsOf(const llvm::Module& module);
/// The x86 instruction setVectorBits found that multiplies int16 words and
/// sums each pair of products in an int32 lane, at the recorded width: 0
/// none (riscv64, SSE), 1 vpmaddwd (AVX2, AVX-512 BW), 2 vpdpwssd, which
/// also adds the pair sums to the accumulators (AVX-512 VNNI).
int wordDotOf(const llvm::Module& module);
/// Whether the x86 machine setVectorBits saw has no fused multiply-add
/// (SSE2 alone): a multiply-add then takes a register for the product.
bool separateMultiplyOf(const llvm::Module& module);

/// The debug locations of an explained kernel (kernel_explain.cpp): every
/// instruction carries the listing line of the op, promotion or tile loop it
/// was emitted for, so the optimized IR and the assembly (its .loc
/// directives) name their source lines. Null in normal emission.
struct SourceLines {
    llvm::DIBuilder* builder = nullptr;
    llvm::DIFile* file = nullptr;
    const KernelListing* listing = nullptr;
};

/// The names of a kernel function's arguments (lower_kernel.cpp).
inline constexpr const char* kKernelArgNames[] = {"tensors", "arena", "scratch",
                                                  "core",    "cores", "sync"};
/// void (ptr tensors, ptr arena, ptr scratch, i64 core, i64 cores, ptr sync).
llvm::FunctionType* kernelType(llvm::LLVMContext& ctx);

/// A subprogram for \p f at \p line of the listing (kernel_function.cpp).
llvm::DISubprogram* describeFunction(const SourceLines& lines, llvm::Function& f, int line);

/// While it lives, the builder's current location is \p line of
/// \p subprogram (unchanged when there is none or the line is 0); then the
/// one before.
class LineScope {
public:
    LineScope(llvm::IRBuilder<>& builder, llvm::DISubprogram* subprogram, int line);
    ~LineScope();
    LineScope(const LineScope&) = delete;
    LineScope& operator=(const LineScope&) = delete;
    /// Makes \p line of \p subprogram the current location (nothing when null or 0).
    static void set(llvm::IRBuilder<>& builder, llvm::DISubprogram* subprogram, int line);

private:
    llvm::IRBuilder<>& builder_;
    llvm::DebugLoc saved_;
};

/// Layers [first, last) of a kernel, compiled as one module of their own.
struct KernelPart {
    size_t first = 0;
    size_t last = 0;
};

/// The parts of \p kernel: consecutive layers, a new part after a layer
/// that brings the part to kOpsPerPart ops unless it is the last
/// (lower_kernel.cpp); one part for most kernels. {{0, layers}}: the whole
/// kernel in one module (lowerKernelText). Decided by the kernel alone, so objects do not depend on
/// the thread count.
std::vector<KernelPart> kernelParts(const KernelCode& kernel);

/// The kernel function: calls \p layers in turn, the cores meeting at
/// sc_barrier(sync) between them (kernel_function.cpp).
void buildKernelFunction(llvm::Module& module, const KernelCode& kernel,
                         const std::vector<llvm::Function*>& layers, const SourceLines* lines);

/// Builds part \p part of \p kernel in \p module and verifies it: its layer
/// functions, and in part 0 the kernel's function, which calls the other
/// parts' layers by their symbols (<kernel>.layer<N>, external there).
/// With \p lines, every instruction gets its listing line as debug location.
Status lowerKernelPart(llvm::Module& module, const ir::Graph& graph,
                       const partition::SemanticsCache& semantics, const KernelCode& kernel,
                       const std::vector<KernelPart>& parts, size_t part,
                       const SourceLines* lines = nullptr);

/// Lowers one op (dispatch on its type). Unsupported types are an error
/// naming the op.
Status lowerOp(Emitter& e, const OpCall& call);

/// Unsigned integers and bool: compared, extended and converted unsigned.
bool isUnsigned(ir::DType t);
/// The values an integer type holds, as doubles (its ends rounded inward
/// for 64 bits).
std::pair<double, double> integerRange(ir::DType t);

// The families (each in its own file).
Status lowerPointwise(Emitter& e, const OpCall& call);
Status lowerConcat(Emitter& e, const OpCall& call);
Status lowerPad(Emitter& e, const OpCall& call);
/// Trilu: the input where j - i >= k (upper) or <= k (lower), else zero.
Status lowerTrilu(Emitter& e, const OpCall& call);
Status lowerGather(Emitter& e, const OpCall& call);
Status lowerContraction(Emitter& e, const OpCall& call);
/// Sets the strides (and block) of \p access, a view of the whole weight of
/// table \p slot with \p extents, to its layout in the host's memory where
/// \p kernel lists it as stored otherwise (stored_layout.cpp).
void applyStoredLayout(Access& access, const std::vector<int64_t>& extents,
                       const KernelCode& kernel, int64_t slot);
/// The register-blocked lowering of a Conv, MatMul or Gemm on the host
/// (lower_blocked.cpp); false, with nothing emitted, where it does not apply.
bool lowerBlockedContraction(Emitter& e, const OpCall& call);

/// Where the lanes an epilogue runs on lie in its output: consecutive
/// along the output's last loop (alongRow); or flattened, along the last
/// loop and then output loop \p outer, rows of \p width positions (the
/// last loop's whole range); else anywhere.
struct EpilogueLanes {
    bool alongRow = false;
    int outer = -1;
    int64_t width = 0;
};
/// \p sums (lanes of \p call's output; the first \p count at output loop
/// values \p loopsOf(lane), lying as \p along says) through \p call.epilogue
/// with the ops' own functions (scalarOp) on vectors, so the bits are those
/// of the ops run apart. An input that does not move with the lanes is one
/// load and a splat, one laid out as they lie a masked vector load, else a
/// load per lane.
Value* applyEpilogue(Emitter& e, const OpCall& call, Value* sums, int64_t count,
                     const EpilogueLanes& along,
                     const std::function<std::vector<Value*>(int64_t lane)>& loopsOf);
/// A pointwise run (docs/codegen.md, "Pointwise runs"): steps that run as
/// one loop, each element through every op, values passed in registers.
struct PointwiseRun {
    /// Steps in the run from the first; 0 when fewer than two run so.
    size_t length = 0;
    /// Per step: whether its output is stored (it outlives the run).
    std::vector<bool> stored;
};
/// The run of \p layer's \p steps from \p first: elementwise ops of one
/// output over the same region and shape, each reading what the run
/// computed at the same element (lower_pointwise_run.cpp).
PointwiseRun pointwiseRun(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                          const LayerCode& layer, std::span<const OpStep> steps, size_t first);
/// The ops of a run (\p calls, its steps'), in one loop over their region.
Status lowerPointwiseRun(Emitter& e, std::span<const OpCall> calls,
                         const std::vector<bool>& stored);
/// The width of output \p o's last loop when its last two loops can run as
/// one loop over the rows' elements (lower_pointwise.cpp), else 0.
int64_t joinedRowWidth(const OpCall& call, size_t o);
/// forBox over \p region, its last two loops run as one when \p width
/// (joinedRowWidth) is not 0.
void forJoinedBox(Emitter& e, const std::vector<Range>& region, int64_t width,
                  const std::function<void(const std::vector<Value*>&)>& body);
Status lowerConvTranspose(Emitter& e, const OpCall& call);
Status lowerReduction(Emitter& e, const OpCall& call);
/// A float MaxPool on x86 in vectors along its output row
/// (lower_pool_rows.cpp); false, emitting nothing, where it does not apply.
bool lowerMaxPoolAlongRow(Emitter& e, const OpCall& call);
Status lowerNormalization(Emitter& e, const OpCall& call);
Status lowerResize(Emitter& e, const OpCall& call);
Status lowerGridSample(Emitter& e, const OpCall& call);
/// CumSum, OneHot, GatherND, ScatterElements and ScatterND.
Status lowerIndexed(Emitter& e, const OpCall& call);
/// QuantizeLinear and DequantizeLinear.
Status lowerQuantize(Emitter& e, const OpCall& call);
/// round_half_even(\p value) + \p zero saturated to \p out's range, as
/// \p out (f32 scalars or vectors): the zero point is added after rounding,
/// as ONNX defines it.
Value* saturated(Emitter& e, Value* value, Value* zero, ir::DType out);
/// QuantizeLinear's value: saturated(\p x / \p scale, \p zero) (f32).
Value* quantized(Emitter& e, Value* x, Value* scale, Value* zero, ir::DType out);
/// DequantizeLinear's value: (\p x - \p zero) * \p scale, the difference
/// in int32 (scalars or vectors).
Value* dequantized(Emitter& e, Value* x, Value* zero, Value* scale);
/// ConvInteger, MatMulInteger, QLinearConv and QLinearMatMul.
Status lowerIntegerContraction(Emitter& e, const OpCall& call);

/// exp and erf of f32 values (scalar or vector) as inline IR (math_f32.cpp).
Value* expF32(Emitter& e, Value* x);
Value* erfF32(Emitter& e, Value* x);
/// exp and erf of \p x: expF32 and erfF32 for f32 on the host, libm
/// otherwise (f64, riscv64).
Value* expOf(Emitter& e, Value* x);
Value* erfOf(Emitter& e, Value* x);

/// True when \p kind is computed elementwise from its inputs by scalarOp.
bool isScalarOp(ir::OpKind kind);
/// The value of an elementwise op at one point, from its loaded inputs
/// (omitted inputs are null). \p inTypes are the inputs' element types.
/// Vector arguments (all of one length and of the output's type) give the
/// lanes' values: what an epilogue's kinds (epilogueLength) compute so.
Expected<Value*> scalarOp(Emitter& e, const OpCall& call, std::span<Value* const> args,
                          std::span<const ir::DType> inTypes, ir::DType outType);

/// The loaded value of input \p slot at output loop values \p loops, through
/// the op's access map in nest \p nest (no `full` dims).
Value* loadMapped(Emitter& e, const OpCall& call, size_t nest, int slot,
                  std::span<Value* const> loops);
/// Whether input \p slot's \p dims read inside it at loop values \p loops
/// through nest 0's access map (a dim divided exactly, as ConvTranspose's
/// (oh - kh) / stride, also tests that the division is exact).
Value* readsInside(Emitter& e, const OpCall& call, int slot, const std::vector<int>& dims,
                   std::span<Value* const> loops);

/// Element type of input \p slot / output \p index of the op.
ir::DType inputType(const OpCall& call, int slot);
ir::DType outputType(const OpCall& call, size_t index);

} // namespace stagecraft::codegen::detail
