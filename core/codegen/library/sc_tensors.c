/* Stagecraft tensors files: the reader and writer sc_tensors.h declares, mirroring
 * core/codegen/tensors.cpp. The reader walks the file in memory: the top-level object
 * (skipping its members checks that all is JSON nested at most SC_JSON_DEPTH deep), each
 * tensor object, each data array twice (to count, then to convert the elements). strtod
 * and snprintf assume the "C" locale, which a C program has unless it calls setlocale. */
#include "sc_tensors.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SC_JSON_DEPTH 64
#define SC_MAX_FILE ((uint64_t)4 << 30)

static const char *const dtype_names[] = {NULL,  "f32", "f16", "bf16", "f64", "i8",  "i16",
                                          "i32", "i64", "u8",  "u16",  "u32", "u64", "bool"};
static const unsigned char dtype_sizes[] = {0, 4, 2, 2, 8, 1, 2, 4, 8, 1, 2, 4, 8, 1};
static const double largest_finite[] = {0, FLT_MAX, 65504.0, 3.3895313892515355e38, DBL_MAX};

size_t sc_dtype_size(sc_dtype t) { return (int)t >= 1 && t <= SC_DTYPE_BOOL ? dtype_sizes[t] : 0; }
const char *sc_dtype_name(sc_dtype t) { return sc_dtype_size(t) ? dtype_names[t] : NULL; }
sc_dtype sc_dtype_parse(const char *name) {
    for (int i = 1; name && i <= (int)SC_DTYPE_BOOL; i++)
        if (strcmp(name, dtype_names[i]) == 0) return (sc_dtype)i;
    return (sc_dtype)0;
}
static int is_float(sc_dtype t) { return t >= SC_DTYPE_F32 && t <= SC_DTYPE_F64; }
static int is_signed(sc_dtype t) { return t >= SC_DTYPE_I8 && t <= SC_DTYPE_I64; }

typedef union { float f; uint32_t u; } pun32;
typedef union { double f; uint64_t u; } pun64;
static uint32_t float_bits(float f) { return ((pun32){.f = f}).u; }
static float bits_float(uint32_t u) { return ((pun32){.u = u}).f; }

/* f16 and bf16 to and from float, rounding to nearest even; a NaN stays a quiet NaN. */
static float half_to_float(uint32_t h) {
    uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    float magnitude = exponent == 0 ? (float)mantissa * (1.0f / 16777216.0f)
        : bits_float((exponent == 31 ? 0x7f800000u : (exponent + 112) << 23) | mantissa << 13);
    return bits_float(float_bits(magnitude) | (h & 0x8000u) << 16);
}

static uint16_t float_to_half(float value) {
    uint32_t f = float_bits(value) & 0x7fffffffu, sign = (float_bits(value) >> 16) & 0x8000u, h;
    if (f >= 0x47800000u) h = f > 0x7f800000u ? 0x7e00u : 0x7c00u; /* NaN, or inf */
    else if (f < 0x38800000u) h = float_bits(bits_float(f) + 0.5f) - 0x3f000000u; /* subnormal */
    else h = (f - 0x38000000u + 0xfffu + ((f >> 13) & 1u)) >> 13;
    return (uint16_t)(sign | h);
}

