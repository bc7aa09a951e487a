# iobisect: the host harness (harness/), the static guest (workloads/), and
# their tests. `make` builds both programs; `make test` installs what is
# missing, then runs the unit suites (with the hostile-input table) and the
# real-kernel integration tests.

CC        ?= cc
MUSL_CC   ?= musl-gcc
O         ?= build
PKGS      := libgit2 libcurl jansson
WERROR    ?= -Werror
CFLAGS    ?= -O2 -g
# override: `make CFLAGS=...` (as `make asan` does) adds to these, never drops them.
# The harness's folders by layer, the bottom one first (docs/layers.md): a
# file includes headers of its own folder and of those before it, never of
# one after (scripts/check-layers.sh, run by `make unit`). Each is on the
# include path, so a module names another's header by its file name alone.
HARNESS_DIRS := util stats kernel job boot store measure report bisect cmd
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -I. -I$(GEN) \
             $(addprefix -Iharness/,$(HARNESS_DIRS)) \
             $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS    += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

# The release; `iobisect --version` adds the build's `git describe`.
VERSION   := 0.1.0

# Install folders, named as the GNU coding standards name them:
# `make install prefix=/usr DESTDIR=/tmp/stage` (PREFIX is prefix too).
# The program finds its parts from its own folder by the paths between
# these (install_dirs.h), so they are written into the build.
PREFIX      ?= /usr/local
prefix      ?= $(PREFIX)
exec_prefix ?= $(prefix)
bindir      ?= $(exec_prefix)/bin
libexecdir  ?= $(exec_prefix)/libexec
datarootdir ?= $(prefix)/share
datadir     ?= $(datarootdir)
mandir      ?= $(datarootdir)/man
docdir      ?= $(datarootdir)/doc/iobisect
bashcompdir ?= $(datarootdir)/bash-completion/completions
INSTALL     ?= install
INSTALL_PROGRAM ?= $(INSTALL)
INSTALL_DATA    ?= $(INSTALL) -m 644
# Headers the build writes (the install folders, the version).
GEN       := $(O)/gen

