#pragma once
/// \file
/// The DSA description of GraphTurbo Fig. 1: `clusters` clusters, each of
/// core groups (cores alike: same local buffer, same compute units), a global
/// buffer per cluster, DDR, the data paths between the memory levels, launch
/// and synchronization overheads and an optional fallback CPU. Read by
/// SplitInfo (Algorithm 1 capacity checks), core binding and the simulator.
/// The JSON form is in arch/arch_json.h; docs/arch.md documents every field.

#include "ir/dtype.h"
#include "ir/op_category.h"
#include "ir/op_kind.h"
#include "support/expected.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::arch {

/// What a compute unit is built for (Fig. 1 "CU").
enum class UnitKind : uint8_t { Matrix, Vector, Scalar };

/// The memory levels of Fig. 1.
enum class Memory : uint8_t { DDR, GB, LB };

/// Who shares the bandwidth of a path: one pipe for the whole chip, one per
/// cluster (shared by its cores) or one per core (not shared).
enum class Sharing : uint8_t { Chip, Cluster, Core };

/// A compute unit of a core.
struct ComputeUnit {
    std::string name;
    UnitKind kind = UnitKind::Vector;
    /// Op categories the unit runs, in canonical order (ir::opCategories()).
    std::vector<ir::OpCategory> categories;
    /// Per dtype: multiply-accumulates per cycle for `complex` ops on matrix
    /// units, element operations per cycle otherwise. No entry: cannot run it.
    std::map<ir::DType, double> opsPerCycle;
    /// Per op family or category (efficiencyKeys()): the share of
    /// opsPerCycle the unit sustains on it in generated kernels, in (0, 1];
    /// an op takes its family's entry, else its category's, else 1 (the
    /// peak). Calibration measures it (docs/simulator.md, "Fidelity").
    std::map<std::string, double> efficiency;
    /// A matrix unit's array of multiply-accumulators, rows × columns: a
    /// contraction's reduction runs down the rows and its output features
    /// across the columns, so an op fills the share of the array its dims
    /// cover (docs/simulator.md, "The array's fill"). 0: not given, every
    /// op runs at the unit's rate.
    int64_t arrayRows = 0;
    int64_t arrayCols = 0;

    /// \returns true when the unit runs ops of \p category on \p dtype.
    bool supports(ir::OpCategory category, ir::DType dtype) const;
    /// The efficiency of an op of \p family and \p category (see above).
    double efficiencyFor(std::string_view family, ir::OpCategory category) const;

    bool operator==(const ComputeUnit&) const = default;
};

/// A core's scratchpad local buffer (LB).
struct LocalBuffer {
    std::string name;
    int64_t bytes = 0;
    /// Fixed part kept for promoting weights (GraphTurbo §2.2).
    int64_t weightReserveBytes = 0;

    /// \returns the bytes left for activations: bytes - weightReserveBytes.
    int64_t activationBytes() const { return bytes - weightReserveBytes; }

    bool operator==(const LocalBuffer&) const = default;
};

/// `count` identical cores of a cluster.
struct CoreGroup {
    std::string name;
    int64_t count = 0;
    /// Absent for cores without LB (Habana Goya's GEMM engine).
    std::optional<LocalBuffer> localBuffer;
    std::vector<ComputeUnit> units;

    bool operator==(const CoreGroup&) const = default;
};

/// A global buffer (GB, one per cluster) or the DDR of the chip.
struct MemorySpec {
    std::string name;
    int64_t bytes = 0;
    /// A global buffer that is a hardware cache in front of DDR (a CPU's
    /// last-level cache): DDR tensors it holds are read at its bandwidth
    /// (docs/simulator.md, "A GB that is a cache"). Never set on DDR.
    bool cache = false;

    bool operator==(const MemorySpec&) const = default;
};

/// One cluster; every cluster of the chip is alike.
struct Cluster {
    std::vector<CoreGroup> coreGroups;
    /// Absent on chips without GB (Graphcore IPU).
    std::optional<MemorySpec> globalBuffer;

    bool operator==(const Cluster&) const = default;
};

/// A data path between two memory levels. It serves both directions unless
/// the reverse direction has its own entry (see findPath).
struct Path {
    Memory from = Memory::DDR;
    Memory to = Memory::GB;
    /// 10^9 bytes per second per sharing domain.
    double bandwidthGBps = 0;
    double latencyNs = 0;
    /// DMA channels: transfers that can be in flight at once per sharing domain.
    int64_t channels = 1;
    Sharing sharedBy = Sharing::Chip;

    bool operator==(const Path&) const = default;
};

struct Overheads {
    double kernelLaunchNs = 0;
    double syncNs = 0;

    bool operator==(const Overheads&) const = default;
};

/// A CPU that runs the ops no compute unit supports.
struct FallbackCpu {
    std::string name;
    double gflops = 0;

    bool operator==(const FallbackCpu&) const = default;
};

/// Energy of one compute unit's actions (docs/arch.md, "Energy").
struct UnitEnergy {
    /// Per dtype, picojoules per operation in the unit of opsPerCycle: a
    /// multiply-accumulate of a complex op on a matrix unit, an element
    /// operation otherwise. Covers every dtype of the unit's opsPerCycle.
    std::map<ir::DType, double> pjPerOp;
    /// Leakage of one such unit (one per core), milliwatts.
    double staticMw = 0;

    bool operator==(const UnitEnergy&) const = default;
};

