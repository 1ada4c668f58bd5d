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
 *     Three tiles (ss_one_*), the smallest that holds n, since a pass takes as long as the tile's
 *     keys take to rank, real or padding; peers found by a shared-memory OR, fewer instructions a
 *     key than the ballots where one block is all there is.
 *   - one cooperative grid (n up to ss_grid_max_n, and no more than the device's resident blocks hold,
 *     a tile each; 2048-key tiles up to 2^15, 4096-key tiles past it): each block sorts its tile per
 *     digit as above, writes its digit counts to a table, and the grid waits at a grid-wide barrier;
 *     each block then adds up, for each digit, the counts of the blocks before it and of all blocks
 *     (from 32 blocks a warp per digit, its lanes reading the digit's row side by side; below, a
 *     thread per digit walking its row),
 *     which places its tile's runs in the output, scatters them, and waits at the barrier again.
 *     Two barriers a digit instead of a launch, and no histogram or look-back.
 *   - s5 up to 2^20 (s12_mid): its tiles are smaller than s10's and s11's, so at these sizes more SMs
 *     get one, and it has no route kernel; the ladder's best step (s12_large) for the rest.
 * Why it is faster: at these sizes a sort's time is its critical path, and a launch is the longest
 * link of it.  One block has no launch after its first and no global pass; the grid's barriers cost
 * less than the launches they replace, and its tiles are read and written once a digit, as the
 * ladder's are.
 * What still limits it: the one-block sort is one SM's: its passes are a barrier-separated chain of
 * ranking, scans and exchange, and a tile ranks its padding as keys (costly under the OR: every pad
 * has one digit), so above a few thousand keys a tile's passes cost more than a launch.  The grid's
 * table is read by every block in full: G blocks read G x 256 counts a digit, which grows as G
 * squared; ss_grid_max_n stops it where the ladder's passes, whose look-back reads only a few
 * predecessors, take over.  The grid needs all its blocks resident (a cooperative launch refuses
 * otherwise), so its largest n is the device's. */
#include "small_sort.cuh"

/* the one-block tiles, smallest first; the grids' tiles, 2048 keys at four blocks an SM up to
 * ss_grid_small_max_n, then 4096 at two (twice the keys a block, half the blocks whose counts every
 * block reads).  All find peers by the shared-memory OR (a grid's tiles are full but the last, so its
 * padding costs little).  The tuning table below has the other shapes, and each with s9's ballots. */
typedef ss_with_or_peers<ss_tile<256, 4>> ss_one_1k;
typedef ss_with_or_peers<ss_tile<512, 4>> ss_one_2k;
typedef ss_with_or_peers<ss_tile<512, 8>> ss_one_4k;
typedef ss_with_or_peers<ss_tile<256, 8, 4>> ss_grid_small_tile;
typedef ss_with_or_peers<ss_tile<512, 8, 2>> ss_grid_tile;

/* the small-tile grid's largest n, and the grid's: past them the table's G^2 reads cost more than the
 * larger tile (H200) and than the ladder's passes (4-byte keys alone, pairs, 8-byte keys) */
static constexpr size_t ss_grid_small_max_n = (size_t)1 << 15;
template <int KT, bool PAIRS>
static constexpr size_t ss_grid_max_n()
{
    return KT == RADIX_U64 ? (size_t)1 << 16 : PAIRS ? (size_t)1 << 18 : (size_t)1 << 17;
}

/* past the grids: s5's tiles, smaller than s11's, keep every SM busy up to ss_mid_max_n; s11 after */
static constexpr size_t ss_mid_max_n = (size_t)1 << 20;

/* a tile's label, from its knobs */
template <class P>
static int ss_label_shape(char *b, size_t len)
{
    return snprintf(b, len, "%d x %d", P::TBS, P::KPT);
}
template <class P>
static int ss_label_tile(char *b, size_t len)
{
    const int m = ss_label_shape<P>(b, len);
    return m + snprintf(b + m, len - m, " peers=%s", P::MATCH == RK_MATCH_OR ? "or" : "lop3");
}

/* the step's label, written from the tiles and limits above before main() runs (the ladder's C table
 * holds its address) */

