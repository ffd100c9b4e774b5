#!/bin/bash
# Writes to the host's stdio pipes and sockets (hostfs streams) never block
# the kernel's one host thread: a guest whose host stdout is full sleeps on
# the stream's wait queue (woken by the event loop's edge watch when the
# host reader drains it) while the other guest tasks run on; O_NONBLOCK
# gives EAGAIN or a short count, poll and EPOLLOUT (EPOLLET too) report
# room when the host side drains; signals interrupt a blocked write with
# the count written so far, EINTR or a restart. A helper's report on
# stderr (and the host reader's count) must be the native run's.
set -u
. "$(dirname "$0")/common.bash"
cd "$(dirname "$0")/../.." || exit 2

scratch hostwrite
cat >"$tmp/w.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/time.h>
#include <sys/wait.h>

/* Writes to stdout, a host pipe or socket that its reader leaves full for
 * a while; reports on stderr. w block: a child runs (and signals the
 * blocked parent) while the parent's write waits; w nb: non-blocking
 * writes, poll and EPOLLOUT|EPOLLET; w alarm: SIGALRM interrupts blocking
 * writes; w term: a SIGTERM handler, the signal from outside; w rnb: a
 * non-blocking read of stdin, then poll. */
static char buf[1 << 20];

static void on_sig(int sig)
{
	(void)sig;
}