static uint16_t float_to_bf16(float value) {
    uint32_t b = float_bits(value);
    return (uint16_t)(value != value ? (b >> 16) | 0x40u : (b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

/* Element bytes are little-endian, whatever the host. */
static void store_le(unsigned char *p, uint64_t v, size_t n) {
    for (size_t k = 0; k < n; k++) p[k] = (unsigned char)(v >> (8 * k));
}
static uint64_t load_le(const unsigned char *p, size_t n) {
    return n ? p[0] | load_le(p + 1, n - 1) << 8 : 0;
}

typedef struct {
    const char *s, *path, *tname; /* the text (a NUL after its n bytes), the file, the tensor */
    size_t n, pos, slen, tindex, errsize; /* slen: decoded length of the last string read */
    char *err;
    int depth;
} reader;

/* Reports "PATH: message", or "PATH: tensor 'NAME' (or tensors[I]): FIELD: message"; -1. */
static int fail(reader *r, const char *field, const char *format, ...) {
    char what[320];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    if (!r->err || r->errsize == 0) return -1;
    if (!field) snprintf(r->err, r->errsize, "%s: %s", r->path, what);
    else if (r->tname)
        snprintf(r->err, r->errsize, "%s: tensor '%.200s': %s: %s", r->path, r->tname, field, what);
    else snprintf(r->err, r->errsize, "%s: tensors[%zu]: %s: %s", r->path, r->tindex, field, what);
    for (char *c = r->err; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return -1;
}

static int syntax(reader *r, size_t at, const char *what) {
    size_t line = 1;
    for (size_t i = 0; i < at && i < r->n; i++) line += (size_t)(r->s[i] == '\n');
    return fail(r, NULL, "not valid JSON: %s (line %zu, byte %zu)", what, line, at);
}

/* The element count of t's shape, -1 for a negative dim or an overflow. */
static int64_t element_count(const sc_file_tensor *t) {
    int64_t count = 1;
    for (int32_t d = 0; d < t->rank; count *= t->shape[d++])
        if (t->shape[d] < 0 || (t->shape[d] != 0 && count > INT64_MAX / t->shape[d])) return -1;
    return count;
}

/* "2x3x4", or "scalar" for rank 0; the rank must be within 0..SC_MAX_RANK. */
static const char *format_shape(const sc_file_tensor *t, char *buf, size_t size) {
    size_t n = 0;
    for (int32_t d = 0; d < t->rank && n < size; d++)
        n += (size_t)snprintf(buf + n, size - n, d ? "x%" PRId64 : "%" PRId64, t->shape[d]);
    return t->rank ? buf : "scalar";
}

static size_t put_utf8(unsigned char *out, uint32_t cp) {
    static const unsigned char lead[5] = {0, 0, 0xc0, 0xe0, 0xf0};
    size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (size_t k = n - 1; k > 0; k--, cp >>= 6) out[k] = (unsigned char)(0x80u | (cp & 0x3fu));
    out[0] = (unsigned char)(lead[n] | cp);
    return n;
}

static void skip_space(reader *r) { r->pos += strspn(r->s + r->pos, " \t\n\r"); }
static int hex4(const char *s, uint32_t *v) {
    char digits[5] = {0};
    if (strspn(s, "0123456789abcdefABCDEF") < 4) return -1;
    return *v = (uint32_t)strtoul(memcpy(digits, s, 4), NULL, 16), 0;
}

/* Decodes the escape at r->s[*i] (a backslash) into *cp, moving *i past it. */
static int escape(reader *r, size_t *i, uint32_t *cp) {
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *s = r->s + *i, *hit = s[1] ? strchr(from, s[1]) : NULL;
    uint32_t low;
    if (hit) return *cp = (unsigned char)to[hit - from], *i += 2, 0;
    if (s[1] != 'u' || hex4(s + 2, cp)) return syntax(r, *i, "invalid escape in a string");
    if (*cp >= 0xdc00 && *cp <= 0xdfff) return syntax(r, *i, "unpaired surrogate in a string");
    if (*cp >= 0xd800 && *cp <= 0xdbff) {
        if (s[6] != '\\' || s[7] != 'u' || hex4(s + 8, &low) || low < 0xdc00 || low > 0xdfff)
            return syntax(r, *i, "unpaired surrogate in a string");
        *cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00), *i += 6;
    }
    return *i += 6, 0;
}

/* Reads the string at r->pos into *out (malloc'd), or checks it if out is NULL; r->slen
 * gets its decoded length. Bytes other than escapes pass unchanged. */
static int read_string(reader *r, char **out) {
    const unsigned char *s = (const unsigned char *)r->s;
    unsigned char scratch[4], *text = NULL;
    size_t i = r->pos + 1, n = 0, k;
    uint32_t cp = 0;
    if (s[r->pos] != '"') return syntax(r, r->pos, "expected a string");
    for (k = i; k < r->n && s[k] != '"'; k += s[k] == '\\' ? 2 : 1) continue;
    if (k >= r->n) return syntax(r, r->pos, "unterminated string");
    if (out && (text = malloc(k - i + 1)) == NULL) return fail(r, NULL, "out of memory");
    while (i < k) {
        unsigned char *o = text ? text + n : scratch; /* where the next bytes go */
        if (s[i] < 0x20) return free(text), syntax(r, i, "control character in a string");
        if (s[i] != '\\') *o = s[i++], n++;
        else if (escape(r, &i, &cp) == 0) n += put_utf8(o, cp);
        else return free(text), -1;
    }
    if (text) text[n] = '\0', *out = (char *)text;
    return r->slen = n, r->pos = k + 1, 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int starts_number(char c) { return c == '-' || is_digit(c); }
static size_t digits(const char *s, size_t i) {
    while (is_digit(s[i])) i++;
    return i;
}

/* Checks the number at r->pos and moves past it; *integral: it has no fraction or exponent. */
static int number(reader *r, int *integral) {
    const char *s = r->s;
    size_t i = r->pos + (s[r->pos] == '-' ? 1u : 0u), end = s[i] == '0' ? i + 1 : digits(s, i);
    int bad = end == i;
    *integral = s[end] != '.' && s[end] != 'e' && s[end] != 'E';
    if (!bad && s[end] == '.') i = end + 1, end = digits(s, i), bad = end == i;
    if (!bad && (s[end] == 'e' || s[end] == 'E'))
        i = end + (s[end + 1] == '+' || s[end + 1] == '-' ? 2u : 1u), end = digits(s, i),
        bad = end == i;
    return bad ? syntax(r, end, "invalid number") : (r->pos = end, 0);
}
static int literal(reader *r, const char *word) {
    if (strncmp(r->s + r->pos, word, strlen(word))) return syntax(r, r->pos, "expected a value");
    return r->pos += strlen(word), 0;
}

/* Steps through the array or object at r->pos (close: its bracket): 1 at the next item (its
 * key malloc'd in *key, if key), 0 past the end, -1 on an error. *i counts, 0 at first. */
static int next_item(reader *r, char close, size_t *i, char **key) {
    skip_space(r);
    if (*i > 0 && r->s[r->pos] != close && r->s[r->pos] != ',')
        return syntax(r, r->pos, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
    if (r->s[r->pos++] == close) return 0; /* else past the '[', '{' or ',' */
    skip_space(r);
    if (*i == 0 && r->s[r->pos] == close) return r->pos++, 0;
    if (++*i, close == ']') return 1;
    if (read_string(r, key)) return -1;
    skip_space(r);
    if (r->s[r->pos] == ':') return r->pos++, 1;
    if (key) free(*key);
    return syntax(r, r->pos, "expected ':'");
}

static int skip_value(reader *r) {
    size_t i = 0;
    int more, integral;
    char open = (skip_space(r), r->s[r->pos]);
    if (open == '{' || open == '[') {
        if (++r->depth > SC_JSON_DEPTH) return syntax(r, r->pos, "nested deeper than 64 levels");
        while ((more = next_item(r, open == '{' ? '}' : ']', &i, NULL)) > 0)
            if (skip_value(r)) return -1;
        return r->depth--, more;
    }
    if (open == '"') return read_string(r, NULL);
    if (open == 't' || open == 'f' || open == 'n')
        return literal(r, open == 't' ? "true" : open == 'f' ? "false" : "null");
    return starts_number(open) ? number(r, &integral) : syntax(r, r->pos, "expected a value");
}

/* Moves past the object at r->pos, setting at[k] to where the value of keys[k] lies. */
static int members(reader *r, const char *const *keys, int count, size_t *at) {
    size_t i = 0;
    char *key;
    int more;
    r->depth++;
    while ((more = next_item(r, '}', &i, &key)) > 0) {
        skip_space(r);
        for (int k = 0; k < count; k++)
            if (strlen(key) == r->slen && strcmp(key, keys[k]) == 0) at[k] = r->pos;
        free(key);
        if (skip_value(r)) return -1;
    }
    return r->depth--, more;
}

/* The string at `at` in *out (malloc'd); NULL if there is none, or one with a NUL in it. */
static int string_at(reader *r, size_t at, char **out) {
    *out = NULL;
    if (!at || r->s[at] != '"') return 0;
    if (r->pos = at, read_string(r, out)) return -1;
    if (strlen(*out) != r->slen) free(*out), *out = NULL;
    return 0;
}

/* Parses the integer "-?[0-9]+" at s exactly; -1 beyond 64 bits. */
static int parse_integer(const char *s, int *negative, uint64_t *magnitude) {
    *negative = *s == '-';
    for (s += *negative, *magnitude = 0; is_digit(*s); s++) {
        if (*magnitude > (UINT64_MAX - (unsigned)(*s - '0')) / 10) return -1;
        *magnitude = *magnitude * 10 + (unsigned)(*s - '0');
    }
    return 0;
}

static int read_shape(reader *r, size_t at, sc_file_tensor *t) {
    size_t i = 0, start;
    int more, integral, negative;
    uint64_t dim;
    if (!at || r->s[at] != '[') return fail(r, "shape", "expected an array of dims");
    for (r->pos = at; (more = next_item(r, ']', &i, NULL)) > 0; t->shape[i - 1] = (int64_t)dim) {
        start = r->pos;
        if (!starts_number(r->s[start]) || number(r, &integral) || !integral ||
            parse_integer(r->s + start, &negative, &dim) || (negative && dim) || dim > INT64_MAX)
            return fail(r, "shape", "dims must be whole numbers >= 0");
        if (i > SC_MAX_RANK) return fail(r, "shape", "more than %d dims", SC_MAX_RANK);
    }
    return t->rank = (int32_t)i, more;
}

/* Converts the element at r->pos into p: for floats a number, null (NaN), "inf", "+inf",
 * "-inf" or "nan"; for integers a whole number in range; for bool 0, 1, true or false. */
static int read_element(reader *r, sc_dtype type, unsigned char *p, const char *field) {
    const char *s = r->s + r->pos, *name = sc_dtype_name(type);
    char *text = NULL;
    size_t size = sc_dtype_size(type), start = r->pos;
    uint64_t magnitude = 0, half = (uint64_t)1 << (size * 8 - 1);
    double v = (double)NAN;
    int real = is_float(type), boolean = type == SC_DTYPE_BOOL, integral, negative = 0, ok = 0, n;
    if ((real && *s == 'n') || (boolean && (*s == 't' || *s == 'f'))) {
        ok = literal(r, *s == 'n' ? "null" : *s == 't' ? "true" : "false") == 0;
        magnitude = *s == 't';
    } else if (real && *s == '"') {
        if (string_at(r, r->pos, &text)) return -1;
        ok = text && (!strcmp(text, "inf") || !strcmp(text, "+inf") || !strcmp(text, "-inf") ||
                      !strcmp(text, "nan"));
        if (ok && strcmp(text, "nan") != 0) v = text[0] == '-' ? -(double)INFINITY : INFINITY;
        free(text);
    } else if (starts_number(*s) && (ok = number(r, &integral) == 0) != 0) {
        n = r->pos - start > 40 ? 40 : (int)(r->pos - start);
        if (real && (!isfinite(v = strtod(s, NULL)) || (v < 0 ? -v : v) > largest_finite[type]))
            return fail(r, field, "%.*s is beyond %s's largest finite value (%.17g)", n, s, name,
                        largest_finite[type]);
        if (!real && !integral && !boolean)
            return fail(r, field, "expected a whole number for %s, got %.*s", name, n, s);
        if (!real && (!integral || parse_integer(s, &negative, &magnitude) ||
                      (negative && magnitude && !is_signed(type)) ||
                      magnitude > (boolean ? 1 : !is_signed(type) ? half - 1 + half
                                                 : negative ? half : half - 1)))
            return boolean ? fail(r, field, "expected 0, 1, true or false, got %.*s", n, s)
                           : fail(r, field, "%.*s is out of %s's range", n, s, name);
    }
    if (!ok)
        return fail(r, field, real ? "expected a number, null, \"inf\", \"-inf\" or \"nan\""
                    : boolean ? "expected 0, 1, true or false" : "expected a whole number");
    if (real)
        magnitude = type == SC_DTYPE_F64 ? ((pun64){.f = v}).u
                    : type == SC_DTYPE_F32 ? float_bits((float)v)
                    : type == SC_DTYPE_F16 ? float_to_half((float)v) : float_to_bf16((float)v);
    return store_le(p, negative ? (uint64_t)0 - magnitude : magnitude, size), 0;
}

/* Counts the elements of the data array at `at`, then converts them. */
static int read_data(reader *r, size_t at, sc_file_tensor *t) {
    char shape[400], field[32];
    size_t i = 0, size = sc_dtype_size(t->dtype);
    int64_t count = element_count(t);
    int more;
    if (count < 0) return fail(r, "shape", "%s has too many elements", format_shape(t, shape, 400));
    if (!at || r->s[at] != '[')
        return fail(r, "data", "expected an array of %" PRId64 " numbers for shape %s", count,
                    format_shape(t, shape, sizeof shape));
    for (r->pos = at; (more = next_item(r, ']', &i, NULL)) > 0;)
        if (skip_value(r)) return -1;
    if (more != 0 || (uint64_t)i != (uint64_t)count)
        return more ? -1 : fail(r, "data", "expected %" PRId64 " numbers for shape %s, got %zu",
                                count, format_shape(t, shape, sizeof shape), i);
    if (i > (SIZE_MAX - 1) / size || (t->data = malloc(i * size + 1)) == NULL)
        return fail(r, "data", "out of memory for %" PRIu64 " bytes", (uint64_t)i * size);
    t->bytes = (uint64_t)i * size;
    for (r->pos = at, i = 0; (more = next_item(r, ']', &i, NULL)) > 0;) {
        snprintf(field, sizeof field, "data[%zu]", i - 1);
        if (read_element(r, t->dtype, (unsigned char *)t->data + (i - 1) * size, field)) return -1;
    }
    return more;
}

static int read_tensor(reader *r, size_t index, sc_file_tensor *t) {
    static const char *const keys[4] = {"name", "dtype", "shape", "data"};
    size_t at[4] = {0, 0, 0, 0}, end;
    char *dtype;
    r->tname = NULL, r->tindex = index;
    if (r->s[r->pos] != '{') return fail(r, NULL, "tensors[%zu]: expected an object", index);
    if (members(r, keys, 4, at) < 0 || (end = r->pos, string_at(r, at[0], &t->name)))
        return -1;
    if ((r->tname = t->name) == NULL) return fail(r, "name", "expected a string (without NUL)");
    if (string_at(r, at[1], &dtype)) return -1;
    if ((t->dtype = sc_dtype_parse(dtype)) == 0)
        fail(r, "dtype", "expected an element type such as \"f32\" (not strings)");
    if (free(dtype), !t->dtype || read_shape(r, at[2], t) || read_data(r, at[3], t)) return -1;
    return r->pos = end, 0;
}

/* Reads the document; format and version are checked before any tensor. */
static int read_document(reader *r, sc_file_tensor **out, size_t *count) {
    static const char *const keys[3] = {"format", "version", "tensors"};
    sc_file_tensor *ts = NULL, *grown;
    size_t at[3] = {0, 0, 0}, i = 0, capacity = 0;
    char *format = NULL, next;
    int matches, more;
    if (skip_space(r), r->s[r->pos] == '{' ? members(r, keys, 3, at) : skip_value(r)) return -1;
    if (skip_space(r), r->pos != r->n) return syntax(r, r->pos, "text after the document");
    if (string_at(r, at[0], &format)) return -1;
    matches = format && strcmp(format, "stagecraft-tensors") == 0;
    if (free(format), !matches) return fail(r, NULL, "format: expected \"stagecraft-tensors\"");
    next = at[1] ? r->s[at[1] + 1] : 0;
    if (!at[1] || r->s[at[1]] != '1' || is_digit(next) || next == '.' || next == 'e' || next == 'E')
        return fail(r, NULL, "version: expected 1");
    if (!at[2] || r->s[at[2]] != '[') return fail(r, NULL, "tensors: expected an array");
    for (r->pos = at[2]; (more = next_item(r, ']', &i, NULL)) > 0;) {
        if (i > capacity) {
            capacity = capacity ? capacity * 2 : 8;
            grown = capacity > SIZE_MAX / sizeof *ts ? NULL : realloc(ts, capacity * sizeof *ts);
            if (!grown) return sc_tensors_free(ts, i - 1), fail(r, NULL, "out of memory");
            ts = grown;
        }
        memset(&ts[i - 1], 0, sizeof *ts);
        if (read_tensor(r, i - 1, &ts[i - 1])) return sc_tensors_free(ts, i), -1;
    }
    if (more == 0) return *out = ts, *count = i, 0;
    return sc_tensors_free(ts, i), -1;
}

/* Reads the file whole (at most SC_MAX_FILE bytes), then its document. */
int sc_tensors_read(const char *path, sc_file_tensor **tensors, size_t *count, char *error,
                    size_t error_size) {
    reader r = {0};
    char *text = NULL;
    FILE *file;
    long size = -1;
    int status = 0;
    r.path = path ? path : "sc_tensors_read", r.err = error, r.errsize = error_size;
    if (error && error_size) error[0] = '\0';
    if (!path || !tensors || !count) return fail(&r, NULL, "a NULL argument");
    if (*tensors = NULL, *count = 0, (file = fopen(path, "rb")) == NULL)
        return fail(&r, NULL, "cannot open: %s", strerror(errno));
    if ((getc(file) == EOF && ferror(file)) || fseek(file, 0, SEEK_END) != 0 ||
        (size = ftell(file)) < 0 || fseek(file, 0, SEEK_SET) != 0)
        status = fail(&r, NULL, "cannot read: %s", strerror(errno));
    else if ((uint64_t)size > SC_MAX_FILE || (uint64_t)size > SIZE_MAX - 1)
        status = fail(&r, NULL, "larger than 4 GiB, refused");
    else if ((text = malloc((size_t)size + 1)) == NULL)
        status = fail(&r, NULL, "out of memory for %ld bytes", size);
    else if ((r.n = fread(text, 1, (size_t)size, file)) != (size_t)size)
        status = fail(&r, NULL, "cannot read: %s", ferror(file) ? strerror(errno) : "it shrank");
    if (fclose(file), status == 0)
        text[r.n] = '\0', r.s = text, status = read_document(&r, tensors, count);
    return free(text), status;
}

void sc_tensors_free(sc_file_tensor *tensors, size_t count) {
    for (size_t i = 0; tensors && i < count; i++) free(tensors[i].name), free(tensors[i].data);
    free(tensors);
}

static int check_tensor(reader *w, const sc_file_tensor *t) {
    size_t size = sc_dtype_size(t->dtype);
    int64_t count = t->rank < 0 || t->rank > SC_MAX_RANK ? -1 : element_count(t);
    if ((w->tname = t->name) == NULL) return fail(w, "name", "NULL");
    if (!size) return fail(w, "dtype", "unknown element type %d", (int)t->dtype);
    if (count < 0) return fail(w, "shape", "needs 0 to 16 dims >= 0, their product within int64");
    if ((uint64_t)count > UINT64_MAX / size || (uint64_t)count * size != t->bytes ||
        (t->bytes && !t->data))
        return fail(w, "data", "%" PRIu64 " bytes at %p, but the shape needs %" PRId64 " x %zu",
                    t->bytes, t->data, count, size);
    return 0;
}

/* The shortest %.{6..9}g (f64: %.{15..17}g) that reads back to v, and not beyond the type's
 * largest finite value (which a reader refuses), else the exact %.17g; NaN as null. */
static int put_real(FILE *f, double v, sc_dtype type) {
    char text[48];
    int single = type != SC_DTYPE_F64;
    if (v != v || v > DBL_MAX || v < -DBL_MAX)
        return fputs(v != v ? "null" : v > 0 ? "\"inf\"" : "\"-inf\"", f);
    for (int p = single ? 6 : 15; p <= 17; p += single && p == 9 ? 8 : 1) {
        double back = (snprintf(text, sizeof text, "%.*g", p, v), strtod(text, NULL));
        if ((single ? (float)back == (float)v : back == v) &&
            (back < 0 ? -back : back) <= largest_finite[type])
            break;
    }
    return fputs(text, f);
}

static void put_element(FILE *f, sc_dtype type, const unsigned char *p) {
    size_t size = sc_dtype_size(type);
    uint64_t u = load_le(p, size), mask = size == 8 ? UINT64_MAX : ((uint64_t)1 << (size * 8)) - 1;
    if (is_float(type))
        put_real(f, type == SC_DTYPE_F64 ? ((pun64){.u = u}).f
                    : type == SC_DTYPE_F16 ? half_to_float((uint32_t)u)
                    : bits_float((uint32_t)(type == SC_DTYPE_BF16 ? u << 16 : u)), type);
    else if (type == SC_DTYPE_BOOL) putc(u ? '1' : '0', f);
    else if (is_signed(type) && u >> (size * 8 - 1)) fprintf(f, "-%" PRIu64, (~u & mask) + 1);
    else fprintf(f, "%" PRIu64, u);
}

static void put_tensor(FILE *f, const sc_file_tensor *t, size_t index) {
    static const char special[] = "\"\\\b\f\n\r\t", letter[] = "\"\\bfnrt";
    size_t size = sc_dtype_size(t->dtype), n = (size_t)(t->bytes / size);
    fputs(index ? ",\n    {\"name\": \"" : "\n    {\"name\": \"", f);
    for (const char *s = t->name, *hit; *s; s++) {
        if ((hit = strchr(special, *s)) != NULL) fprintf(f, "\\%c", letter[hit - special]);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned)*s);
        else putc(*s, f);
    }
    fprintf(f, "\", \"dtype\": \"%s\", \"shape\": [", sc_dtype_name(t->dtype));
    for (int32_t d = 0; d < t->rank; d++) fprintf(f, d ? ", %" PRId64 : "%" PRId64, t->shape[d]);
    fputs("], \"data\": [", f);
    for (size_t i = 0; i < n && !ferror(f); i++) {
        if (i) fputs(", ", f);
        put_element(f, t->dtype, (const unsigned char *)t->data + i * size);
    }
    fputs("]}", f);
}

int sc_tensors_write(const char *path, const sc_file_tensor *tensors, size_t count, char *error,
                     size_t error_size) {
    reader w = {0};
    FILE *f;
    int failure = 0;
    w.path = path ? path : "sc_tensors_write", w.err = error, w.errsize = error_size;
    if (error && error_size) error[0] = '\0';
    if (!path || (count && !tensors)) return fail(&w, NULL, "a NULL argument");
    for (size_t k = 0; k < count; k++)
        if (w.tindex = k, check_tensor(&w, &tensors[k])) return -1;
    if ((f = fopen(path, "wb")) == NULL) return fail(&w, NULL, "cannot write: %s", strerror(errno));
    errno = 0;
    fputs("{\n  \"format\": \"stagecraft-tensors\",\n  \"version\": 1,\n  \"tensors\": [", f);
    for (size_t k = 0; k < count && !ferror(f); k++) put_tensor(f, &tensors[k], k);
    fputs("\n  ]\n}\n", f);
    if (ferror(f)) failure = errno ? errno : EIO;
    if (fclose(f) != 0 && !failure) failure = errno ? errno : EIO;
    return failure ? fail(&w, NULL, "cannot write: %s", strerror(failure)) : 0;
}