static int ss_label_step(char *b, size_t len)
{
    static_assert(ss_one_1k::MATCH == RK_MATCH_OR && ss_one_2k::MATCH == RK_MATCH_OR &&
                      ss_one_4k::MATCH == RK_MATCH_OR && ss_grid_small_tile::MATCH == RK_MATCH_OR &&
                      ss_grid_tile::MATCH == RK_MATCH_OR,
                  "the label says every tile finds peers by the OR");
    int m = snprintf(b, len, "one block: ");
    m += ss_label_shape<ss_one_1k>(b + m, len - m);
    m += snprintf(b + m, len - m, ", ");
    m += ss_label_shape<ss_one_2k>(b + m, len - m);
    m += snprintf(b + m, len - m, ", ");
    m += ss_label_shape<ss_one_4k>(b + m, len - m);
    m += snprintf(b + m, len - m, "; cooperative grid of ");
    m += ss_label_shape<ss_grid_small_tile>(b + m, len - m);
    m += snprintf(b + m, len - m, " tiles (%d blocks/SM) to 2^%d, of ", ss_grid_small_tile::MIN_BLOCKS,
                  __builtin_ctzll(ss_grid_small_max_n));
    m += ss_label_shape<ss_grid_tile>(b + m, len - m);
    return m + snprintf(b + m, len - m,
                        " (%d blocks/SM) to 2^%d keys, 2^%d pairs, 2^%d 64-bit keys; peers by shared-memory "
                        "OR; s5 to 2^%d; then s11",
                        ss_grid_tile::MIN_BLOCKS, __builtin_ctzll(ss_grid_max_n<RADIX_U32, false>()),
                        __builtin_ctzll(ss_grid_max_n<RADIX_U32, true>()),
                        __builtin_ctzll(ss_grid_max_n<RADIX_U64, false>()), __builtin_ctzll(ss_mid_max_n));
}
char radix_s12_param[RADIX_PARAM_LEN];
[[maybe_unused]] static const int ss_label_written = ss_label_step(radix_s12_param, sizeof radix_s12_param);

/* the steps that take the sizes past the grids: s5 up to ss_mid_max_n, then the ladder's best step for
 * large n (one name, for the ladder to repoint) */
struct ss_step {
    radix_sort_fn run;
    radix_scratch_fn scratch_bytes;
};
static const ss_step s12_mid = {radix_s5_onesweep, radix_s5_onesweep_scratch};
static const ss_step s12_large = {radix_large_sort, radix_large_sort_scratch};

/* f(policy) for the one-block path p's tile */
template <class F>
static auto ss_on_tile(int p, F f)
{
    if (p == RADIX_S12_ONE_1K) return f(ss_one_1k{});
    if (p == RADIX_S12_ONE_2K) return f(ss_one_2k{});
    return f(ss_one_4k{});
}

