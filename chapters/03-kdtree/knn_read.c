/* knn_read.c - reading point files for the real-cloud inputs: OFF, PLY (ascii, binary little
 * or big endian) and XYZ; the first three coordinates of every vertex, nothing else.  A binary
 * PLY that ends inside its vertex list gives the complete vertices before the end; vertices
 * with a coordinate that is not a finite float are dropped. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knn.h"

#define LINE 4096

static int fail(char *msg, size_t len, const char *path, const char *why)
{
    if (msg && len) snprintf(msg, len, "%s: %s", path, why);
    return -1;
}

/* append (x, y, z) to a growing array; a vertex with a coordinate that is not a finite float
 * (assimp's pond.0.ply has NaN ones: no return of the scanner) is dropped */
static int push3(float **xyz, size_t *n, size_t *cap, double x, double y, double z)
{
    if (!(fabs(x) <= FLT_MAX && fabs(y) <= FLT_MAX && fabs(z) <= FLT_MAX)) return 0;
    if (*n == *cap) {
        const size_t c = *cap ? 2 * *cap : 4096;
        float *p = (float *)realloc(*xyz, c * 3 * sizeof(float));
        if (!p) return -1;
        *xyz = p;
        *cap = c;
    }
    (*xyz)[*n * 3 + 0] = (float)x;
    (*xyz)[*n * 3 + 1] = (float)y;
    (*xyz)[*n * 3 + 2] = (float)z;
    (*n)++;
    return 0;
}

/* the next line that is not blank and not a '#' comment; 0 at the end */
static int next_line(FILE *f, char *line)
{
    while (fgets(line, LINE, f)) {
        const char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (*p && *p != '#') return 1;
    }
    return 0;
}

/* up to max numbers from a line; how many */
static int numbers(const char *p, double *v, int max)
{
    int k = 0;
    char *end;
    while (k < max) {
        const double x = strtod(p, &end);
        if (end == p) break;
        v[k++] = x;
        p = end;
    }
    return k;
}

static int read_xyz(FILE *f, const char *path, float **xyz, size_t *n, char *msg, size_t len)
{
    char line[LINE];
    double v[3];
    size_t cap = 0;
    while (next_line(f, line)) {
        if (numbers(line, v, 3) < 3) return fail(msg, len, path, "a line with fewer than 3 numbers");
        if (push3(xyz, n, &cap, v[0], v[1], v[2])) return fail(msg, len, path, "out of memory");
    }
    return 0;
}

static int read_off(FILE *f, const char *path, float **xyz, size_t *n, char *msg, size_t len)
{
    char line[LINE], *p;
    double v[3];
    size_t cap = 0, nv, i;
    int k;
    if (!next_line(f, line)) return fail(msg, len, path, "empty");
    p = strstr(line, "OFF");
    if (!p) return fail(msg, len, path, "no OFF keyword");
    p += 3;
    k = numbers(p, v, 3); /* counts may follow the keyword on its line */
    if (k == 0) {
        if (!next_line(f, line)) return fail(msg, len, path, "no counts");
        k = numbers(line, v, 3);
    }
    if (k < 1 || v[0] < 0 || v[0] > 4e9) return fail(msg, len, path, "bad vertex count");
    nv = (size_t)v[0];
    for (i = 0; i < nv; i++) {
        if (!next_line(f, line) || numbers(line, v, 3) < 3) return fail(msg, len, path, "short vertex list");
        if (push3(xyz, n, &cap, v[0], v[1], v[2])) return fail(msg, len, path, "out of memory");
    }
    return 0;
}

/* ------------------------------------------------------------------- PLY */

typedef struct ply_prop {
    char name[64];
    int size; /* bytes of a scalar; 0 for a list */
    int is_float, is_signed;
} ply_prop;

typedef struct ply_elem {
    char name[64];
    size_t count;
    ply_prop prop[32];
    int nprop;
} ply_elem;

static int ply_type(const char *t, ply_prop *p)
{
    static const struct { const char *name; int size, is_float, is_signed; } types[] = {
        {"char", 1, 0, 1},   {"int8", 1, 0, 1},    {"uchar", 1, 0, 0},   {"uint8", 1, 0, 0},
        {"short", 2, 0, 1},  {"int16", 2, 0, 1},   {"ushort", 2, 0, 0},  {"uint16", 2, 0, 0},
        {"int", 4, 0, 1},    {"int32", 4, 0, 1},   {"uint", 4, 0, 0},    {"uint32", 4, 0, 0},
        {"float", 4, 1, 1},  {"float32", 4, 1, 1}, {"double", 8, 1, 1},  {"float64", 8, 1, 1},
    };
    size_t i;
    for (i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcmp(t, types[i].name)) {
            p->size = types[i].size;
            p->is_float = types[i].is_float;
            p->is_signed = types[i].is_signed;
            return 0;
        }
    return -1;
}

/* one binary scalar as a double (swap: the file's byte order is not the host's) */
static double ply_scalar(const unsigned char *b, const ply_prop *p, int swap)
{
    unsigned char t[8];
    int i;
    for (i = 0; i < p->size; i++) t[i] = swap ? b[p->size - 1 - i] : b[i];
    if (p->is_float) {
        if (p->size == 4) {
            float f;
            memcpy(&f, t, 4);
            return f;
        } else {
            double d;
            memcpy(&d, t, 8);
            return d;
        }
    }
    switch (p->size) {
    case 1: return p->is_signed ? (double)(int8_t)t[0] : (double)t[0];
    case 2: {
        uint16_t u;
        memcpy(&u, t, 2);
        return p->is_signed ? (double)(int16_t)u : (double)u;
    }
    default: {
        uint32_t u;
        memcpy(&u, t, 4);
        return p->is_signed ? (double)(int32_t)u : (double)u;
    }
    }
}

