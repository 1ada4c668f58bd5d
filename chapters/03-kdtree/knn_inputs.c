/* knn_inputs.c - chapter 03's named inputs: synthetic point sets that stress different parts of
 * a kd-tree search (uniform, clustered, a surface, duplicates, collinear points, an exact
 * lattice) and four real point clouds.  Coordinates lie in (about) the unit cube; every input
 * exists in 2, 3 and 4 dimensions.  Same seed, same points. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knn.h"
#include "knn_problem.h"

const kit_input knn_inputs[KNN_NINPUTS] = {
    {"uniform", "points and queries uniform in the unit cube", KNN_IN_UNIFORM, 0},
    {"clustered", "points in 32 Gaussian blobs (sigma 0.01..0.04), queries uniform in the cube",
     KNN_IN_CLUSTERED, 0},
    {"surface", "points on a circle (2D), torus (3D) or flat torus (4D); queries near it", KNN_IN_SURFACE, 0},
    {"duplicates", "every point repeated about 8 times; half the queries on points", KNN_IN_DUPLICATES, 0},
    {"collinear", "points on one axis-parallel line (every other coordinate equal); queries near it",
     KNN_IN_COLLINEAR, 0},
    {"lattice", "points on a power-of-two grid; queries at grid points and cell centres (exact ties)",
     KNN_IN_LATTICE, 0},
    {"bunny", "the Stanford Bunny's 37706 vertices (CGAL data; jittered copies past that)", KNN_IN_CLOUD,
     KNN_BUNNY},
    {"armadillo", "the Stanford Armadillo's 26002 vertices (CGAL data)", KNN_IN_CLOUD, KNN_ARMADILLO},
    {"building", "a scanned building, 100000 points on planes (CGAL data)", KNN_IN_CLOUD, KNN_BUILDING},
    {"pond", "a 69409-point scanned cloud of the assimp test models", KNN_IN_CLOUD, KNN_POND},
};

/* ------------------------------------------------------------ the clouds */

static const float sample_bunny[] = {
#include "data/bunny.inc"
};
static const float sample_armadillo[] = {
#include "data/armadillo.inc"
};
static const float sample_building[] = {
#include "data/building.inc"
};
static const float sample_pond[] = {
#include "data/pond.inc"
};

typedef struct cloud_def {
    const char *file;   /* the package file's name, looked for in the data folders */
    const char *system; /* where the installed package keeps it (NULL: inside a tarball) */
    const char *source;
    const float *sample;
    size_t nsample;
} cloud_def;

#define CGAL_SRC "in /usr/share/doc/libcgal-dev/data.tar.gz of Debian's libcgal-demo 5.5.1-2 (CC0 1.0)"
static const cloud_def clouds[KNN_NCLOUDS] = {
    {"bunny00.off", NULL, "data/meshes/bunny00.off " CGAL_SRC, sample_bunny, sizeof sample_bunny / 12},
    {"armadillo.off", NULL, "data/meshes/armadillo.off " CGAL_SRC, sample_armadillo,
     sizeof sample_armadillo / 12},
    {"building.ply", NULL, "data/points_3/building.ply " CGAL_SRC, sample_building,
     sizeof sample_building / 12},
    {"pond.0.ply", "/usr/share/assimp/models/PLY/pond.0.ply",
     "/usr/share/assimp/models/PLY/pond.0.ply of Debian's assimp-testmodels 5.2.5 (BSD-3-clause)",
     sample_pond, sizeof sample_pond / 12},
};

typedef struct cloud_cache {
    int loaded, full;
    float *xyz; /* normalised, 3 per point */
    size_t n;
    char where[512];
} cloud_cache;
static cloud_cache cache[KNN_NCLOUDS];

const char *knn_cloud_source(knn_cloud c) { return (unsigned)c < KNN_NCLOUDS ? clouds[c].source : "?"; }

/* the package file, if one of the data folders has it: $KNN_DATA, $BUILDROOT/knn-data (what
 * tools/knn-data.sh fills), build/knn-data, then where the installed package keeps it */
static int find_file(const cloud_def *d, char *path, size_t len)
{
    const char *env = getenv("KNN_DATA"), *broot = getenv("BUILDROOT");
    char dirs[3][512];
    int k;
    snprintf(dirs[0], sizeof dirs[0], "%s", env ? env : "");
    snprintf(dirs[1], sizeof dirs[1], "%s/knn-data", broot && *broot ? broot : "build");
    snprintf(dirs[2], sizeof dirs[2], "build/knn-data");
    for (k = 0; k < 3; k++) {
        if (!dirs[k][0]) continue;
        snprintf(path, len, "%.500s/%.60s", dirs[k], d->file);
        if (access(path, R_OK) == 0) return 1;
    }
    if (d->system && access(d->system, R_OK) == 0) {
        snprintf(path, len, "%s", d->system);
        return 1;
    }
    return 0;
}

