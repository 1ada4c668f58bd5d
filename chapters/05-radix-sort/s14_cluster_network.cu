/* s14 - s13's network spread over a cluster of blocks (sm_90 and later): 4096 32-bit keys on four SMs
 * instead of one, 64-bit keys on eight, and pairs by a stable network on up to eight; every other
 * sort is s13's.
 *
 * What changed versus s13: s13 sorts a tile in one block, so a 4096-key network runs on one SM, whose
 * four schedulers issue every compare of it, and pairs never take a network at all.  A thread-block
 * cluster (sm_90) is a group of blocks on neighbouring SMs that may read each other's shared memory
 * (distributed shared memory) and wait at one barrier.  s14 gives each block of the cluster a tile of
 * the network: the blocks sort their tiles as s13 does, then the merges across tiles pair element e
 * of one block with element e (or, the mirror stage, its mirror) of its partner block, which each
 * block reads from its partner's shared memory; the strides below a tile are again the block's own
 * (sort_network.cuh, sn_sort_cluster).  Pairs take the network as (key image, position) words, so that
 * equal keys keep their order, and fetch each value by position at the end.
 * Why it is faster: the network's compares spread over the cluster's SMs, and each block's tile is
 * small, most of its stages in registers; a merge across tiles costs one cluster barrier a stage,
 * which releases only shared memory (sn_sync).
 * What still limits it: every stage across tiles still waits for the slowest block of the cluster,
 * and a cluster of eight has six such stages where one of two has one; 64-bit words cost twice the
 * compares and shuffles of keys, so pairs spread over more SMs. */
#include "sort_network.cuh"

/* the tiles a cluster's blocks sort, how many blocks, and how they wait for each other */
template <class P, int CL_, sn_sync SYNC_ = SN_SYNC_SHARED>
struct sn_cluster {
    typedef P tile;
    static constexpr int CL = CL_;
    static constexpr sn_sync SYNC = SYNC_;
    static constexpr unsigned N = CL_ * P::TILE;
    static_assert(CL_ >= 2 && CL_ <= 8 && (CL_ & (CL_ - 1)) == 0, "a portable cluster of 2, 4 or 8 blocks");
};
typedef sn_cluster<sn_tile<256, 4, SN_MERGE_GROUPS, 2>, 4> sc_keys_4k;  /* 32-bit keys alone */
typedef sn_cluster<sn_tile<128, 4, SN_MERGE_GROUPS, 2>, 8> sc_wide_4k;  /* 64-bit keys alone */
typedef sn_cluster<sn_tile<256, 4, SN_MERGE_GROUPS, 2>, 2> sc_pairs_2k; /* pairs, to 2048 */
typedef sn_cluster<sn_tile<256, 2, SN_MERGE_GROUPS, 2>, 8> sc_pairs_4k; /* pairs, to 4096 */

/* the kernel of cluster C for key type KT, keys alone or pairs */
template <class C, int KT, bool PAIRS>
static const void *sc_kernel()
{
    if constexpr (PAIRS) return (const void *)sn_cluster_pairs_kernel<typename C::tile, C::CL, C::SYNC>;
    else return (const void *)sn_cluster_kernel<typename C::tile, C::CL, C::SYNC, KT>;
}

/* 1 when this device runs cluster C's kernel (radix_cluster_fits: sm_90 or later, the kernel built for
 * it, a whole cluster resident at once); asked once per device */
template <class C, int KT, bool PAIRS>
static int sc_fits()
{
    static int memo = 0;
    return radix_cluster_fits(sc_kernel<C, KT, PAIRS>(), C::CL, C::tile::TBS, 0, &memo);
}

/* f(cluster) for path p of width KT, keys alone or pairs (RADIX_S14_S13: none) */
template <int KT, bool PAIRS, class R, class F>
static R sc_on_path(int p, R other, F f)
{
    if constexpr (PAIRS) {
        if (p == RADIX_S14_NET_2K) return f(sc_pairs_2k{});
        if (p == RADIX_S14_NET_4K) return f(sc_pairs_4k{});
    } else if (p == RADIX_S14_NET_4K) {
        if constexpr (KT == RADIX_U64) return f(sc_wide_4k{});
        else return f(sc_keys_4k{});
    }
    return other;
}

/* the path n takes: past 2048 32-bit keys alone, or past 1024 64-bit keys or pairs (below, s13's one
 * block is as fast, and pairs are s12's), the smallest cluster that holds n; s13 where none does or
 * where it does not fit */
