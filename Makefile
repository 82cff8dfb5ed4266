# swstress - network switch stress tester.
#
#   make run     set up (installs Debian packages when root), build, the demo: configs/demo.conf
#                on an emulated switch fabric as root, else shared memory (tests/fabric/demo.sh)
#   make test    set up, build, run every test (unit, MPI, fabric when root)
#   make bench   benchmarks (never part of make test; installs netpipe-mpich2);
#                OSU=DIR compares with the OSU micro-benchmarks (tests/bench/osu.sh, phase.sh)
#   make plot R=results/FOLDER   render the charts of a results folder
#   make install PREFIX=/usr/local DESTDIR=    (and make uninstall with the same values)
#
# The core (everything but main.c, engine*.c and the command layer) is
# MPI-free and builds as build/libswstress.a, which the unit tests link: it
# reads no argv and prints nothing on stdout. The command layer (cli.c,
# cmd_*.c: argv in, results on stdout) builds as build/libswstress-cli.a,
# linked into the swstress binary and the tests of the commands. Which
# module may call which: tests/layers/layers.txt (make layers-test).

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
MPICC   ?= mpicc
MPIEXEC ?= mpiexec
NP      ?= 8
CONFIG  ?= configs/demo.conf

BUILD   ?= build
CFLAGS  ?= -O2 -g
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -I/usr/include/postgresql
LDLIBS  := -linih -ljansson -lsqlite3 -lpq -lgsl -lgslcblas -lm

# Debian packages the build, the run and the tests need.
PACKAGES := build-essential pkg-config mpich libmpich-dev libgsl-dev libcriterion-dev \
	libinih-dev libjansson-dev libsqlite3-dev sqlite3 libpq-dev gnuplot-nox iproute2 util-linux \
	procps python3 curl prometheus prometheus-node-exporter valgrind time groff-base bash

