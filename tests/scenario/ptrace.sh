#!/bin/bash
# ptrace(2) inside the guest, with the host's own strace and gdb run inside
# skas on each platform: strace -f of a pipeline follows the forks (its
# trace names execve, clone, write, wait4 and the exits), strace -c counts
# calls, gdb breaks in a PIE, prints, continues and steps. skas had no
# ptrace: strace died at its first PTRACE_TRACEME (ENOSYS).
# One TAP line per check, then "N passed, M failed".
#
# usage: SKAS=./skas tests/scenario/ptrace.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKAS=${SKAS:-$root/skas}
. "$root/tests/scenario/common.bash"
cd "$root" || exit 2
platforms_probe

strace=$(command -v strace)
if [ -z "$strace" ]; then
	echo "ok 1 # skip no strace on the host"
	echo "1 passed, 0 failed"
	exit 0
fi

has() { # pattern file: 1 if the file has a line matching it
	grep -Eq -- "$1" "$2" && echo 1 || echo 0
}

scratch ptrace
for pf in $(platforms_of seccomp ptrace sigsys); do
	out=$(timeout 60 "$SKAS" run --platform="$pf" -- sh -c \
		"$strace -f -o /tmp/out sh -c 'echo hi | cat' && cat /tmp/out >&2" \
		2>"$tmp/trace")
	rc=$?
	check "$pf: strace -f sh -c 'echo hi | cat' succeeds" "0 hi" "$rc $out"
	check "$pf: the trace has the execve" 1 \
		"$(has '^[0-9]+ +execve\("/usr/bin/sh", \["sh", "-c", "echo hi \| cat"\]' "$tmp/trace")"
	check "$pf: the trace has the forks" 1 "$(has '^[0-9]+ +(clone|clone3|vfork|fork)\(' "$tmp/trace")"
	check "$pf: a child's execve of cat" 1 "$(has '^[0-9]+ +execve\(".*/cat", \["cat"\]' "$tmp/trace")"
	check "$pf: echo's and cat's writes" 2 "$(grep -Ec '^[0-9]+ +write\(1, "hi\\n", 3' "$tmp/trace")"
	check "$pf: the shell's wait4" 1 "$(has '^[0-9]+ +wait4\(' "$tmp/trace")"
	check "$pf: every process's exit" 3 "$(grep -c '+++ exited with 0 +++' "$tmp/trace")"
	out=$(timeout 60 "$SKAS" run --platform="$pf" -- "$strace" -c true 2>&1)
	rc=$?
	check "$pf: strace -c true succeeds" 0 "$rc"
	check "$pf: strace -c counts the calls" 1 "$(echo "$out" | grep -Eqc '^100\.00 .* total$' && echo 1 || echo 0)"
done

# A guest gdb on a dynamic PIE: a breakpoint (an int3 poked into its
# read-only text, placed by /proc/PID/auxv's AT_ENTRY), bt, print,
# continue, and stepi (PTRACE_SINGLESTEP).
if command -v gdb >/dev/null && command -v gcc >/dev/null; then
	chmod 755 "$tmp"
	cat >"$tmp/g.c" <<'END'
