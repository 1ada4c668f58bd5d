/* s12 - small sorts: a sort that fits one block is one launch of one block, and a sort that fits the
 * GPU's resident blocks is one launch of a cooperative grid; larger sorts are the ladder's best step's.
 *
 * What changed versus s11: below a few hundred thousand keys the ladder's sorts are bound by their
 * launches, not by their bytes or instructions: a histogram kernel, a route kernel and one kernel per
 * digit pass, each paying its launch and the tail of the one before, for a few microseconds of work.
 * s12 chooses, at run time, from n, the key's width, pairs or keys alone and what this GPU's blocks can
 * hold (its shared memory per block and the resident blocks a grid may count on):
 *   - one block (n <= 4096, where such a block fits): the block loads the array once, sorts it
 *     digit by digit in shared memory (per digit: each warp ranks its keys on its own counters, the
 *     counters are scanned, every key and value moves to its place in the tile), and stores it once.
 *     Nothing but the input and the output is touched in global memory, and there is no scratch.
 *     Two tiles (ss_one_*), the smaller where it holds n, since a tile's passes take longer the more
 *     keys its block ranks.
 *   - one cooperative grid (n up to ss_grid_max_n, and no more than the device's resident blocks hold,
 *     a tile each): each block sorts its tile per digit as above, writes its digit counts to a table,
 *     and the grid waits at a grid-wide barrier; each block then adds up, for each digit, the counts of
 *     the blocks before it and of all blocks, which places its tile's runs in the output, scatters
 *     them, and waits at the barrier again.  Two barriers a digit instead of a launch, and no
 *     histogram or look-back.
 *   - the ladder's best step (s12_large) for the rest.
 * Why it is faster: at these sizes a sort's time is its critical path, and a launch is the longest
 * link of it.  One block has no launch after its first and no global pass; the grid's barriers cost
 * less than the launches they replace, and its tiles are read and written once a digit, as the
 * ladder's are.
 * What still limits it: the one-block sort is one SM's: its passes are latency (a barrier-separated
 * chain of ranking, scans and exchange) and its load and store one SM's bandwidth, so above a few
 * thousand keys a tile's passes cost more than a launch.  The grid's table is read by every block in
 * full: G blocks read G x 256 counts a digit, which grows as G squared; ss_grid_max_n stops it where
 * the ladder's passes, whose look-back reads only a few predecessors, take over.  The grid needs all
 * its blocks resident (a cooperative launch refuses otherwise), so its largest n is the device's. */
#include "small_sort.cuh"

/* the one-block tiles, smallest first, and the grid's tile.  A larger one-block tile (1024 x 16 keys,
 * 1024 x 8 pairs) was slower on the H200 than the grid of a few 512 x 8 tiles at more keys: one SM
 * ranks its keys at the rate of one SM. */
typedef ss_tile<256, 4> ss_one_1k;
typedef ss_tile<512, 8> ss_one_4k;
typedef ss_tile<512, 8, 2> ss_grid_tile; /* two blocks an SM: twice the resident tiles */

/* the grid's largest n: past it the table's G^2 reads cost more than the ladder's passes (H200: 4-byte
 * keys alone, pairs, 8-byte keys) */
template <int KT, bool PAIRS>
static constexpr size_t ss_grid_max_n()
{
    return KT == RADIX_U64 ? (size_t)1 << 16 : PAIRS ? (size_t)1 << 18 : (size_t)1 << 17;
}

extern "C" const char radix_s12_param[] =
    "one block: 256 x 4, 512 x 8; cooperative grid of 512 x 8 tiles up to 2^17 keys, 2^18 pairs, 2^16 "
    "64-bit keys; then s11";

/* the ladder's best step, which takes the sizes s12 does not: one name, for the ladder to repoint */
static const struct {
    radix_sort_fn run;
    radix_scratch_fn scratch_bytes;
} s12_large = {radix_large_sort, radix_large_sort_scratch};

/* f(policy) for the one-block path p's tile */
template <class F>
static auto ss_on_tile(int p, F f)
{
    if (p == RADIX_S12_ONE_1K) return f(ss_one_1k{});
    return f(ss_one_4k{});
}

/* the kernel's dynamic shared memory limit set to smem once per device (done_dev: a static of the
 * caller's), whatever smem is: radix_smem_attr leaves it alone up to 48 KB of dynamic shared memory,
 * where these kernels' static shared memory still takes them past the default limit */