HARNESS_SRC := $(filter-out harness/cmd/main.c,$(wildcard harness/*/*.c))
HARNESS_OBJ := $(HARNESS_SRC:%.c=$(O)/%.o)
GUEST_SRC   := $(wildcard workloads/*.c)
# The guest's modules but its PID 1, built with the host compiler for tests.
GUEST_TEST_OBJ := $(filter-out $(O)/workloads/init.o,$(GUEST_SRC:%.c=$(O)/%.o))
CHECK_SRC   := $(wildcard tests/check_*.c)
CHECK_BIN   := $(CHECK_SRC:tests/%.c=$(O)/tests/%)
GUEST       := $(O)/iobisect-guest
# The QEMU plugin that counts the guest kernel's instructions (profiles).
PLUGIN      := $(O)/iobisect-tbcount.so

.PHONY: all deps test unit unit-suites package unit-pattern integration asan format demo clean fuzz seeds \
	install uninstall man FORCE
all: iobisect $(GUEST) $(PLUGIN)

# Each is rewritten only when its text changes, so a build with the same
# folders and the same commit recompiles nothing. The build tree (this
# source folder and the build folder, absolute) is written in too: a
# program run from it, or copied out of it, finds its parts there, never
# in the folder it happens to run in (install_dirs.h).
$(GEN)/install_config.h: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '#define IOBISECT_BINDIR "$(bindir)"' \
		'#define IOBISECT_PKGDATADIR "$(datadir)/iobisect"' \
		'#define IOBISECT_PKGLIBEXECDIR "$(libexecdir)/iobisect"' \
		'#define IOBISECT_SRCDIR "$(CURDIR)"' \
		'#define IOBISECT_BUILDDIR "$(abspath $(O))"' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(O)/harness/util/install_dirs.o: $(GEN)/install_config.h

# A build outside git (a release tarball) says so; `make DESCRIBE=...`
# names it instead. When git cannot answer but a build already asked it
# (`sudo make install` in a user's clone: git refuses a folder root does
# not own), that build's answer stands, and nothing is built again.
DESCRIBE ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(GEN)/version_config.h: FORCE
	@mkdir -p $(dir $@)
	@[ '$(DESCRIBE)' = unknown ] && [ -f $@ ] && \
		grep -q '"$(VERSION)"' $@ && exit 0; \
	printf '%s\n' '#define IOBISECT_RELEASE "$(VERSION)"' \
		'#define IOBISECT_DESCRIBE "$(DESCRIBE)"' >$@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(O)/harness/util/version.o: $(GEN)/version_config.h

# The harness modules go in an archive, so a test links only what it uses.
$(O)/libharness.a: $(HARNESS_OBJ)
	rm -f $@
	ar rcs $@ $^

iobisect: $(O)/harness/cmd/main.o $(O)/libharness.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same program in the build folder, with that build's flags: the
# hostile-input suite runs it (under asan, instrumented).
$(O)/iobisect: $(O)/harness/cmd/main.o $(O)/libharness.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD writes a .d file beside it; read back at the end of this file;
# -MP: a header since removed or moved does not stop the next build;
# on a clean tree there are none, and everything is built anyway).
$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The guest is PID 1 of every initramfs: static, so it runs on any kernel.
# musl-gcc's link drops the build id gcc asks for by default; it is asked
# for here, so `iobisect --version` can name the guest it would boot.
$(GUEST): $(GUEST_SRC) $(wildcard workloads/*.h) $(wildcard proto/*.h) Makefile
	@mkdir -p $(dir $@)
	$(MUSL_CC) -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) \
		-Wl,--build-id -I. -o $@ $(GUEST_SRC) -lpthread

# QEMU loads the plugin into itself: it gets none of the harness's
# flags (an address sanitizer in it would need one in QEMU), only its
# warnings. It declares the part of QEMU's plugin API it uses, as QEMU
# ships no header in Debian; its symbols are QEMU's, found at load.
$(PLUGIN): qemu/plugin/tbcount.c proto/profile.h Makefile
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -I. \
		-fPIC -shared -fvisibility=hidden -o $@ $< -lpthread

# The passthrough test's driver of the safety check (60-safety-passthrough).
$(O)/tests/safety-probe: tests/safety_probe.c $(O)/libharness.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -o $@ $< $(O)/libharness.a $(LDLIBS)

$(O)/tests/check_%: tests/check_%.c $(O)/libharness.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -MMD -MP -o $@ $< $(O)/libharness.a $(CHECK_LIBS) $(LDLIBS)

# The guest's suite links the guest's modules, not the harness: its pure
# parts (spec, pattern, the engines over plain files) run on the host.
# The guest fills fixed fields with snprintf and means to cut; gcc flags
# that at -O1 (asan), which the musl build at -O2 does not see (clang has
# no such warning, nor the option).
GUEST_HOST_FLAGS := $(if $(findstring clang,$(CC)),,-Wno-format-truncation)
$(O)/workloads/%.o: workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(GUEST_HOST_FLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/check_guest: tests/check_guest.c $(GUEST_TEST_OBJ) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(GUEST_TEST_OBJ) $(CHECK_LIBS) -lpthread

# Suites of one guest module (tests/check_guest_*.c) link the same objects;
# the guest's headers come first, as some share a name with the harness's.
$(O)/tests/check_guest_%: tests/check_guest_%.c $(GUEST_TEST_OBJ) \
		$(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) -Iworkloads $(CFLAGS) -Itests -o $@ $< $(GUEST_TEST_OBJ) \
		$(CHECK_LIBS) -lpthread

deps:
	@scripts/deps.sh

# The layers' order, the Check suites, then the table of hostile inputs
# against the program, the defaults the docs state against the program's
# tables, then each command's answer to -h, --help and a bad option
# (tests/cli-table.sh), then two harnesses booting a stand-in QEMU on one
# results folder, then harnesses killed while a stand-in QEMU runs, then
# a bisection over a stand-in QEMU stopped at each of its progress lines
# (and by signals and a full disk) and resumed. The pieces after the
# layers run as many at a time as there are CPUs, longest first
# (scripts/run-pieces.sh prints each whole, in this order).
unit: $(CHECK_BIN) $(O)/iobisect
	@scripts/check-layers.sh $(HARNESS_DIRS)
	@scripts/long-functions.sh
	@scripts/run-pieces.sh \
		"tests/hostile.sh $(O)/iobisect" \
		"tests/resume-everywhere.sh $(O)/iobisect" \
		"RESUME_LINE=10% tests/resume-everywhere.sh $(O)/iobisect" \
		"scripts/run-unit.sh $(CHECK_BIN)" \
		"tests/cli-output.sh $(O)/iobisect" \
		"tests/concurrent-boots.sh $(O)/iobisect" \
		"tests/cli-table.sh $(O)/iobisect" \
		"tests/killed-harness.sh $(O)/iobisect" \
		"tests/docs-defaults.py $(O)/iobisect"

# The layers and the Check suites alone: what the package's build checks
# (debian/rules), without the stand-in harnesses that boot.
unit-suites: $(CHECK_BIN)
	@scripts/check-layers.sh $(HARNESS_DIRS)
	@scripts/run-unit.sh $(CHECK_BIN)

# The .deb built from a clean export of HEAD, unpacked and run.
package:
	@scripts/package.sh

integration: all
	@tests/run-integration.sh

# The whole suite, as CI runs it: unit tests, the same with a patterned
# stack, the same under ASan/UBSan/LSan,
# each fuzz target for FUZZ_SECONDS, then the real-kernel integration tests.
# The package (a .deb of HEAD, built, unpacked and run) right after the
# unit suite.
# Each build of the program on every CPU: five builds of it, serial, were
# minutes of CI's time.
NPROC := $(shell nproc 2>/dev/null || echo 1)
test: deps
	$(MAKE) -j$(NPROC) all
	$(MAKE) -j$(NPROC) unit
	$(MAKE) package
	$(MAKE) -j$(NPROC) unit-pattern
	$(MAKE) -j$(NPROC) asan
	$(MAKE) -j$(NPROC) fuzz
	FUZZ_SECONDS=$${FUZZ_SECONDS:-20} scripts/fuzz.sh
	$(MAKE) integration

# The unit suite again with every automatic variable filled with a pattern
# (0xfe bytes in GCC 12), not whatever the stack held: a field an *_init
# leaves out reads as garbage and fails a test, where a stack of zeros
# passes it by luck (executor_init left kind_given out, and CI's stack
# held zero where a user's did not).
unit-pattern:
	$(MAKE) O=build-pattern CFLAGS="-O2 -g -ftrivial-auto-var-init=pattern" unit

# LeakSanitizer is part of -fsanitize=address on x86_64 Linux; it is named
# here so nothing in the environment turns it off. Check forks each test and
# the child exit()s, so LSan checks each test and a leak fails it ("Early
# exit with return value"): tried with a deliberately leaking test.
asan:
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) O=build-asan WERROR=-Werror \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		unit

# libFuzzer targets (tests/fuzz/fuzz_*.c) in build-fuzz/, over a harness
# built with clang's coverage hooks; scripts/fuzz.sh runs them for a while.
FUZZ_CC    ?= clang
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	      -fno-sanitize-recover=undefined
FUZZ_BIN   := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
# The guest's spec parser and the frames its refusals send.
FUZZ_GUEST_OBJ := build-fuzz/workloads/spec.o build-fuzz/workloads/report.o

fuzz:
	$(MAKE) O=build-fuzz CC=$(FUZZ_CC) WERROR= \
		CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" \
		build-fuzz/libharness.a $(FUZZ_GUEST_OBJ)
	$(MAKE) $(FUZZ_BIN)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libharness.a
	$(FUZZ_CC) $(filter-out $(WERROR),$(CFLAGS)) $(FUZZ_FLAGS) -fsanitize=fuzzer \
		-DIOBISECT_SRC='"$(CURDIR)"' -o $@ $< build-fuzz/libharness.a $(LDLIBS)

build-fuzz/fuzz_guest_spec: tests/fuzz/fuzz_guest_spec.c $(FUZZ_GUEST_OBJ)
	$(FUZZ_CC) $(filter-out $(WERROR),$(CFLAGS)) $(FUZZ_FLAGS) -fsanitize=fuzzer \
		-o $@ $< $(FUZZ_GUEST_OBJ)

demo: deps
	$(MAKE) all
	tests/demo.sh

# The three seed reports' jobs on the fixture kernel: each report's table,
# measured here, and its effect asserted (tests/integration/25-seeds.sh).
seeds: deps
	$(MAKE) all
	IOBISECT_TESTS=25-seeds tests/run-integration.sh

format:
	clang-format -i harness/*/*.c harness/*/*.h workloads/*.c workloads/*.h tests/*.c

clean:
	rm -rf $(O) build-asan build-pattern build-fuzz iobisect

# The man pages and the bash completion, written again from the program's
# tables; a unit check (check_manpage) fails until they are.
MAN1 := $(wildcard docs/man/*.1)
MAN5 := $(wildcard docs/man/*.5)
# The documentation the pages point to (/usr/share/doc/iobisect/).
DOCS := $(wildcard docs/*.md)
COMPLETION := docs/completion/iobisect.bash
man: iobisect
	rm -f docs/man/*.1 docs/man/*.5
	for p in $$(./iobisect help --man); do \
		./iobisect help --man $$p >docs/man/$$p || exit 1; done
	./iobisect help --completion >$(COMPLETION)

# The program, its guest, its QEMU plugin, its presets and fragments, its man pages, its
# completion and its documentation, where the install folders above say.
install: all
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(libexecdir)/iobisect \
		$(DESTDIR)$(datadir)/iobisect/qemu \
		$(DESTDIR)$(datadir)/iobisect/kconfigs
	$(INSTALL_PROGRAM) iobisect $(DESTDIR)$(bindir)/iobisect
	$(INSTALL_PROGRAM) $(GUEST) $(DESTDIR)$(libexecdir)/iobisect/iobisect-guest
	$(INSTALL_DATA) $(PLUGIN) $(DESTDIR)$(libexecdir)/iobisect/iobisect-tbcount.so
	$(INSTALL_DATA) qemu/*.json $(DESTDIR)$(datadir)/iobisect/qemu
	$(INSTALL_DATA) kconfigs/*.config $(DESTDIR)$(datadir)/iobisect/kconfigs
	$(INSTALL) -d $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man5 \
		$(DESTDIR)$(bashcompdir)
	$(INSTALL_DATA) $(MAN1) $(DESTDIR)$(mandir)/man1
	$(INSTALL_DATA) $(MAN5) $(DESTDIR)$(mandir)/man5
	$(INSTALL_DATA) $(COMPLETION) $(DESTDIR)$(bashcompdir)/iobisect
	$(INSTALL) -d $(DESTDIR)$(docdir)
	$(INSTALL_DATA) $(DOCS) $(DESTDIR)$(docdir)

uninstall:
	rm -f $(DESTDIR)$(bindir)/iobisect \
		$(DESTDIR)$(libexecdir)/iobisect/iobisect-guest \
		$(DESTDIR)$(libexecdir)/iobisect/iobisect-tbcount.so
	rm -rf $(DESTDIR)$(datadir)/iobisect
	rm -f $(addprefix $(DESTDIR)$(mandir)/man1/,$(notdir $(MAN1))) \
		$(addprefix $(DESTDIR)$(mandir)/man5/,$(notdir $(MAN5))) \
		$(DESTDIR)$(bashcompdir)/iobisect
	rm -f $(addprefix $(DESTDIR)$(docdir)/,$(notdir $(DOCS)))
	-rmdir $(DESTDIR)$(docdir)
	-rmdir $(DESTDIR)$(libexecdir)/iobisect

-include $(shell find $(O) -name '*.d' 2>/dev/null)
