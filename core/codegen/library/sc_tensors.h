/* Stagecraft tensors files (docs/codegen.md, "Files"): a reader and writer
 * of the "stagecraft-tensors" JSON format, version 1, as the stagecraft
 * command reads and writes it (core/codegen/tensors.cpp):
 *
 *   {"format": "stagecraft-tensors", "version": 1,
 *    "tensors": [{"name": ..., "dtype": "f32", "shape": [2, 3], "data": [...]}]}
 *
 * data is flat, in row-major order. Floats are JSON numbers, NaN is null and
 * the infinities are the strings "inf" and "-inf" ("nan" also reads as NaN).
 * An emitted model library ships this as source so that its example program
 * can read inputs and write outputs the stagecraft command understands.
 *
 * C99, libc only. Numbers are read with strtod and written with snprintf,
 * so the program must run in the "C" locale, which a C program has unless
 * it calls setlocale. */
#ifndef SC_TENSORS_H
#define SC_TENSORS_H

#include "sc_runtime.h" /* sc_dtype, SC_MAX_RANK */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif


/* One tensor of a file. */
typedef struct {
    char *name;              /* malloc'd, UTF-8 */
    sc_dtype dtype;
    int32_t rank;
    int64_t shape[SC_MAX_RANK];
    void *data;              /* malloc'd, little-endian native element bytes, row-major */
    uint64_t bytes;
} sc_file_tensor;

/* Element size in bytes, 0 for an unknown dtype. */
size_t sc_dtype_size(sc_dtype t);
/* The name of a dtype in files ("f32"...), NULL if unknown. */
const char *sc_dtype_name(sc_dtype t);
/* The dtype of a name ("f32"...), 0 if unknown. */
sc_dtype sc_dtype_parse(const char *name);

/* Reads the tensors file at path into *tensors (malloc'd, *count of them, in
 * file order; NULL for none; free with sc_tensors_free). Returns 0 on success;
 * else non-zero, *tensors NULL, *count 0 and a one-line message in
 * error[0..error_size) that names the file and the tensor and field in error,
 * e.g. "in.json: tensor 'x': data[3]: expected a whole number for i32, got 1.5".
 * A file larger than 4 GiB is refused. Unlike tensors.cpp, names are not
 * checked to be valid UTF-8, and a name that appears twice is not refused. */
int sc_tensors_read(const char *path, sc_file_tensor **tensors, size_t *count, char *error,
                    size_t error_size);

/* Writes count tensors to the file at path (replacing it), as the stagecraft
 * command does, floats as the shortest decimals that read back to the same
 * value. The tensors are checked first (a name, a known dtype, a rank of 0 to
 * SC_MAX_RANK, bytes matching the shape), so a bad one leaves the file
 * untouched. Returns 0 on success; else non-zero and a one-line message in
 * error[0..error_size). */
int sc_tensors_write(const char *path, const sc_file_tensor *tensors, size_t count, char *error,
                     size_t error_size);

/* Frees what sc_tensors_read returned; NULL is fine. */
void sc_tensors_free(sc_file_tensor *tensors, size_t count);

#ifdef __cplusplus
}
#endif

#endif
