# plots/plots.mk - the figure targets; the top-level Makefile includes this file.
#
#   make figures [DEVICE=SEL] [BUDGET=seconds]   sweep every built step on one device,
#                [MATRICES=dir]                  append to plots/data/<device>.csv, draw
#   make plots                                   redraw every figure from plots/data/*.csv
#                                                (gnuplot only, no OpenCL)
#   make readme-table                            refresh the results table in README.md, the
#                                                then-and-now tables (README, chapters 0-5) and
#                                                every generated block (plots/blocks.sh)
#   make rowlengths                              chapter 6's row-length histograms (plots/rowlengths.sh)
#   make rounds [GRIDS="1024 2048"] [ROUNDS=3]   chapter 4's CPU table: step 0's loops,
#               [DEVICE=cpu] [THREADS=cores]     steps 1, 4 (both kernels) and 5, in rounds
#                                                (plots/rounds.sh); rows in build/rounds/
#
# BUDGET is the sweep's time limit in seconds (default 600: about ten minutes on
# a 2-core CPU with PoCL); ARGS="--runs 20" passes flags on to every binary;
# EXTRA="step4:cpu" names the variants swept beside each step's default;
# MATRICES=dir adds that folder's matrix files to step6's real matrices
# (those of tests/data/MANIFEST.tsv); IRREGULAR="powerlaw:rows=N,mean=M ..."
# replaces chapter 6's generated matrices (their first sizes; they grow 4x a
# round while the budget allows) and REAL_MATRICES=0 leaves out tests/data's;
# PLAN=N makes the sweep a fixed plan in place of the budget: the first sizes
# and N rounds of growth, the same runs on an idle machine and on a busy one
# (plots/figures.sh says more). Chapter 7's CG sweep follows (CG=0 leaves it
# out; CG_SIZES, CG_BUDGET): plots/data/cg-<device>.csv and the residual history.

BUILD  ?= build
DEVICE ?=
BUDGET ?= 600
PLAN   ?=
MATRICES ?=
# the variants swept beside each step's default: step4's CPU-shaped kernel and
# step0's other loop orders (on every core), the CPU anchor of chapter 4
EXTRA  ?= step4:cpu step0:diag step0:blocked

GRIDS  ?= 1024 2048
ROUNDS ?= 3

.PHONY: figures plots readme-table rounds rowlengths
figures:
	@$(MAKE) --no-print-directory -s all || echo "figures: not every binary built; the sweep runs those that exist"
	@BUILD=$(abspath $(BUILD)) DEVICE="$(DEVICE)" BUDGET="$(BUDGET)" PLAN="$(PLAN)" ARGS="$(ARGS)" EXTRA="$(EXTRA)" MATRICES="$(MATRICES)" \
	    $(if $(CG),CG="$(CG)") $(if $(CG_SIZES),CG_SIZES="$(CG_SIZES)") $(if $(CG_BUDGET),CG_BUDGET="$(CG_BUDGET)") plots/figures.sh

plots:
	@plots/draw.sh plots/data plots

readme-table:
	@plots/readme-table.sh README.md plots/data
	@plots/then-and-now.sh update plots/data
	@plots/blocks.sh README.md step[0-6]-*/README.md

rounds:
	@$(MAKE) --no-print-directory -s all
	@BUILD=$(abspath $(BUILD)) DEVICE="$(DEVICE)" GRIDS="$(GRIDS)" ROUNDS="$(ROUNDS)" ARGS="$(ARGS)" \
	    $(if $(THREADS),THREADS="$(THREADS)") plots/rounds.sh

rowlengths:
	@$(MAKE) --no-print-directory -s all
	@BUILD=$(abspath $(BUILD)) plots/rowlengths.sh
