# dem - a Unix-philosophy DEM toolchain. `make` builds lib/libdem.a and bin/; `make test` runs
# every test; `make check` runs them under AddressSanitizer and UBSan. See README.md.
CC       ?= cc
# -fno-math-errno: sqrt becomes one instruction instead of a call that may set errno (the library
# never reads errno from maths); IEEE sqrt is exact, so results are the same bits either way.
# -ffp-contract=off -fno-tree-slp-vectorize: a multiply and an add are never fused into one FMA,
# whatever -march a user builds with, so every build gives the same bits. ISO C mode already
# forbids contraction, but GCC 12's SLP vectoriser still fuses the quaternion product into
# vfmaddsub under -march=native (make check-native tests it); SLP costs nothing measurable here.
CSTD     := -std=c11 -D_DEFAULT_SOURCE -pthread -fno-math-errno -ffp-contract=off -fno-tree-slp-vectorize
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT      ?= -O2 -g
CFLAGS   ?=
# -MMD -MP: each object lists the headers it includes (BUILD/.../x.d, read below), so a header's
# change rebuilds only the objects that include it.
ALLFLAGS  = $(CSTD) $(WARN) $(OPT) $(CFLAGS) -Ilib -MMD -MP
LDLIBS   := -lz -lm
BUILD    ?= build

