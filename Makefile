# CUDA C course kit.  `make help` lists the targets; README.md explains them.
#
# Variables: CH=NN (one chapter), IMPL=solutions|exercises (where exercise steps
# come from), ARCH=sm_90 (override the detected GPU), CRITERION_DIR=prefix
# (Criterion from a folder), NANOFLANN_DIR=dir (chapter 03's nanoflann.hpp from a
# folder), QUICK=1 (short bench), EXP=a,b (bench experiments), N=2^24 (demo size),
# PUBLISH=1 (bench into plots/), CPU=cached|measure|none (CPU rows of bench, demo, walk),
# FROM=step / STEP=step / AUTO=1 (walk), SUBMISSION=dir / SUBMISSIONS=dir, EXERCISES=exNN_a,..
# and ASSIGNMENT=name (grading; CH=01,06 names several chapters).

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

CUDA ?= /usr/local/cuda
NVCC ?= $(CUDA)/bin/nvcc
CC := gcc
SANITIZER ?= $(CUDA)/bin/compute-sanitizer
IMPL ?= solutions
JOBS ?= $(shell nproc 2>/dev/null || echo 4)

ifeq ($(filter $(IMPL),solutions exercises),)
$(error IMPL must be 'solutions' or 'exercises', not '$(IMPL)')
endif

# ---------------------------------------------------------------- chapters
ALL_CHAPTERS := $(sort $(patsubst chapters/%/bench.c,%,$(wildcard chapters/[0-9][0-9]-*/bench.c)))
# CH=1, CH=01 and CH=01-copy (the form `make help` lists) name the same chapter; CH=01,06 names
# several (an assignment: `make grade CH=01,06`), and the programs built for them are named
# NN_MM (build/IMPL/bin/judge_01_06)
comma := ,
empty :=
space := $(empty) $(empty)
ifneq ($(filter -%,$(CH)),)
$(error CH=$(CH): no such chapter (have: $(ALL_CHAPTERS)))
endif
# EXERCISES=ex01_loadbalance,ex06_bitplane (grading an assignment) builds their chapters too
CH_GIVEN := $(CH)
EX_CH := $(foreach e,$(subst $(comma), ,$(EXERCISES)),$(patsubst ex%,%,$(firstword $(subst _, ,$e))))
CH_IDS := $(foreach c,$(subst _, ,$(subst $(comma), ,$(CH))) $(EX_CH),$(firstword $(subst -, ,$c)))
CH_IDS := $(sort $(foreach c,$(CH_IDS),$(if $(filter 1 2 3 4 5 6 7 8 9,$c),0$c,$c)))
override CH := $(subst $(space),_,$(CH_IDS))
ifneq ($(CH),)
CHAPTERS := $(foreach c,$(CH_IDS),$(filter $c-%,$(ALL_CHAPTERS)))
ifneq ($(words $(CHAPTERS)),$(words $(CH_IDS)))
$(error CH=$(CH): no such chapter (have: $(ALL_CHAPTERS)))
endif
else
CHAPTERS := $(ALL_CHAPTERS)
endif
chid = $(firstword $(subst -, ,$1))

# ------------------------------------------------------------- GPU target
# ARCH=sm_75 (one architecture: its machine code and PTX), ARCH=compute_75 (PTX only: the driver
# JIT-compiles it, e.g. to run the pre-Hopper code paths on a Hopper GPU), ARCH=sm_75,sm_120 (machine
# code for each, oldest first, and the PTX of the last), ARCH=all (every architecture CUDA 13
# compiles: one fat binary for a lab of mixed GPUs)
ARCH_ALL := sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
ARCHS := $(if $(filter all,$(ARCH)),$(ARCH_ALL),$(subst $(comma), ,$(ARCH)))
ifneq ($(words $(ARCHS)),1)
ifneq ($(ARCHS),)
ifneq ($(filter-out sm_%,$(ARCHS)),)
$(error ARCH=$(ARCH): a list names sm_XX architectures only (e.g. ARCH=sm_75,sm_120))
endif
endif
endif
ifeq ($(ARCH),)
GPU_CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')
ifneq ($(GPU_CC),)
GENCODE := -gencode arch=compute_$(GPU_CC),code=sm_$(GPU_CC)
else
# no GPU here: Hopper machine code plus PTX, so every .cu still compiles
GENCODE := -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
endif
else ifeq ($(words $(ARCHS)),1)
GENCODE := -arch=$(ARCH)
else
GENCODE := $(foreach a,$(ARCHS),-gencode arch=compute_$(a:sm_%=%),code=$(a)) \
           -gencode arch=compute_$(patsubst sm_%,%,$(lastword $(ARCHS))),code=compute_$(patsubst sm_%,%,$(lastword $(ARCHS)))
endif

# KIT_DEVICE=t4 ...: run on this GPU with another GPU's published limits (reference/device.c's
# table, the one list of names; docs/gpu-setup.md says what that does and does not prove)
KIT_DEVICES := $(shell sed -n 's/^    {"\([a-z0-9]*\)", .*/\1/p' reference/device.c)
ifneq ($(KIT_DEVICE),)
ifeq ($(filter $(KIT_DEVICE),$(KIT_DEVICES)),)
$(error KIT_DEVICE=$(KIT_DEVICE): no such device profile (have: $(KIT_DEVICES)))
endif
export KIT_DEVICE
endif

