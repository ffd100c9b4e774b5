# skas: one GNU Makefile. `make` builds ./skas; `make test` runs every test;
# `make asan` runs the same tests on a kernel built with ASan+UBSan;
# `make bench` prints benchmarks against native; `make run` starts the main job.

CC      ?= gcc
CFLAGS_BASE := -std=gnu11 -g -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes \
	-Wstrict-prototypes -Wvla -Wimplicit-fallthrough -Wformat=2 \
	-Iinclude -Isrc -MMD -MP
CFLAGS  ?= -O2
LDLIBS  := -lseccomp

BUILD   := build
KSRC    := $(filter-out src/stub/%,$(shell find src -name '*.c' | sort))
KASM    := src/kernel/switch.S
STUB    := $(BUILD)/stub.elf

OBJ      := $(KSRC:%.c=$(BUILD)/rel/%.o) $(KASM:%.S=$(BUILD)/rel/%.o) $(BUILD)/rel/stub_blob.o
ASAN_OBJ := $(KSRC:%.c=$(BUILD)/asan/%.o) $(KASM:%.S=$(BUILD)/asan/%.o) $(BUILD)/asan/stub_blob.o
ASAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: all test asan bench run deps fmt fmt-check lint clean unit guest scenario coverage

all: skas

deps:
	@tools/deps.sh

skas: $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

$(BUILD)/asan/skas: $(ASAN_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $(ASAN_OBJ) $(LDLIBS)

# The stub: freestanding, static, never instrumented.
$(STUB): src/stub/stub.S src/stub/stub.h src/stub/stub.lds
	@mkdir -p $(dir $@)
	$(CC) -c -Isrc -o $(BUILD)/stub.o src/stub/stub.S
	ld -static -nostdlib -z noexecstack -z max-page-size=4096 --build-id=none \
		-T src/stub/stub.lds -o $@ $(BUILD)/stub.o

$(BUILD)/rel/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -c -o $@ $<

$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(ASAN_FLAGS) -c -o $@ $<

$(BUILD)/rel/%.o $(BUILD)/asan/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

$(BUILD)/rel/stub_blob.o $(BUILD)/asan/stub_blob.o: src/platform/stub_blob.S $(STUB)
	@mkdir -p $(dir $@)
	$(CC) -c -DSTUB_ELF='"$(STUB)"' -o $@ src/platform/stub_blob.S

-include $(OBJ:.o=.d) $(ASAN_OBJ:.o=.d)

# Unit tests: pure modules and the platform, linked with the kernel objects.
UNIT_OBJ := $(filter-out $(BUILD)/rel/src/main.o,$(OBJ))
$(BUILD)/unit/abi_check: tests/unit/abi_check.c $(wildcard include/abi/linux/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -o $@ $<
$(BUILD)/unit/platform_test: tests/unit/platform_test.c $(UNIT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(UNIT_OBJ) $(LDLIBS)
$(BUILD)/unit/platform_test_seccomp: tests/unit/platform_test.c $(UNIT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -DPLATFORM_NAME='"seccomp"' -o $@ $< $(UNIT_OBJ) $(LDLIBS)
$(BUILD)/unit/elf_test: tests/unit/elf_test.c $(UNIT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(UNIT_OBJ) $(LDLIBS)

UNIT_TESTS := $(BUILD)/unit/abi_check $(BUILD)/unit/platform_test \
	$(BUILD)/unit/platform_test_seccomp $(BUILD)/unit/elf_test

test: deps skas $(UNIT_TESTS)
	@tests/run-all.sh ./skas $(UNIT_TESTS)

asan: deps $(BUILD)/asan/skas $(UNIT_TESTS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run-all.sh $(BUILD)/asan/skas

bench: deps skas
	@bench/run.sh ./skas

# The main job: the root's shell inside skas on the host's root, with the
# host terminal as its console (job control, Ctrl-C, resizes).
run: deps skas
	./skas

# Line coverage of the kernel from the test suite (gcov; see docs in README).
COV_OBJ := $(KSRC:%.c=$(BUILD)/cov/%.o) $(KASM:%.S=$(BUILD)/cov/%.o) $(BUILD)/cov/stub_blob.o
$(BUILD)/cov/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) -O0 --coverage -DSKAS_COVERAGE -c -o $@ $<
$(BUILD)/cov/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<
$(BUILD)/cov/stub_blob.o: src/platform/stub_blob.S $(STUB)
	@mkdir -p $(dir $@)
	$(CC) -c -DSTUB_ELF='"$(STUB)"' -o $@ src/platform/stub_blob.S
$(BUILD)/cov/skas: $(COV_OBJ)
	$(CC) --coverage -o $@ $(COV_OBJ) $(LDLIBS)

coverage: deps $(BUILD)/cov/skas
	@find $(BUILD)/cov -name '*.gcda' -delete
	-@tests/run-all.sh $(BUILD)/cov/skas >/dev/null 2>&1
	@cd $(BUILD)/cov && gcov -n $$(find src -name '*.o' | sed 's/\.o$$/.c/') 2>/dev/null | \
		awk '/^File/ { f = $$2 } \
		     /^Lines executed/ { l = $$0; sub(/.*executed:/, "", l); p = l; sub(/%.*/, "", p); \
			t = l; sub(/.* of /, "", t); if (f ~ /src\//) { n += t; e += p / 100 * t } } \
		     END { printf "kernel line coverage: %.1f%% of %d lines\n", 100 * e / n, n }'

fmt:
	clang-format -i $$(find src tests/unit tests/guest bench -name '*.[ch]') include/abi/linux/*.h

fmt-check:
	@clang-format --dry-run --Werror $$(find src tests/unit tests/guest bench -name '*.[ch]') include/abi/linux/*.h

clean:
	rm -rf $(BUILD) skas
