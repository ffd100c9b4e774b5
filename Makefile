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
KSRC    := $(filter-out src/stub/% src/init/%,$(shell find src -name '*.c' | sort))
KASM    := src/kernel/switch.S
STUB    := $(BUILD)/stub.elf $(BUILD)/stub-low.elf
# What platform/stub_blob.S carries: the stub at its two places, --init's init.
BLOB     := $(STUB) $(BUILD)/init.elf
BLOB_DEFS := -DSTUB_ELF='"$(BUILD)/stub.elf"' -DSTUB_LOW_ELF='"$(BUILD)/stub-low.elf"' \
	-DINIT_ELF='"$(BUILD)/init.elf"'

OBJ      := $(KSRC:%.c=$(BUILD)/rel/%.o) $(KASM:%.S=$(BUILD)/rel/%.o) $(BUILD)/rel/stub_blob.o
ASAN_OBJ := $(KSRC:%.c=$(BUILD)/asan/%.o) $(KASM:%.S=$(BUILD)/asan/%.o) $(BUILD)/asan/stub_blob.o
ASAN_FLAGS := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

.PHONY: bench-peers all test asan bench run deps fmt fmt-check lint clean unit guest scenario coverage fuzz fuzz-build

all: skas

deps:
	@tools/deps.sh

skas: $(OBJ)
	$(CC) $(CFLAGS) -o $@ $(OBJ) $(LDLIBS)