# ------------------------------------------------------------------ flags
BUILDROOT ?= build
export BUILDROOT
BUILD := $(BUILDROOT)/$(IMPL)
CRIT_INC := $(if $(CRITERION_DIR),-I$(abspath $(CRITERION_DIR))/include)
CRIT_LIB := $(if $(CRITERION_DIR),-L$(abspath $(CRITERION_DIR))/lib -Xlinker -rpath=$(abspath $(CRITERION_DIR))/lib -Xlinker --disable-new-dtags) -lcriterion
# nanoflann (chapter 03's CPU yardstick, a header-only C++ library): from NANOFLANN_DIR (a folder
# holding nanoflann.hpp, e.g. from tools/nanoflann-bundle.sh) or the system include path; found:
# KNN_HAVE_NANOFLANN, else chapter 03 builds without it and its CPU rows say why (make deps)
NANOFLANN_DIR ?=
NANOFLANN_INC := $(if $(NANOFLANN_DIR),-I$(abspath $(NANOFLANN_DIR)))
HAVE_NANOFLANN := $(shell printf '\043include <nanoflann.hpp>\n' | g++ -std=c++17 -E -x c++ $(NANOFLANN_INC) - >/dev/null 2>&1 && echo 1)
NANOFLANN_FLAGS := $(if $(HAVE_NANOFLANN),-DKNN_HAVE_NANOFLANN $(NANOFLANN_INC))
# host floating point: no contraction into fused multiply-adds, so host code computes what it
# says (ISO C does this by default; GCC's C++ does not; chapter 03 compares distances bit for bit)
# every function and object in a section of its own, so that a program links only what it calls
# (the runners of the grader above all: nothing that answers an exercise is in them unless called)
# GRADING=1 (the grader's copy of the kit): dependency files list every header, system ones too
# (the grader checks what each student file made the compiler read), and COMPILE_LIMIT (a command
# prefix, tools/compile-limit.sh) bounds each compiler run
DEPFLAGS := $(if $(GRADING),-MD,-MMD) -MP
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -ffp-contract=off -ffunction-sections -fdata-sections -Ireference -I$(CUDA)/include $(DEPFLAGS) $(NANOFLANN_FLAGS)
NVCCFLAGS := -std=c++17 -O3 -g -lineinfo $(GENCODE) -Ireference -Xcompiler -Wall -Xcompiler -ffp-contract=off -Xcompiler -ffunction-sections,-fdata-sections $(DEPFLAGS) $(NANOFLANN_FLAGS)
COMPILE_LIMIT ?=
LDFLAGS := $(GENCODE)
# include paths of the chapter a source belongs to (its folder's name)
chname = $(notdir $(patsubst %/,%,$(dir $1)))
chinc = $(if $(filter chapters/% solutions/% exercises/%,$1),-Ichapters/$(call chname,$1) -I$(IMPL)/$(call chname,$1))
TEST_INC := -Itests $(foreach c,$(ALL_CHAPTERS),-Ichapters/$c -I$(IMPL)/$c) $(CRIT_INC)

# rebuild everything when the flags change (ARCH, CUDA, IMPL switch ...); a
# different CRITERION_DIR rebuilds only the tests, so `make test CRITERION_DIR=..`
# followed by `make bench` does not recompile the kernels
FLAGS_STAMP := $(BUILD)/.flags
TEST_STAMP := $(BUILD)/.testflags
# Criterion found (the rule is below)
CRIT_OK := $(BUILD)/.criterion
stamp = $(shell mkdir -p $(BUILD) && echo '$2' | cmp -s - $1 || echo '$2' > $1)
$(call stamp,$(FLAGS_STAMP),$(CFLAGS) | $(NVCCFLAGS))
$(call stamp,$(TEST_STAMP),$(CRIT_INC) | $(CRIT_LIB))

# the build says what it compiles: on a terminal one short line a file ("  NVCC chapters/01-copy/s0_simple.cu"),
# into a log (the grader, CI) the whole compiler command, which the grader's tests read; V=1 or V=0 chooses
ifeq ($(origin V),undefined)
V := $(if $(shell [ -t 2 ] && echo tty),0,1)
endif
ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-4s %s\n' '$1' '$2'
endif

# the build runs in a sub-make, in parallel unless you gave -j yourself (the
# targets that run programs stay one after the other: `make clean all` is safe)
PAR = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(JOBS))
BUILD_IN_PARALLEL = $(MAKE) --no-print-directory $(PAR)

$(BUILD)/obj/tests/%.o: tests/%.c $(FLAGS_STAMP) $(TEST_STAMP) | $(CRIT_OK)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) $(TEST_INC) -c $< -o $@
$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(COMPILE_LIMIT) $(CC) $(CFLAGS) $(call chinc,$<) -c $< -o $@
$(BUILD)/obj/%.o: %.cu $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,NVCC,$<)
	$(Q)$(COMPILE_LIMIT) $(NVCC) $(NVCCFLAGS) $(call chinc,$<) -c $< -o $@