MPI_SRC  := $(wildcard src/engine*.c) src/main.c
PRELOAD_SRC := src/finalize_preload.c
CMD_SRC  := src/cli.c $(wildcard src/cmd_*.c)
CORE_SRC := $(filter-out $(MPI_SRC) $(PRELOAD_SRC) $(CMD_SRC),$(wildcard src/*.c))
CORE_OBJ := $(CORE_SRC:src/%.c=$(BUILD)/obj/%.o)
CMD_OBJ  := $(CMD_SRC:src/%.c=$(BUILD)/obj/%.o)
MPI_OBJ  := $(MPI_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/unit/*.c)

.PHONY: all setup run test unit-test hdr-check layers-test golden-test docs-test mpi-test cli-test slurm-test health-test monitoring-test fabric-test bench plot install uninstall clean test-asan \
	fuzz fuzz-build test-fuzz-replay test-valgrind drills catalog-test calibration-test claims-test

all: $(BUILD)/swstress $(BUILD)/finalize_preload.so $(BUILD)/swstress.1

$(BUILD)/obj/%.o: src/%.c $(wildcard include/*.h) | $(BUILD)/obj
	$(CC) $(CFLAGS) -c -o $@ $<

$(MPI_OBJ): $(BUILD)/obj/%.o: src/%.c $(wildcard include/*.h) src/engine_int.h | $(BUILD)/obj
	$(MPICC) $(CFLAGS) -c -o $@ $<

$(BUILD)/obj:
	mkdir -p $@

$(BUILD)/libswstress.a: $(CORE_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/libswstress-cli.a: $(CMD_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/swstress: $(MPI_OBJ) $(BUILD)/libswstress-cli.a $(BUILD)/libswstress.a
	$(MPICC) $(CFLAGS) -pthread -o $@ $(MPI_OBJ) $(BUILD)/libswstress-cli.a $(BUILD)/libswstress.a $(LDLIBS)

# The MPI_Finalize workaround that run and check load themselves (main.c).
$(BUILD)/finalize_preload.so: $(PRELOAD_SRC) | $(BUILD)/obj
	$(CC) -shared -fPIC -O2 -g -Wall -Wextra -o $@ $< -ldl

# The man page, printed from the same tables as --help.
$(BUILD)/swstress.1: $(BUILD)/swstress
	$(BUILD)/swstress help --man > $@.tmp && mv $@.tmp $@

$(BUILD)/calibrate: tests/calibration/calibrate.c $(BUILD)/libswstress.a
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libswstress.a $(LDLIBS)

# the fabric map's known answers read the statistics through this (tests/fabric)
$(BUILD)/mapblame: tests/fabric/mapblame.c $(BUILD)/libswstress.a
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libswstress.a $(LDLIBS)

$(BUILD)/unit_tests: $(TEST_SRC) $(BUILD)/libswstress-cli.a $(BUILD)/libswstress.a $(wildcard tests/unit/*.h)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $(TEST_SRC) $(BUILD)/libswstress-cli.a $(BUILD)/libswstress.a \
		-lcriterion $(LDLIBS)

# Install what is missing (root), or print the apt-get line and stop.
setup:
	@missing=""; for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "swstress: installing:$$missing" >&2; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing || exit 1; \
		else \
			echo "swstress: missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
		fi; \
	fi

run: setup
	$(MAKE) all
	sh tests/fabric/demo.sh $(CONFIG) $(NP)

test: setup
	$(MAKE) all build/unit_tests
	$(MAKE) unit-test golden-test docs-test hdr-check layers-test calibration-test claims-test test-fuzz-replay test-asan mpi-test cli-test health-test catalog-test drills test-valgrind fabric-test slurm-test \
		monitoring-test

unit-test: build/unit_tests
	./build/unit_tests --jobs 1

# The statistics against simulations with a known truth (seeded; make
# bench runs it with more datasets): CI coverage, false "significant",
# power, false alarms of nightly checks, suspect ports.
calibration-test: build/calibrate
	./build/calibrate 400

# Every claim a user reads, end to end: simulated runs with a known truth
# (tests/claims/sim.py) through report, compare, baseline and judge; each
# rate against its target (binomial, p < 0.001). make bench: CLAIMS_FULL=1.
claims-test: build/swstress
	sh tests/claims/run_tests.sh

# Every header compiles on its own, twice over (its guard): it includes
# what it uses. engine_int.h with mpicc.
hdr-check:
	@for h in include/*.h src/engine_int.h; do \
		cc="$(CC)"; case $$h in src/engine_int.h) cc="$(MPICC)" ;; esac; \
		printf '#include "%s"\n#include "%s"\n' $$h $$h | \
			$$cc $(CFLAGS) -Werror -I. -fsyntax-only -x c - || { echo "hdr-check: $$h does not compile on its own"; exit 1; }; \
	done; echo "hdr-check: $$(ls include/*.h src/engine_int.h | wc -l) headers compile on their own"

# The layers of src/ on the objects (nm): no call into a higher layer, no
# cycle, mpi.h only in the engine and main.c; and its self-test.
layers-test: $(CORE_OBJ) $(CMD_OBJ) $(MPI_OBJ)
	CC="$(CC)" MPICC="$(MPICC)" sh tests/layers/check.sh $(BUILD)/obj
# The text of report, compare and judge over fixed runs (tests/data)
# against tests/golden: any change of an output shows as a diff
# (GOLDEN_UPDATE=1 sh tests/golden/run_tests.sh after one made on purpose).
golden-test: build/swstress
	sh tests/golden/run_tests.sh

# The documentation: links resolve, every config key and command is
# documented, the README stays a first page, its swstress commands parse.
docs-test: build/swstress
	sh tests/docs/check.sh build/swstress

mpi-test: build/swstress
	sh tests/mpi/run_all.sh

# The command line: help, grammar, man page, completion, install/uninstall,
# the crontab example under env -i.
cli-test: all
	sh tests/cli/run_tests.sh

# A real Slurm cluster on the emulated fabric (root; installs slurmctld,
# slurmd, slurm-client, munge; SKIP otherwise).
slurm-test: all
	sh tests/slurm/run_tests.sh

health-test: build/swstress
	sh tests/health/run_tests.sh

# Nagios 4 started on its own config (root; installs nagios4-core; SKIP
# otherwise), the Prometheus alert rules under promtool, the systemd units
# under systemd-analyze verify.
monitoring-test: all build/libswstress.a build/libswstress-cli.a
	sh tests/monitoring/run_tests.sh

fabric-test: build/swstress build/mapblame
	sh tests/fabric/run_tests.sh; r=$$?; sh tests/fabric/wander.sh || r=1; sh tests/fabric/ppn.sh || r=1; sh tests/fabric/map.sh || exit 1; exit $$r

# publish into SQLite and a PostgreSQL server the test starts; the site in
# headless Chromium (installs postgresql, chromium when root; SKIP otherwise)
catalog-test: build/swstress
	sh tests/catalog/run_tests.sh

bench: setup
	$(MAKE) all
	@command -v NPmpich2 > /dev/null || [ "$$(id -u)" != 0 ] || apt-get install -y -q netpipe-mpich2
	OSU="$(OSU)" sh tests/bench/run_all.sh

plot: build/swstress
	@test -n "$(R)" || { echo "usage: make plot R=results/FOLDER" >&2; exit 2; }
	./build/swstress plot $(R)

# Unit tests under AddressSanitizer and UndefinedBehaviorSanitizer, in
# their own build folder; then the binary so built takes paths near
# PATH_MAX through every command (tests/drills/security.sh drill_long_paths).
test-asan:
	$(MAKE) BUILD=build/asan build/asan/unit_tests \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
	ASAN_OPTIONS=detect_leaks=1 SWSTRESS_PLOT_DIR=$(CURDIR)/plot ./build/asan/unit_tests --jobs 1
	$(MAKE) BUILD=build/asan build/asan/swstress \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
	ASAN_OPTIONS=detect_leaks=1 SW=$(CURDIR)/build/asan/swstress sh tests/drills/security.sh drill_long_paths

# Fuzzing with clang's libFuzzer (tests/fuzz/): `make fuzz` builds the
# targets with ASan+UBSan in build/fuzz/ and runs each for FUZZ_SECONDS at
# nice 19, then merges new inputs into tests/fuzz/corpus/TARGET/. Crashes
# land in tests/fuzz/crashes/TARGET/. `make test-fuzz-replay` feeds the
# committed corpus and the committed crash inputs (regressions once fixed;
# 4 GiB of address space at most, so an out-of-memory input fails instead of
# swapping) to the same entry points built with the normal compiler (fast;
# no clang needed).
FUZZ_TARGETS := config results plot compare
FUZZ_SECONDS ?= 600
FUZZ_CFLAGS  := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer

fuzz-build:
	$(MAKE) BUILD=build/fuzz CC=clang CFLAGS="$(FUZZ_CFLAGS)" build/fuzz/libswstress.a
	$(MAKE) $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c build/fuzz/libswstress.a
	clang $(subst fuzzer-no-link,fuzzer,$(FUZZ_CFLAGS)) -std=c11 -D_GNU_SOURCE -Iinclude -o $@ $< \
		build/fuzz/libswstress.a $(LDLIBS)

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

$(BUILD)/fuzz_replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(BUILD)/libswstress.a
	$(CC) $(CFLAGS) -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay.c $(BUILD)/libswstress.a $(LDLIBS)

test-fuzz-replay: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_replay_%)
	@ulimit -v 4194304; for t in $(FUZZ_TARGETS); do \
		$(BUILD)/fuzz_replay_$$t tests/fuzz/corpus/$$t $$(ls -d tests/fuzz/crashes/$$t 2>/dev/null) || exit 1; \
	done

# A 2-rank run under valgrind memcheck; MPICH/UCX internals suppressed
# (tests/valgrind/mpich-ucx.supp). Fails on any error in swstress's code.
test-valgrind: build/swstress
	sh tests/valgrind/run.sh

# Fault drills: stalled rank, killed rank, unwritable output, full disk,
# truncated results folder; what results folders, stores and names may
# hold (security.sh). Prints "N passed, N failed".
drills: build/swstress
	sh tests/drills/run.sh
	sh tests/drills/busy.sh
	sh tests/drills/input.sh
	sh tests/drills/security.sh

BINDIR  := $(DESTDIR)$(PREFIX)/bin
LIBDIR  := $(DESTDIR)$(PREFIX)/lib/swstress
DATADIR := $(DESTDIR)$(PREFIX)/share/swstress
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions

install: all
	install -d $(BINDIR) $(LIBDIR) $(DATADIR)/plot $(DATADIR)/configs $(DATADIR)/slurm $(DATADIR)/cron \
		$(DATADIR)/nagios $(DATADIR)/prometheus $(DATADIR)/systemd $(MANDIR) $(COMPDIR)
	install -m 755 $(BUILD)/swstress $(BINDIR)/swstress
	install -m 644 $(BUILD)/finalize_preload.so $(LIBDIR)/finalize_preload.so
	install -m 644 plot/*.gp $(DATADIR)/plot/
	install -m 644 configs/*.conf $(DATADIR)/configs/
	install -m 755 configs/slurm/swstress-check.sbatch $(DATADIR)/slurm/
	install -m 644 configs/slurm/scrontab configs/slurm/swstress.nhc $(DATADIR)/slurm/
	install -m 644 configs/cron/crontab $(DATADIR)/cron/
	install -m 644 configs/nagios/swstress.cfg $(DATADIR)/nagios/
	install -m 644 configs/prometheus/swstress.rules.yml $(DATADIR)/prometheus/
	install -m 644 configs/systemd/swstress-check.service configs/systemd/swstress-check.timer $(DATADIR)/systemd/
	install -m 644 $(BUILD)/swstress.1 $(MANDIR)/swstress.1
	install -m 644 src/completion.bash $(COMPDIR)/swstress

uninstall:
	rm -f $(BINDIR)/swstress $(LIBDIR)/finalize_preload.so $(MANDIR)/swstress.1 $(COMPDIR)/swstress
	rm -f $(patsubst %,$(DATADIR)/%,$(wildcard plot/*.gp configs/*.conf)) \
		$(patsubst configs/%,$(DATADIR)/%,$(wildcard configs/slurm/* configs/cron/* configs/nagios/* \
			configs/prometheus/* configs/systemd/*))
	-rmdir $(LIBDIR) $(DATADIR)/plot $(DATADIR)/configs $(DATADIR)/slurm $(DATADIR)/cron $(DATADIR)/nagios \
		$(DATADIR)/prometheus $(DATADIR)/systemd $(DATADIR) 2>/dev/null

clean:
	rm -rf build
