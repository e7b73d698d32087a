/* Stagecraft model library runtime (sc_runtime.h): contexts and the kernel
 * launcher. A context holds the weights (one 64-byte aligned block, read
 * once; the weight slots point into it), one zeroed block per other table
 * slot, the arena and the scratch. sc_run copies the
 * inputs into their slots, runs the kernels in order and copies the outputs
 * out. A launch (a kernel, or a run of kernels that continue one launch on
 * the same cores) starts one thread per core of its binding; the threads
 * meet at a POSIX barrier between layers and between the launch's kernels. */
#define _POSIX_C_SOURCE 200809L
#include "sc_runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stack of each thread a launch starts: a layer function may keep up to
 * 512 KiB on its stack (an int8 Conv's interleaved rows). */
#define SC_THREAD_STACK ((size_t)8 << 20)

struct sc_context {
    const sc_model *model;
    unsigned char *weights;
    void **table;
    unsigned char **owned; /* per slot: the block this context allocated */
    void *arena;
    void *scratch;
    int64_t threads;
};

const char *sc_status_message(int status) {
    switch (status) {
    case SC_OK:
        return "ok";
    case SC_ERROR_IO:
        return "the weights file cannot be read";
    case SC_ERROR_WEIGHTS:
        return "the weights are not this model's (size or checksum differs)";
    case SC_ERROR_ARGUMENT:
        return "an argument is null or a tensor has the wrong number of bytes";
    case SC_ERROR_MEMORY:
        return "out of memory";
    case SC_ERROR_THREAD:
        return "a thread or barrier could not be made";
    case SC_ERROR_ABI:
        return "model.c was generated for another version of the runtime";
    default:
        return "unknown status";
    }
}

void sc_barrier(void *sync) { pthread_barrier_wait((pthread_barrier_t *)sync); }

int sc_context_set_threads(sc_context *context, int threads) {
    if (!context || threads < 1)
        return SC_ERROR_ARGUMENT;
    context->threads = threads;
    return SC_OK;
}

const sc_model *sc_context_model(const sc_context *context) {
    return context ? context->model : NULL;
}

/* FNV-1a over the little-endian 64-bit words of the weights (the last one
 * zero-padded): the manifest's "fnv1a64". */
static uint64_t weights_checksum(const unsigned char *bytes, uint64_t size) {
    uint64_t hash = 14695981039346656037ull;
    for (uint64_t at = 0; at < size; at += 8) {
        uint64_t word = 0;
        uint64_t n = size - at < 8 ? size - at : 8;
        for (uint64_t i = 0; i < n; ++i)
            word |= (uint64_t)bytes[at + i] << (8 * i);
        hash = (hash ^ word) * 1099511628211ull;
    }
    return hash;
}

static void *zeroed_block(uint64_t bytes) {
    uint64_t size = (bytes + 63) / 64 * 64;
    void *p;
    if (size == 0)
        size = 64;
    if (size < bytes || size > (uint64_t)SIZE_MAX)
        return NULL;
    if (posix_memalign(&p, 64, (size_t)size) != 0)
        return NULL;
    memset(p, 0, (size_t)size);
    return p;
}

void sc_context_destroy(sc_context *context) {
    uint64_t s;
    if (!context)
        return;
    if (context->owned)
        for (s = 0; s < context->model->slot_count; ++s)
            free(context->owned[s]);
    free(context->owned);
    free(context->table);
    free(context->weights);
    free(context->arena);
    free(context->scratch);
    free(context);
}

/* The table: weights (and constant outputs) in place in the weights block,
 * every other slot its own zeroed block. */
static int fill_table(sc_context *c) {
    const sc_model *m = c->model;
    uint64_t s;
    for (s = 0; s < m->slot_count; ++s) {
        const sc_slot_info *slot = &m->slots[s];
        if (slot->weights_offset >= 0) {
            if ((uint64_t)slot->weights_offset > m->weights_bytes ||
                slot->bytes > m->weights_bytes - (uint64_t)slot->weights_offset ||
                slot->weights_offset % 64 != 0)
                return SC_ERROR_WEIGHTS;
            c->table[s] = c->weights + slot->weights_offset;
            continue;
        }
        c->owned[s] = zeroed_block(slot->bytes);
        if (!c->owned[s])
            return SC_ERROR_MEMORY;
        c->table[s] = c->owned[s];
    }
    return SC_OK;
}

/* Takes ownership of weights (an aligned block of the model's size). */
static int make_context(const sc_model *model, unsigned char *weights, sc_context **out) {
    sc_context *c;
    int status;
    if (weights_checksum(weights, model->weights_bytes) != model->weights_fnv1a64) {
        free(weights);
        return SC_ERROR_WEIGHTS;
    }
    c = calloc(1, sizeof *c);
    if (!c) {
        free(weights);
        return SC_ERROR_MEMORY;
    }
    c->model = model;
    c->weights = weights;
    c->threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (int64_t)sysconf(_SC_NPROCESSORS_ONLN) : 1;
    c->table = calloc(model->slot_count + 1, sizeof(void *));
    c->owned = calloc(model->slot_count + 1, sizeof(unsigned char *));
    c->arena = zeroed_block(model->arena_bytes);
    c->scratch = zeroed_block(model->scratch_bytes);
    status = c->table && c->owned && c->arena && c->scratch ? fill_table(c) : SC_ERROR_MEMORY;
    if (status != SC_OK) {
        sc_context_destroy(c);
        return status;
    }
    *out = c;
    return SC_OK;
}

static int check_model(const sc_model *model, sc_context **context) {
    if (!context)
        return SC_ERROR_ARGUMENT;
    *context = NULL;
    if (!model)
        return SC_ERROR_ARGUMENT;
    return model->abi_version == SC_RUNTIME_ABI_VERSION ? SC_OK : SC_ERROR_ABI;
}

int sc_context_create_from_memory(const sc_model *model, const void *weights, uint64_t bytes,
                                  sc_context **context) {
    unsigned char *copy;
    int status = check_model(model, context);
    if (status != SC_OK)
        return status;
    if (bytes != model->weights_bytes || (!weights && bytes > 0))
        return SC_ERROR_WEIGHTS;
    copy = zeroed_block(bytes);
    if (!copy)
        return SC_ERROR_MEMORY;
    if (bytes > 0)
        memcpy(copy, weights, (size_t)bytes);
    return make_context(model, copy, context);
}

int sc_context_create(const sc_model *model, const char *weights_path, sc_context **context) {
    unsigned char *weights;
    FILE *file;
    long size;
    int status = check_model(model, context);
    if (status != SC_OK)
        return status;
    if (!weights_path || !(file = fopen(weights_path, "rb")))
        return SC_ERROR_IO;
    if (fseek(file, 0, SEEK_END) != 0 || (size = ftell(file)) < 0 || fseek(file, 0, SEEK_SET)) {
        fclose(file);
        return SC_ERROR_IO;
    }
    if ((uint64_t)size != model->weights_bytes) {
        fclose(file);
        return SC_ERROR_WEIGHTS;
    }
    weights = zeroed_block((uint64_t)size);
    if (!weights) {
        fclose(file);
        return SC_ERROR_MEMORY;
    }
    if (size > 0 && fread(weights, 1, (size_t)size, file) != (size_t)size) {
        fclose(file);
        free(weights);
        return SC_ERROR_IO;
    }
    fclose(file);
    return make_context(model, weights, context);
}

/* One dispatch: kernels first..last, their cores on threads threads. */
struct launch {
    const sc_context *context;
    uint64_t first, last;
    int64_t cores, threads;
    pthread_barrier_t barrier;
};

struct core_job {
    struct launch *launch;
    int64_t core;
};

/* Kernel k on this thread: its own core, or with fewer threads than cores
 * each layer for the cores job->core, job->core + threads, ... in turn. */
static void run_kernel(const struct launch *l, const struct core_job *job, uint64_t k) {
    const sc_context *c = l->context;
    const sc_kernel_info *kernel = &c->model->kernels[k];
    int32_t layer;
    int64_t core;
    if (l->threads == l->cores) {
        kernel->fn(c->table, c->arena, c->scratch, job->core, l->cores, (void *)&l->barrier);
        return;
    }
    for (layer = 0; layer < (kernel->layers ? kernel->layer_count : 1); ++layer) {
        sc_kernel_fn fn = kernel->layers ? kernel->layers[layer] : kernel->fn;
        if (layer > 0)
            pthread_barrier_wait((pthread_barrier_t *)&l->barrier);
        for (core = job->core; core < l->cores; core += l->threads)
            fn(c->table, c->arena, c->scratch, core, l->cores, NULL);
    }
}

static void *run_core(void *arg) {
    struct core_job *job = arg;
    struct launch *l = job->launch;
    uint64_t k;
    for (k = l->first; k <= l->last; ++k) {
        run_kernel(l, job, k);
        if (l->threads > 1 && k < l->last)
            pthread_barrier_wait(&l->barrier); /* the sync between instances */
    }
    return NULL;
}

static int run_launch(struct launch *l) {
    pthread_t *threads = calloc((size_t)l->threads, sizeof(pthread_t));
    struct core_job *jobs = calloc((size_t)l->threads, sizeof(struct core_job));
    int64_t t, started = 1;
    int status = threads && jobs ? SC_OK : SC_ERROR_MEMORY;
    if (status == SC_OK && pthread_barrier_init(&l->barrier, NULL, (unsigned)l->threads) != 0)
        status = SC_ERROR_THREAD;
    if (status == SC_OK) {
        for (t = 0; t < l->threads; ++t) {
            jobs[t].launch = l;
            jobs[t].core = t;
        }
        /* All threads or none: a barrier of that many parties must be met by all.
         * Each gets SC_THREAD_STACK of stack whatever the C library's default
         * (musl's is 128 KiB): a layer may keep up to 512 KiB there. */
        pthread_attr_t attr;
        const int attr_made = pthread_attr_init(&attr) == 0;
        if (attr_made)
            pthread_attr_setstacksize(&attr, SC_THREAD_STACK);
        for (t = 1; t < l->threads; ++t, ++started)
            if (pthread_create(&threads[t], attr_made ? &attr : NULL, run_core, &jobs[t]) != 0)
                break;
        if (attr_made)
            pthread_attr_destroy(&attr);
        if (started != l->threads) {
            fprintf(stderr, "stagecraft runtime: cannot start %lld threads\n",
                    (long long)l->threads);
            abort(); /* the started threads wait at a barrier nobody else reaches */
        }
        run_core(&jobs[0]);
        for (t = 1; t < l->threads; ++t)
            pthread_join(threads[t], NULL);
        pthread_barrier_destroy(&l->barrier);
    }
    free(threads);
    free(jobs);
    return status;
}

static int copy_inputs(sc_context *c, const sc_tensor *inputs) {
    const sc_model *m = c->model;
    uint64_t i;
    for (i = 0; i < m->input_count; ++i) {
        const sc_tensor_info *info = &m->inputs[i];
        if (!inputs || inputs[i].bytes != info->bytes || (!inputs[i].data && info->bytes > 0))
            return SC_ERROR_ARGUMENT;
        if (info->slot >= 0 && info->bytes > 0)
            memcpy(c->table[info->slot], inputs[i].data, (size_t)info->bytes);
    }
    return SC_OK;
}

/* Threads for kernels first..last: the context's, at most the cores; all the
 * cores when a kernel of several layers has no layer table. */
static int64_t threads_for(const sc_context *c, const sc_model *m, uint64_t first,
                           uint64_t last) {
    int64_t cores = m->kernels[first].cores;
    uint64_t k;
    if (c->threads >= cores)
        return cores;
    for (k = first; k <= last; ++k)
        if (!m->kernels[k].layers && m->kernels[k].layer_count > 1)
            return cores;
    return c->threads;
}

int sc_run(sc_context *c, const sc_tensor *inputs, sc_tensor *outputs) {
    const sc_model *m;
    uint64_t k, o;
    int status;
    if (!c || (!outputs && c->model->output_count > 0))
        return SC_ERROR_ARGUMENT;
    m = c->model;
    for (o = 0; o < m->output_count; ++o)
        if (outputs[o].bytes != m->outputs[o].bytes || (!outputs[o].data && outputs[o].bytes))
            return SC_ERROR_ARGUMENT;
    if ((status = copy_inputs(c, inputs)) != SC_OK)
        return status;
    for (k = 0; k < m->kernel_count;) {
        struct launch l;
        uint64_t last = k;
        while (last + 1 < m->kernel_count && m->kernels[last + 1].continues_launch &&
               m->kernels[last + 1].cores == m->kernels[k].cores)
            ++last;
        l.context = c;
        l.first = k;
        l.last = last;
        l.cores = m->kernels[k].cores;
        l.threads = threads_for(c, m, k, last);
        if ((status = run_launch(&l)) != SC_OK)
            return status;
        k = last + 1;
    }
    for (o = 0; o < m->output_count; ++o)
        if (m->outputs[o].bytes > 0)
            memcpy(outputs[o].data, c->table[m->outputs[o].slot], (size_t)m->outputs[o].bytes);
    return SC_OK;
}