/// Energy of a memory level: per byte read and written, and the leakage of
/// one instance (each core's LB, each cluster's GB, the chip's DDR).
struct MemoryEnergy {
    double readPjPerByte = 0;
    double writePjPerByte = 0;
    double staticMw = 0;

    bool operator==(const MemoryEnergy&) const = default;
};

/// The wires of one path of Arch::paths (same from and to): picojoules per
/// byte carried, on top of the read at one end and the write at the other.
struct PathEnergy {
    Memory from = Memory::DDR;
    Memory to = Memory::GB;
    double pjPerByte = 0;

    bool operator==(const PathEnergy&) const = default;
};

/// The fallback CPU's energy: per floating-point operation and its leakage.
struct FallbackEnergy {
    double pjPerOp = 0;
    double staticMw = 0;

    bool operator==(const FallbackEnergy&) const = default;
};

/// Accelergy-style energy reference table of an architecture: energy of an
/// action times the count of the action (docs/arch.md, "Energy").
struct EnergyModel {
    /// Where the figures come from and how much to trust them, one line.
    std::string source;
    /// By unit name: every unit of every core group has an entry (units of
    /// the same name in two core groups share it).
    std::map<std::string, UnitEnergy> units;
    /// One entry per level the chip has (LB only when a core group has one,
    /// GB only with a global buffer).
    std::map<Memory, MemoryEnergy> memories;
    /// One entry per path of Arch::paths, in any order.
    std::vector<PathEnergy> paths;
    /// Present exactly when the arch has a fallback CPU.
    std::optional<FallbackEnergy> fallbackCpu;

    bool operator==(const EnergyModel&) const = default;
};

/// A whole DSA description.
struct Arch {
    std::string name;
    std::string description;
    double clockGhz = 0;
    int64_t clusters = 0;
    Cluster cluster;
    MemorySpec ddr;
    std::vector<Path> paths;
    Overheads overheads;
    std::optional<FallbackCpu> fallbackCpu;
    /// The op types the accelerator runs (DLA §3), sorted; unset: every op
    /// whose category a unit runs. The others run on the fallback CPU.
    std::optional<std::vector<ir::OpKind>> supportedOps;
    /// Per-action energy; unset: energy is reported as unknown, never as 0.
    std::optional<EnergyModel> energy;

    bool operator==(const Arch&) const = default;
};

/// True when \p arch's accelerator takes ops of \p kind: no supported-op
/// list, or \p kind is on it (the units' categories decide the rest).
bool supportsOpKind(const Arch& arch, ir::OpKind kind);

/// True when a unit of \p arch's first core group runs ops of \p category
/// and the accelerator takes \p kind; false: the op runs on the fallback CPU.
bool acceleratorRuns(const Arch& arch, ir::OpKind kind, ir::OpCategory category);

/// Identifies one unit: cluster.coreGroups[group].units[unit].
struct UnitRef {
    size_t group = 0;
    size_t unit = 0;

    bool operator==(const UnitRef&) const = default;
};

/// The keys a unit's efficiency may have: the category names, then the op
/// families of ops::familyNames() ("conv", "conv_transpose", "matmul",
/// "normalization", "transcendental"), kept equal to them.
std::span<const std::string_view> efficiencyKeys();

std::string_view unitKindName(UnitKind kind);
std::optional<UnitKind> parseUnitKind(std::string_view name);
std::string_view memoryName(Memory memory);
std::optional<Memory> parseMemory(std::string_view name);
std::string_view sharingName(Sharing sharing);
std::optional<Sharing> parseSharing(std::string_view name);

/// \returns true for the dtypes a unit may list: every ir::DType but
/// Undefined and String.
bool isComputeDType(ir::DType dtype);

/// Cores of one cluster, summed over its core groups.
int64_t coresPerCluster(const Arch& arch);

/// Cores of the chip: clusters x coresPerCluster.
int64_t totalCores(const Arch& arch);

/// LB bytes for activations summed over the cores of one cluster (cores
/// without LB add nothing). Algorithm 1 compares a sub-graph instance's
/// footprint with this (docs/arch.md, "Aggregate LB").
int64_t aggregateActivationBytes(const Arch& arch);

/// Operations per second of the whole chip on \p dtype: clusters x cores x
/// units x opsPerCycle x clock. Only units supporting \p category count when
/// it is given.
double peakOpsPerSecond(const Arch& arch, ir::DType dtype,
                        std::optional<ir::OpCategory> category = std::nullopt);

/// The path for moving data from \p from to \p to: the entry in that direction,
/// else the entry in the reverse direction, else nullptr.
const Path* findPath(const Arch& arch, Memory from, Memory to);

/// Units able to run \p category on \p dtype, by group then unit index.
std::vector<UnitRef> unitsFor(const Arch& arch, ir::OpCategory category, ir::DType dtype);

/// An error unless a unit runs `complex` and a unit runs `elementwise` ops
/// at \p precision (an ops_per_cycle entry): a model run at a precision
/// the accelerator has no rate for is refused, not guessed (docs/simulator.md,
/// "Precision").
Status checkPrecisionRates(const Arch& arch, ir::DType precision);

/// Checks every rule of docs/arch.md ("Validation"). The error names the
/// field by its JSON path, e.g. `cluster.core_groups[0].local_buffer.bytes`.
Status validateArch(const Arch& arch);

} // namespace stagecraft::arch