template <class F>
static cudaError_t ss_optin(F *kernel, size_t smem, int *done_dev)
{
    int dev = 0;
    KIT_TRY(cudaGetDevice(&dev));
    if (*done_dev == dev + 1) return cudaSuccess;
    KIT_TRY(kit_smem_optin((const void *)kernel, smem));
    *done_dev = dev + 1;
    return cudaSuccess;
}

/* the kernels' shared memory limits raised once per device; 1 when a block fits */
template <class P, int KT, bool PAIRS>
static int ss_block_fits()
{
    static int attr_dev = 0, memo = 0;
    constexpr size_t smem = ss_smem<P, KT, PAIRS>();
    if (!radix_block_fits(ss_block_kernel<P, KT, PAIRS>, smem, &memo)) return 0;
    if (ss_optin(ss_block_kernel<P, KT, PAIRS>, smem, &attr_dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return 1;
}

/* the grid's most blocks on this device (its resident blocks, kit_occupancy: the KIT_DEVICE profile's
 * when one is active), asked once per device; 0 when a block does not fit or cooperative launches are
 * not supported */
template <int KT, bool PAIRS>
static size_t ss_grid_blocks()
{
    typedef ss_grid_tile P;
    static int attr_dev = 0, memo_dev = 0, fit_memo = 0;
    static size_t memo = 0;
    constexpr size_t smem = ss_smem<P, KT, PAIRS>() + ss_grid_extra<P>();
    const kit_device *d;
    int dev = 0, coop = 0, per_sm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) goto none;
    if (memo_dev == dev + 1) return memo;
    if (kit_device_get(&d) != cudaSuccess || !radix_block_fits(ss_grid_kernel<P, KT, PAIRS>, smem, &fit_memo) ||
        ss_optin(ss_grid_kernel<P, KT, PAIRS>, smem, &attr_dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev) != cudaSuccess ||
        kit_occupancy(&per_sm, (const void *)ss_grid_kernel<P, KT, PAIRS>, P::TBS, smem) != cudaSuccess)
        goto none;
    memo = coop ? (size_t)per_sm * (size_t)d->sms : 0;
    memo_dev = dev + 1;
    return memo;
none:
    (void)cudaGetLastError();
    return 0;
}

/* the path n takes (keys of type type, pairs or not) on this device */
template <int KT, bool PAIRS>
static int ss_path(size_t n)
{
    if (n <= ss_one_1k::TILE && ss_block_fits<ss_one_1k, KT, PAIRS>()) return RADIX_S12_ONE_1K;
    if (n <= ss_one_4k::TILE && ss_block_fits<ss_one_4k, KT, PAIRS>()) return RADIX_S12_ONE_4K;
    if (n <= ss_grid_max_n<KT, PAIRS>() && n <= ss_grid_blocks<KT, PAIRS>() * ss_grid_tile::TILE)
        return RADIX_S12_GRID;
    return RADIX_S12_LARGE;
}

static int ss_path_rt(size_t n, int type, int pairs)
{
    /* the 32-bit types share their kernels (the images are sorted as u32) */
    const int w = type == RADIX_U64 ? RADIX_U64 : RADIX_U32;
    return radix_on_type<(1u << RADIX_U32) | (1u << RADIX_U64)>(w, (int)RADIX_S12_LARGE, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        return pairs ? ss_path<KT, true>(n) : ss_path<KT, false>(n);
    });
}

/* the grid's scratch: the alternate keys (and values), then the table, a row of RADIX x G counts for
 * each pass of the widest bit range */
static size_t ss_grid_scratch(size_t n, int type, int pairs)
{
    const size_t g = (n + ss_grid_tile::TILE - 1) / ss_grid_tile::TILE;
    const size_t passes = (size_t)radix_key_bits(type) / ss_grid_tile::DIGIT_BITS;
    return radix_alt_bytes(n, type, pairs) + radix_round256(passes * ss_grid_tile::RADIX * g * sizeof(unsigned));
}

extern "C" size_t radix_s12_small_sort_scratch(size_t n, int type, int pairs)
{
    if (n > RADIX_MAX_N || type < 0 || type >= RADIX_NTYPES) return 0;
    switch (ss_path_rt(n, type, pairs)) {
    case RADIX_S12_ONE_1K:
    case RADIX_S12_ONE_4K: return 0;
    case RADIX_S12_GRID: return ss_grid_scratch(n, type, pairs);
    default: return s12_large.scratch_bytes(n, type, pairs);
    }
}

