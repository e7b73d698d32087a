/* The model library's example program (docs/codegen.md, "The model
 * library"): runs the model on the inputs of a Stagecraft tensors file and
 * writes its outputs as one.
 *
 *   example WEIGHTS INPUTS.json OUTPUTS.json [--repeat N]
 *
 * Each model input is taken from the tensor of its name, which must have its
 * element type and shape. --repeat N runs the model N more times and prints
 * the median wall time of those runs in milliseconds. */
#define _POSIX_C_SOURCE 200809L
#include "model.h"
#include "sc_tensors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "example: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static const sc_file_tensor *find_tensor(const sc_file_tensor *tensors, size_t count,
                                         const char *name) {
    size_t i;
    for (i = 0; i < count; ++i)
        if (strcmp(tensors[i].name, name) == 0)
            return &tensors[i];
    return NULL;
}

static int same_shape(const sc_file_tensor *t, const sc_tensor_info *info) {
    int32_t d;
    if (t->dtype != info->dtype || t->rank != info->rank)
        return 0;
    for (d = 0; d < t->rank; ++d)
        if (t->shape[d] != info->shape[d])
            return 0;
    return 1;
}

/* Points inputs[i] at the file's tensor for model input i. */
static int bind_inputs(const sc_file_tensor *file, size_t count, sc_tensor *inputs) {
    uint64_t i;
    for (i = 0; i < sc_model_info.input_count; ++i) {
        const sc_tensor_info *info = &sc_model_info.inputs[i];
        const sc_file_tensor *t = find_tensor(file, count, info->name);
        if (!t)
            return fail("no tensor in the inputs file for model input", info->name);
        if (!same_shape(t, info) || t->bytes != info->bytes)
            return fail("the inputs file's tensor has another type or shape than model input",
                        info->name);
        inputs[i].data = t->data;
        inputs[i].bytes = t->bytes;
    }
    return 0;
}

/* Allocates the outputs as tensors of the file format. */
static int make_outputs(sc_file_tensor *file, sc_tensor *outputs) {
    uint64_t o;
    for (o = 0; o < sc_model_info.output_count; ++o) {
        const sc_tensor_info *info = &sc_model_info.outputs[o];
        int32_t d;
        file[o].name = malloc(strlen(info->name) + 1);
        file[o].data = malloc(info->bytes ? (size_t)info->bytes : 1);
        if (!file[o].name || !file[o].data)
            return fail("out of memory", NULL);
        strcpy(file[o].name, info->name);
        file[o].dtype = info->dtype;
        file[o].rank = info->rank;
        for (d = 0; d < info->rank; ++d)
            file[o].shape[d] = info->shape[d];
        file[o].bytes = info->bytes;
        outputs[o].data = file[o].data;
        outputs[o].bytes = info->bytes;
    }
    return 0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs the model once, then repeat more times, timed. */
static int run(sc_context *context, const sc_tensor *inputs, sc_tensor *outputs, long repeat) {
    double *times = malloc((size_t)(repeat > 0 ? repeat : 1) * sizeof(double));
    long r;
    int status = times ? sc_model_run(inputs, outputs, context) : SC_ERROR_MEMORY;
    for (r = 0; r < repeat && status == SC_OK; ++r) {
        double start = now_ms();
        status = sc_model_run(inputs, outputs, context);
        times[r] = now_ms() - start;
    }
    if (status == SC_OK && repeat > 0) {
        qsort(times, (size_t)repeat, sizeof(double), by_value);
        printf("median %.3f ms over %ld runs\n", times[repeat / 2], repeat);
    }
    free(times);
    return status == SC_OK ? 0 : fail("the model did not run", sc_status_message(status));
}

int main(int argc, char **argv) {
    char error[512];
    sc_file_tensor *given = NULL;
    size_t count = 0;
    sc_tensor inputs[SC_MODEL_INPUT_COUNT + 1];
    sc_tensor outputs[SC_MODEL_OUTPUT_COUNT + 1];
    sc_file_tensor results[SC_MODEL_OUTPUT_COUNT + 1];
    sc_context *context = NULL;
    long repeat = 0;
    int status, failed;
    if (argc == 6 && strcmp(argv[4], "--repeat") == 0)
        repeat = strtol(argv[5], NULL, 10);
    if ((argc != 4 && argc != 6) || repeat < 0 || repeat > 1000000) {
        fprintf(stderr, "usage: example WEIGHTS INPUTS.json OUTPUTS.json [--repeat N]\n");
        return 2;
    }
    memset(results, 0, sizeof results);
    if (sc_tensors_read(argv[2], &given, &count, error, sizeof error) != 0)
        return fail(error, NULL);
    status = sc_model_context_create(argv[1], &context);
    if (status != SC_OK) {
        sc_tensors_free(given, count);
        fprintf(stderr, "example: %s: %s\n", argv[1], sc_status_message(status));
        return 1;
    }
    failed = bind_inputs(given, count, inputs) || make_outputs(results, outputs) ||
             run(context, inputs, outputs, repeat);
    if (!failed && sc_tensors_write(argv[3], results, SC_MODEL_OUTPUT_COUNT, error,
                                    sizeof error) != 0)
        failed = fail(error, NULL);
    sc_context_destroy(context);
    sc_tensors_free(given, count);
    for (status = 0; status < SC_MODEL_OUTPUT_COUNT; ++status) {
        free(results[status].name);
        free(results[status].data);
    }
    return failed;
}