# Device-only code (reference/kit_dev.h, docs/grading.md): every .cu of $(IMPL)/NN-topic/ (the GPU
# exercises' student files) and every chapters/NN-topic/*_dev.cu (the kit's wrappers that include a
# student header) is compiled with `nvcc -fatbin`, so no host code of it exists: no host function,
# no global constructor, no macro that reaches a host translation unit.  The fatbin is embedded as
# read-only data under KIT_DEV_IMAGE(chapter, file) by a generated assembler file (.incbin), and the
# kit's host launchers (chapters/, no student file included) load it at first use.  Its dependency
# file lists what the compiler read, like any other object's (tools/grade-includes.sh).
# (tools/device-only.sh, in make check, proves from the dependency files that no host object read
# a .cu or .cuh of solutions/ or exercises/.)
DEV_SRC := $(wildcard $(IMPL)/[0-9][0-9]-*/*.cu chapters/[0-9][0-9]-*/*_dev.cu)
dev_sym = kit_dev_$(subst -,_,$(call chname,$1))_$(basename $(notdir $1))
# which files are device-only is part of how their objects are built: a file that becomes one is
# rebuilt even where an older host-compiled object of it is newer than it
DEV_STAMP := $(BUILD)/.devsrc
$(call stamp,$(DEV_STAMP),$(DEV_SRC))
$(patsubst %.cu,$(BUILD)/obj/%.o,$(DEV_SRC)): $(BUILD)/obj/%.o: %.cu $(FLAGS_STAMP) $(DEV_STAMP)
	@mkdir -p $(@D)
	$(call say,DEV,$<)
	$(Q)$(COMPILE_LIMIT) $(NVCC) $(NVCCFLAGS) $(call chinc,$<) -MF $(@:.o=.d) -MT $@ -fatbin $< -o $(@:.o=.fatbin)
	$(Q)printf '\t.section .rodata.%s,"a"\n\t.balign 64\n\t.globl %s\n\t.type %s, @object\n%s:\n\t.incbin "%s"\n\t.size %s, .-%s\n\t.section .note.GNU-stack,"",@progbits\n' \
	  $(call dev_sym,$<) $(call dev_sym,$<) $(call dev_sym,$<) $(call dev_sym,$<) $(@:.o=.fatbin) $(call dev_sym,$<) $(call dev_sym,$<) >$(@:.o=.S)
	$(Q)$(CC) -c $(@:.o=.S) -o $@

