#!/bin/bash
# The walls around skas, checked from the host (issue 9): kill -9 of the
# kernel leaves no stub behind; the kernel runs boxed (seccomp filter,
# no_new_privs; when started by root, as nobody with no capability but
# CAP_DAC_READ_SEARCH); stubs run boxed too (filter, no_new_privs, their own
# user, mount and net namespaces, an empty root, two fds at most); a guest
# sees no host process, reads no host file outside --root, cannot ptrace a
# stub, and running the stub's own code gets it nowhere. One TAP line per
# check, then "N passed, M failed"; exit 1 if anything failed.
#
# usage: SKAS=./skas tests/scenario/security.sh     (run from anywhere)
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SKAS=${SKAS:-$root/skas}
case $SKAS in
    /*) ;;
    */*) SKAS=$PWD/$SKAS ;;
esac
cd "$root" || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/skas-sec.XXXXXX") || exit 2
kpid=
cleanup() {
    [ -n "$kpid" ] && kill -9 "$kpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

n=0
failed=0
ok() { # NAME CONDITION-STATUS [NOTE...]
    local name=$1 res=$2
    shift 2
    n=$((n + 1))
    if [ "$res" = 0 ]; then
        echo "ok $n - $name"
    else
        failed=$((failed + 1))
        echo "not ok $n - $name"
        for note in "$@"; do echo "# $note"; done
    fi
}

if ! command -v "$SKAS" >/dev/null 2>&1; then
    echo "not ok 1 - skas not found: $SKAS"
    echo "0 passed, 1 failed"
    exit 1
fi

# A static helper for guests: h cat FILE | h ptrace HOST_PID | h stubjump
cat >"$tmp/h.c" <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static const char *ename(int e)
{
	return e == ENOSYS ? "ENOSYS" : e == EPERM ? "EPERM" : e == ESRCH ? "ESRCH" : "other";
}

/* 2000 map batches of the process's own (mmap, touch, munmap): 0, or -1
 * if one failed. */
static int map_batches(void)
{
	int i;

	for (i = 0; i < 2000; i++) {
		char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return -1;
		p[0] = p[4096] = (char)i;
		if (munmap(p, 8192) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char buf[4096];
	long n;
	int fd;

	if (argc == 3 && strcmp(argv[1], "cat") == 0) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0) {
			printf("%s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, n, stdout);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "ptrace") == 0) {
		int pid = atoi(argv[2]);
		long v;

		printf("attach %s", ptrace(PTRACE_ATTACH, pid, 0, 0) < 0 ? ename(errno) : "OK");
		printf(" seize %s", ptrace(PTRACE_SEIZE, pid, 0, 0) < 0 ? ename(errno) : "OK");
		errno = 0;
		v = ptrace(PTRACE_PEEKDATA, pid, 0x7fffff000000, 0);
		printf(" peek %s\n", v == -1 && errno ? ename(errno) : "OK");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubjump") == 0) {
		/* The stub's batch loop (stub/stub.h STUB_BATCH): its syscall
		 * instructions trap like any other guest call. */
		((void (*)(void))0x7fffff000080UL)();
		printf("returned\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubbell") == 0) {
		/* The stub's doorbell loop (STUB_BELL) in a child: its futex
		 * and its report (a write to the stub's fd 0) trap like any
		 * guest call, so it spins on EFAULTs and reports nothing; the
		 * parent's own map batches keep their reports. */
		pid_t c = fork();
		int st;

		if (c == 0) {
			((void (*)(void))0x7fffff000200UL)();
			_exit(3);
		}
		usleep(200000);
		if (map_batches() < 0)
			return 1;
		kill(c, SIGKILL);
		waitpid(c, &st, 0);
		printf("child %s, maps ok\n",
		       WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? "killed" : "other");
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "stubdata") == 0) {
		/* The stub's scratch page is mapped (hidden) in every guest
		 * process: what a guest leaves there must not reach the
		 * program it execs (skas keeps the stub across the exec). */
		volatile char *p = (volatile char *)0x7fffff001800UL;

		if (argc == 2) {
			char *av[] = { argv[0], "stubdata", "check", NULL };

			memcpy((char *)p, "SECRET", 7);
			execv("/proc/self/exe", av);
			return 1;
		}
		printf("stubdata %s\n", memcmp((char *)p, "SECRET", 6) ? "clean" : "leaked");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "int80probe") == 0) {
		/* Safe to run natively: getpid on i386, or the host's SIGSEGV
		 * where it has no IA32 emulation. */
		long r = 20;

		__asm__ volatile("int $0x80" : "+a"(r) : : "memory");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "int80") == 0) {
		/* An i386 call (int 0x80, eax 20: getpid there) is not an
		 * x86-64 one: ENOSYS, and the process goes on. So are the i386
		 * calls numbered as x86-64's rt_sigreturn (15), clone (56),
		 * exit (60) and arch_prctl (158), the calls the seccomp
		 * backend takes in a ptrace stop and reads from registers. */
		static const long nrs[] = { 20, 15, 56, 60, 158 };
		unsigned i;

		for (i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++) {
			long r = nrs[i];

			__asm__ volatile("int $0x80" : "+a"(r) : : "memory");
			printf("int80 %ld\n", r);
		}
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubprctl") == 0) {
		/* The sigsys handler's arch_prctl (STUB_SYS_ARCH_PRCTL, a host
		 * without FSGSBASE) with ARCH_MAP_VDSO_64: the host would map a
		 * vDSO behind the kernel's back. Its filter passes ARCH_SET_FS
		 * and ARCH_SET_GS only: this is the guest's own call (the
		 * kernel's --strace shows it), whatever becomes of the thread
		 * after (it runs on into the handler's tail). */
		static char zeros[4096];
		register long rax __asm__("rax") = 158;
		register long rdi __asm__("rdi") = 0x2003;
		register long rsi __asm__("rsi") = 0x200000000L;

		__asm__ volatile("mov %3, %%rbx; jmp *%4"
				 :
				 : "r"(rax), "r"(rdi), "r"(rsi), "r"(zeros), "r"(0x7fffff000620UL)
				 : "rbx", "memory");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubexit") == 0) {
		/* The stub's exit(0) of a retired thread (STUB_EXIT_THREAD):
		 * the guest's own exit(0) if it traps, a stub thread gone
		 * behind the kernel's back (SIGKILL) if it reached the host. */
		((void (*)(void))0x7fffff000100UL)();
		printf("returned\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubreport") == 0) {
		/* The sigsys handler's wake (STUB_SYS_WAKE) in a child, with the
		 * arguments of a control thread's batch report (a write of
		 * STUB_OPS to the stub's fd 0): it must not reach the kernel's
		 * report socket, where it would pass for another stub's report;
		 * the parent's own map batches keep their reports. */
		pid_t c = fork();
		int st, i;

		if (c == 0) {
			register long rax __asm__("rax") = 1;
			register long rdi __asm__("rdi") = 0;
			register long rsi __asm__("rsi") = 0x7fffff002000L;
			register long rdx __asm__("rdx") = 1;

			for (i = 0; i < 3; i++) {
				pid_t g = fork();

				if (g == 0) {
					__asm__ volatile("xor %%ebx, %%ebx; jmp *%4"
							 :
							 : "r"(rax), "r"(rdi), "r"(rsi), "r"(rdx),
							   "r"(0x7fffff000600UL)
							 : "rbx", "memory");
					_exit(3);
				}
				waitpid(g, &st, 0);
			}
			_exit(WIFSIGNALED(st) ? 100 + WTERMSIG(st) : WEXITSTATUS(st));
		}
		waitpid(c, &st, 0);
		if (map_batches() < 0)
			return 1;
		printf("child %d, maps ok\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "sigmask") == 0) {
		/* A forged signal frame through the stub's rt_sigreturn
		 * (STUB_SYS_RETURN) that blocks every signal, then a spin:
		 * SIGKILL from its parent still ends it. */
		pid_t c = fork();
		int st;

		if (c == 0) {
			static unsigned long stack[4096];
			static unsigned long frame[64] __attribute__((aligned(16)));

			memset(frame, 0, sizeof(frame));
			/* pretcode, then the ucontext: uc_flags, uc_link,
			 * uc_stack (3), the sigcontext (r8... from 6, 32
			 * words), uc_sigmask */
			frame[6 + 15] = (unsigned long)(stack + 4000); /* rsp */
			frame[6 + 16] = (unsigned long)&&spin;	       /* rip */
			frame[6 + 17] = 0x202;			       /* eflags */
			frame[6 + 18] = 0x33 | (0x2bUL << 48);	       /* cs, ss */
			frame[6 + 32] = ~0UL;			       /* uc_sigmask */
			__asm__ volatile("mov %0, %%rsp; mov $15, %%eax; jmp *%1"
					 :
					 : "r"(frame + 1), "r"(0x7fffff000610UL)
					 : "memory");
spin:
			for (;;)
				;
		}
		usleep(300000);
		kill(c, SIGKILL);
		waitpid(c, &st, 0);
		printf("child %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? "killed" : "other");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "stubinit") == 0) {
		/* The seccomp backend's filter install (STUB_GUEST_INIT): a
		 * guest seccomp() call, then the int3 (SIGTRAP). */
		((void (*)(void))0x7fffff000180UL)();
		printf("returned\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "escapes") == 0) {
		/* Under --root: every route out of the root reads the root's
		 * own etc/hostname (or fails); each line is "route: what". */
		static const char *const names[] = { "o_path_dotdot", "fchdir_dotdot",
						     "empty_path", "proc_fd_other",
						     "link_out", "mount" };
		char got[6][256];
		int i, fd, d, p[2];

		for (i = 0; i < 6; i++)
			strcpy(got[i], "error");
		/* O_PATH of /, then .. from it, many times */
		d = open("/", O_PATH);
		for (i = 0; i < 40 && d >= 0; i++) {
			int up = openat(d, "..", O_PATH);

			close(d);
			d = up;
		}
		fd = d >= 0 ? openat(d, "etc/hostname", O_RDONLY) : -1;
		if (fd >= 0 && (n = read(fd, got[0], 255)) >= 0)
			got[0][n] = 0, close(fd);
		/* fchdir to an O_PATH fd, then chdir .. */
		if (d >= 0 && fchdir(d) == 0) {
			for (i = 0; i < 40; i++)
				if (chdir("..") < 0)
					break;
			fd = open("etc/hostname", O_RDONLY);
			if (fd >= 0 && (n = read(fd, got[1], 255)) >= 0)
				got[1][n] = 0, close(fd);
		}
		/* AT_EMPTY_PATH on an O_PATH fd of the file, through
		 * /proc/self/fd (a magic link: the very file, nothing more) */
		fd = open("/etc/hostname", O_PATH);
		if (fd >= 0) {
			char path[64];
			int f2;

			snprintf(path, sizeof(path), "/proc/self/fd/%d/../../..", fd);
			f2 = open(path, O_RDONLY);
			if (f2 >= 0) {
				strcpy(got[2], "escaped");
				close(f2);
			} else {
				snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
				f2 = open(path, O_RDONLY);
				if (f2 >= 0 && (n = read(f2, got[2], 255)) >= 0)
					got[2][n] = 0, close(f2);
			}
		}
		/* another process's fd through /proc/PID/fd */
		if (pipe(p) == 0) {
			pid_t c = fork();

			if (c == 0) {
				int cf = open("/", O_PATH | O_DIRECTORY);
				char b = 0;

				(void)cf;
				if (write(p[1], &b, 1) != 1)
					_exit(1);
				sleep(5);
				_exit(0);
			}
			if (read(p[0], &n, 1) == 1) {
				char path[64];
				int st;

				snprintf(path, sizeof(path), "/proc/%d/fd/3/../../../etc/hostname", c);
				fd = open(path, O_RDONLY);
				if (fd < 0) {
					snprintf(path, sizeof(path), "/proc/%d/root/../../etc/hostname", c);
					fd = open(path, O_RDONLY);
				}
				if (fd >= 0 && (n = read(fd, got[3], 255)) >= 0)
					got[3][n] = 0, close(fd);
				kill(c, SIGKILL);
				waitpid(c, &st, 0);
			}
		}
		/* a hard link to the root's file, then through its parent */
		if (link("/etc/hostname", "/tmp/hl") == 0) {
			fd = open("/tmp/../../../tmp/hl", O_RDONLY);
			if (fd >= 0 && (n = read(fd, got[4], 255)) >= 0)
				got[4][n] = 0, close(fd);
		} else {
			snprintf(got[4], sizeof(got[4]), "link: %s\n", strerror(errno));
		}
		/* a mount of the host's / (hostfs) is refused; a bind of
		 * "/.." binds the guest's root */
		if (mount("/", "/tmp", "hostfs", 0, NULL) == 0) {
			strcpy(got[5], "hostfs mounted\n");
		} else if (mount("/../..", "/tmp", NULL, MS_BIND, NULL) < 0) {
			snprintf(got[5], sizeof(got[5]), "bind: %s\n", strerror(errno));
		} else {
			fd = open("/tmp/etc/hostname", O_RDONLY);
			if (fd >= 0 && (n = read(fd, got[5], 255)) >= 0)
				got[5][n] = 0, close(fd);
			umount("/tmp");
		}
		for (i = 0; i < 6; i++)
			printf("%s: %s", names[i], got[i]);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "opspeek") == 0) {
		/* A child maps memory at a telling address; then the parent
		 * reads the stub's ops page (STUB_OPS, read-only in its own
		 * address space) for it: it must hold only its own batches. */
		const unsigned long mark = 0x5a5a0000UL;
		const unsigned long *ops = (const unsigned long *)0x7fffff002000UL;
		int st, i, seen = 0;

		if (fork() == 0) {
			mmap((void *)mark, 4096, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			_exit(0);
		}
		wait(&st);
		for (i = 0; i < 0x4000 / 8; i++)
			seen |= ops[i] == mark;
		printf("%s\n", seen ? "seen" : "not seen");
		return 0;
	}
	return 2;
}
EOF
if ! gcc -static -O1 -o "$tmp/h" "$tmp/h.c" 2>"$tmp/cc"; then
    echo "not ok 1 - build the guest helper"
    sed 's/^/# /' "$tmp/cc"
    echo "0 passed, 1 failed"
    exit 1
fi

# start_guest CMD...: a guest in the background, its kernel's pid in $kpid;
# waits until the guest runs (two stubs: the zygote and the guest's), at
# most 20 s: skas may be slow to start on a loaded machine.
start_guest() {
    "$SKAS" run -- "$@" </dev/null >/dev/null 2>&1 &
    kpid=$!
    for _ in $(seq 400); do
        [ "$(pgrep -P "$kpid" | wc -l)" -ge 2 ] && return 0
        sleep 0.05
    done
    return 1
}
stop_guest() {
    kill -9 "$kpid" 2>/dev/null
    wait "$kpid" 2>/dev/null
    kpid=
}
field() { # PID FIELD: a line of /proc/PID/status, the value only
    sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" 2>/dev/null | head -n 1
}

# --- the kernel and its stubs, from the host ---

start_guest /bin/sh -c 'sleep 30 & sleep 30'
for _ in $(seq 400); do
    [ "$(pgrep -P "$kpid" | wc -l)" -ge 3 ] && break
    sleep 0.05
done
stubs=$(pgrep -P "$kpid" | tr '\n' ' ')
stub=$(pgrep -P "$kpid" | tail -n 1)
ok "the kernel runs under a seccomp filter (Seccomp: 2)" \
    "$([ "$(field "$kpid" Seccomp)" = 2 ]; echo $?)" "Seccomp: $(field "$kpid" Seccomp)"
ok "the kernel has no_new_privs (NoNewPrivs: 1)" \
    "$([ "$(field "$kpid" NoNewPrivs)" = 1 ]; echo $?)" "NoNewPrivs: $(field "$kpid" NoNewPrivs)"
if [ "$(id -u)" = 0 ]; then
    uids=$(field "$kpid" Uid | tr -s '\t ' ' ')
    ok "started by root, the kernel runs as nobody (65534)" \
        "$([ "$uids" = "65534 65534 65534 65534" ]; echo $?)" "Uid: $uids"
    ok "the kernel keeps no capability but CAP_DAC_READ_SEARCH" \
        "$([ "$(field "$kpid" CapEff)" = 0000000000000004 ] &&
            [ "$(field "$kpid" CapPrm)" = 0000000000000004 ] &&
            [ "$(field "$kpid" CapBnd)" = 0000000000000004 ]; echo $?)" \
        "CapEff $(field "$kpid" CapEff) CapPrm $(field "$kpid" CapPrm) CapBnd $(field "$kpid" CapBnd)"
fi
ok "a stub runs under a seccomp filter with no_new_privs" \
    "$([ "$(field "$stub" Seccomp)" = 2 ] && [ "$(field "$stub" NoNewPrivs)" = 1 ]; echo $?)"
ok "a stub has its own user, mount, net, ipc and uts namespaces" \
    "$(for ns in user mnt net ipc uts; do
        [ "$(readlink "/proc/$stub/ns/$ns")" != "$(readlink "/proc/self/ns/$ns")" ] || exit 1
    done; echo $?)" "stub $stub: $(ls -l "/proc/$stub/ns" 2>&1 | tr '\n' ' ')"
ok "a stub's root is empty" \
    "$([ -z "$(ls -A "/proc/$stub/root/" 2>&1)" ]; echo $?)" "$(ls -A "/proc/$stub/root/" 2>&1 | head -n 3)"
ok "a stub may hold two fds and no core file" \
    "$(grep -q '^Max open files  *2  *2 ' "/proc/$stub/limits" &&
        grep -q '^Max core file size  *0  *0 ' "/proc/$stub/limits"; echo $?)" \
    "$(grep -E 'open files|core' "/proc/$stub/limits" 2>&1)"
