# Makefile - every entry point of the course (`make help` lists them).
#
#   make run                 every step on the default device, then a summary table
#   make test                the whole test suite, ending "N passed, N failed"
#   make test STEP=3         chapter 3's tests and those of the common/ parts it uses
#   make step4 run           one chapter (ARGS="--grid 2048" passes options on)
#   make devices             the OpenCL platforms and devices, with their P:D index
#   make diff STEP=4         what chapter 4 changes from chapter 3
#   make figures             sweep sizes on one device and redraw plots/ (plots/plots.mk)
#   make rounds              chapter 4's CPU table: steps 0, 1, 4 and 5 in rounds
#   make cusparse            build/cusparse, build/cusparse-cg, build/cuda-mgpu-cg and build/cusparse-pcg, the CUDA yardsticks of chapters 6-9 (needs nvcc)
#   make petsc               build/petsc-cg, PETSc's KSPCG over MPI ranks, chapter 7's (needs petsc-dev)
#   make answers             every exercise's answer, checked, in one table (STEPS="step1 step4")
#
# `run` and `test` first check the dependencies (scripts/deps.sh) and install
# what is missing with apt-get when they can.

CC      ?= gcc
BUILD   ?= build
SAN     ?=
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Icommon -fopenmp -pthread
LDLIBS  := -lOpenCL -lm -fopenmp -pthread
# step 0 runs on the host alone: no OpenCL linked (tests/t_common_layers.sh holds it)
LDLIBS_step0 := -lm -fopenmp -pthread
ifneq ($(SAN),)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
# per-step extra flags (OpenMP for the C loops, say)
CFLAGS_step0 ?=
# an earlier chapter's files a later one builds: chapter 6's rule (step 7
# asks it which product to run), chapter 7's host CG (its yardstick and the
# unit tests hold to it)
CHOICE_SRC := step6-csr/choice/csrchoice.c step6-csr/choice/csrchoice.h
CG_SRC     := step7-cg/reference/cg.c step7-cg/reference/cg.h
SYSTEM_SRC := step7-cg/reference/system.c step7-cg/reference/system.h
# chapter 7's choices and checks (the product, the work sizes, the verdicts),
# which chapter 8 makes too; chapter 7's results row, its yardstick's too
CG7_SHARED := step7-cg/device/sizes.c step7-cg/device/sizes.h step7-cg/report/check.c step7-cg/report/check.h
CG_ROW_SRC := step7-cg/report/row.c step7-cg/report/row.h
USES_step7 := $(CHOICE_SRC)
# chapter 8: chapter 7's system, host CG, choices and checks, and MPI (Open
# MPI's mpicc says its flags). Read with `=`, when step8's recipe runs, after
# scripts/deps.sh: on a fresh machine deps.sh installs mpicc during this very
# make (tests/t_course_fresh.sh)
USES_step8 := $(CHOICE_SRC) $(CG_SRC) $(SYSTEM_SRC) $(CG7_SHARED)
MPICC_FLAGS ?= mpicc
MPI_CFLAGS = $(patsubst -I%,-isystem %,$(shell $(MPICC_FLAGS) --showme:compile 2>/dev/null))
CFLAGS_step8 = $(MPI_CFLAGS)
LDLIBS_step8 = $(shell $(MPICC_FLAGS) --showme:link 2>/dev/null) $(LDLIBS)
# chapter 9: chapter 7's system, host CG, choices and checks (its preconditioned
# CG is chapter 7's fused loop with one more step)
USES_step9 := $(CHOICE_SRC) $(CG_SRC) $(SYSTEM_SRC) $(CG7_SHARED)
USES_tests/choice := $(CHOICE_SRC)
USES_tests/unit   := $(CG_SRC)