# ---------------------------------------------------------------- libraries
# reference/ is the harness; it includes nothing from chapters/ (a chapter's
# yardsticks.cu is part of that chapter's library)
KIT_SRC := $(wildcard reference/*.c reference/*.cu)
KIT_LIB := $(BUILD)/lib/libkit.a
objs = $(patsubst %,$(BUILD)/obj/%.o,$(basename $1))
$(KIT_LIB): $(call objs,$(KIT_SRC))
	@mkdir -p $(@D); rm -f $@; ar rcs $@ $^

# per chapter: a library of its steps, and its program chNN
define CHAPTER_RULES
$1_SRC := $$(filter-out chapters/$1/bench.c,$$(wildcard chapters/$1/*.c chapters/$1/*.cu)) $$(wildcard $(IMPL)/$1/*.c $(IMPL)/$1/*.cu)
$(BUILD)/lib/lib$1.a: $$(call objs,$$($1_SRC))
	@mkdir -p $$(@D); rm -f $$@; ar rcs $$@ $$^
$(BUILD)/bin/ch$(call chid,$1): $(BUILD)/obj/chapters/$1/bench.o $(BUILD)/lib/lib$1.a $(KIT_LIB)
	@mkdir -p $$(@D)
	$$(call say,LINK,$$@)
	$(Q)$(NVCC) $(LDFLAGS) -o $$@ $$^
endef
$(foreach c,$(ALL_CHAPTERS),$(eval $(call CHAPTER_RULES,$c)))
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

PROGRAMS := $(foreach c,$(CHAPTERS),$(BUILD)/bin/ch$(call chid,$c))
TEST_SRC := tests/kit_test.c tests/kit_side.c tests/kit_speed.c $(if $(CH),,tests/test_00_reference.c) \
            $(foreach c,$(CHAPTERS),$(wildcard tests/test_$(call chid,$c)_*.c))
TEST_BIN := $(BUILD)/bin/tests$(if $(CH),_$(CH))
RESULTS := $(BUILD)/results$(if $(CH),_$(CH)).tsv
$(TEST_BIN): $(call objs,$(TEST_SRC)) $(foreach c,$(CHAPTERS),$(BUILD)/lib/lib$c.a) $(KIT_LIB) $(TEST_STAMP)
	@mkdir -p $(@D)
	$(call say,LINK,$@)
	$(Q)$(NVCC) $(LDFLAGS) -o $@ $(filter-out $(TEST_STAMP),$^) $(CRIT_LIB)

# ---------------------------------------------------------------- grading
# The graded suites (tests/test_NN_exercises.c) built twice more (tests/kit_side.c,
# docs/grading.md): the judge, trusted, with Criterion and the harness (the grader builds it with
# the skeletons, once); a runner per chapter, the student's side, without Criterion.
ex_tests = $(wildcard tests/test_$(call chid,$1)_exercises.c)
JUDGE_BIN := $(BUILD)/bin/judge$(if $(CH),_$(CH))
RUNNERS := $(foreach c,$(CHAPTERS),$(if $(call ex_tests,$c),$(BUILD)/bin/runner_$(call chid,$c)))
RUNNER_INC := -Itests $(foreach c,$(ALL_CHAPTERS),-Ichapters/$c -I$(IMPL)/$c)
$(BUILD)/obj/judge/tests/%.o: tests/%.c $(FLAGS_STAMP) $(TEST_STAMP) | $(CRIT_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DKIT_SIDE=1 $(TEST_INC) -c $< -o $@
$(BUILD)/obj/runner/tests/%.o: tests/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(COMPILE_LIMIT) $(CC) $(CFLAGS) -DKIT_SIDE=2 -Wno-unused-variable -Wno-unused-but-set-variable -Wno-unused-function $(RUNNER_INC) -c $< -o $@
# speed tests (tests/kit_speed.c): both sides, and their device half
SPEED_GPU_OBJ := $(BUILD)/obj/tests/kit_speed_gpu.o
$(JUDGE_BIN): $(patsubst %,$(BUILD)/obj/judge/%.o,$(basename tests/kit_test.c tests/kit_side.c tests/kit_speed.c $(foreach c,$(CHAPTERS),$(call ex_tests,$c)))) $(SPEED_GPU_OBJ) \
              $(foreach c,$(CHAPTERS),$(BUILD)/lib/lib$c.a) $(KIT_LIB) $(TEST_STAMP)
	@mkdir -p $(@D)
	$(NVCC) $(LDFLAGS) -o $@ $(filter-out $(TEST_STAMP),$^) $(CRIT_LIB)
# A runner links only what its tests call (--gc-sections), the kit's CPU answers that its CPU
# references would call replaced by stubs that do nothing and return 0 (tests/runner-answers.tsv,
# "wrap"), and is stripped (no symbol table to find the kit's functions by at run time); the
# unstripped link stays in obj/runner/ for tools/runner-answers.sh, which proves that nothing
# answering an exercise is in it.
RUNNER_WRAP := $(shell awk -F'\t' '!/^\#/ && $$2 == "wrap" { print $$1 }' tests/runner-answers.tsv)
$(BUILD)/obj/runner/answers_stub.c: tests/runner-answers.tsv Makefile
	@mkdir -p $(@D)
	@{ echo '/* generated from tests/runner-answers.tsv: what the runner links in place of the kit'"'"'s answers */'; \
	  for s in $(RUNNER_WRAP); do echo "unsigned long long __wrap_$$s(void);"; \
	    echo "unsigned long long __wrap_$$s(void) { return 0; }"; done; } >$@
$(BUILD)/obj/runner/answers_stub.o: $(BUILD)/obj/runner/answers_stub.c $(FLAGS_STAMP)
	$(CC) $(CFLAGS) -c $< -o $@
define RUNNER_RULES
$(BUILD)/bin/runner_$(call chid,$1): $(BUILD)/obj/runner/tests/kit_side.o $(BUILD)/obj/runner/tests/test_$(call chid,$1)_exercises.o \
                                     $(BUILD)/obj/runner/tests/kit_speed.o $(SPEED_GPU_OBJ) \
                                     $(BUILD)/obj/runner/answers_stub.o $(BUILD)/lib/lib$1.a $(KIT_LIB)
	@mkdir -p $$(@D)
	$(NVCC) $(LDFLAGS) -Xlinker --gc-sections $(foreach s,$(RUNNER_WRAP),-Xlinker --wrap=$s) \
	  -o $(BUILD)/obj/runner/runner_$(call chid,$1) $$^
	strip -o $$@ $(BUILD)/obj/runner/runner_$(call chid,$1)
endef
$(foreach c,$(ALL_CHAPTERS),$(if $(call ex_tests,$c),$(eval $(call RUNNER_RULES,$c))))

.PHONY: judge runners judge-program runner-programs
judge: # the grader's judge (build/IMPL/bin/judge[_NN])
	@+$(BUILD_IN_PARALLEL) judge-program
judge-program: $(JUDGE_BIN)
	@:
runners: # the runners of the student's side (build/IMPL/bin/runner_NN), no Criterion needed
	@+$(BUILD_IN_PARALLEL) runner-programs
runner-programs: $(RUNNERS)
	@:

# ------------------------------------------------------------------ targets
.PHONY: numbers test-reference test-big ratios all test grade bench plots demo walk exercises check sanitize profile tables deps deps-data criterion clean help programs testbin test-program

all: ## build every chapter program (build/IMPL/bin/chNN), in parallel unless -j is given
	@+$(BUILD_IN_PARALLEL) programs
programs: $(PROGRAMS)
	@:
# `make all testbin`: one after the other (two parallel sub-makes would race on the libraries)
testbin: $(if $(filter all,$(MAKECMDGOALS)),| all)
testbin: # build the test program (build/IMPL/bin/tests[_NN]), in parallel unless -j is given
	@+$(BUILD_IN_PARALLEL) test-program
test-program: $(TEST_BIN)
	@:

test: testbin ## run the Criterion suites (GPU tests skip with a reason when there is no GPU; QUICK=1: no 2^31 contract runs; each test's line lands in BUILD/results*.tsv.progress as it ends)
	@rm -f $(RESULTS) $(RESULTS).progress
	@echo "make test: running $(TEST_BIN) ($(if $(CH),chapter $(CH),every chapter), IMPL=$(IMPL)$(if $(QUICK), QUICK=1))"
	@KIT_RESULTS=$(RESULTS) KIT_PROGRESS=$(RESULTS).progress $(if $(QUICK),KIT_QUICK=1) $(TEST_BIN) --jobs $(JOBS); st=$$?; tools/summary.sh $(RESULTS) $$st; exit $$st

# the harness's own suite alone (tests/test_00_reference.c: parsers, generators, options), no chapter
REF_TEST_BIN := $(BUILD)/bin/tests_reference
$(REF_TEST_BIN): $(call objs,tests/kit_test.c tests/kit_side.c tests/test_00_reference.c) $(KIT_LIB) $(TEST_STAMP)
	@mkdir -p $(@D)
	$(NVCC) $(LDFLAGS) -o $@ $(filter-out $(TEST_STAMP),$^) $(CRIT_LIB)
test-reference: ## only the harness's own tests (reference/: sizes, generators, options; CPU, no chapter built)
	@+$(BUILD_IN_PARALLEL) $(REF_TEST_BIN)
	@$(REF_TEST_BIN) --jobs $(JOBS)

test-big: testbin ## only the contract's n = 2^31 + 5 runs (main-ladder steps; needs a GPU with tens of GB; SHARD=k/m: a part; AXES="pairs=1": another shape)
	@rm -f $(RESULTS) $(RESULTS).progress; KIT_RESULTS=$(RESULTS) KIT_PROGRESS=$(RESULTS).progress KIT_BIG_ONLY=1 $(if $(SHARD),KIT_BIG_SHARD=$(SHARD)) $(if $(AXES),KIT_BIG_AXES="$(AXES)") $(TEST_BIN) --jobs $(JOBS) --verbose --filter '*_contract/*'; st=$$?; tools/summary.sh $(RESULTS) $$st; exit $$st

grade: ## score the exercises (IMPL=exercises unless given); SUBMISSION=dir or SUBMISSIONS=dir [-jN or GRADE_JOBS=N] for students, sandboxed (UNSAFE=1: without); an assignment: CH=01,06 and/or EXERCISES=ex01_loadbalance,.. [ASSIGNMENT=name]
ifneq ($(SUBMISSIONS),)
	@$(GRADE_ENV) tools/grade-submission.sh --class "$(SUBMISSIONS)" $(GRADE_SELECT) $(if $(GRADE_JOBS),-j $(GRADE_JOBS),$(filter -j%,$(MAKEFLAGS)))
else ifneq ($(SUBMISSION),)
	@$(GRADE_ENV) tools/grade-submission.sh "$(SUBMISSION)" $(GRADE_SELECT)
else
	@$(MAKE) --no-print-directory IMPL=$(if $(filter command line,$(origin IMPL)),$(IMPL),exercises) grade-here
endif

.PHONY: grade-here grade-cluster test-grading mutants
GRADE_ENV = CRITERION_DIR="$(if $(CRITERION_DIR),$(abspath $(CRITERION_DIR)))" $(if $(UNSAFE),GRADE_UNSAFE=$(UNSAFE))
# what an assignment grades (tools/grade-submission.sh: --ch, --exercises, --assignment)
GRADE_SELECT = $(if $(CH_GIVEN),--ch "$(CH_GIVEN)") $(if $(EXERCISES),--exercises "$(EXERCISES)") $(if $(ASSIGNMENT),--assignment "$(ASSIGNMENT)")
# your own exercises (your code, so no sandbox), into BUILD/grades/<assignment>/ (one folder per
# assignment, as for a class): a build that fails replaces that results.json too
grade-here:
	@set -o pipefail; a=$$(tools/grade-submission.sh --name $(GRADE_SELECT)) || exit 2; d=$(BUILD)/grades/$$a; \
	sel="$(subst $(space),,$(CH_GIVEN)),$(EXERCISES)"; mkdir -p $$d; rm -f $(RESULTS) $$d/results.json $$d/notes.tsv; \
	if ! $(MAKE) --no-print-directory testbin >$$d/build.log 2>&1; then \
	  printf '*\tbuild\t%s\n' "$$(grep -m1 -E 'error|undefined reference|multiple definition' $$d/build.log | cut -c1-200) (see $$d/build.log)" >$$d/notes.tsv; \
	  : >$(RESULTS); tools/grade.sh $(RESULTS) tests/points.tsv $$d/results.json "$$sel" $$d/notes.tsv | tee $$d/table.txt; exit 1; fi; \
	KIT_RESULTS=$(RESULTS) $(TEST_BIN) --jobs $(JOBS) --filter 'ex*/*' >$$d/tests.log 2>&1 || true; \
	tools/grade.sh $(RESULTS) tests/points.tsv $$d/results.json "$$sel" | tee $$d/table.txt
grade-cluster: ## a class on Slurm, one array task (one GPU) per student: SUBMISSIONS=dir [PARTITION= TIME= GPUS= CPUS= ONLY=a,b WAIT=1 WAIT_S=]
	@test -n "$(SUBMISSIONS)" || { echo "make grade-cluster: SUBMISSIONS=dir (one sub-folder per student)"; exit 2; }
	@$(GRADE_ENV) tools/grade-cluster.sh "$(SUBMISSIONS)" \
	  $(GRADE_SELECT) $(if $(PARTITION),--partition $(PARTITION)) $(if $(TIME),--time $(TIME)) \
	  $(if $(GPUS),--gpus $(GPUS)) $(if $(CPUS),--cpus $(CPUS)) $(if $(ONLY),--only $(ONLY)) $(if $(WAIT),--wait) \
	  $(if $(WAIT_S),--timeout $(WAIT_S))

.PHONY: leaderboard
leaderboard: ## the class's speed ratios per exercise, from its last grading: SUBMISSIONS=dir [NAMES=1]
	@test -n "$(SUBMISSIONS)" || { echo "make leaderboard: SUBMISSIONS=dir (the class graded before)"; exit 2; }
	@tools/leaderboard.sh "$(SUBMISSIONS)" $(if $(NAMES),--names)

test-grading: ## end-to-end tests of the grader: a throwaway class graded here (CPU side); tests/grading/
	@tests/grading/run.sh

mutants: ## does each test catch its bug? every entry of tests/mutants.tsv applied alone to a scratch copy, its test run (ONLY=a,b: those; not in CI: minutes)
	@tools/mutants.sh $(if $(ONLY),--only $(ONLY))

# make bench: where the results go.  Without PUBLISH: BUILDROOT/bench/<gpu>/NN-topic/ (the program
# replaces {gpu} by a slug of its GPU's name), and a merged copy of each CSV it wrote in figures/ next
# to them (tools/bench-merge.sh: the committed rows of plots/NN-topic/ first, then this run's, marked
# ' (this run)'), drawn there beside the committed reference.  PUBLISH=1 (maintainers): plots/NN-topic/,
# the committed results, and `make plots`.  CPU=measure|cached|none: how the CPU baseline rows are
# timed (the program's --cpu; PUBLISH=1 measures unless CPU is given: committed rows are measured).
ifeq ($(origin CPU),environment)
# some systems export a CPU of their own: only the kit's values count from the environment
ifeq ($(filter measure cached none,$(CPU)),)
override CPU :=
endif
endif
ifneq ($(filter bench,$(MAKECMDGOALS)),)
ifneq ($(filter-out 0 1,$(PUBLISH)),)
$(error PUBLISH=$(PUBLISH): PUBLISH=1 writes plots/ (the committed results), nothing or 0 writes $(BUILDROOT)/bench/)
endif
endif
ifneq ($(filter bench demo walk,$(MAKECMDGOALS)),)
ifneq ($(filter-out measure cached none,$(CPU)),)
$(error CPU=$(CPU): CPU takes measure, cached or none)
endif
endif
PUBLISH_ON := $(filter 1,$(PUBLISH))
BENCH_ROOT := $(BUILDROOT)/bench
BENCH_OUT = $(if $(PUBLISH_ON),plots/$$c,$(BENCH_ROOT)/{gpu}/$$c)
BENCH_CPU := $(or $(CPU),$(if $(PUBLISH_ON),measure))
BENCH_ARGS := $(if $(BENCH_CPU),--cpu $(BENCH_CPU)) $(if $(QUICK),--quick) $(if $(EXP),--exp $(EXP)) $(if $(INPUT),--input $(INPUT))

bench: all ## run every experiment on the GPU -> build/bench/<gpu>/NN-topic/*.csv, its figures/ beside the committed reference; PUBLISH=1: into plots/ (maintainers); CPU=measure|cached|none (QUICK=1, EXP=a,b, INPUT=a,b)
	@st=0; mkdir -p $(BENCH_ROOT); stamp=$$(mktemp $(BENCH_ROOT)/.started.XXXXXX) || exit 1; trap 'rm -f "$$stamp"' EXIT; \
	for c in $(CHAPTERS); do \
	  $(BUILD)/bin/ch$${c%%-*} bench --out "$(BENCH_OUT)" $(BENCH_ARGS); \
	  r=$$?; [ $$r = 2 ] && exit 2; [ $$r = 0 ] || st=$$r; \
	done; \
	if ! nvidia-smi -L >/dev/null 2>&1; then \
	  echo "no CUDA device here: $(if $(PUBLISH_ON),plots/ is left as committed,no figures) (the CPU rows went to build/cpu-only/)"; \
	elif [ -n "$(PUBLISH_ON)" ]; then \
	  if command -v gnuplot >/dev/null; then for c in $(CHAPTERS); do tools/draw-figures.sh plots/$$c $$c || st=1; done; \
	  else echo "gnuplot is not installed here: copy plots/ to a machine with gnuplot and run 'make plots' there"; fi; \
	else \
	  for c in $(CHAPTERS); do for d in $(BENCH_ROOT)/*/$$c; do \
	    [ -d "$$d" ] || continue; new=0; \
	    for f in $$(find "$$d" -maxdepth 1 -name '*.csv' -newer "$$stamp" | sort); do \
	      tools/bench-merge.sh "plots/$$c/$${f##*/}" "$$f" "$$d/figures/$${f##*/}" || st=1; new=1; \
	    done; \
	    [ $$new = 1 ] || continue; \
	    if command -v gnuplot >/dev/null; then \
	      tools/draw-figures.sh "$$d/figures" $$c && echo "$$d/figures: this run (NAME@<gpu>-this-run.png) beside the committed reference (NAME.png)" || st=1; \
	    else echo "gnuplot is not installed here: the merged CSVs are in $$d/figures/; draw them on a machine with gnuplot: tools/draw-figures.sh $$d/figures $$c"; fi; \
	  done; done; \
	fi; \
	exit $$st

ratios: ## best step vs its yardstick (CUB, cudaMemcpy) in every committed CSV (tools/ratios)
	@for c in $(CHAPTERS); do for f in plots/$$c/*.csv; do \
	  [ -f "$$f" ] && grep -qE '^[^,]*,(cub|thrust|cudaMemcpy)' "$$f" || continue; \
	  echo "### $$f"; tools/ratios "$$f"; echo; done; done

plots: ## draw PNG and SVG figures from the CSVs in plots/ (needs gnuplot; every GPU of a folder: tools/draw-figures.sh)
	@command -v gnuplot >/dev/null || { echo "make plots: gnuplot not found (apt-get install gnuplot-nox)"; exit 1; }
	@st=0; for c in $(CHAPTERS); do tools/draw-figures.sh plots/$$c $$c || st=1; done; exit $$st

demo: all ## time and verify a chapter's ladder at one size as a table and a figure in BUILDROOT/demo/chNN.png (CH=NN N=2^24 CPU=cached|measure|none)
	@st=0; for c in $(CHAPTERS); do $(BUILD)/bin/ch$${c%%-*} demo $(if $(N),--n $(N)) $(if $(INPUT),--input $(INPUT)) $(if $(CPU),--cpu $(CPU)); \
	  r=$$?; [ $$r = 2 ] || tools/demo-figure.sh $${c%%-*}; [ $$r = 0 ] || st=$$r; echo; done; exit $$st

walk: all ## presenter mode, one step at a time: its lesson, it against the step before and the yardsticks (CH=NN [N=] [FROM=s3] [STEP=s5_onesweep] [AUTO=1])
	@[ -n "$(CH)" ] || { echo "make walk: name one chapter (make walk CH=05)"; exit 2; }
	@st=0; for c in $(CHAPTERS); do $(BUILD)/bin/ch$${c%%-*} walk $(if $(N),--n $(N)) $(if $(INPUT),--input $(INPUT)) $(if $(CPU),--cpu $(CPU)) \
	  $(if $(FROM),--from $(FROM)) $(if $(STEP),--step $(STEP)) $(if $(AUTO),--auto); \
	  r=$$?; [ $$r = 2 ] || tools/demo-figure.sh $${c%%-*}; [ $$r = 0 ] || st=$$r; done; exit $$st

sanitize: all ## every step under compute-sanitizer memcheck, racecheck, synccheck, initcheck (STEP=name: that step's rows only)
	@nvidia-smi -L >/dev/null 2>&1 || { echo "make sanitize: no CUDA device here (compute-sanitizer watches kernels on a GPU)"; exit 2; }
	@test -x $(SANITIZER) || { echo "make sanitize: $(SANITIZER) not found (it comes with the CUDA Toolkit; SANITIZER=path)"; exit 2; }
	@st=0; for c in $(CHAPTERS); do for tool in memcheck racecheck synccheck initcheck; do \
	  extra=; [ $$tool = memcheck ] && extra="--leak-check full"; \
	  echo "== $$c: $$tool"; \
	  $(SANITIZER) --tool $$tool $$extra --error-exitcode 9 $(BUILD)/bin/ch$${c%%-*} sanitize $(if $(STEP),--step $(STEP)) 2>&1 | tail -n 4; \
	  r=$${PIPESTATUS[0]}; [ $$r = 0 ] || { echo "== $$c: $$tool FAILED (exit $$r)"; st=1; }; \
	done; done; exit $$st

NCU ?= $(CUDA)/bin/ncu
NCU_METRICS := gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,sm__inst_executed.avg.per_cycle_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__warps_active.avg.pct_of_peak_sustained_active
profile: all ## Nsight Compute table per kernel of each step: time, DRAM bytes read and written, instructions, IPC, bank conflicts, occupancy (N=size, INPUT=name); a chapter with a traffic.sh also writes plots/NN-topic/traffic.csv
	@test -x $(NCU) || { echo "make profile: $(NCU) not found"; exit 2; }
	@mkdir -p $(BUILD)/profile; st=0; for c in $(CHAPTERS); do id=$${c%%-*}; \
	  $(NCU) --clock-control none --metrics $(NCU_METRICS) --csv $(BUILD)/bin/ch$$id profile $(if $(N),--n $(N)) $(if $(INPUT),--input $(INPUT)) >$(BUILD)/profile/ch$$id.csv 2>$(BUILD)/profile/ch$$id.log || st=1; \
	  tools/ncu-table.sh $(BUILD)/profile/ch$$id.csv || st=1; \
	  if [ -x chapters/$$c/traffic.sh ]; then \
	    if chapters/$$c/traffic.sh $(BUILD)/profile/ch$$id.csv $(BUILD)/bin/ch$$id "$(N)" "$(INPUT)" >plots/$$c/traffic.csv.tmp; \
	    then mv plots/$$c/traffic.csv.tmp plots/$$c/traffic.csv; echo "wrote plots/$$c/traffic.csv (make plots CH=$$id draws it)"; \
	    else rm -f plots/$$c/traffic.csv.tmp; st=1; fi; \
	  fi; \
	done; exit $$st

exercises: ## regenerate exercises/ from solutions/ (BEGIN/END SOLUTION markers)
	@tools/mkexercises.sh solutions exercises

check: ## exercises in sync, skeletons compile and fail, solutions score full marks, README tables current (CH=NN: that chapter's tests)
	@CHECK_CH=$(CH) tools/check.sh

numbers: ## verify every generated README number against its CSV, and its test (seconds; make tables fills them)
	@tools/numbers check && tests/numbers.sh

tables: all ## rewrite the step tables in the chapter READMEs from the step tables, and their generated numbers
	@tools/tables.sh update $(CHAPTERS)

APT_LOCK_TIMEOUT ?= 300
deps: ## install the Debian/Ubuntu packages the kit needs (Criterion, gnuplot, nanoflann); waits up to APT_LOCK_TIMEOUT s for a busy apt
	@command -v apt-get >/dev/null || { echo "make deps: no apt-get here; install Criterion and gnuplot yourself, or use CRITERION_DIR=prefix (docs/gpu-setup.md)"; exit 1; }
	@if [ "$$(id -u)" = 0 ]; then s=; else s=sudo; fi; \
	apt="$$s apt-get -o DPkg::Lock::Timeout=$(APT_LOCK_TIMEOUT)"; log=$$(mktemp); \
	if $$apt update -qq >$$log 2>&1 && DEBIAN_FRONTEND=noninteractive $$apt install -y -qq libcriterion-dev gnuplot-nox libnanoflann-dev >>$$log 2>&1; \
	then rm -f $$log; exit 0; fi; \
	tail -n 5 $$log; \
	if grep -qiE 'could not get lock|unable to acquire|lock-frontend|is held by process' $$log; then \
	  echo "make deps: the package manager is busy (another apt or dpkg held its lock for more than $(APT_LOCK_TIMEOUT) s): let it finish, then run make again (APT_LOCK_TIMEOUT=s waits longer)"; \
	elif grep -qiE 'permission denied|are you root|sudo:' $$log; then \
	  echo "make deps: apt-get needs root: run 'sudo make deps', or use CRITERION_DIR=prefix (docs/gpu-setup.md)"; \
	else \
	  echo "make deps: apt-get failed (above); on a machine without a package registry use CRITERION_DIR=prefix (docs/gpu-setup.md)"; \
	fi; rm -f $$log; exit 1

deps-data: ## chapter 03's real point clouds (about 45 MB of Debian packages, nothing installed) into BUILDROOT/knn-data
	@BUILDROOT=$(BUILDROOT) tools/knn-data.sh

# Criterion's headers are reachable (installed by `make deps` when missing): checked once, and again
# when CRITERION_DIR changes (TEST_STAMP); a file, not a phony target, so that `make -q` of a test
# program that is up to date says so (the grader asks it whether the judge is built)
$(CRIT_OK): $(TEST_STAMP)
ifeq ($(CRITERION_DIR),)
	@printf '#include <criterion/criterion.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 || { echo "Criterion not found: installing it (make deps)"; $(MAKE) --no-print-directory deps; }
else
	@test -f $(CRITERION_DIR)/include/criterion/criterion.h || { echo "CRITERION_DIR=$(CRITERION_DIR) has no include/criterion/criterion.h"; exit 1; }
endif
	@touch $@
criterion: $(CRIT_OK) # make sure the Criterion headers are reachable

clean: ## remove build/ (or BUILDROOT)
	rm -rf $(BUILDROOT)

help: ## this list
	@echo "usage: make [target] [CH=NN] [IMPL=solutions|exercises] [ARCH=sm_90] [CRITERION_DIR=prefix] [QUICK=1] [N=2^24] [PUBLISH=1] [CPU=cached|measure|none]"
	@echo "chapters: $(ALL_CHAPTERS)"
	@awk -F'## ' '/^[a-z-]+:.*## / { split($$1, t, ":"); printf "  %-11s %s\n", t[1], $$2 }' $(firstword $(MAKEFILE_LIST))