# libdem: one folder per concern (README "Layout and library"); includes are written from lib/.
LIB_SRC  := $(wildcard lib/*/*.c)

LIB_OBJ  := $(LIB_SRC:lib/%.c=$(BUILD)/lib/%.o)
LIB      := $(BUILD)/libdem.a
PROGS    := dem-pack dem-probe dem-step dem-reverse dem-stress dem-energy
BIN      := $(PROGS:%=bin/%)
CLI_OBJ  := $(BUILD)/bin/cli.o $(BUILD)/bin/progress.o
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC := $(wildcard tests/tools/*.c)
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tests/tools/%)

# dem-step on MPI (bin/mpi_run.c; README "Running on a cluster"): bin/dem-step-mpi, built where
# mpicc and mpi.h are found (Debian: libopenmpi-dev); MPI=0 leaves it out, MPI=1 insists on it. libdem and
# the other programs need no MPI.
MPICC    ?= mpicc
MPI      ?= $(if $(shell printf '\043include <mpi.h>\n' | $(MPICC) -x c -E - >/dev/null 2>&1 && echo 1),1,0)
MPI_BIN  := $(if $(filter 1,$(MPI)),bin/dem-step-mpi)

.PHONY: all test test-bare unit layers bats check check-threads check-native demo bench fuzz fuzz-short clean man install uninstall
all: lib/libdem.a $(BIN) $(MPI_BIN)

# An object built before the .d files existed is rebuilt once (its .d is a prerequisite that
# make sees as new while it is missing: an explicit target without a recipe).
DEPS := $(LIB_OBJ:.o=.d) $(PROGS:%=$(BUILD)/bin/%.d) $(BUILD)/bin/dem-step-mpi.d $(BUILD)/bin/mpi_run.d $(CLI_OBJ:.o=.d) $(UNIT_BIN:=.d) $(TOOL_BIN:=.d)
$(DEPS):
include $(wildcard $(DEPS))

$(BUILD)/lib/%.o: lib/%.c $(BUILD)/lib/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALLFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

lib/libdem.a: $(LIB)
	@if [ "$(BUILD)" = build ]; then cp $(LIB) $@; fi

$(BUILD)/bin/%.o: bin/%.c $(BUILD)/bin/%.d
	@mkdir -p $(dir $@)
	$(CC) $(ALLFLAGS) -c $< -o $@

$(BIN): bin/%: $(BUILD)/bin/%.o $(CLI_OBJ) $(LIB)
	$(CC) $(ALLFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/bin/dem-step-mpi.o: bin/dem-step.c $(BUILD)/bin/dem-step-mpi.d
	@mkdir -p $(dir $@)
	$(MPICC) $(ALLFLAGS) -DDEM_MPI -c $< -o $@

$(BUILD)/bin/mpi_run.o: bin/mpi_run.c $(BUILD)/bin/mpi_run.d
	@mkdir -p $(dir $@)
	$(MPICC) $(ALLFLAGS) -c $< -o $@

bin/dem-step-mpi: $(BUILD)/bin/dem-step-mpi.o $(BUILD)/bin/mpi_run.o $(CLI_OBJ) $(LIB)
	$(MPICC) $(ALLFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/tests/%.d $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLFLAGS) -Itests/unit $< $(LIB) -o $@ $(LDLIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(BUILD)/tests/tools/%.d $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALLFLAGS) $< $(LIB) -o $@ $(LDLIBS)

unit: $(UNIT_BIN)
	@tests/unit/run $(UNIT_BIN)

bats: $(BIN) $(MPI_BIN) $(TOOL_BIN)
	bats tests/bats

# The include edges between lib/ folders, refused if they form a cycle (docs/architecture.md).
layers:
	@tools/layers.sh

# `make test` runs the unit tests and the bats files together, TEST_JOBS at a time (tests/run;
# default: the machine's cores), the slowest first so that the workers finish together, then
# mpi.bats alone (its ranks busy-wait: beside another test on 2 cores it took 209 s, not 61).
# `make unit` and `make bats` run each kind alone, one at a time.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
TESTS_SLOW  := tests/bats/readme.bats tests/bats/until.bats tests/bats/cell.bats tests/bats/kuhn.bats tests/bats/clumps.bats \
               tests/bats/clumps-cell.bats tests/bats/first-hour.bats $(BUILD)/tests/test_dist tests/bats/step.bats
TESTS_ALONE := tests/bats/mpi.bats
TESTS := $(TESTS_SLOW) $(filter-out $(TESTS_SLOW) $(TESTS_ALONE),$(UNIT_BIN) $(sort $(wildcard tests/bats/*.bats))) \
         -- $(TESTS_ALONE)

test: all layers $(UNIT_BIN) $(TOOL_BIN)
	@tests/run -j $(TEST_JOBS) $(TESTS)

# The README's first day and the suites that use optional Python packages, as on a machine
# without them (python3 -S: numpy and vtk unimportable): each must pass or skip (.ci/run runs it).
test-bare: $(BIN) $(TOOL_BIN)
	tests/without-optional.sh bats tests/bats/readme.bats tests/bats/python.bats tests/bats/vtk.bats

# Every test again with the sanitizers: a separate build tree, the programs rebuilt into it;
# then the threads under ThreadSanitizer (check-threads).
check:
	$(MAKE) BUILD=build-san OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	        BINDIR=build-san/bin test-san
	$(MAKE) check-threads

# dem-step's thread pool (lib/sim/par.c) and every loop it shares, under ThreadSanitizer: no data
# race, and the bytes of one thread (tests/threads-tsan.sh); and a group of processes played by
# threads (test_dist: lib/sim/dist.c's exchanges).
check-threads:
	$(MAKE) BUILD=build-tsan OPT="-O1 -g -fsanitize=thread" BINDIR=build-tsan/bin \
	        build-tsan/bin/dem-pack build-tsan/bin/dem-step build-tsan/tests/test_par build-tsan/tests/test_dist
	build-tsan/tests/test_par
	build-tsan/tests/test_dist
	tests/threads-tsan.sh build-tsan/bin

test-san: $(UNIT_BIN) $(TOOL_BIN) $(PROGS:%=$(BUILD)/bin/%)
	DEM_BIN=$(CURDIR)/$(BUILD)/bin DEM_TOOLS=$(CURDIR)/$(BUILD)/tests/tools tests/run -j $(TEST_JOBS) $(TESTS)

$(PROGS:%=$(BUILD)/bin/%): $(BUILD)/bin/%: $(BUILD)/bin/%.o $(CLI_OBJ) $(LIB)
	$(CC) $(ALLFLAGS) $^ -o $@ $(LDLIBS)

# The programs built for this CPU (-march=native) must give the same bits as the default build.
check-native: all
	$(MAKE) BUILD=build-native OPT="-O2 -g -march=native" $(PROGS:%=build-native/bin/%)
	tests/native-bits.sh $(CURDIR)/bin $(CURDIR)/build-native/bin

demo: all
	tools/demo.sh

bench: all
	$(MAKE) -C tools/bench

fuzz:
	$(MAKE) -C tests/fuzz run

fuzz-short:
	$(MAKE) -C tests/fuzz run FUZZ_SECONDS=20

# Installation (README "Installing"): the programs, their man pages (tools/mkman.sh, from --help),
# the Python module, the stream's specification and the examples. DESTDIR stages a package.
PREFIX    ?= /usr/local
BINDIR_I   = $(PREFIX)/bin
MANDIR     = $(PREFIX)/share/man/man1
DOCDIR     = $(PREFIX)/share/doc/dem
# Debian's python3 looks in /usr/local/lib/python3.X/dist-packages; another PREFIX: set PYTHONPATH
PYTHONDIR ?= $(PREFIX)/lib/python$(shell python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo 3)/dist-packages
VERSION   ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
MAN       := $(PROGS:%=$(BUILD)/man/%.1)
# kuhn-fig4 needs a test tool of the checkout (build/tests/tools); the others need the programs only
INSTALLED_EXAMPLES := $(filter-out kuhn-fig4,$(patsubst examples/%/Makefile,%,$(wildcard examples/*/Makefile)))

