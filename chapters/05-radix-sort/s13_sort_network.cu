/* s13 - a sorting network for small sorts of keys alone: a block of n <= 4096 keys sorted by compares
 * in registers instead of four radix passes through shared memory; everything else is s12's.
 *
 * What changed versus s12: s12's one-block sort still makes one radix pass per digit, and each pass
 * is a chain through shared memory: every key ORs its warp's mask word, reads it back, its run's
 * leader bumps a counter, the counters are scanned, the key moves to its rank, and barriers separate
 * the phases.  Random digits put a warp's 32 accesses of each such step into the same few banks, so
 * the block spends its passes waiting on shared memory.  s13 sorts keys alone over every bit with a
 * bitonic network (sort_network.cuh): each warp's 32 x KPT keys are sorted in registers and
 * shuffles, with no shared memory and no barrier; only the merges across warps go through shared
 * memory, log2 KPT stages a barrier.  A network is not stable, which keys alone over every bit allow: two
 * keys with equal images are the same key.  Pairs and partial bit ranges need the stable radix
 * passes and go to s12, as does every n past the network's tiles.
 * Why it is faster: a thread's compares depend only on registers and on its partner lane, so the
 * warps run without waiting on each other until the tile outgrows a warp; the radix passes, a few
 * instructions a key, pay for each in shared-memory rounds and barriers.
 * What still limits it: a network does about n log^2 n / 4 compares, against the radix passes' n a
 * digit, all issued by one SM, so the lead shrinks as the tile grows (s14 spreads it over a cluster).
 * Pairs would need a stable network: a key and its position compared as one 64-bit word, the values
 * fetched by position at the end; in one block the tuning table's rows of it win only at 1024 pairs. */
#include "sort_network.cuh"

/* the network's tiles, smallest first: n takes the smallest that holds it (past the largest, s12) */
typedef sn_tile<256, 4, SN_MERGE_GROUPS, 2> sn_net_1k;
typedef sn_tile<512, 4, SN_MERGE_GROUPS, 2> sn_net_2k;
typedef sn_tile<512, 8, SN_MERGE_GROUPS, 2> sn_net_4k;

/* f(policy) for the network path p's tile */
template <class F>
static auto sn_on_tile(int p, F f)
{
    if (p == RADIX_S13_NET_1K) return f(sn_net_1k{});
    if (p == RADIX_S13_NET_2K) return f(sn_net_2k{});
    return f(sn_net_4k{});
}

/* 1 when the network of tile P fits this device (its static shared memory; asked once per device) */
template <class P, int KT>
static int sn_fits()
{
    static int memo = 0;
    return radix_block_fits(sn_block_kernel<P, KT>, 0, &memo);
}

/* the path n takes for keys alone on every bit of width KT: the smallest network tile that holds n,
 * or s12 past the largest tile or where that tile does not fit */
template <int KT>
static int sn_path(size_t n)
{
    int p;
    if (n > sn_net_4k::TILE) return RADIX_S13_S12;
    p = n <= sn_net_1k::TILE ? RADIX_S13_NET_1K : n <= sn_net_2k::TILE ? RADIX_S13_NET_2K : RADIX_S13_NET_4K;
    return sn_on_tile(p, [](auto t) { return sn_fits<decltype(t), KT>(); }) ? p : RADIX_S13_S12;
}

template <class P>
static int sn_label_shape(char *b, size_t len)
{
    return snprintf(b, len, "%d x %d%s", P::TBS, P::KPT, P::MERGE == SN_MERGE_STAGES ? " a stage a barrier" : "");
}

static int sn_label_step(char *b, size_t len)
{
    int m = snprintf(b, len, "keys alone, every bit: bitonic network in one block of ");
    m += sn_label_shape<sn_net_1k>(b + m, len - m);
    m += snprintf(b + m, len - m, ", ");
    m += sn_label_shape<sn_net_2k>(b + m, len - m);
    m += snprintf(b + m, len - m, ", ");
    m += sn_label_shape<sn_net_4k>(b + m, len - m);
    return m + snprintf(b + m, len - m, "; merges past a warp in rounds of log2(keys a thread) stages; else s12");
}
char radix_s13_param[RADIX_PARAM_LEN];
[[maybe_unused]] static const int sn_label_written = sn_label_step(radix_s13_param, sizeof radix_s13_param);

/* the path of this sort: a network for keys alone on every bit, else s12 */
static int sn_path_rt(size_t n, int type, int pairs, int begin_bit, int end_bit)
{
    if (pairs || begin_bit != 0 || end_bit != radix_key_bits(type)) return RADIX_S13_S12;
    return ss_on_width(type, (int)RADIX_S13_S12, [&](auto kt) { return sn_path<decltype(kt)::value>(n); });
}

/* s12's scratch: s13 may hand any sort of this n to it (the scratch query has no bit range); the network
 * uses none of it */
extern "C" size_t radix_s13_sort_network_scratch(size_t n, int type, int pairs)
{
    return radix_s12_small_sort_scratch(n, type, pairs);
}

extern "C" size_t radix_s13_limit(int type, int path)
{
    if (path < RADIX_S13_NET_1K || path > RADIX_S13_NET_4K || type < 0 || type >= RADIX_NTYPES) return 0;
    return ss_on_width(type, (size_t)0, [&](auto kt) -> size_t {
        const size_t top = sn_on_tile(path, [](auto t) { return (size_t)decltype(t)::TILE; });
        return sn_path<decltype(kt)::value>(top) == path ? top : 0;
    });
}