$(BUILD)/asan/skas: $(ASAN_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $(ASAN_OBJ) $(LDLIBS)

# The stub: freestanding, static, never instrumented.
# Linked for each of its two places (stub.h STUB_BASE_HIGH and _LOW).
$(BUILD)/stub.elf: STUB_AT := 0x7fffff000000
$(BUILD)/stub-low.elf: STUB_AT := 0x7ffffe000000
$(STUB): $(BUILD)/%.elf: src/stub/stub.S src/stub/stub.h src/stub/stub.lds
	@mkdir -p $(dir $@)
	$(CC) -c -Isrc -DSTUB_LINK_BASE=$(STUB_AT) -o $(BUILD)/$*.o src/stub/stub.S
	ld -static -nostdlib -z noexecstack -z max-page-size=4096 --build-id=none \
		--defsym=STUB_LINK=$(STUB_AT) -T src/stub/stub.lds -o $@ $(BUILD)/$*.o

# --init's pid 1 (init/init.c): freestanding and static too, a guest
# program of its own, never instrumented.
$(BUILD)/init.elf: src/init/init.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -Wall -Wextra -Werror -O2 -ffreestanding -fno-builtin -fno-stack-protector \
		-fno-pic -fno-pie -fcf-protection=none -fno-asynchronous-unwind-tables \
		-fno-tree-loop-distribute-patterns -c -o $(BUILD)/init.o $<
	ld -static -nostdlib -z noexecstack -z max-page-size=4096 --build-id=none \
		-o $@ $(BUILD)/init.o

$(BUILD)/rel/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -c -o $@ $<

$(BUILD)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(ASAN_FLAGS) -c -o $@ $<

# Two rules, not one with two targets: GNU make takes a pattern rule's
# targets as made together, and `make asan` alone would then miss one.
$(BUILD)/rel/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

$(BUILD)/asan/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

$(BUILD)/rel/stub_blob.o $(BUILD)/asan/stub_blob.o: src/platform/stub_blob.S $(BLOB)
	@mkdir -p $(dir $@)
	$(CC) -c $(BLOB_DEFS) -o $@ src/platform/stub_blob.S

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
$(BUILD)/unit/platform_test_sigsys: tests/unit/platform_test.c $(UNIT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -DPLATFORM_NAME='"sigsys"' -o $@ $< $(UNIT_OBJ) $(LDLIBS)
$(BUILD)/unit/elf_test: tests/unit/elf_test.c $(UNIT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(UNIT_OBJ) $(LDLIBS)

$(BUILD)/unit/commit_test: tests/unit/commit_test.c $(UNIT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) -o $@ $< $(UNIT_OBJ) $(LDLIBS)

UNIT_TESTS := $(BUILD)/unit/abi_check $(BUILD)/unit/platform_test \
	$(BUILD)/unit/platform_test_seccomp $(BUILD)/unit/platform_test_sigsys $(BUILD)/unit/elf_test \
	$(BUILD)/unit/commit_test

test: deps skas $(UNIT_TESTS)
	@tests/run-all.sh ./skas $(UNIT_TESTS)

asan: deps skas $(BUILD)/asan/skas $(UNIT_TESTS)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run-all.sh $(BUILD)/asan/skas

bench: deps skas
	@bench/run.sh ./skas

# The same table with peers' columns: PRoot, gVisor (runsc, ptrace
# platform) and User-Mode Linux (bench/run.sh says how they are measured);
# installed when root.
bench-peers: deps skas
	@{ command -v proot && command -v runsc && command -v linux; } >/dev/null || \
		{ [ "$$(id -u)" = 0 ] && apt-get install -y -q proot runsc user-mode-linux >/dev/null; } || true
	@BENCH_PEERS="proot runsc uml" bench/run.sh ./skas

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
$(BUILD)/cov/stub_blob.o: src/platform/stub_blob.S $(BLOB)
	@mkdir -p $(dir $@)
	$(CC) -c $(BLOB_DEFS) -o $@ src/platform/stub_blob.S
$(BUILD)/cov/skas: $(COV_OBJ)
	$(CC) --coverage -o $@ $(COV_OBJ) $(LDLIBS)
# (its objects depend on the headers too: a stale one once mixed up the
# platform ops table)
-include $(COV_OBJ:.o=.d)

coverage: deps $(BUILD)/cov/skas
	@find $(BUILD)/cov -name '*.gcda' -delete
	-@tests/run-all.sh $(BUILD)/cov/skas >/dev/null 2>&1
	@cd $(BUILD)/cov && gcov -n $$(find src -name '*.o' | sed 's/\.o$$/.c/') 2>/dev/null | \
		awk '/^File/ { f = $$2 } \
		     /^Lines executed/ { l = $$0; sub(/.*executed:/, "", l); p = l; sub(/%.*/, "", p); \
			t = l; sub(/.* of /, "", t); if (f ~ /src\//) { n += t; e += p / 100 * t } } \
		     END { printf "kernel line coverage: %.1f%% of %d lines\n", 100 * e / n, n }'

# make fuzz (not in make test): libFuzzer harnesses over the kernel's own
# ELF checks and path walk (clang, ASan+UBSan), then trinity inside skas.
# FUZZ_TIME=seconds per fuzzer (default 60), TRINITY_N=calls (10000).
FUZZ_CC    := clang
# clang warns where gcc does not: libseccomp's SCMP_A* macros leave fields
# out, and clang ignores /* fallthrough */ comments (gcc checks both).
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-Wno-missing-field-initializers -Wno-implicit-fallthrough
FUZZ_OBJ   := $(filter-out $(BUILD)/fuzz/src/main.o,$(KSRC:%.c=$(BUILD)/fuzz/%.o)) \
	$(BUILD)/fuzz/src/kernel/switch.o $(BUILD)/rel/stub_blob.o
$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS_BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<
$(BUILD)/fuzz/%.o: %.S
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -c -o $@ $<
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(CFLAGS_BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

.SECONDARY: $(FUZZ_OBJ) # kept between runs (make would delete them as intermediates)

fuzz-build: skas $(BUILD)/asan/skas $(BUILD)/fuzz/fuzz_elf $(BUILD)/fuzz/fuzz_namei $(BUILD)/fuzz/fuzz_seccomp \
	$(BUILD)/fuzz/fuzz_cbpf

fuzz:
	@tools/deps.sh fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@tests/fuzz/run.sh $(BUILD)/asan/skas

fmt:
	clang-format -i $$(find src tests/unit tests/guest tests/scenario tests/fuzz bench -name '*.[ch]') include/abi/linux/*.h

fmt-check:
	@clang-format --dry-run --Werror $$(find src tests/unit tests/guest tests/scenario tests/fuzz bench -name '*.[ch]') include/abi/linux/*.h

clean:
	rm -rf $(BUILD) skas