ok "the kernel traces its stubs (TracerPid)" \
    "$([ "$(field "$stub" TracerPid)" = "$kpid" ]; echo $?)"
threads=
for p in $stubs; do
    threads="$threads $(ls "/proc/$p/task" 2>/dev/null | tr '\n' ' ')"
done
stop_guest
# at most 10 s for the host to end them
for _ in $(seq 200); do
    left=
    for p in $threads; do
        state=$(field "$p" State)
        [ -n "$state" ] && [ "${state#Z}" = "$state" ] && left="$left $p($state)"
    done
    [ -z "$left" ] && break
    sleep 0.05
done
ok "kill -9 of the kernel leaves none of its stubs (host threads:$threads)" \
    "$([ -z "$left" ] && [ -n "$stubs" ]; echo $?)" "still there:$left"

# --- what a guest sees ---

out=$("$SKAS" run -- /bin/sh -c 'ls /proc' 2>&1 | grep -E '^[0-9]+$' | tr '\n' ' ')
ok "a guest's /proc lists only its own processes" \
    "$(for p in $out; do [ "$p" -le 8 ] || exit 1; done; [ -n "$out" ]; echo $?)" "pids: $out"
out=$("$SKAS" run -- /bin/sh -c 'cat /proc/1/comm' 2>&1)
ok "a guest's /proc/1 is its own first process, not the host's init" \
    "$([ "$out" = sh ]; echo $?)" "comm: $out"

