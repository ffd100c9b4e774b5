#!/bin/bash
# The host's stdio pipes inside skas (hostfs streams): their wait queues are
# woken by the event loop at each host event, so epoll (EPOLLET on stdin
# reports each new write into the host pipe, and only those; nested in
# another epoll too), poll and blocking reads see data as it comes, exactly
# as natively. A helper reads stdin fed through a host pipe with delays;
# its output must be the native run's. One TAP line per check.
set -u
. "$(dirname "$0")/common.bash"
cd "$(dirname "$0")/../.." || exit 2

scratch hostfd
cat >"$tmp/h.c" <<'EOF'
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>

/* h et: EPOLLET on stdin, 1 byte read per event; h poll: poll then read
 * what is there; h read: blocking reads. One line per wakeup. */
int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "read";
	char buf[256];
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	fprintf(stderr, "start\n"); /* the host side's clock starts here */
	if (!strcmp(mode, "et") || !strcmp(mode, "nested")) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLRDNORM | EPOLLET };
		int ep = epoll_create1(0), fd = 0;

		/* nested: stdin level-triggered in an inner epoll, the inner
		 * one edge-triggered in ep. */
		if (!strcmp(mode, "nested")) {
			struct epoll_event iev = { .events = EPOLLIN };

			fd = epoll_create1(0);
			if (epoll_ctl(fd, EPOLL_CTL_ADD, 0, &iev) < 0) {
				perror("epoll_ctl inner");
				return 1;
			}
		}
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
			perror("epoll_ctl");
			return 1;
		}
		for (i = 0; i < 10; i++) {
			int r = epoll_wait(ep, &ev, 1, 1000);

			if (r == 0) {
				printf("timeout\n");
				break;
			}
			r = read(0, buf, 1);
			printf("events %#x read %.*s\n", ev.events, r > 0 ? r : 0, buf);
		}
		i = read(0, buf, sizeof(buf));
		printf("left %.*s\n", i > 0 ? i : 0, buf);
		return 0;
	}
	for (i = 0; i < 10; i++) {
		int r;

		if (!strcmp(mode, "poll")) {
			struct pollfd p = { .fd = 0, .events = POLLIN | POLLRDNORM };

			r = poll(&p, 1, 3000);
			printf("poll %d %#x: ", r, p.revents);
		}
		r = read(0, buf, sizeof(buf));
		if (r <= 0) {
			printf("eof\n");
			break;
		}
		printf("read %.*s\n", r, buf);
	}
	return 0;
}
EOF
gcc -static -O1 -Wall -Werror -o "$tmp/h" "$tmp/h.c" || { echo "# cannot build the helper"; exit 2; }

# The host side's writes count from what the helper writes: its first
# line on stderr, "start", and its lines on stdout, one per wakeup; not
# from the command's start, so that a slow start of skas (a cold cache on
# a loaded machine) does not bring two writes together before the helper
# reads. Each wait is at most 20 s.
# waitout FILE N: FILE has N lines.
waitout() {
	local i
	for i in $(seq 1000); do [ "$(wc -l <"$1")" -ge "$2" ] && return; sleep 0.02; done
}
# feed [early]: "ab" 0.4 s after the helper's start (with early, before
# the helper starts), "cd" 0.4 s after the helper's line for "ab", EOF
# 0.3 s after its line for "cd".
feed() {
	if [ -n "${1:-}" ]; then
		printf ab
		: >"$tmp/fed"
	else
		waitout "$tmp/err" 1
		sleep 0.4
		printf ab
	fi
	waitout "$tmp/out" 1
	sleep 0.4
	printf cd
	waitout "$tmp/out" 2
	sleep 0.3
}
# run MODE [early] CMD...: CMD... "$tmp/h" MODE fed by feed; the helper's
# stderr, then its stdout.
run() {
	local mode=$1 early=$2 i
	shift 2
	: >"$tmp/out"
	: >"$tmp/err"
	rm -f "$tmp/fed"
	feed "$early" | (
		if [ -n "$early" ]; then
			for i in $(seq 1000); do [ -e "$tmp/fed" ] && break; sleep 0.02; done
		fi
		exec "$@" "$tmp/h" "$mode" >"$tmp/out" 2>"$tmp/err"
	)
	cat "$tmp/err" "$tmp/out"
}
# both MODE [early]: the helper's output natively and under skas; with
# early, the data is there before the helper starts.
both() {
	native=$(run "$1" "${2:-}" timeout -k 5 20 2>&1)
	skas=$(run "$1" "${2:-}" timeout -k 5 30 "$SKAS" run -- 2>&1)
}

both et
check "EPOLLET on a host pipe: one report per write and at EOF" "$native" "$skas"
both et early
check "EPOLLET on a host pipe with data before EPOLL_CTL_ADD: reported once" "$native" "$skas"
both nested early
check "a host pipe in an epoll, edge-triggered in an outer epoll" "$native" "$skas"
both poll
check "poll on a host pipe wakes at each write, RDNORM with IN" "$native" "$skas"
both read
check "blocking reads of a host pipe" "$native" "$skas"

# CPU time of skas and its stubs while the guest waits 1 s (from its
# start) in epoll_wait and then in read on its stdin pipe.
TIMEFORMAT='%3U %3S'
for m in et read; do
	: >"$tmp/err"
	t=$( { (waitout "$tmp/err" 1; sleep 1; echo x) |
		{ time "$SKAS" run -- "$tmp/h" $m >/dev/null 2>"$tmp/err"; }; } 2>&1)
	cpu_ms=$(echo "$t" | awk '{ printf "%d", ($1 + $2) * 1000 }')
	check "a guest blocked on its stdin pipe ($m) costs no host CPU (under 250 ms; was ${cpu_ms} ms)" \
		yes "$([ "$cpu_ms" -lt 250 ] && echo yes || echo no)"
done

summary