static void handle(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(const char *what, long r)
{
	if (r < 0)
		fprintf(stderr, "%s: %s\n", what, strerror(errno));
	else
		fprintf(stderr, "%s: %ld\n", what, r);
}

static void after(double s)
{
	struct itimerval it = { .it_value = { (long)s, (long)((s - (long)s) * 1e6) } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static int block(void)
{
	double t0 = now();
	int status;
	pid_t pid;

	handle(SIGUSR1, 0);
	pid = fork();
	if (pid == 0) {
		usleep(300000);
		fprintf(stderr, "child ran while the parent waits: %s\n",
			now() - t0 < 1.5 ? "yes" : "no");
		kill(getppid(), SIGUSR1);
		_exit(3);
	}
	report("write 1 MiB, SIGUSR1 from the child", write(1, buf, sizeof(buf)));
	waitpid(pid, &status, 0);
	fprintf(stderr, "child exit %d\n", WEXITSTATUS(status));
	return 0;
}

static int nb(void)
{
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLET };
	struct pollfd p = { .fd = 1, .events = POLLOUT };
	long total = 0, r;
	int ep, i;

	fcntl(1, F_SETFL, fcntl(1, F_GETFL) | O_NONBLOCK);
	report("non-blocking write 100000", write(1, buf, 100000));
	report("non-blocking write 10 to the full pipe", write(1, buf, 10));
	r = poll(&p, 1, 0);
	fprintf(stderr, "poll full: %ld %#x\n", r, p.revents);
	r = poll(&p, 1, 5000); /* the reader takes 65536 after 0.5 s */
	fprintf(stderr, "poll drained: %ld %#x\n", r, p.revents);
	usleep(300000);
	while ((r = write(1, buf, 4096)) > 0)
		total += r;
	report("filled again, then", r);
	fprintf(stderr, "wrote %ld\n", total);
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, 1, &ev);
	for (i = 0; i < 3; i++) {
		/* full at the add: nothing; the reader's drain (1 s on): one
		 * report; then nothing new happens */
		r = epoll_wait(ep, &ev, 1, i == 0 ? 0 : i == 1 ? 5000 : 300);
		fprintf(stderr, "epoll_wait %d: %ld %#x\n", i, r, r > 0 ? ev.events : 0);
	}
	report("write after the drain", write(1, buf, 4096));
	return 0;
}

static int alarm_mode(void)
{
	handle(SIGALRM, 0);
	after(0.5);
	report("write 1 MiB, SIGALRM", write(1, buf, sizeof(buf)));
	after(0.5);
	report("write 10 to the full pipe, SIGALRM", write(1, buf, 10));
	handle(SIGALRM, SA_RESTART);
	after(0.5);
	report("write 10, SIGALRM with SA_RESTART", write(1, buf, 10));
	return 0;
}

static int term(void)
{
	handle(SIGTERM, 0);
	report("write 1 MiB, SIGTERM", write(1, buf, sizeof(buf)));
	return 0;
}

static int rnb(void)
{
	struct pollfd p = { .fd = 0, .events = POLLIN };
	long r;

	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	report("non-blocking read of the empty pipe", read(0, buf, 100));
	r = poll(&p, 1, 5000);
	fprintf(stderr, "poll: %ld %#x\n", r, p.revents);
	r = read(0, buf, 100);
	fprintf(stderr, "read %.*s\n", r > 0 ? (int)r : 0, buf);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "block";

	fprintf(stderr, "start\n"); /* the host side's clock starts here */

	memset(buf, 'x', sizeof(buf));
	if (!strcmp(mode, "block"))
		return block();
	if (!strcmp(mode, "nb"))
		return nb();
	if (!strcmp(mode, "alarm"))
		return alarm_mode();
	if (!strcmp(mode, "term"))
		return term();
	if (!strcmp(mode, "rnb"))
		return rnb();
	return 2;
}
EOF
gcc -static -O1 -Wall -Werror -o "$tmp/w" "$tmp/w.c" || { echo "# cannot build the helper"; exit 2; }

# The host side's sleeps count from the helper's (or shell's) first line
# on stderr, "start", written to $tmp/err: not from the command's start, so
# that a slow start of skas (a cold cache on a loaded machine) does not
# move a drain or a signal before the writes it is meant to follow.
started() {
	local i
	for i in $(seq 400); do [ -s "$tmp/err" ] && return; sleep 0.05; done
}

# pair MODE READER CMD...: the helper's stderr, then its stdout pipe's
# READER's output (a shell command).
pair() {
	local mode=$1 reader=$2 out
	shift 2
	: >"$tmp/err"
	out=$("$@" "$tmp/w" "$mode" 2>"$tmp/err" | (started; eval "$reader"))
	cat "$tmp/err"
	printf '%s\n' "$out"
}
# both MODE READER: pair, natively and under skas.
both() {
	native=$(pair "$1" "$2" timeout -k 5 20 2>&1)
	skas=$(pair "$1" "$2" timeout -k 5 30 "$SKAS" run -- 2>&1)
}

both block 'sleep 2; wc -c'
check "a child runs and signals its parent blocked writing to a full host pipe" "$native" "$skas"
both alarm 'sleep 2; wc -c'
check "SIGALRM interrupts a blocked write: the count written, EINTR, SA_RESTART" "$native" "$skas"
both nb 'sleep 0.5; head -c 65536 >/dev/null; sleep 1; exec cat >/dev/null'
check "O_NONBLOCK writes to a full host pipe: short count, EAGAIN; poll and EPOLLET report the drains" "$native" "$skas"

# The host's SIGTERM to skas (natively to the helper) while the write waits.
term() { # CMD...
	: >"$tmp/err"
	{ "$@" "$tmp/w" term 2>"$tmp/err" & pid=$!; started; sleep 0.5; kill -TERM $pid; wait $pid; } |
		(started; sleep 2; wc -c)
	cat "$tmp/err"
}
native=$(term 2>&1)
skas=$(term timeout -k 5 30 "$SKAS" run -- 2>&1)
check "host SIGTERM interrupts a guest's write to a full host pipe" "$native" "$skas"

# A shell: yes fills its stdout pipe (not read for 3 s) while the shell
# sleeps, kills it and exits; 1.5 s on, everything has ended.
shell() { # CMD...
	: >"$tmp/err"
	{ "$@" sh -c 'echo start >&2; yes & sleep 0.3; kill $!; wait $!; echo "yes ended: $?" >&2' 2>"$tmp/err"
	  echo "exit $?" >>"$tmp/err"; } | (started; sleep 3; head -c 1 >/dev/null) &
	started
	sleep 1.5
	grep -v '^Terminated$' "$tmp/err" # dash's job notice: not always under skas either way
	wait
}
native=$(shell 2>&1)
skas=$(shell timeout -k 5 30 "$SKAS" run -- 2>&1)
check "sh, sleep and kill run on while yes waits on a full host pipe" "$native" "$skas"

# The guest's O_NONBLOCK on its stdin reaches no further than the guest.
rnb() { # CMD...
	: >"$tmp/err"
	{ started; sleep 0.5; printf ab; sleep 0.5; } | "$@" "$tmp/w" rnb 2>"$tmp/err"
	cat "$tmp/err"
}
check "O_NONBLOCK read of an empty host pipe: EAGAIN, then poll" "$(rnb)" \
	"$(rnb timeout -k 5 30 "$SKAS" run --)"

# The same on a host socket as stdout (MSG_DONTWAIT instead of a reopen).
if command -v python3 >/dev/null; then
	cat >"$tmp/sock.py" <<'EOF'
import socket, subprocess, sys, time
a, b = socket.socketpair()
p = subprocess.Popen(sys.argv[1:], stdout=a, stderr=subprocess.PIPE)
a.close()
first = p.stderr.readline()  # "start": the clock starts there
time.sleep(2)
b.settimeout(5)
n = 0
while True:
    d = b.recv(1 << 20)
    if not d:
        break
    n += len(d)
sys.stdout.write((first + p.communicate()[1]).decode())
print("read", n)
EOF
	for m in block alarm; do
		check "a host socket as stdout: w $m" "$(python3 "$tmp/sock.py" "$tmp/w" $m 2>&1)" \
			"$(python3 "$tmp/sock.py" timeout -k 5 30 "$SKAS" run -- "$tmp/w" $m 2>&1)"
	done
fi

# A pipe skas cannot reopen (created by root, skas started as another
# user): RWF_NOWAIT writes on the host's own description.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$tmp"
	for m in block alarm; do
		native=$(pair $m 'sleep 2; wc -c' timeout -k 5 20 2>&1)
		skas=$(pair $m 'sleep 2; wc -c' timeout -k 5 30 setpriv --reuid 65534 --regid 65534 \
			--clear-groups "$SKAS" run -- 2>&1)
		check "a host pipe skas cannot reopen as stdout: w $m" "$native" "$skas"
	done
fi

# A pty master as stdout (its reopen would make a new pty): poll, then a
# byte at a time. How much a tty takes before it blocks varies, so only
# the child's lines count.
if command -v python3 >/dev/null; then
	cat >"$tmp/ptm.py" <<'EOF'
import os, pty, subprocess, sys, time, tty
m, s = pty.openpty()
tty.setraw(s)
p = subprocess.Popen(sys.argv[1:], stdout=m, stderr=subprocess.PIPE)
p.stderr.readline()  # "start": the clock starts there
time.sleep(2)
os.set_blocking(s, False)
t = time.time()
while time.time() - t < 5 and p.poll() is None:
    try:
        os.read(s, 1 << 20)
    except BlockingIOError:
        time.sleep(0.05)
sys.stdout.write(p.communicate()[1].decode())
EOF
	ptm() { python3 "$tmp/ptm.py" "$@" 2>&1 | grep '^child'; }
	check "a pty master as stdout: a child runs while the parent's write waits" \
		"$(ptm "$tmp/w" block)" "$(ptm timeout -k 5 30 "$SKAS" run -- "$tmp/w" block)"
fi

# CPU time of skas and its stubs while the guest waits 2 s in its writes.
TIMEFORMAT='%3U %3S'
t=$( { time "$SKAS" run -- "$tmp/w" alarm 2>/dev/null | (sleep 2; cat >/dev/null); } 2>&1)
cpu_ms=$(echo "$t" | awk '{ printf "%d", ($1 + $2) * 1000 }')
check "a guest blocked writing to a host pipe costs no host CPU (under 250 ms; was ${cpu_ms} ms)" \
	yes "$([ "$cpu_ms" -lt 250 ] && echo yes || echo no)"

summary