template <int KT, bool PAIRS>
static int sc_path(size_t n)
{
    const size_t low = PAIRS || KT == RADIX_U64 ? 1024 : 2048;
    int p;
    if (n <= low || n > sc_pairs_4k::N) return RADIX_S14_S13;
    p = PAIRS && n <= sc_pairs_2k::N ? RADIX_S14_NET_2K : RADIX_S14_NET_4K;
    return sc_on_path<KT, PAIRS>(p, 0, [](auto c) { return sc_fits<decltype(c), KT, PAIRS>(); }) ? p : RADIX_S14_S13;
}

/* the path of this sort at run time: only every bit of 32-bit keys (alone or with values) or of
 * 64-bit keys alone */
static int sc_path_rt(size_t n, int type, int pairs, int begin_bit, int end_bit)
{
    if (begin_bit != 0 || end_bit != radix_key_bits(type) || (pairs && type == RADIX_U64)) return RADIX_S14_S13;
    return ss_on_width(type, (int)RADIX_S14_S13, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        return pairs ? sc_path<KT, true>(n) : sc_path<KT, false>(n);
    });
}

static int sc_label_step(char *b, size_t len)
{
    auto shape = [&](int m, auto c) {
        typedef decltype(c) C;
        return snprintf(b + m, len - m, "%d x (%d x %d)", C::CL, C::tile::TBS, C::tile::KPT);
    };
    int m = snprintf(b, len, "cluster (sm_90+) of blocks sharing one network: keys alone ");
    m += shape(m, sc_keys_4k{});
    m += snprintf(b + m, len - m, ", 64-bit ");
    m += shape(m, sc_wide_4k{});
    m += snprintf(b + m, len - m, ", pairs as (key, position) words ");
    m += shape(m, sc_pairs_2k{});
    m += snprintf(b + m, len - m, ", ");
    m += shape(m, sc_pairs_4k{});
    return m + snprintf(b + m, len - m, "; else s13");
}
char radix_s14_param[RADIX_PARAM_LEN];
[[maybe_unused]] static const int sc_label_written = sc_label_step(radix_s14_param, sizeof radix_s14_param);

/* s13's scratch (which is s12's): s14 may hand any sort of this n to it; the clusters use none */
extern "C" size_t radix_s14_cluster_network_scratch(size_t n, int type, int pairs)
{
    return radix_s13_sort_network_scratch(n, type, pairs);
}

extern "C" size_t radix_s14_limit(int type, int pairs, int path)
{
    if (path < RADIX_S14_NET_2K || path > RADIX_S14_NET_4K || type < 0 || type >= RADIX_NTYPES) return 0;
    if (pairs && type == RADIX_U64) return 0;
    return ss_on_width(type, (size_t)0, [&](auto kt) -> size_t {
        constexpr int KT = decltype(kt)::value;
        auto top = [&](auto pr) -> size_t {
            constexpr bool PR = decltype(pr)::value;
            const size_t t = sc_on_path<KT, PR>(path, (size_t)0, [](auto c) { return (size_t)decltype(c)::N; });
            return t && sc_path<KT, PR>(t) == path ? t : 0;
        };
        return pairs ? top(std::true_type{}) : top(std::false_type{});
    });
}

/* cluster C sorts n <= C::N keys (or pairs) */
template <class C, int KT, bool PAIRS>
static cudaError_t sc_run(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                          size_t n, int type, cudaStream_t s)
{
    typedef typename ss_width<KT>::key K;
    typedef typename C::tile P;
    if constexpr (PAIRS)
        return radix_launch_cluster(sn_cluster_pairs_kernel<P, C::CL, C::SYNC>, C::CL, P::TBS, 0, s,
                                    (const uint32_t *)keys_in, (uint32_t *)keys_out, vals_in, vals_out, (unsigned)n,
                                    type);
    else
        return radix_launch_cluster(sn_cluster_kernel<P, C::CL, C::SYNC, KT>, C::CL, P::TBS, 0, s,
                                    (const K *)keys_in, (K *)keys_out, (unsigned)n, type);
}

extern "C" cudaError_t radix_s14_cluster_network(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                                uint32_t *vals_out, size_t n, int type, int begin_bit,
                                                int end_bit, void *scratch, cudaStream_t s)
{
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    const bool pairs = vals_in != NULL;
    const int path = sc_path_rt(n, type, pairs, begin_bit, end_bit);
    if (path == RADIX_S14_S13)
        return radix_s13_sort_network(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                                      s);
    return ss_on_width(type, cudaErrorInvalidValue, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        auto run = [&](auto pr) {
            constexpr bool PR = decltype(pr)::value;
            return sc_on_path<KT, PR>(path, cudaErrorInvalidValue, [&](auto c) {
                return sc_run<decltype(c), KT, PR>(keys_in, keys_out, vals_in, vals_out, n, type, s);
            });
        };
        return pairs ? run(std::true_type{}) : run(std::false_type{});
    });
}

