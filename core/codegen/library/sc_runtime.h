/* Stagecraft model library runtime (docs/codegen.md, "The model library").
 *
 * The generated model.c describes one model as an sc_model: its tensor
 * table (slot sizes and where each weight lies in weights.bin), its kernels
 * in execution order with the cores of their binding, and its inputs and
 * outputs. This runtime loads the weights, allocates the table, the arena
 * and the scratch once per context, and runs the kernels: a kernel bound to
 * c cores on c threads, which meet at sc_barrier between layers; kernels that
 * share a launch run in one dispatch with a barrier between them.
 *
 * A launch runs on min(cores, threads) threads, threads being the context's
 * (sc_context_set_threads; by default the online CPUs): with fewer threads
 * than cores, each thread runs the cores t, t + threads, ... of a layer in
 * turn and the threads meet between layers, which needs the kernel's layer
 * table (else it runs on as many threads as cores). Which core computes
 * which tile is the kernels', so the outputs do not depend on the threads.
 *
 * C99, libc and POSIX threads only. A context runs one inference at a time;
 * contexts are independent of each other. */
#ifndef SC_RUNTIME_H
#define SC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SC_RUNTIME_ABI_VERSION 1

/* Element types, by Stagecraft's names: f32 f16 bf16 f64 i8 i16 i32 i64 u8
 * u16 u32 u64 bool. */
typedef enum {
    SC_DTYPE_F32 = 1,
    SC_DTYPE_F16,
    SC_DTYPE_BF16,
    SC_DTYPE_F64,
    SC_DTYPE_I8,
    SC_DTYPE_I16,
    SC_DTYPE_I32,
    SC_DTYPE_I64,
    SC_DTYPE_U8,
    SC_DTYPE_U16,
    SC_DTYPE_U32,
    SC_DTYPE_U64,
    SC_DTYPE_BOOL
} sc_dtype;
#define SC_MAX_RANK 16

/* Status codes; sc_status_message names each. */
enum {
    SC_OK = 0,
    SC_ERROR_IO = 1,        /* the weights file cannot be read */
    SC_ERROR_WEIGHTS = 2,   /* the weights are not this model's (size or checksum) */
    SC_ERROR_ARGUMENT = 3,  /* a null pointer, or a tensor of the wrong size */
    SC_ERROR_MEMORY = 4,    /* out of memory */
    SC_ERROR_THREAD = 5,    /* a thread or barrier could not be made */
    SC_ERROR_ABI = 6        /* model.c was generated for another runtime */
};

/* The kernel ABI: void kernel(tensors, arena, scratch, core, cores, sync). */
typedef void (*sc_kernel_fn)(void **tensors, void *arena, void *scratch, int64_t core,
                             int64_t cores, void *sync);

/* A tensor the caller passes or receives: data holds bytes bytes, the
 * elements in row-major order, native (little-endian) layout. */
typedef struct {
    void *data;
    uint64_t bytes;
} sc_tensor;

/* A graph input or output: its name, element type, shape and the table slot
 * that holds it (-1: an input no kernel reads). */
typedef struct {
    const char *name;
    sc_dtype dtype;
    int32_t rank;
    const int64_t *shape;
    uint64_t bytes;
    int64_t slot;
} sc_tensor_info;

/* A slot of the tensor table: its size, and where its initial bytes lie in
 * the weights (-1: none; the slot starts zeroed). */
typedef struct {
    uint64_t bytes;
    int64_t weights_offset;
} sc_slot_info;

typedef struct {
    sc_kernel_fn fn;
    const char *symbol;
    int32_t cores;
    int32_t continues_launch; /* runs in the launch of the kernel before */
    /* The kernel's layer functions (same signature, no barrier inside), or
     * NULL: host objects of a kernel of several layers and cores export them
     * as <symbol>_layers, so fewer threads than cores can run it. */
    const sc_kernel_fn *layers;
    int32_t layer_count;
} sc_kernel_info;

typedef struct {
    uint32_t abi_version;
    const char *name;
    uint64_t slot_count;
    const sc_slot_info *slots;
    uint64_t kernel_count;
    const sc_kernel_info *kernels;
    uint64_t input_count;
    const sc_tensor_info *inputs;
    uint64_t output_count;
    const sc_tensor_info *outputs;
    uint64_t arena_bytes;
    uint64_t scratch_bytes; /* for all cores of the widest kernel */
    uint64_t weights_bytes;
    uint64_t weights_fnv1a64;
    uint32_t weights_alignment;
} sc_model;

typedef struct sc_context sc_context;

/* Reads the weights file at path, checks its size and checksum against the
 * model and makes a context. On failure *context is NULL. */
int sc_context_create(const sc_model *model, const char *weights_path, sc_context **context);

/* As above from weights in memory (copied; the caller may free them). */
int sc_context_create_from_memory(const sc_model *model, const void *weights, uint64_t bytes,
                                  sc_context **context);

void sc_context_destroy(sc_context *context);

/* Runs the model: inputs[i] for model->inputs[i], outputs[i] receives
 * model->outputs[i]; each tensor's bytes must be the info's. The calling
 * thread runs the first core's share: give it at least 1 MiB of stack (a
 * layer may keep up to 512 KiB there; the threads sc_run starts get 8 MiB). */
int sc_run(sc_context *context, const sc_tensor *inputs, sc_tensor *outputs);

/* Runs launches on at most threads threads (at least 1). */
int sc_context_set_threads(sc_context *context, int threads);

/* The model a context runs. */
const sc_model *sc_context_model(const sc_context *context);

/* A one-line description of a status code. */
const char *sc_status_message(int status);

/* Called by the kernels between layers (the DSA runtime's
 * synchronization); sync is what the runtime passed them. */
void sc_barrier(void *sync);

#ifdef __cplusplus
}
#endif

#endif /* SC_RUNTIME_H */