/* into the unit cube: minus the lower corner, over the largest extent (aspect kept) */
static void normalise(float *xyz, size_t n)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, ext = 0;
    size_t i;
    int a;
    for (i = 0; i < n; i++)
        for (a = 0; a < 3; a++) {
            const double v = xyz[3 * i + a];
            if (v < lo[a]) lo[a] = v;
            if (v > hi[a]) hi[a] = v;
        }
    for (a = 0; a < 3; a++)
        if (n && hi[a] - lo[a] > ext) ext = hi[a] - lo[a];
    if (!(ext > 0)) ext = 1;
    for (i = 0; i < n; i++)
        for (a = 0; a < 3; a++) xyz[3 * i + a] = (float)((xyz[3 * i + a] - lo[a]) / ext);
}

const float *knn_cloud_points(knn_cloud c, size_t *count, int *full, const char **where)
{
    cloud_cache *k;
    char path[600], msg[KIT_MSG];
    if ((unsigned)c >= KNN_NCLOUDS) {
        *count = 0;
        return NULL;
    }
    k = &cache[c];
    if (!k->loaded) {
        const cloud_def *d = &clouds[c];
        k->loaded = 1;
        if (find_file(d, path, sizeof path) && knn_read_points(path, &k->xyz, &k->n, msg, sizeof msg) == 0 &&
            k->n > 0) {
            k->full = 1;
            snprintf(k->where, sizeof k->where, "%.500s", path);
        } else {
            free(k->xyz);
            k->n = d->nsample;
            k->xyz = (float *)malloc(k->n * 3 * sizeof(float));
            if (k->xyz) memcpy(k->xyz, d->sample, k->n * 3 * sizeof(float));
            else k->n = 0;
            k->full = 0;
            snprintf(k->where, sizeof k->where,
                     "the committed sample (%zu points): %s not found (make deps-data, or KNN_DATA=dir)",
                     d->nsample, d->file);
        }
        if (k->xyz) normalise(k->xyz, k->n);
    }
    *count = k->n;
    if (full) *full = k->full;
    if (where) *where = k->where;
    return k->xyz;
}

/* ------------------------------------------------------------ generators */

/* uniform in [0, 1): 24 random bits, exactly representable */
static float unit(uint64_t *st) { return (float)(kit_rand64(st) >> 40) * (1.0f / 16777216.0f); }