#include <stdio.h>
__attribute__((noinline)) int target(int x) { return x * 6; }
int main(void) { int s = 0; for (int i = 0; i < 3; i++) s += target(i); printf("sum %d\n", s); return 0; }
END
	gcc -g -O0 -o "$tmp/g" "$tmp/g.c"
	for pf in $(platforms_of seccomp ptrace sigsys); do
		out=$(timeout 60 "$SKAS" run --platform="$pf" -- gdb -nx -batch -ex 'break target' \
			-ex run -ex bt -ex 'p x' -ex continue -ex 'p x' -ex delete -ex stepi \
			-ex continue "$tmp/g" 2>&1 </dev/null)
		check "$pf: gdb stops at the breakpoint" 1 \
			"$(echo "$out" | grep -c '^Breakpoint 1, target (x=0) at .*g.c:2')"
		check "$pf: gdb's backtrace" 1 \
			"$(echo "$out" | grep -Ec '^#1  0x[0-9a-f]+ in main \(\) at .*g.c:3')"
		check "$pf: gdb prints the argument, continues to the next hit" '$1 = 0 $2 = 1' \
			"$(echo "$out" | grep -E '^\$[0-9] = ' | tr '\n' ' ' | sed 's/ $//')"
		check "$pf: stepi, then continue to the end" "sum 18|exited normally" \
			"$(echo "$out" | grep -Eo '^sum 18|exited normally' | tr '\n' '|' | sed 's/|$//')"
	done
	# Hardware watchpoints and breakpoints (the debug registers): the
	# same transcript as gdb's on the host, whether or not the host's
	# debug registers fire (some VMs' do not); skas refused them.
	watch=(-ex 'break main' -ex run -ex 'watch s' -ex continue -ex continue
		-ex 'hbreak target' -ex continue -ex delete -ex 'rwatch s' -ex continue -ex continue)
	native=$(cd "$tmp" && timeout 60 gdb -nx -batch "${watch[@]}" ./g 2>&1 </dev/null |
		sed -E 's/(process|LWP) [0-9]+/\1 N/g; s/0x[0-9a-f]+/ADDR/g')
	for pf in $(platforms_of seccomp ptrace sigsys); do
		out=$(cd "$tmp" && timeout 60 "$SKAS" run --platform="$pf" -- gdb -nx -batch \
			"${watch[@]}" ./g 2>&1 </dev/null | sed -E 's/(process|LWP) [0-9]+/\1 N/g; s/0x[0-9a-f]+/ADDR/g')
		check "$pf: gdb watch, hbreak and rwatch as on the host" "$native" "$out"
	done
else
	check "gdb and gcc on the host (for the gdb checks)" 1 0
fi

# A set-user-ID root program exec'd by a user's traced child runs with the
# user's ids (Linux's LSM_UNSAFE_PTRACE: its tracer, without
# CAP_SYS_PTRACE, would hold root); untraced it gets euid 0. The file is
# made inside the guest (its /tmp is the instance's), never on the host.
if command -v gcc >/dev/null; then
	cat >"$tmp/showid.c" <<'END'
#include <stdio.h>
#include <unistd.h>
int main(void) { printf("euid=%d\n", (int)geteuid()); return 0; }
END
	cat >"$tmp/tr.c" <<'END'
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
int main(int argc, char **argv)
{
	int st;
	pid_t g;

	if (setresuid(1000, 1000, 1000))
		return 1;
	g = fork();
	if (g == 0) {
		execl(argv[1], "showid", (char *)NULL);
		_exit(127);
	}
	waitpid(g, &st, 0);
	fflush(stdout);
	g = fork();
	if (g == 0) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		execl(argv[1], "showid", (char *)NULL);
		_exit(127);
	}
	waitpid(g, &st, 0);
	ptrace(PTRACE_CONT, g, 0, 0);
	waitpid(g, &st, 0); /* the exec's SIGTRAP */
	ptrace(PTRACE_CONT, g, 0, 0);
	waitpid(g, &st, 0);
	return 0;
}
END
	gcc -static -O1 -o "$tmp/showid" "$tmp/showid.c" && gcc -static -O1 -o "$tmp/tr" "$tmp/tr.c"
	for pf in $(platforms_of seccomp ptrace sigsys); do
		out=$(timeout 60 "$SKAS" run --platform="$pf" -- /bin/sh -c \
			"d=\$(mktemp -d) && chmod 755 \$d && cp $tmp/showid \$d/ && chmod 4755 \$d/showid &&
			 $tmp/tr \$d/showid" 2>&1)
		check "$pf: set-user-ID root: euid 0 untraced, the user's when a user traces it" \
			"euid=0 euid=1000" "$(echo $out)"
	done
fi
summary