mkdir -p "$tmp/root"
cp "$tmp/h" "$tmp/root/h"
if [ -r /proc/1/environ ]; then
    "$SKAS" run --root "$tmp/root" -- /h cat /proc/1/environ >"$tmp/env" 2>&1
    ok "--root: a guest cannot read the host's /proc/1/environ" \
        "$(! cmp -s "$tmp/env" /proc/1/environ; echo $?)" "$(head -c 200 "$tmp/env" | tr -d "\0")"
fi
for f in /etc/hostname /proc/self/root/etc/hostname /../../etc/hostname /proc/1/root/etc/hostname; do
    out=$("$SKAS" run --root "$tmp/root" -- /h cat "$f" 2>&1)
    ok "--root: a guest cannot read the host's $f" \
        "$([ "$out" != "$(cat /etc/hostname)" ] && [ "${out#*: }" != "$out" ]; echo $?)" "$out"
done

mkdir -p "$tmp/root/etc" "$tmp/root/tmp" "$tmp/root/proc"
echo guest-hostname >"$tmp/root/etc/hostname"
out=$("$SKAS" run --root "$tmp/root" -- /h escapes 2>&1)
ok "--root: O_PATH and .., fchdir and .., magic links, another process's fd, a hard link, mount (hostfs refused, a bind of /..): none leads out" \
    "$([ "$out" = "o_path_dotdot: guest-hostname
fchdir_dotdot: guest-hostname
empty_path: guest-hostname
proc_fd_other: guest-hostname
link_out: guest-hostname
mount: guest-hostname" ]; echo $?)" "$(echo "$out" | tr '\n' ';')"
ok "--root: the host's files are as they were" \
    "$([ "$(cat "$tmp/root/etc/hostname")" = guest-hostname ] && [ ! -e "$tmp/root/tmp/hl" ]; echo $?)"

start_guest /bin/sleep 30
stub=$(pgrep -P "$kpid" | tail -n 1)
out=$("$SKAS" run -- "$tmp/h" ptrace "$stub" 2>&1)
ok "a guest root cannot ptrace a stub of another instance (host pid $stub)" \
    "$(echo "$out" | grep -Eq '^attach (ENOSYS|EPERM|ESRCH) seize (ENOSYS|EPERM|ESRCH) peek (ENOSYS|EPERM|ESRCH)$'; echo $?)" "$out"
ok "the stub is still traced by its own kernel only" \
    "$([ "$(field "$stub" TracerPid)" = "$kpid" ]; echo $?)" "TracerPid: $(field "$stub" TracerPid)"
stop_guest
int80_native=$(/bin/sh -c "'$tmp/h' int80probe >/dev/null 2>&1; echo status \$?")
for pf in ptrace seccomp sigsys; do
    if ! "$SKAS" run --platform=$pf -- /bin/true >/dev/null 2>&1; then
        echo "# platform $pf: not available on this host"
        continue
    fi
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubjump; echo status \$?" 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the stub's batch loop gets a signal, not a host call" \
        "$(echo "$out" | grep -Eq '^status 1(3[0-9]|[2-4][0-9])$'; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubdata" 2>&1 | tail -n 1)
    ok "$pf: what a guest writes in its stub's scratch page does not survive its exec" \
        "$([ "$out" = "stubdata clean" ]; echo $?)" "$out"
    if [ "$int80_native" = "status 139" ]; then
        # A host without IA32 emulation answers int 0x80 with SIGSEGV.
        out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' int80; echo status \$?" 2>&1 | tail -n 1)
        ok "$pf: int 0x80 gets SIGSEGV as on this host (no IA32 emulation), not an x86-64 call" \
            "$([ "$out" = "status 139" ]; echo $?)" "$out"
    else
        out=$("$SKAS" run --platform=$pf -- "$tmp/h" int80 2>&1 | grep -c '^int80 -38$')
        ok "$pf: int 0x80 calls get ENOSYS (no 32-bit ABI), not x86-64 calls or a dead stub" \
            "$([ "$out" = 5 ]; echo $?)" "$out of 5"
    fi
    out=$("$SKAS" run --platform=$pf -- "$tmp/h" stubbell 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the stub's doorbell loop sends the kernel no batch report" \
        "$([ "$out" = "child killed, maps ok" ]; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubexit; echo status \$?" 2>&1 | tail -n 1)
    if [ $pf = sigsys ]; then
        # The handler's exit(0) is the one call a guest thread can make
        # that ends something: its own host thread, which the kernel then
        # finds gone (the process dies of SIGKILL).
        ok "$pf: a guest that runs the stub's thread exit ends its own thread only" \
            "$([ "$out" = "status 137" ]; echo $?)" "$out"
    else
        ok "$pf: a guest that runs the stub's thread exit makes its own exit(0), not the host's" \
            "$([ "$out" = "status 0" ]; echo $?)" "$out"
    fi
    out=$("$SKAS" run --platform=$pf --strace="$tmp/prctl.trace" -- "$tmp/h" stubprctl >/dev/null 2>&1
          grep -c 'arch_prctl(8195, 0x200000000)' "$tmp/prctl.trace")
    ok "$pf: a guest that runs the stub's arch_prctl with ARCH_MAP_VDSO_64 makes its own call, not the host's" \
        "$([ "$out" = 1 ]; echo $?)" "$out: $(grep arch_prctl "$tmp/prctl.trace" | tail -n 2)"
    out=$("$SKAS" run --platform=$pf -- "$tmp/h" stubreport 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the handler's wake with a report's arguments sends no report" \
        "$([ "$out" = "child 111, maps ok" ]; echo $?)" "$out"
    out=$(timeout 20 "$SKAS" run --platform=$pf -- "$tmp/h" sigmask 2>&1 | tail -n 1)
    ok "$pf: a guest that blocks every host signal with a forged sigreturn still dies of SIGKILL" \
        "$([ "$out" = "child killed" ]; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- /bin/sh -c "'$tmp/h' stubinit; echo status \$?" 2>&1 | tail -n 1)
    ok "$pf: a guest that runs the stub's filter install gets SIGTRAP, not a host call" \
        "$([ "$out" = "status 133" ]; echo $?)" "$out"
    out=$("$SKAS" run --platform=$pf -- "$tmp/h" opspeek 2>&1 | tail -n 1)
    ok "$pf: a guest's stub ops page shows none of another process's batches" \
        "$([ "$out" = "not seen" ]; echo $?)" "$out"
done
out=$("$SKAS" run -- /bin/echo still alive 2>&1)
ok "skas still runs programs" "$([ "$out" = "still alive" ]; echo $?)" "$out"

# A guest's stub killed from the host (kill -9, the OOM killer): the
# process dies of SIGKILL, and the idle kernel does not spin on what is
# left of its thread (a seccomp listener left in the epoll set reported
# EPOLLHUP for ever: 100% of a CPU).
for pf in ptrace seccomp sigsys; do
    "$SKAS" run --platform=$pf -- /bin/true >/dev/null 2>&1 || continue
    : >"$tmp/lost.err"
    "$SKAS" run --platform=$pf -- /bin/sh -c \
        'sh -c "while :; do :; done" & p=$!; echo started >&2; wait $p; echo "status $?"; sleep 3' \
        >"$tmp/lost.out" 2>"$tmp/lost.err" &
    kpid=$!
    for _ in $(seq 400); do grep -q started "$tmp/lost.err" && break; sleep 0.05; done
    sleep 0.5
    victim=$(ps -o pid=,pcpu= --ppid "$kpid" | sort -k2 -rn | head -n 1 | awk '{ print $1 }')
    kill -9 "$victim" 2>/dev/null
    for _ in $(seq 200); do grep -q status "$tmp/lost.out" && break; sleep 0.05; done
    t0=$(awk '{ print $14 + $15 }' "/proc/$kpid/stat" 2>/dev/null)
    sleep 1
    t1=$(awk '{ print $14 + $15 }' "/proc/$kpid/stat" 2>/dev/null)
    ok "$pf: a stub killed from the host: SIGKILL for its process, an idle kernel after (${t0:-?} -> ${t1:-?} ticks in 1 s)" \
        "$(grep -qx 'status 137' "$tmp/lost.out" && [ -n "$t0" ] && [ -n "$t1" ] && [ $((t1 - t0)) -lt 30 ]; echo $?)" \
        "$(cat "$tmp/lost.out")"
    wait "$kpid" 2>/dev/null
done

count=$("$SKAS" run --verbose -- /bin/true 2>&1 | sed -n 's/.*sandbox: \([0-9]*\) host calls.*/\1/p')
echo "# the kernel's allowlist: ${count:-?} host calls"

echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
