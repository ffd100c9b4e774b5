#!/bin/bash
# Host calls per trap under the ptrace platform, counted with perf stat
# (a guest's own calls end before the host's syscall tracepoints): a guest
# system call costs one wait4 that returns the stop, and no WNOHANG that
# finds nothing; with host fds to watch as well (here the host's stdin
# pipe, once a read waited on it) one epoll_wait, one read of SIGCHLD and
# two wait4 (the second finds no more). A guest makes N getppid calls; the
# limits allow for start and exit. A process's end opens no /proc file on
# either platform: its count comes with the wait4 that reaps its stub. One
# TAP line per check, then "N passed, M failed".
set -u
. "$(dirname "$0")/common.bash"
cd "$(dirname "$0")/../.." || exit 2

scratch hostcalls
cat >"$tmp/g.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* g N [pipe]: N getppid calls; with pipe, first a read of stdin that
 * waits for the host writer. g N fork: N children that exit at once. */
int main(int argc, char **argv)
{
	long i, n = atol(argv[1]);
	char c;

	if (argc > 2 && !strcmp(argv[2], "pipe") && read(0, &c, 1) != 1)
		return 1;
	if (argc > 2 && !strcmp(argv[2], "fork")) {
		for (i = 0; i < n; i++) {
			pid_t pid = fork();
			int st;

			if (pid == 0)
				_exit(0);
			if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
				return 1;
		}
		return 0;
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
EOF
N=5000
EV=syscalls:sys_enter_wait4,syscalls:sys_enter_read,syscalls:sys_enter_epoll_wait

# count FILE NAME: NAME's count in perf stat -x, output (0 if absent).
count() {
	awk -F, -v s="syscalls:sys_enter_$2" '$3 == s { print $1; found = 1 }
		END { if (!found) print 0 }' "$1"
}

# within COUNT LIMIT: "ok" or the count that is over.
within() {
	if [ "$1" -le "$2" ]; then echo ok; else echo "$1 > $2"; fi
}

if ! gcc -static -O2 -o "$tmp/g" "$tmp/g.c" 2>"$tmp/cc.err"; then
	echo "not ok 1 - build the guest"
	sed 's/^/# /' "$tmp/cc.err"
	exit 1
fi
# perf, not strace: a traced kernel is slow enough that the guest has
# trapped again before it looks, which hides the calls that find nothing.
if ! perf stat -x, -o /dev/null -e "$EV" /bin/true 2>/dev/null; then
	echo "ok 1 # skip perf cannot count host calls here"
	echo "1 passed, 0 failed"
	exit 0
fi

perf stat -x, -o "$tmp/plain" -e "$EV" "$SKAS" run --platform=ptrace -- "$tmp/g" $N </dev/null
check "no host fds: one wait4 per guest call" ok \
	"$(within "$(count "$tmp/plain" wait4)" $((N + N / 4)))"
check "no host fds: no epoll_wait" ok "$(within "$(count "$tmp/plain" epoll_wait)" 10)"

(sleep 0.2; echo x) | perf stat -x, -o "$tmp/pipe" -e "$EV" \
	"$SKAS" run --platform=ptrace -- "$tmp/g" $N pipe
check "a host fd watched: two wait4 per guest call" ok \
	"$(within "$(count "$tmp/pipe" wait4)" $((2 * N + N / 4)))"
check "a host fd watched: one read of SIGCHLD per guest call" ok \
	"$(within "$(count "$tmp/pipe" read)" $((N + N / 4)))"
check "a host fd watched: one epoll_wait per guest call" ok \
	"$(within "$(count "$tmp/pipe" epoll_wait)" $((N + N / 4)))"

# A child's end: no /proc file opened for its CPU time (three per child
# before), on either platform; 200 children, a few opens allowed for the
# start.
for pf in ptrace seccomp; do
	"$SKAS" run --platform=$pf -- /bin/true >/dev/null 2>&1 || continue
	perf stat -x, -o "$tmp/fork-$pf" -e syscalls:sys_enter_openat \
		"$SKAS" run --platform=$pf -- "$tmp/g" 200 fork </dev/null
	check "$pf: 200 children's ends open no /proc file" ok \
		"$(within "$(count "$tmp/fork-$pf" openat)" 40)"
done
summary