static int read_ply(FILE *f, const char *path, float **xyz, size_t *n, char *msg, size_t len)
{
    char line[LINE], w1[64], w2[64], w3[64];
    ply_elem el[8];
    int nel = 0, format = -1, e, k; /* 0 ascii, 1 little endian, 2 big endian */
    const unsigned one = 1;
    const int host_little = *(const unsigned char *)&one == 1;
    size_t cap = 0, i;
    while (fgets(line, LINE, f)) {
        if (!strncmp(line, "end_header", 10)) break;
        if (sscanf(line, "%63s", w1) != 1) continue;
        if (!strcmp(w1, "format")) {
            if (sscanf(line, "%*s %63s", w2) != 1) return fail(msg, len, path, "bad format line");
            format = !strcmp(w2, "ascii") ? 0 : !strcmp(w2, "binary_little_endian") ? 1
                   : !strcmp(w2, "binary_big_endian") ? 2 : -1;
        } else if (!strcmp(w1, "element")) {
            double c;
            if (nel == 8 || sscanf(line, "%*s %63s %lf", el[nel].name, &c) != 2 || c < 0)
                return fail(msg, len, path, "bad element line");
            el[nel].count = (size_t)c;
            el[nel].nprop = 0;
            nel++;
        } else if (!strcmp(w1, "property")) {
            ply_prop *p;
            if (nel == 0 || el[nel - 1].nprop == 32) return fail(msg, len, path, "bad property line");
            p = &el[nel - 1].prop[el[nel - 1].nprop++];
            if (sscanf(line, "%*s %63s", w2) != 1) return fail(msg, len, path, "bad property line");
            if (!strcmp(w2, "list")) {
                if (sscanf(line, "%*s %*s %*s %*s %63s", w3) != 1) return fail(msg, len, path, "bad list");
                p->size = 0;
                snprintf(p->name, sizeof p->name, "%s", w3);
            } else {
                if (ply_type(w2, p) || sscanf(line, "%*s %*s %63s", p->name) != 1)
                    return fail(msg, len, path, "unknown property type");
            }
        }
    }
    if (format < 0) return fail(msg, len, path, "unknown PLY format");
    for (e = 0; e < nel; e++) {
        const int vertex = !strcmp(el[e].name, "vertex");
        int ix = -1, iy = -1, iz = -1, size = 0, fixed = 1;
        for (k = 0; k < el[e].nprop; k++) {
            const ply_prop *p = &el[e].prop[k];
            if (!strcmp(p->name, "x")) ix = k;
            if (!strcmp(p->name, "y")) iy = k;
            if (!strcmp(p->name, "z")) iz = k;
            if (p->size == 0) fixed = 0;
            size += p->size;
        }
        if (!vertex) { /* an element before the vertices: skip it */
            if (format == 0) {
                for (i = 0; i < el[e].count; i++)
                    if (!fgets(line, LINE, f)) return fail(msg, len, path, "short element");
            } else if (fixed) {
                if (fseek(f, (long)(el[e].count * (size_t)size), SEEK_CUR))
                    return fail(msg, len, path, "short");
            } else {
                return fail(msg, len, path, "a binary list element before the vertices");
            }
            continue;
        }
        if (ix < 0 || iy < 0 || iz < 0 || !fixed) return fail(msg, len, path, "vertex without x, y, z");
        for (i = 0; i < el[e].count; i++) {
            double v[32];
            if (format == 0) {
                if (!fgets(line, LINE, f) || numbers(line, v, el[e].nprop) < el[e].nprop)
                    return fail(msg, len, path, "short vertex line");
            } else {
                unsigned char b[256];
                int off = 0;
                if (size > (int)sizeof b) return fail(msg, len, path, "vertex record too large");
                /* a file shorter than its header says (assimp's pond.0.ply lacks 66 bytes):
                 * the complete vertices it has */
                if (fread(b, 1, (size_t)size, f) != (size_t)size)
                    return i > 0 ? 0 : fail(msg, len, path, "no vertex");
                for (k = 0; k < el[e].nprop; k++) {
                    v[k] = ply_scalar(b + off, &el[e].prop[k], (format == 1) != host_little);
                    off += el[e].prop[k].size;
                }
            }
            if (push3(xyz, n, &cap, v[ix], v[iy], v[iz])) return fail(msg, len, path, "out of memory");
        }
        return 0; /* the vertices are all we read */
    }
    return fail(msg, len, path, "no vertex element");
}

static int ends_with(const char *s, const char *suffix)
{
    const size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

int knn_read_points(const char *path, float **xyz, size_t *count, char *msg, size_t len)
{
    FILE *f = fopen(path, "rb");
    char head[8] = {0};
    int r;
    *xyz = NULL;
    *count = 0;
    if (!f) return fail(msg, len, path, "cannot open");
    if (fread(head, 1, 3, f) != 3) head[0] = 0;
    rewind(f);
    if (!strncmp(head, "ply", 3)) r = read_ply(f, path, xyz, count, msg, len);
    else if (ends_with(path, ".off") || ends_with(path, ".OFF")) r = read_off(f, path, xyz, count, msg, len);
    else r = read_xyz(f, path, xyz, count, msg, len);
    fclose(f);
    if (r != 0) {
        free(*xyz);
        *xyz = NULL;
        *count = 0;
    }
    return r;
}