/* a standard normal deviate (Box-Muller) */
static double normal(uint64_t *st)
{
    const double u1 = ((double)(kit_rand64(st) >> 11) + 1.0) / 9007199254740993.0;
    const double u2 = (double)(kit_rand64(st) >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static size_t below(uint64_t *st, size_t n) { return n ? (size_t)(kit_rand64(st) % n) : 0; }

/* a point of the surface input: dim 2 a circle, 3 a torus, 4 the flat (Clifford) torus */
static void surface_point(float *p, int dim, uint64_t *st)
{
    const double u = 6.283185307179586 * (double)unit(st), v = 6.283185307179586 * (double)unit(st);
    if (dim == 2) {
        p[0] = (float)(0.5 + 0.4 * cos(u));
        p[1] = (float)(0.5 + 0.4 * sin(u));
    } else if (dim == 3) {
        const double R = 0.3, r = 0.12;
        p[0] = (float)(0.5 + (R + r * cos(v)) * cos(u));
        p[1] = (float)(0.5 + (R + r * cos(v)) * sin(u));
        p[2] = (float)(0.5 + r * sin(v));
    } else {
        p[0] = (float)(0.5 + 0.35 * cos(u));
        p[1] = (float)(0.5 + 0.35 * sin(u));
        p[2] = (float)(0.5 + 0.35 * cos(v));
        p[3] = (float)(0.5 + 0.35 * sin(v));
    }
}

/* the lattice input's grid: G = the smallest power of two >= 2 with G^dim >= n, so a random
 * grid point is a coordinate c / G with c < G: exact, and so are the cell centres (c + 0.5) / G,
 * their differences and (for G <= 2^10) the squared distances: equidistant neighbours tie
 * exactly */
static unsigned lattice_side(size_t n, int dim)
{
    unsigned g = 2;
    for (;;) {
        double cells = 1;
        int a;
        for (a = 0; a < dim; a++) cells *= g;
        if (cells >= (double)n || g >= (1u << 20)) return g;
        g *= 2;
    }
}

#define NBLOBS 32

/* n points (or queries, is_query) of one input */
static void generate(float *out, size_t n, int dim, const kit_input *in, int is_query, size_t npoints,
                     uint64_t seed)
{
    uint64_t st = seed * 0x9E3779B97F4A7C15ull + (is_query ? 0x51ED27u : 0x2545Fu);
    uint64_t blob_st = seed * 0xD1B54A32D192ED03ull + 7u; /* the blobs: the same for points and queries */
    const int kind = in->arg;
    size_t i;
    int a;
    switch (kind) {
    case KNN_IN_CLUSTERED:
        if (!is_query) {
            float centre[NBLOBS][KNN_MAX_DIM], sigma[NBLOBS];
            int b;
            for (b = 0; b < NBLOBS; b++) {
                for (a = 0; a < dim; a++) centre[b][a] = 0.1f + 0.8f * unit(&blob_st);
                sigma[b] = 0.01f + 0.03f * unit(&blob_st);
            }
            for (i = 0; i < n; i++) {
                b = (int)below(&st, NBLOBS);
                for (a = 0; a < dim; a++)
                    out[i * (size_t)dim + (size_t)a] = (float)(centre[b][a] + sigma[b] * normal(&st));
            }
            return;
        }
        break; /* queries: uniform */
    case KNN_IN_SURFACE:
        for (i = 0; i < n; i++) {
            float *p = out + i * (size_t)dim;
            surface_point(p, dim, &st);
            if (is_query)
                for (a = 0; a < dim; a++) p[a] = (float)(p[a] + 0.02 * normal(&st));
        }
        return;
    case KNN_IN_DUPLICATES: {
        /* a pool of npoints / 8 distinct points, from its own seed so queries see the same pool */
        const size_t pool = npoints / 8 > 0 ? npoints / 8 : 1;
        for (i = 0; i < n; i++) {
            float *p = out + i * (size_t)dim;
            if (is_query && (kit_rand64(&st) & 1)) {
                for (a = 0; a < dim; a++) p[a] = unit(&st);
            } else {
                uint64_t ps = seed * 0x94D049BB133111EBull + below(&st, pool) * 0x9E3779B97F4A7C15ull;
                for (a = 0; a < dim; a++) p[a] = unit(&ps);
            }
        }
        return;
    }
    case KNN_IN_COLLINEAR: {
        /* queries near the line (sigma 0.001): far from it (uniform queries) the document's
         * one-plane trim cannot skip anything along the line and a query visits most nodes */
        static const float fixed[KNN_MAX_DIM] = {0.0f, 0.25f, 0.75f, 0.5f};
        for (i = 0; i < n; i++) {
            out[i * (size_t)dim] = unit(&st);
            for (a = 1; a < dim; a++)
                out[i * (size_t)dim + (size_t)a] = is_query ? (float)(fixed[a] + 0.001 * normal(&st)) : fixed[a];
        }
        return;
    }
    case KNN_IN_LATTICE: {
        const unsigned g = lattice_side(npoints, dim);
        for (i = 0; i < n; i++) {
            const float half = is_query && (kit_rand64(&st) & 1) ? 0.5f : 0.0f;
            for (a = 0; a < dim; a++)
                out[i * (size_t)dim + (size_t)a] = ((float)below(&st, g) + half) / (float)g;
        }
        return;
    }
    case KNN_IN_CLOUD: {
        size_t n0 = 0, j;
        const float *c = knn_cloud_points((knn_cloud)(int)in->value, &n0, NULL, NULL);
        const double sigma = n0 ? 0.25 / sqrt((double)n0) : 0; /* about a quarter of the spacing */
        uint32_t *perm = NULL;
        if (!c || n0 == 0) break; /* no cloud at all (out of memory): uniform */
        /* points: distinct cloud points in a random order while they last, then jittered
         * copies; queries: always jittered copies (near the surface, not on a point) */
        if (!is_query) {
            perm = (uint32_t *)malloc(n0 * sizeof *perm);
            if (perm) kit_permutation(perm, n0, seed);
        }
        for (i = 0; i < n; i++) {
            float *p = out + i * (size_t)dim;
            const int jitter = is_query || i >= n0 || !perm;
            j = !jitter ? perm[i] : below(&st, n0);
            for (a = 0; a < dim; a++)
                p[a] = a < 3 ? (float)(c[3 * j + (size_t)a] + (jitter ? sigma * normal(&st) : 0.0)) : 0.0f;
        }
        free(perm);
        return;
    }
    default: break;
    }
    for (i = 0; i < n * (size_t)dim; i++) out[i] = unit(&st); /* uniform */
}

void knn_fill(const kit_problem *P, kit_host *h, const kit_shape *sh, const kit_input *in, uint64_t seed)
{
    const int dim = knn_shape_dim(sh), all = knn_shape_all(sh);
    (void)P;
    generate((float *)h->buf[KNN_BUF_POINTS], sh->n, dim, in, 0, sh->n, seed);
    if (!all) generate((float *)h->buf[KNN_BUF_QUERIES], knn_shape_m(sh), dim, in, 1, sh->n, seed);
}