/* one block of tile P sorts n <= P::TILE keys (checked, and keys alone on every bit) */
template <class P>
static cudaError_t sn_run(const void *keys_in, void *keys_out, size_t n, int type, cudaStream_t s)
{
    if (n == 0) return cudaSuccess;
    return ss_on_width(type, cudaErrorInvalidValue, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        typedef typename ss_width<KT>::key K;
        sn_block_kernel<P, KT><<<1, P::TBS, 0, s>>>((const K *)keys_in, (K *)keys_out, (unsigned)n, type);
        return cudaGetLastError();
    });
}

extern "C" cudaError_t radix_s13_sort_network(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                             uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                             void *scratch, cudaStream_t s)
{
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    const int path = sn_path_rt(n, type, vals_in != NULL, begin_bit, end_bit);
    if (path == RADIX_S13_S12)
        return radix_s12_small_sort(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    return sn_on_tile(path, [&](auto p) { return sn_run<decltype(p)>(keys_in, keys_out, n, type, s); });
}

/* the network of 4096 keys, for the demo's resource columns */
extern "C" cudaError_t radix_s13_describe(kit_kernel_desc *d)
{
    d->func = (const void *)sn_block_kernel<sn_net_4k, RADIX_U32>;
    d->block_threads = sn_net_4k::TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* ---- tuning table: the network in other tiles.  A row takes keys alone on every bit up to its tile
 * and hands every other sort to s13 (radix.h: every row takes every n). */
template <class P>
static cudaError_t sn_tune(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    if (n > P::TILE || vals_in || begin_bit != 0 || end_bit != radix_key_bits(type))
        return radix_s13_sort_network(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    if (!ss_on_width(type, 0, [](auto kt) { return sn_fits<P, decltype(kt)::value>(); })) {
        kit_set_unsupported("a %u-key network does not fit", P::TILE);
        return cudaErrorInvalidConfiguration;
    }
    return sn_run<P>(keys_in, keys_out, n, type, s);
}

/* the same for pairs of 32-bit keys on every bit, by the (key, position) network */
template <class P>
static cudaError_t sn_tune_pairs(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                                 size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    static int memo = 0;
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    if (n > P::TILE || !vals_in || type == RADIX_U64 || begin_bit != 0 || end_bit != 32)
        return radix_s13_sort_network(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    if (!radix_block_fits(sn_pairs_kernel<P>, 0, &memo)) {
        kit_set_unsupported("a %u-pair network does not fit", P::TILE);
        return cudaErrorInvalidConfiguration;
    }
    if (n == 0) return cudaSuccess;
    sn_pairs_kernel<P><<<1, P::TBS, 0, s>>>((const uint32_t *)keys_in, (uint32_t *)keys_out, vals_in, vals_out,
                                            (unsigned)n, type);
    return cudaGetLastError();
}

template <class P>
static cudaError_t sn_describe_tile(kit_kernel_desc *d)
{
    d->func = (const void *)sn_block_kernel<P, RADIX_U32>;
    d->block_threads = P::TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* a row's label: its tile, and for the pairs rows how they compare */
template <class P, bool PAIRS>
static const char *sn_label_row()
{
    static char b[96];
    if (!b[0]) {
        int m = snprintf(b, sizeof b, PAIRS ? "network, pairs as (key, position) words: " : "network: ");
        m += sn_label_shape<P>(b + m, sizeof b - m);
        snprintf(b + m, sizeof b - m, "; s13 past it");
    }
    return b;
}

#define SN_ROW_OF(PAIRS, WHAT, RUN, ...)                                                                \
    {{"s13_sort_network", sn_label_row<__VA_ARGS__, PAIRS>(), WHAT, "chapters/05-radix-sort/s13_sort_network.cu", \
      NULL, KIT_STEP_GPU, sn_describe_tile<__VA_ARGS__>, 0, 0},                                             \
     radix_s13_sort_network_scratch, RUN<__VA_ARGS__>, RADIX_TYPES_ALL, 0}
#define SN_ROW(...) SN_ROW_OF(false, "one block sorts n <= its tile by a network", sn_tune, __VA_ARGS__)
#define SN_PAIRS_ROW(...) \
    SN_ROW_OF(true, "one block sorts n <= its tile of pairs by a network", sn_tune_pairs, __VA_ARGS__)

extern "C" const radix_step radix_network_variants[RADIX_NETWORK_NVARIANTS] = {
    SN_ROW(sn_tile<128, 8, SN_MERGE_GROUPS, 2>),  SN_ROW(sn_net_1k), SN_ROW(sn_tile<256, 4>),    /* 1024 keys */
    SN_ROW(sn_tile<256, 8, SN_MERGE_GROUPS, 2>),  SN_ROW(sn_net_2k), SN_ROW(sn_tile<512, 4>),    /* 2048 keys */
    SN_ROW(sn_tile<256, 16, SN_MERGE_GROUPS, 2>), SN_ROW(sn_net_4k), SN_ROW(sn_tile<512, 8>),    /* 4096 keys */
    SN_ROW(sn_tile<1024, 4, SN_MERGE_GROUPS, 2>),
    SN_PAIRS_ROW(sn_net_1k),  SN_PAIRS_ROW(sn_net_2k),  SN_PAIRS_ROW(sn_net_4k), /* pairs, stable */
};