/* one block of the 4096-key cluster, for the demo's resource columns */
extern "C" cudaError_t radix_s14_describe(kit_kernel_desc *d)
{
    d->func = (const void *)sn_cluster_kernel<sc_keys_4k::tile, sc_keys_4k::CL, sc_keys_4k::SYNC, RADIX_U32>;
    d->block_threads = sc_keys_4k::tile::TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

/* ---- tuning table: other clusters.  A row takes its sorts (keys alone of either width, or pairs of
 * 32-bit keys, on every bit) up to its cluster's n and hands every other sort to s14. */
template <class C, bool PAIRS>
static cudaError_t sc_tune(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    if (n > C::N || (vals_in != NULL) != PAIRS || (PAIRS && type == RADIX_U64) || begin_bit != 0 ||
        end_bit != radix_key_bits(type))
        return radix_s14_cluster_network(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                                         s);
    return ss_on_width(type, cudaErrorInvalidValue, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        if (!sc_fits<C, KT, PAIRS>()) {
            kit_set_unsupported("a cluster of %d blocks does not run on this device", C::CL);
            return cudaErrorInvalidConfiguration;
        }
        if (n == 0) return cudaSuccess;
        return sc_run<C, KT, PAIRS>(keys_in, keys_out, vals_in, vals_out, n, type, s);
    });
}

template <class C>
static cudaError_t sc_describe_row(kit_kernel_desc *d)
{
    d->func = (const void *)sn_cluster_kernel<typename C::tile, C::CL, C::SYNC, RADIX_U32>;
    d->block_threads = C::tile::TBS;
    d->dyn_smem = 0;
    return cudaSuccess;
}

template <class C, bool PAIRS>
static const char *sc_label_row()
{
    static char b[128];
    if (!b[0])
        snprintf(b, sizeof b, "cluster %d x (%d x %d), %s%s; s14 past it", C::CL, C::tile::TBS, C::tile::KPT,
                 PAIRS ? "pairs as (key, position) words" : "keys alone",
                 C::SYNC == SN_SYNC_CLUSTER ? ", cluster.sync() between stages" : "");
    return b;
}

#define SC_CLUSTER(CL, TBS, KPT, SYNC) sn_cluster<sn_tile<TBS, KPT, SN_MERGE_GROUPS, 2>, CL, SYNC>
#define SC_ROW(PAIRS, CL, TBS, KPT, SYNC)                                                                      \
    {{"s14_cluster_network", sc_label_row<SC_CLUSTER(CL, TBS, KPT, SYNC), PAIRS>(),                          \
      PAIRS ? "a cluster of blocks sorts n <= its tiles of pairs by one network"                               \
            : "a cluster of blocks sorts n <= its tiles by one network",                                       \
      "chapters/05-radix-sort/s14_cluster_network.cu", NULL, KIT_STEP_GPU,                                     \
      sc_describe_row<SC_CLUSTER(CL, TBS, KPT, SYNC)>, 0, 0},                                                  \
     radix_s14_cluster_network_scratch, sc_tune<SC_CLUSTER(CL, TBS, KPT, SYNC), PAIRS>, RADIX_TYPES_ALL, 0}

/* every shape for every sort up to its cluster's n (s14's own shapes too: below s14's thresholds
 * they show what a cluster would cost there), then two of s14's shapes with cooperative groups'
 * barrier between stages */
extern "C" const radix_step radix_cluster_variants[RADIX_CLUSTER_NVARIANTS] = {
    SC_ROW(false, 2, 256, 8, SN_SYNC_SHARED),  SC_ROW(false, 2, 512, 4, SN_SYNC_SHARED),
    SC_ROW(false, 4, 256, 4, SN_SYNC_SHARED),  SC_ROW(false, 8, 128, 4, SN_SYNC_SHARED),
    SC_ROW(false, 8, 256, 2, SN_SYNC_SHARED),  SC_ROW(true, 2, 512, 4, SN_SYNC_SHARED),
    SC_ROW(true, 4, 256, 4, SN_SYNC_SHARED),   SC_ROW(true, 8, 128, 4, SN_SYNC_SHARED),
    SC_ROW(false, 2, 512, 4, SN_SYNC_CLUSTER), SC_ROW(true, 8, 256, 2, SN_SYNC_CLUSTER),
};