extern "C" size_t radix_s12_limit(int type, int pairs, int path)
{
    const int w = type == RADIX_U64 ? RADIX_U64 : RADIX_U32;
    return radix_on_type<(1u << RADIX_U32) | (1u << RADIX_U64)>(w, (size_t)0, [&](auto kt) -> size_t {
        constexpr int KT = decltype(kt)::value;
        auto lim = [&](auto pr) -> size_t {
            constexpr bool PAIRS = decltype(pr)::value;
            if (path == RADIX_S12_ONE_1K) return ss_block_fits<ss_one_1k, KT, PAIRS>() ? ss_one_1k::TILE : 0;
            if (path == RADIX_S12_ONE_4K) return ss_block_fits<ss_one_4k, KT, PAIRS>() ? ss_one_4k::TILE : 0;
            if (path == RADIX_S12_GRID) {
                const size_t g = ss_grid_blocks<KT, PAIRS>() * ss_grid_tile::TILE;
                return g < ss_grid_max_n<KT, PAIRS>() ? g : ss_grid_max_n<KT, PAIRS>();
            }
            return 0;
        };
        return pairs ? lim(std::true_type{}) : lim(std::false_type{});
    });
}

template <int KT, bool PAIRS>
static cudaError_t ss_run(int path, const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                          size_t n, int type, int begin, int end, void *scratch, cudaStream_t s)
{
    typedef typename ss_width<KT>::key K;
    const unsigned un = (unsigned)n;
    if (path != RADIX_S12_GRID) {
        return ss_on_tile(path, [&](auto t) {
            typedef decltype(t) P;
            ss_block_kernel<P, KT, PAIRS><<<1, P::TBS, ss_smem<P, KT, PAIRS>(), s>>>(
                (const K *)keys_in, (K *)keys_out, vals_in, vals_out, un, type, begin, end);
            return cudaGetLastError();
        });
    }
    typedef ss_grid_tile P;
    const size_t smem = ss_smem<P, KT, PAIRS>() + ss_grid_extra<P>();
    const unsigned g = (unsigned)((n + P::TILE - 1) / P::TILE);
    radix_carve c = {(char *)scratch, 0};
    K *alt = (K *)radix_take(&c, n * sizeof(K));
    uint32_t *alt_vals = PAIRS ? (uint32_t *)radix_take(&c, n * 4) : NULL;
    unsigned *table = (unsigned *)radix_take(&c, 0);
    const K *ki = (const K *)keys_in;
    K *ko = (K *)keys_out;
    void *args[] = {&ki, &ko, &alt, &vals_in, &vals_out, &alt_vals, &table, (void *)&un, &type, &begin, &end};
    KIT_TRY(cudaLaunchCooperativeKernel((const void *)ss_grid_kernel<P, KT, PAIRS>, dim3(g), dim3(P::TBS), args,
                                        smem, s));
    return cudaSuccess;
}

extern "C" cudaError_t radix_s12_small_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                           uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                           void *scratch, cudaStream_t s)
{
    int work, path;
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    path = ss_path_rt(n, type, vals_in != NULL);
    if (path == RADIX_S12_LARGE)
        return s12_large.run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    const int w = type == RADIX_U64 ? RADIX_U64 : RADIX_U32;
    return radix_dispatch_type<(1u << RADIX_U32) | (1u << RADIX_U64)>(w, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        if (vals_in) return ss_run<KT, true>(path, keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit,
                                             scratch, s);
        return ss_run<KT, false>(path, keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    });
}

/* the one-block kernel of 4096 keys (the demo's resource columns) */
extern "C" cudaError_t radix_s12_describe(kit_kernel_desc *d)
{
    static int attr_dev = 0;
    constexpr size_t smem = ss_smem<ss_one_4k, RADIX_U32, false>();
    KIT_TRY(ss_optin(ss_block_kernel<ss_one_4k, RADIX_U32, false>, smem, &attr_dev));
    d->func = (const void *)ss_block_kernel<ss_one_4k, RADIX_U32, false>;
    d->block_threads = ss_one_4k::TBS;
    d->dyn_smem = smem;
    return cudaSuccess;
}
