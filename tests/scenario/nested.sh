#!/bin/bash
# skas inside skas: the inner kernel's stubs are guests of the outer one,
# whose own stub holds the high place in every guest address space, so the
# inner skas finds it taken and links its stubs 16 MiB lower (stub.h
# STUB_BASE_LOW). Each outer platform runs an inner instance of each
# platform (seccomp inside takes the outer's user notification and pidfd
# calls, ptrace inside its SYSEMU and XSTATE regset), each running a shell
# pipeline, forks, threads (python3) and reading its own maps. One TAP
# line per check.
set -u
. "$(dirname "$0")/common.bash"
cd "$(dirname "$0")/../.." || exit 2

platforms_probe
platforms=$(platforms_of seccomp ptrace sigsys)
for outer in $platforms; do
	for inner in $platforms; do
		out=$(timeout 120 "$SKAS" run --platform="$outer" -- "$SKAS" run --platform="$inner" -- \
			/bin/sh -c 'for i in 1 2 3; do echo "x$i" | cat; done | tr "\n" " "; echo' 2>&1)
		check "outer $outer, inner $inner: a pipeline in the inner instance" "x1 x2 x3 " "$out"
		out=$(timeout 120 "$SKAS" run --platform="$outer" -- "$SKAS" run --platform="$inner" -- \
			python3 -c 'import threading, os
r = []
ts = [threading.Thread(target=lambda i=i: r.append(i * i)) for i in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
pid = os.fork()
if pid == 0: os._exit(7)
print(sorted(r), os.waitpid(pid, 0)[1] >> 8)' 2>&1)
		check "outer $outer, inner $inner: threads and fork" "[0, 1, 4, 9] 7" "$out"
		# The inner guest sees neither stub: its maps end with its stack,
		# the vDSO and [vsyscall], as natively.
		out=$(timeout 120 "$SKAS" run --platform="$outer" -- "$SKAS" run --platform="$inner" -- \
			/bin/sh -c 'grep -c -e "^7ffffe" -e "^7fffff" /proc/self/maps' 2>&1)
		check "outer $outer, inner $inner: no stub in the inner guest's maps" "0" "$out"
	done
done

# A skas that runs on the host keeps the high place for its stubs (as
# security.sh's stub addresses assume), so its guest can map the low one
# and not the high one.
out=$("$SKAS" run -- python3 -c 'import ctypes
l = ctypes.CDLL(None)
l.mmap.restype = ctypes.c_void_p
l.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
print([l.mmap(a, 4096, 0, 0x22 | 0x100000, -1, 0) == a for a in (0x7ffffe000000, 0x7fffff000000)])')
check "a skas on the host has its stub at the high place" "[True, False]" "$out"
summary