/* 1 when a one-block tile P fits this device, its shared memory limit raised (once per device) */
template <class P, int KT, bool PAIRS>
static int ss_block_fits()
{
    static int attr_dev = 0, memo = 0;
    constexpr size_t smem = ss_smem<P, KT, PAIRS>();
    if (!radix_block_fits(ss_block_kernel<P, KT, PAIRS>, smem, &memo)) return 0;
    if (radix_smem_attr(ss_block_kernel<P, KT, PAIRS>, smem, &attr_dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return 1;
}

/* the grid of tiles P's most blocks on this device (its resident blocks, kit_occupancy: the KIT_DEVICE
 * profile's when one is active), asked once per device; 0 when a block does not fit or cooperative
 * launches are not supported */
template <class P, int KT, bool PAIRS>
static size_t ss_grid_blocks()
{
    static int attr_dev = 0, memo_dev = 0, fit_memo = 0;
    static size_t memo = 0;
    constexpr size_t smem = ss_smem<P, KT, PAIRS>() + ss_grid_extra<P>();
    const kit_device *d;
    int dev = 0, coop = 0, per_sm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) goto none;
    if (memo_dev == dev + 1) return memo;
    if (kit_device_get(&d) != cudaSuccess || !radix_block_fits(ss_grid_kernel<P, KT, PAIRS>, smem, &fit_memo) ||
        radix_smem_attr(ss_grid_kernel<P, KT, PAIRS>, smem, &attr_dev) != cudaSuccess ||
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
    if (n <= ss_one_2k::TILE && ss_block_fits<ss_one_2k, KT, PAIRS>()) return RADIX_S12_ONE_2K;
    if (n <= ss_one_4k::TILE && ss_block_fits<ss_one_4k, KT, PAIRS>()) return RADIX_S12_ONE_4K;
    if (n <= ss_grid_small_max_n && n <= ss_grid_blocks<ss_grid_small_tile, KT, PAIRS>() * ss_grid_small_tile::TILE)
        return RADIX_S12_GRID_2K;
    if (n <= ss_grid_max_n<KT, PAIRS>() && n <= ss_grid_blocks<ss_grid_tile, KT, PAIRS>() * ss_grid_tile::TILE)
        return RADIX_S12_GRID_4K;
    return n <= ss_mid_max_n ? RADIX_S12_MID : RADIX_S12_LARGE;
}

static int ss_path_rt(size_t n, int type, int pairs)
{
    return ss_on_width(type, (int)RADIX_S12_LARGE, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        return pairs ? ss_path<KT, true>(n) : ss_path<KT, false>(n);
    });
}

/* the grid's scratch: the alternate keys (and values), then the table, a row of RADIX x G counts for
 * each pass of the widest bit range */
template <class P>
static size_t ss_grid_scratch(size_t n, int type, int pairs)
{
    const size_t g = (n + P::TILE - 1) / P::TILE;
    const size_t passes = (size_t)radix_key_bits(type) / P::DIGIT_BITS;
    return radix_alt_bytes(n, type, pairs) + radix_round256(passes * P::RADIX * g * sizeof(unsigned));
}

extern "C" size_t radix_s12_small_sort_scratch(size_t n, int type, int pairs)
{
    if (n > RADIX_MAX_N || type < 0 || type >= RADIX_NTYPES) return 0;
    switch (ss_path_rt(n, type, pairs)) {
    case RADIX_S12_ONE_1K:
    case RADIX_S12_ONE_2K:
    case RADIX_S12_ONE_4K: return 0;
    case RADIX_S12_GRID_2K: return ss_grid_scratch<ss_grid_small_tile>(n, type, pairs);
    case RADIX_S12_GRID_4K: return ss_grid_scratch<ss_grid_tile>(n, type, pairs);
    case RADIX_S12_MID: return s12_mid.scratch_bytes(n, type, pairs);
    default: return s12_large.scratch_bytes(n, type, pairs);
    }
}

extern "C" size_t radix_s12_limit(int type, int pairs, int path)
{
    return ss_on_width(type, (size_t)0, [&](auto kt) -> size_t {
        constexpr int KT = decltype(kt)::value;
        auto lim = [&](auto pr) -> size_t {
            constexpr bool PAIRS = decltype(pr)::value;
            if (path == RADIX_S12_ONE_1K || path == RADIX_S12_ONE_2K || path == RADIX_S12_ONE_4K)
                return ss_on_tile(path, [&](auto t) -> size_t {
                    typedef decltype(t) P;
                    return ss_block_fits<P, KT, PAIRS>() ? P::TILE : 0;
                });
            if (path == RADIX_S12_GRID_2K) {
                const size_t g = ss_grid_blocks<ss_grid_small_tile, KT, PAIRS>() * ss_grid_small_tile::TILE;
                return g < ss_grid_small_max_n ? g : ss_grid_small_max_n;
            }
            if (path == RADIX_S12_GRID_4K) {
                const size_t g = ss_grid_blocks<ss_grid_tile, KT, PAIRS>() * ss_grid_tile::TILE;
                return g < ss_grid_max_n<KT, PAIRS>() ? g : ss_grid_max_n<KT, PAIRS>();
            }
            if (path == RADIX_S12_MID) return ss_mid_max_n;
            return 0;
        };
        return pairs ? lim(std::true_type{}) : lim(std::false_type{});
    });
}

/* one block of tile P sorts n <= P::TILE */
template <class P, int KT, bool PAIRS>
static cudaError_t ss_run_block(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                                size_t n, int type, int begin, int end, cudaStream_t s)
{
    typedef typename ss_width<KT>::key K;
    ss_block_kernel<P, KT, PAIRS><<<1, P::TBS, ss_smem<P, KT, PAIRS>(), s>>>(
        (const K *)keys_in, (K *)keys_out, vals_in, vals_out, (unsigned)n, type, begin, end);
    return cudaGetLastError();
}

/* one cooperative grid of tiles P sorts n (all its blocks resident) */
template <class P, int KT, bool PAIRS>
static cudaError_t ss_run_grid(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                               size_t n, int type, int begin, int end, void *scratch, cudaStream_t s)
{
    typedef typename ss_width<KT>::key K;
    const size_t smem = ss_smem<P, KT, PAIRS>() + ss_grid_extra<P>();
    const unsigned g = (unsigned)((n + P::TILE - 1) / P::TILE), un = (unsigned)n;
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

/* the checks and the trivial cases of every step, then f(kt, pairs) on the key width */
template <class F>
static cudaError_t ss_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                           size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s, F f)
{
    int work;
    KIT_TRY(radix_begin(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0, s, &work));
    if (!work) return cudaSuccess;
    return ss_on_width(type, cudaErrorInvalidValue, [&](auto kt) {
        return vals_in ? f(kt, std::true_type{}) : f(kt, std::false_type{});
    });
}

extern "C" cudaError_t radix_s12_small_sort(const void *keys_in, void *keys_out, const uint32_t *vals_in,
                                           uint32_t *vals_out, size_t n, int type, int begin_bit, int end_bit,
                                           void *scratch, cudaStream_t s)
{
    int path;
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    path = ss_path_rt(n, type, vals_in != NULL);
    if (path == RADIX_S12_MID)
        return s12_mid.run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    if (path == RADIX_S12_LARGE)
        return s12_large.run(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    return ss_sort(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s,
                   [&](auto kt, auto pr) {
                       constexpr int KT = decltype(kt)::value;
                       constexpr bool PAIRS = decltype(pr)::value;
                       if (path == RADIX_S12_GRID_2K)
                           return ss_run_grid<ss_grid_small_tile, KT, PAIRS>(keys_in, keys_out, vals_in, vals_out, n,
                                                                             type, begin_bit, end_bit, scratch, s);
                       if (path == RADIX_S12_GRID_4K)
                           return ss_run_grid<ss_grid_tile, KT, PAIRS>(keys_in, keys_out, vals_in, vals_out, n, type,
                                                                       begin_bit, end_bit, scratch, s);
                       return ss_on_tile(path, [&](auto t) {
                           return ss_run_block<decltype(t), KT, PAIRS>(keys_in, keys_out, vals_in, vals_out, n, type,
                                                                       begin_bit, end_bit, s);
                       });
                   });
}

/* kernel's resources for the demo's columns, its shared memory limit raised first (*attr_dev: the
 * caller's memo) */
template <class F>
static cudaError_t ss_describe(kit_kernel_desc *d, F *kernel, int threads, size_t smem, int *attr_dev)
{
    KIT_TRY(radix_smem_attr(kernel, smem, attr_dev));
    d->func = (const void *)kernel;
    d->block_threads = threads;
    d->dyn_smem = smem;
    return cudaSuccess;
}

/* the one-block kernel of 4096 keys */
extern "C" cudaError_t radix_s12_describe(kit_kernel_desc *d)
{
    static int attr_dev = 0;
    return ss_describe(d, ss_block_kernel<ss_one_4k, RADIX_U32, false>, ss_one_4k::TBS,
                       ss_smem<ss_one_4k, RADIX_U32, false>(), &attr_dev);
}

/* ---- tuning table: one block of each shape, with peers by ballots (LOP3) or the OR; grids of other
 * tiles.  A row forces its path where n fits it (a one-block row: n <= its tile; a grid row: n <=
 * ss_tune_grid_max_n and the resident tiles) and hands every other n to s12, so that every row takes
 * every n (radix.h). */

static constexpr size_t ss_tune_grid_max_n = (size_t)1 << 18;

template <class P>
static size_t ss_tune_block_scratch(size_t n, int type, int pairs)
{
    return n <= P::TILE ? 0 : radix_s12_small_sort_scratch(n, type, pairs);
}

template <class P>
static cudaError_t ss_tune_block(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                                 size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    if (n > P::TILE)
        return radix_s12_small_sort(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    return ss_sort(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s,
                   [&](auto kt, auto pr) {
                       constexpr int KT = decltype(kt)::value;
                       constexpr bool PAIRS = decltype(pr)::value;
                       if (!ss_block_fits<P, KT, PAIRS>()) {
                           kit_set_unsupported("a %u-key block does not fit", P::TILE);
                           return cudaErrorInvalidConfiguration;
                       }
                       return ss_run_block<P, KT, PAIRS>(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit,
                                                         end_bit, s);
                   });
}

/* 1 when the grid of tiles P takes n (keys of type type, pairs or not) on this device */
template <class P>
static int ss_tune_grid_takes(size_t n, int type, int pairs)
{
    if (n > ss_tune_grid_max_n) return 0;
    return ss_on_width(type, 0, [&](auto kt) {
        constexpr int KT = decltype(kt)::value;
        const size_t g = pairs ? ss_grid_blocks<P, KT, true>() : ss_grid_blocks<P, KT, false>();
        return n <= g * P::TILE ? 1 : 0;
    });
}

template <class P>
static size_t ss_tune_grid_scratch(size_t n, int type, int pairs)
{
    if (n > RADIX_MAX_N || type < 0 || type >= RADIX_NTYPES) return 0;
    return ss_tune_grid_takes<P>(n, type, pairs) ? ss_grid_scratch<P>(n, type, pairs)
                                                 : radix_s12_small_sort_scratch(n, type, pairs);
}

template <class P>
static cudaError_t ss_tune_grid(const void *keys_in, void *keys_out, const uint32_t *vals_in, uint32_t *vals_out,
                                size_t n, int type, int begin_bit, int end_bit, void *scratch, cudaStream_t s)
{
    KIT_TRY(radix_check(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch,
                        RADIX_TYPES_ALL, 0));
    if (!ss_tune_grid_takes<P>(n, type, vals_in != NULL))
        return radix_s12_small_sort(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s);
    return ss_sort(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit, end_bit, scratch, s,
                   [&](auto kt, auto pr) {
                       constexpr int KT = decltype(kt)::value;
                       constexpr bool PAIRS = decltype(pr)::value;
                       return ss_run_grid<P, KT, PAIRS>(keys_in, keys_out, vals_in, vals_out, n, type, begin_bit,
                                                        end_bit, scratch, s);
                   });
}

/* a row's kernel (4-byte keys alone), for the demo's resource columns */
template <class P>
static cudaError_t ss_describe_block(kit_kernel_desc *d)
{
    static int attr_dev = 0;
    return ss_describe(d, ss_block_kernel<P, RADIX_U32, false>, P::TBS, ss_smem<P, RADIX_U32, false>(), &attr_dev);
}
template <class P>
static cudaError_t ss_describe_grid(kit_kernel_desc *d)
{
    static int attr_dev = 0;
    return ss_describe(d, ss_grid_kernel<P, RADIX_U32, false>, P::TBS,
                       ss_smem<P, RADIX_U32, false>() + ss_grid_extra<P>(), &attr_dev);
}

template <class P>
static const char *ss_label_block()
{
    static char b[160];
    if (!b[0]) {
        int m = snprintf(b, sizeof b, "one block: ");
        m += ss_label_tile<P>(b + m, sizeof b - m);
        snprintf(b + m, sizeof b - m, "; s12 past it");
    }
    return b;
}
template <class P>
static const char *ss_label_grid()
{
    static char b[160];
    if (!b[0]) {
        int m = snprintf(b, sizeof b, "cooperative grid: ");
        m += ss_label_tile<P>(b + m, sizeof b - m);
        snprintf(b + m, sizeof b - m, " tiles, %d blocks/SM; s12 past 2^%d or the resident tiles", P::MIN_BLOCKS,
                 __builtin_ctzll(ss_tune_grid_max_n));
    }
    return b;
}

#define SS_FILE "chapters/05-radix-sort/s12_small_sort.cu"
#define SS_BLOCK_ROW(...)                                                                                   \
    {{"s12_small_sort", ss_label_block<__VA_ARGS__>(), "one block sorts n <= its tile in shared memory",       \
      SS_FILE, NULL, KIT_STEP_GPU, ss_describe_block<__VA_ARGS__>, 0, 0},                                       \
     ss_tune_block_scratch<__VA_ARGS__>, ss_tune_block<__VA_ARGS__>, RADIX_TYPES_ALL, 8}
#define SS_GRID_ROW(...)                                                                                    \
    {{"s12_small_sort", ss_label_grid<__VA_ARGS__>(), "a cooperative grid of tiles, two grid barriers a digit", \
      SS_FILE, NULL, KIT_STEP_GPU, ss_describe_grid<__VA_ARGS__>, 0, 0},                                     \
     ss_tune_grid_scratch<__VA_ARGS__>, ss_tune_grid<__VA_ARGS__>, RADIX_TYPES_ALL, 8}

/* the rows' runs in table order, named before the table: the kernels they launch are then instantiated
 * (and laid out in the module) in that order, before the describes below name them again; a layout
 * that follows the table keeps each kernel's static shared memory where its measured build had it */
[[maybe_unused]] static const radix_sort_fn ss_tune_order[] = {
    ss_tune_block<ss_tile<256, 4>>,
    ss_tune_block<ss_one_1k>,
    ss_tune_block<ss_with_or_peers<ss_tile<512, 2>>>,
    ss_tune_block<ss_tile<512, 4>>,
    ss_tune_block<ss_one_2k>,
    ss_tune_block<ss_with_or_peers<ss_tile<256, 8>>>,
    ss_tune_block<ss_with_or_peers<ss_tile<1024, 2>>>,
    ss_tune_block<ss_tile<512, 8>>,
    ss_tune_block<ss_one_4k>,
    ss_tune_block<ss_with_or_peers<ss_tile<1024, 4>>>,
    ss_tune_block<ss_with_or_peers<ss_tile<256, 16>>>,
    ss_tune_grid<ss_tile<256, 8, 4>>,
    ss_tune_grid<ss_tile<512, 8, 2>>,
    ss_tune_grid<ss_grid_small_tile>,
    ss_tune_grid<ss_grid_tile>,
    ss_tune_grid<ss_tile<256, 16, 2>>};

extern "C" const radix_step radix_small_variants[RADIX_SMALL_NVARIANTS] = {
    /* 1024 keys */
    SS_BLOCK_ROW(ss_tile<256, 4>),
    SS_BLOCK_ROW(ss_one_1k),
    SS_BLOCK_ROW(ss_with_or_peers<ss_tile<512, 2>>),
    /* 2048 keys */
    SS_BLOCK_ROW(ss_tile<512, 4>),
    SS_BLOCK_ROW(ss_one_2k),
    SS_BLOCK_ROW(ss_with_or_peers<ss_tile<256, 8>>),
    SS_BLOCK_ROW(ss_with_or_peers<ss_tile<1024, 2>>),
    /* 4096 keys */
    SS_BLOCK_ROW(ss_tile<512, 8>),
    SS_BLOCK_ROW(ss_one_4k),
    SS_BLOCK_ROW(ss_with_or_peers<ss_tile<1024, 4>>),
    SS_BLOCK_ROW(ss_with_or_peers<ss_tile<256, 16>>),
    /* grids */
    SS_GRID_ROW(ss_tile<256, 8, 4>),
    SS_GRID_ROW(ss_tile<512, 8, 2>),
    SS_GRID_ROW(ss_grid_small_tile),
    SS_GRID_ROW(ss_grid_tile),
    SS_GRID_ROW(ss_tile<256, 16, 2>),
};
