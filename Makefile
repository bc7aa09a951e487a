# iobisect: the host harness (harness/), the static guest (workloads/), and
# their tests. `make` builds both programs; `make test` installs what is
# missing, then runs the unit suites and the real-kernel integration tests.

CC        ?= cc
MUSL_CC   ?= musl-gcc
O         ?= build
PKGS      := libgit2 libcurl jansson
WERROR    ?= -Werror
CFLAGS    ?= -O2 -g
# override: `make CFLAGS=...` (as `make asan` does) adds to these, never drops them.
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -Iharness \
             $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS    += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null)

HARNESS_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c))
HARNESS_OBJ := $(HARNESS_SRC:%.c=$(O)/%.o)
GUEST_SRC   := $(wildcard workloads/*.c)
CHECK_SRC   := $(wildcard tests/check_*.c)
CHECK_BIN   := $(CHECK_SRC:tests/%.c=$(O)/tests/%)
GUEST       := $(O)/iobisect-guest

.PHONY: all deps test unit integration e2e asan format demo clean fuzz
all: iobisect $(GUEST)

# The harness modules go in an archive, so a test links only what it uses.
$(O)/libharness.a: $(HARNESS_OBJ)
	rm -f $@
	ar rcs $@ $^

iobisect: $(O)/harness/main.o $(O)/libharness.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(O)/%.o: %.c $(wildcard harness/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -c -o $@ $<

# The guest is PID 1 of every initramfs: static, so it runs on any kernel.
$(GUEST): $(GUEST_SRC) $(wildcard workloads/*.h) harness/proto_frame.h
	@mkdir -p $(dir $@)
	$(MUSL_CC) -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) \
		-Iharness -o $@ $(GUEST_SRC) -lpthread

$(O)/tests/check_%: tests/check_%.c $(O)/libharness.a $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -o $@ $< $(O)/libharness.a $(CHECK_LIBS) $(LDLIBS)

deps:
	@scripts/deps.sh

unit: $(CHECK_BIN)
	@scripts/run-unit.sh $(CHECK_BIN)

integration: all
	@tests/run-integration.sh

test: deps
	$(MAKE) all
	$(MAKE) unit
	$(MAKE) integration

asan:
	$(MAKE) O=build-asan WERROR=-Werror \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		unit

demo: deps
	$(MAKE) all
	tests/demo.sh

format:
	clang-format -i harness/*.c harness/*.h workloads/*.c workloads/*.h tests/*.c

clean:
	rm -rf $(O) build-asan iobisect

-include $(shell find $(O) -name '*.d' 2>/dev/null)