STEP_DIRS := $(sort $(wildcard step[0-9]-*))
stepname   = $(firstword $(subst -, ,$(1)))
# every step's name; STEPS is the user's (make answers STEPS="step1 step7"), so a
# name given on the command line never narrows what `all` builds
ALL_STEPS := $(foreach d,$(STEP_DIRS),$(call stepname,$d))
COMMON_OBJ := $(patsubst common/%.c,$(BUILD)/common/%.o,$(wildcard common/*.c common/formats/*.c))
COMMON_H  := $(wildcard common/*.h common/formats/*.h)
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/*.c))
DEPS_OK   := $(BUILD)/.deps-ok

# the revision goes into every CSV row; rewrite the header only when it changes
GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo +dirty)
# (a temporary file of this make's own: sub-makes running side by side parse this too)
$(shell mkdir -p $(BUILD)/common && t=$(BUILD)/gitrev.tmp.$$$$ && echo '#define SPMV_GIT_REV "$(GIT_REV)"' > $$t && \
    (cmp -s $$t $(BUILD)/gitrev.h || mv $$t $(BUILD)/gitrev.h); rm -f $$t)

.PHONY: all build run run-built test devices diff clean deps deps-run help answers-built cusparse cusparse-if-cuda petsc petsc-if-found answers $(ALL_STEPS)
all build: $(addprefix $(BUILD)/,$(ALL_STEPS)) $(BUILD)/devices $(TEST_BINS) cusparse-if-cuda petsc-if-found

help:
	@sed -n '2,16p' Makefile | sed 's/^# \{0,1\}//'

# the build needs only what `deps.sh run` checks; `make test` checks the rest
# (what an install could not get is optional: noted in $(BUILD)/.deps-tried)
# DEPS_SH names another script (tests/t_course_fresh.sh's stand-in for apt-get)
DEPS_SH ?= scripts/deps.sh
$(DEPS_OK):
	@DEPS_TRIED=$(BUILD)/.deps-tried $(DEPS_SH) run
	@mkdir -p $(BUILD) && touch $@
# make run needs no oclgrind; gnuplot only for its chart (a GPU machine without network runs it)
deps-run:
	@DEPS_TRIED=$(BUILD)/.deps-tried $(DEPS_SH) run
	@mkdir -p $(BUILD) && touch $(DEPS_OK)
deps:
	@DEPS_TRIED=$(BUILD)/.deps-tried $(DEPS_SH)
	@mkdir -p $(BUILD) && touch $(DEPS_OK)

$(BUILD)/common/%.o: common/%.c $(COMMON_H) $(BUILD)/gitrev.h | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -include $(BUILD)/gitrev.h -c $< -o $@

$(BUILD)/libspmv.a: $(COMMON_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# One binary per step; the kernel path is fixed at build time, so a student
# edits stepN-*/kernel.cl and reruns without rebuilding. A step's subfolder
# (step4-vector/cpu/: a second kernel with its host side; step5-image/image/:
# the image of x) is built into it. A later chapter may build an earlier
# chapter's files (USES_stepN, above); common/ never includes a chapter.
define STEP_RULE
$(BUILD)/$(1): $(2)/main.c $(wildcard $(2)/*/*.c $(2)/*/*.h) $$(USES_$(1)) $(BUILD)/libspmv.a $(COMMON_H)
	$$(CC) $$(CFLAGS) $$(CFLAGS_$(1)) -DSPMV_KERNEL_PATH='"$(abspath $(2))/kernel.cl"' \
	    -DSPMV_STEP_DIR='"$(abspath $(2))"' $(2)/main.c $(wildcard $(2)/*/*.c) $$(filter %.c,$$(USES_$(1))) \
	    $(BUILD)/libspmv.a $$(LDFLAGS) $$(CFLAGS_$(1)) $$(or $$(LDLIBS_$(1)),$(LDLIBS)) -o $$@
$(1): $(BUILD)/$(1)
endef
$(foreach d,$(STEP_DIRS),$(eval $(call STEP_RULE,$(call stepname,$d),$d)))

$(BUILD)/devices: tools/devices.c $(BUILD)/libspmv.a
	$(CC) $(CFLAGS) $< $(BUILD)/libspmv.a $(LDFLAGS) $(LDLIBS) -o $@

# vendor/cusparse: NVIDIA's cusparseSpMV on step6's matrix, the reference line
# of step6's figure (vendor/cusparse/README.md), in the precision chapter 6's
# rule picks (step6-csr/choice/, built into it). Built only where nvcc and
# cusparse.h are found (NVCC=/path/to/nvcc names another, CUDA_ARCH="-arch=sm_90"
# compiles for one GPU); elsewhere `make cusparse` says it skipped and succeeds.
# `make all` tries it and goes on without it: the course never needs it.
NVCC      ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
CUDA_ARCH ?=
CUDA_OK   := $(and $(realpath $(NVCC)),$(wildcard $(CUDA_HOME)/include/cusparse.h))
ifneq ($(CUDA_OK),)
cusparse: $(BUILD)/cusparse $(BUILD)/cusparse-cg $(BUILD)/cusparse-pcg $(BUILD)/cuda-mgpu-cg
CUDA_LINK = $(LDFLAGS) -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64
# every .cu object follows CUDA_ARCH (a stamp rewritten when it changes): an
# object an earlier build made for another target is not linked into a timing run
CUDA_ARCH_STAMP := $(BUILD)/vendor/cuda-arch
$(shell mkdir -p $(BUILD)/vendor && t=$(CUDA_ARCH_STAMP).tmp.$$$$ && echo '$(CUDA_ARCH)' > $$t && \
    (cmp -s $$t $(CUDA_ARCH_STAMP) || mv $$t $(CUDA_ARCH_STAMP)); rm -f $$t)
$(BUILD)/vendor/probe.o: vendor/cusparse/probe.cu vendor/cusparse/probe.h $(CUDA_ARCH_STAMP)
	@mkdir -p $(BUILD)/vendor
	$(NVCC) -O2 $(CUDA_ARCH) -c $< -o $@
$(BUILD)/vendor/cuda.o: vendor/cusparse/cuda.c vendor/cusparse/cuda.h vendor/cusparse/probe.h $(COMMON_H) | $(DEPS_OK)
	@mkdir -p $(BUILD)/vendor
	$(CC) $(CFLAGS) -isystem $(CUDA_HOME)/include -c $< -o $@
$(BUILD)/cusparse: vendor/cusparse/main.c $(CHOICE_SRC) $(BUILD)/vendor/cuda.o $(BUILD)/vendor/probe.o $(BUILD)/libspmv.a $(COMMON_H) vendor/cusparse/cuda.h
	$(CC) $(CFLAGS) -isystem $(CUDA_HOME)/include -c vendor/cusparse/main.c -o $(BUILD)/vendor/cusparse.o
	$(CC) $(CFLAGS) -c step6-csr/choice/csrchoice.c -o $(BUILD)/vendor/csrchoice.o
	$(CC) $(BUILD)/vendor/cusparse.o $(BUILD)/vendor/csrchoice.o $(BUILD)/vendor/cuda.o $(BUILD)/vendor/probe.o $(BUILD)/libspmv.a $(CUDA_LINK) \
	    -lcusparse -lcudart_static -ldl -lrt -lpthread -lstdc++ $(LDLIBS) -o $@
# vendor/cusparse-cg: chapter 7's yardstick, the CUDA sample conjugateGradient's
# algorithm (cusparseSpMV and cuBLAS, the dots read back every iteration), and
# the graph form (alpha and beta on the device, scalars.cu; a CUDA graph);
# chapter 7's host CG (step7-cg/reference/) holds it to the same count
$(BUILD)/vendor/cg-scalars.o: vendor/cusparse-cg/scalars.cu vendor/cusparse-cg/scalars.h $(CUDA_ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) -O2 $(CUDA_ARCH) -c $< -o $@
$(BUILD)/cusparse-cg: vendor/cusparse-cg/main.c vendor/cusparse-cg/scalars.h $(CG_SRC) $(CG_ROW_SRC) step7-cg/report/check.c step7-cg/report/check.h $(BUILD)/gitrev.h $(BUILD)/vendor/cuda.o $(BUILD)/vendor/probe.o $(BUILD)/vendor/cg-scalars.o $(BUILD)/libspmv.a $(COMMON_H) vendor/cusparse/cuda.h
	$(CC) $(CFLAGS) -include $(BUILD)/gitrev.h -Ivendor/cusparse -isystem $(CUDA_HOME)/include -c vendor/cusparse-cg/main.c -o $(BUILD)/vendor/cusparse-cg.o
	$(CC) $(CFLAGS) -c step7-cg/reference/cg.c -o $(BUILD)/vendor/cg.o
	$(CC) $(CFLAGS) -c step7-cg/report/row.c -o $(BUILD)/vendor/cg-row.o
	$(CC) $(CFLAGS) -c step7-cg/report/check.c -o $(BUILD)/vendor/cg-check.o
	$(CC) $(BUILD)/vendor/cusparse-cg.o $(BUILD)/vendor/cg.o $(BUILD)/vendor/cg-row.o $(BUILD)/vendor/cg-check.o $(BUILD)/vendor/cuda.o $(BUILD)/vendor/probe.o $(BUILD)/vendor/cg-scalars.o $(BUILD)/libspmv.a $(CUDA_LINK) \
	    -lcusparse -lcublas -lcudart_static -ldl -lrt -lpthread -lstdc++ $(LDLIBS) -o $@
# vendor/cusparse-pcg: chapter 9's yardstick, the CUDA sample
# conjugateGradientPrecond's loop with IC(0) (cusparseXcsric02, deprecated:
# main.c silences that warning alone), its two solves by cusparseSpSV; and
# --spsv-only, the solves timed alone; chapter 7's host CG and checks built in
$(BUILD)/cusparse-pcg: vendor/cusparse-pcg/main.c $(CG_SRC) step7-cg/report/check.c step7-cg/report/check.h $(BUILD)/vendor/cuda.o $(BUILD)/libspmv.a $(COMMON_H) vendor/cusparse/cuda.h
	$(CC) $(CFLAGS) -Ivendor/cusparse -isystem $(CUDA_HOME)/include -c vendor/cusparse-pcg/main.c -o $(BUILD)/vendor/cusparse-pcg.o
	$(CC) $(CFLAGS) -c step7-cg/reference/cg.c -o $(BUILD)/vendor/pcg-cg.o
	$(CC) $(CFLAGS) -c step7-cg/report/check.c -o $(BUILD)/vendor/pcg-check.o
	$(CC) $(BUILD)/vendor/cusparse-pcg.o $(BUILD)/vendor/pcg-cg.o $(BUILD)/vendor/pcg-check.o $(BUILD)/vendor/cuda.o $(BUILD)/libspmv.a $(CUDA_LINK) \
	    -lcusparse -lcublas -lcudart_static -ldl -lrt -lpthread -lstdc++ $(LDLIBS) -o $@
# vendor/cuda-mgpu-cg: chapter 8's yardstick, CG over the GPUs of one node in
# one persistent cooperative kernel a GPU (solver.cu; grid.sync() needs no
# -rdc), on chapter 7's system (step7-cg/reference/) split as step8 splits it
$(BUILD)/vendor/mgpu-solver.o: vendor/cuda-mgpu-cg/solver.cu vendor/cuda-mgpu-cg/solver.h $(CUDA_ARCH_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 $(CUDA_ARCH) -c $< -o $@
$(BUILD)/cuda-mgpu-cg: vendor/cuda-mgpu-cg/main.c vendor/cuda-mgpu-cg/solver.h step8-mpi/split/rows.h $(CG_SRC) $(SYSTEM_SRC) $(CHOICE_SRC) $(BUILD)/vendor/cuda.o $(BUILD)/vendor/mgpu-solver.o $(BUILD)/libspmv.a $(COMMON_H) vendor/cusparse/cuda.h
	$(CC) $(CFLAGS) -Ivendor/cusparse -isystem $(CUDA_HOME)/include vendor/cuda-mgpu-cg/main.c \
	    $(filter %.c,$(CG_SRC) $(SYSTEM_SRC) $(CHOICE_SRC)) $(BUILD)/vendor/cuda.o $(BUILD)/vendor/mgpu-solver.o \
	    $(BUILD)/libspmv.a $(CUDA_LINK) -lcusparse -lcudart_static -ldl -lrt -lpthread -lstdc++ $(LDLIBS) -o $@
else
cusparse:
	@echo "cusparse: skipped (no nvcc / cuSPARSE found)"
endif
# vendor/petsc: PETSc's KSPCG on step7's matrix, rows split across MPI ranks
# (vendor/petsc/README.md). Built with MPI's compiler where pkg-config finds
# PETSc (Debian: apt-get install petsc-dev); elsewhere `make petsc` says it
# skipped and succeeds. `make all` tries it, as it tries cusparse.
MPICC       ?= mpicc
# (make test installs petsc-dev in its deps step, then builds in a second
# make, which reads these; petsc-if-found waits for the deps step)
PETSC_PC     = $(shell pkg-config --exists petsc 2>/dev/null && echo petsc)
ifneq ($(and $(PETSC_PC),$(shell command -v $(MPICC) 2>/dev/null)),)
PETSC_CFLAGS = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags petsc))
PETSC_LIBS   = $(shell pkg-config --libs petsc) -Wl,-rpath,$(shell pkg-config --variable=libdir petsc)
petsc: $(BUILD)/petsc-cg
$(BUILD)/petsc-cg: vendor/petsc/main.c $(BUILD)/gitrev.h
	$(MPICC) -O2 -g -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -include $(BUILD)/gitrev.h \
	    $(PETSC_CFLAGS) $< $(PETSC_LIBS) -lm -o $@
else
petsc:
	@echo "petsc: skipped (no PETSc found by pkg-config, or no $(MPICC): apt-get install petsc-dev)"
endif
petsc-if-found: | $(DEPS_OK)
ifeq ($(SAN),)
	@$(MAKE) --no-print-directory petsc || echo "petsc: the build failed (make petsc shows why); the course runs without it"
endif

# the sanitizer build leaves it out: the CUDA runtime is not built for them
cusparse-if-cuda: $(BUILD)/libspmv.a
ifeq ($(SAN),)
	@$(MAKE) --no-print-directory cusparse || echo "cusparse: the build failed (make cusparse shows why); the course runs without it"
endif

.SECONDEXPANSION:
$(BUILD)/tests/%: tests/%.c $$(USES_tests/$$*) $(BUILD)/libspmv.a $(COMMON_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(filter %.c,$(USES_tests/$*)) $(BUILD)/libspmv.a $(LDFLAGS) $(LDLIBS) -o $@

# `make step4 run` runs only the steps named on the command line; `make run` all of them.
# deps.sh first, then a second make: every flag read from a tool that deps.sh
# may just have installed (mpicc, pkg-config) is read by a make that starts
# after the install
RUN_STEPS = $(or $(filter $(ALL_STEPS),$(MAKECMDGOALS)),$(ALL_STEPS))
run: deps-run
	@$(MAKE) --no-print-directory run-built RUN_STEPS="$(RUN_STEPS)"
run-built: $(addprefix $(BUILD)/,$(RUN_STEPS)) $(BUILD)/devices
	@scripts/run-steps.sh $(BUILD) "$(ARGS)" $(RUN_STEPS)

# STEP=N on the command line: chapter N's tests (tests/run.sh --step N); the
# default STEP below is diff's
test: deps
	@$(MAKE) --no-print-directory -s all
	@BUILD=$(abspath $(BUILD)) tests/run.sh $(if $(filter command line,$(origin STEP)),--step $(STEP))

# the teacher's run of every answer (scripts/answers.sh): DEVICE=SEL picks the
# device, CSV=FILE keeps the measurements as rows (plots/data/answers/<device>.csv)
answers: deps-run
	@$(MAKE) --no-print-directory answers-built
answers-built: all
	@BUILD=$(abspath $(BUILD)) $(if $(DEVICE),SPMV_DEVICE="$(DEVICE)") $(if $(CSV),ANSWERS_CSV="$(abspath $(CSV))") \
	    scripts/answers.sh $(STEPS)

devices: $(BUILD)/devices
	@$(BUILD)/devices

STEP ?= 1
diff:
	@scripts/diff.sh $(STEP)

clean:
	rm -rf $(BUILD) build-san

-include plots/plots.mk