$(BUILD)/man/%.1: bin/% tools/mkman.sh
	@mkdir -p $(dir $@)
	tools/mkman.sh $< $(VERSION) > $@.tmp && mv $@.tmp $@

man: $(MAN)

install: all man
	install -d $(DESTDIR)$(BINDIR_I) $(DESTDIR)$(MANDIR) $(DESTDIR)$(PYTHONDIR) $(DESTDIR)$(DOCDIR)/formats
	install -m 755 $(BIN) $(MPI_BIN) $(DESTDIR)$(BINDIR_I)
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)
	install -m 644 tools/python/demstream.py $(DESTDIR)$(PYTHONDIR)
	install -m 644 README.md $(DESTDIR)$(DOCDIR)
	install -m 644 formats/dem-stream.md $(DESTDIR)$(DOCDIR)/formats
	install -d $(DESTDIR)$(DOCDIR)/docs && cp -R docs/. $(DESTDIR)$(DOCDIR)/docs
	install -d $(DESTDIR)$(DOCDIR)/examples
	cp -p examples/Makefile examples/README.md examples/*.mk $(DESTDIR)$(DOCDIR)/examples
	for e in $(INSTALLED_EXAMPLES); do install -d $(DESTDIR)$(DOCDIR)/examples/$$e && \
	    find examples/$$e -maxdepth 1 -type f -exec cp -p {} $(DESTDIR)$(DOCDIR)/examples/$$e \; || exit 1; done
	printf '# written by make install: the examples run with these programs\nDEM_INSTALLED_BIN := %s\n' \
	    $(BINDIR_I) > $(DESTDIR)$(DOCDIR)/examples/installed.mk
	@echo "installed in $(DESTDIR)$(PREFIX): programs in $(BINDIR_I), man pages in $(MANDIR), demstream.py in $(PYTHONDIR), examples in $(DOCDIR)/examples"

uninstall:
	rm -f $(PROGS:%=$(DESTDIR)$(BINDIR_I)/%) $(DESTDIR)$(BINDIR_I)/dem-step-mpi $(PROGS:%=$(DESTDIR)$(MANDIR)/%.1) $(DESTDIR)$(PYTHONDIR)/demstream.py
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build build-san build-tsan build-native lib/libdem.a $(BIN) bin/dem-step-mpi
	$(MAKE) -C tests/fuzz clean
