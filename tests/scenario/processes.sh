#!/bin/bash
# Real programs inside skas: shells with pipelines, subshells, command
# substitution and background jobs; xargs -P2; python3 threads and
# subprocess; make -j2; a fork bomb held by --pids-max. One TAP line each.
set -u
. "$(dirname "$0")/common.bash"
scratch proc

run() { timeout -k 5 60 "$SKAS" run -- "$@" 2>/dev/null; }

out=$(run /bin/busybox sh -c 'for i in 1 2 3; do echo $i | cat; done; sleep 0 & wait; echo done')
check "busybox sh: pipes in a loop, background job and wait" "1 2 3 done" "$(echo $out)"

out=$(run /bin/sh -c 'for i in 1 2 3; do echo $i | cat; done; sleep 0 & wait; echo done')
check "dash: the same" "1 2 3 done" "$(echo $out)"

out=$(run /bin/bash -c 'seq 1 1000 | sort -rn | head -3; x=$(echo sub); echo $x; exit 7')
rc=$?
check "bash: pipeline, command substitution, exit status" "1000 999 998 sub 7" "$(echo $out) $rc"

out=$(run /bin/bash -c '(echo in; exit 3); echo $?; { sleep 0.1; echo late; } & echo early; wait; echo end')
check "bash: subshell status, background job" "in 3 early late end" "$(echo $out)"

out=$(run /bin/bash -c 'seq 1 20 | xargs -P2 -n1 echo | sort -n | tr "\n" " "')
check "xargs -P2" "$(seq 1 20 | tr '\n' ' ')" "$out"

out=$(run /usr/bin/python3 -c '
import threading, subprocess
r = []
lock = threading.Lock()
def w(i):
    with lock:
        r.append(i * i)
ts = [threading.Thread(target=w, args=(i,)) for i in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
print(sorted(r))
print(subprocess.run(["echo", "hi"], capture_output=True).stdout.decode().strip())
print(subprocess.check_output("echo a | tr a b", shell=True).decode().strip())
')
check "python3: threads and subprocess" "[0, 1, 4, 9, 16, 25, 36, 49] hi b" "$(echo $out)"

printf 'all: a b c\n\t@echo all\na:\n\t@echo a\nb:\n\t@echo b\nc:\n\t@echo c\n' >"$tmp/Makefile"
out=$(run /usr/bin/make -s -j2 -C "$tmp" | sort | tr '\n' ' ')
check "make -j2" "a all b c " "$out"

# Two guest processes that only compute: one is moved off the kernel's CPU
# (kernel/cpus.c) when the host has another, both still compute right,
# getcpu(2) agrees with the vDSO's sched_getcpu there, and both die of the
# signal sent to them there. With an argument, two that compute in bursts
# of ~0.5 ms with a system call between (a compiler's passes): one of them
# goes on too (a program that has made long runs lately). The bursts are
# shorter than SPILL_ANY_NS, but the host's time slices between the two
# may stretch one past it: this holds the spill for such programs, not
# its threshold. With "threads": two threads of one process compute, one
# goes off the kernel's CPU, both end; their host threads, kept for the
# process's next threads (spares), are all back on the kernel's CPU while
# it sleeps after "joined" (read from the host).
cat >"$tmp/spin.c" <<'EOF'
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
static unsigned long spin(unsigned long n)
{
	volatile unsigned long x = 0;
	for (unsigned long k = 0; k < n; k++)
		x += k;
	return x;
}
static void *spin_thread(void *arg)
{
	return (void *)(spin(300000000UL) == 300000000UL * 299999999UL / 2 ? arg : NULL);
}
int main(int argc, char **argv)
{
	pid_t p[2];
	pthread_t t[2];
	void *r;
	int i, j, st, sum = 0;

	if (argc > 1 && argv[1][0] == 't') {
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, spin_thread, &sum);
		for (i = 0; i < 2; i++)
			if (pthread_join(t[i], &r) == 0 && r == &sum)
				sum++;
		printf("joined %d\n", sum);
		fflush(stdout);
		sleep(3);
		return 0;
	}
	if (argc > 1) {
		for (i = 0; i < 2; i++)
			if ((p[i] = fork()) == 0) {
				for (j = 0; j < 400; j++) {
					if (spin(2000000) != 2000000UL * 1999999UL / 2)
						_exit(1);
					getppid();
				}
				_exit(0);
			}
		for (i = 0; i < 2; i++)
			if (waitpid(p[i], &st, 0) == p[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0)
				sum++;
		printf("%d\n", sum);
		return 0;
	}
	for (i = 0; i < 2; i++)
		if ((p[i] = fork()) == 0) {
			unsigned a, c;
			int b;

			if (spin(300000000UL) != 300000000UL * 299999999UL / 2)
				_exit(1);
			/* Right after the run (a second try would see a thread
			 * brought back by its short runs). The host may move the
			 * thread at one of the traps (natively too, between two
			 * calls): the vDSO's answer must agree with the call just
			 * before or just after it. */
			syscall(SYS_getcpu, &a, NULL, NULL);
			b = sched_getcpu();
			syscall(SYS_getcpu, &c, NULL, NULL);
			_exit((int)a == b || (int)c == b ? 7 : 2);
		}
	for (i = 0; i < 2; i++)
		if (waitpid(p[i], &st, 0) == p[i] && WIFEXITED(st))
			sum += WEXITSTATUS(st);
	for (i = 0; i < 2; i++)
		if ((p[i] = fork()) == 0)
			for (;;)
				spin(1000);
	nanosleep(&(struct timespec){ 0, 300000000 }, NULL);
	for (i = 0; i < 2; i++)
		kill(p[i], SIGTERM);
	for (i = 0; i < 2; i++)
		if (waitpid(p[i], &st, 0) == p[i] && WIFSIGNALED(st))
			sum += WTERMSIG(st);
	printf("%d\n", sum);
	return 0;
}
EOF
if gcc -O1 -static -pthread -o "$tmp/spin" "$tmp/spin.c" 2>/dev/null; then
	for pf in seccomp ptrace; do
		for mode in "" burst; do
			out=$(timeout -k 5 60 "$SKAS" run --platform=$pf --log="$tmp/spin$mode.log" -- \
				"$tmp/spin" $mode 2>/dev/null)
			if [ -z "$mode" ]; then
				check "$pf: two computing processes: right sums, getcpu, killed by SIGTERM" "44" "$out"
			else
				check "$pf: two processes computing in bursts: right sums" "2" "$out"
			fi
			if [ "$(nproc)" -ge 2 ]; then
				check "$pf${mode:+, bursts}: one of them ran off the kernel's CPU" "yes" \
					"$(grep -q 'guest code runs on the other CPUs' "$tmp/spin$mode.log" && echo yes)"
			fi
		done
		[ "$(nproc)" -ge 2 ] || continue
		"$SKAS" run --platform=$pf --log="$tmp/spint.log" -- "$tmp/spin" threads \
			>"$tmp/spint.out" 2>/dev/null &
		kpid=$!
		for i in $(seq 300); do
			grep -q joined "$tmp/spint.out" && break
			sleep 0.1
		done
		# The kernel's CPU, and every thread of its stubs (its children).
		kcpus=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/$kpid/status)
		away=0
		for s in $(pgrep -P $kpid); do
			for f in /proc/$s/task/*/status; do
				c=$(awk '/^Cpus_allowed_list/ { print $2 }' "$f" 2>/dev/null)
				[ -n "$c" ] && [ "$c" != "$kcpus" ] && away=$((away + 1))
			done
		done
		wait $kpid
		check "$pf: two computing threads: both ended, one ran off the kernel's CPU, their host threads back on it after" \
			"joined 2 yes 0" "$(cat "$tmp/spint.out") $(grep -q 'guest code runs on the other CPUs' \
				"$tmp/spint.log" && echo yes) $away"
	done
fi

# An exec that fails past the point of no return (an ELF whose data lies
# past its end) is logged with the file's name: by fd too (fexecve,
# execveat with AT_EMPTY_PATH), where the name given is "".
cat >"$tmp/fexec.c" <<'EOF'
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

int main(void)
{
	static const unsigned char code[] = { 0xb8, 0x3c, 0, 0, 0, 0x31, 0xff, 0x0f, 0x05 };
	unsigned char img[200] = { 0 };
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh));
	size_t code_off = sizeof(*eh) + 2 * sizeof(*ph);
	char *argv[] = { "bad", NULL };
	int fd, st;

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = 0x400000 + code_off;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_vaddr = ph[0].p_paddr = 0x400000;
	ph[0].p_filesz = ph[0].p_memsz = sizeof(img);
	ph[0].p_align = 0x1000;
	ph[1].p_type = PT_LOAD;
	ph[1].p_flags = PF_R | PF_W;
	ph[1].p_offset = 0x1000; /* past the end of the file */
	ph[1].p_vaddr = ph[1].p_paddr = 0x401000;
	ph[1].p_filesz = 0x10;
	ph[1].p_memsz = 0x100;
	ph[1].p_align = 0x1000;
	memcpy(img + code_off, code, sizeof(code));
	fd = open("/tmp/fexec-bad-elf", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, img, sizeof(img)) != sizeof(img) || close(fd) < 0)
		return 2;
	if (fork() == 0) {
		fd = open("/tmp/fexec-bad-elf", O_RDONLY);
		syscall(SYS_execveat, fd, "", argv, NULL, AT_EMPTY_PATH);
		_exit(99);
	}
	wait(&st);
	printf("%d\n", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
	return 0;
}
EOF
if gcc -O1 -static -o "$tmp/fexec" "$tmp/fexec.c" 2>/dev/null; then
	out=$(timeout -k 5 60 "$SKAS" run --log="$tmp/fexec.log" -- "$tmp/fexec" 2>/dev/null)
	check "execveat(fd, \"\", AT_EMPTY_PATH) of a broken ELF: SIGSEGV" "11" "$out"
	check "the log names the file" "yes" \
		"$(grep -q 'exec of /tmp/fexec-bad-elf failed past the point of no return' \
			"$tmp/fexec.log" && echo yes)"
fi

# Job control with set -m (the issue's signals part): a stopped job shows
# as Stopped, continues, dies of SIGTERM.
out=$(run /bin/bash -c 'set -m; sleep 5 & kill -STOP %1; sleep 0.2; jobs -l | grep -c Stopped
kill -CONT %1; sleep 0.1; jobs | grep -c Running; kill %1; wait; echo end' 2>&1 | grep -v Terminated)
check "bash set -m: a job stops, continues and is killed" "1 1 end" "$(echo $out)"

out=$(run /bin/bash -c 'timeout 1 sleep 5; echo $?')
check "timeout 1 sleep 5 inside the guest" "124" "$out"

out=$(run /bin/bash -c 'trap "echo got TERM" TERM; kill -TERM $$; sleep 5 & kill -STOP $!; kill -CONT $!; kill $!; wait $!; echo $?')
check "bash: TERM trap, then STOP/CONT/TERM of a background sleep" "got TERM 143" "$(echo $out)"

# Root inside holds CAP_SYS_TIME, yet cannot set the clock (the host's):
# date -s is EPERM, as in a container without the capability, and the
# host's clock has not moved.
before=$(date +%s)
out=$(run /bin/bash -c 'date -s "2001-01-01 00:00:00" >/dev/null 2>&1; echo $?; date +%Y' 2>&1)
check "date -s as root inside: refused, the clock is the host's" "1 $(date +%Y)" "$(echo $out)"
check "the host's clock did not move" "yes" "$([ $(($(date +%s) - before)) -ge 0 ] && [ $(($(date +%s) - before)) -lt 60 ] && echo yes)"
out=$(run /bin/bash -c 'date -s "2001-01-01 00:00:00" 2>&1 >/dev/null')
check "date -s says why" "date: cannot set date: Operation not permitted" "$out"

# Namespaces: UTS, user and time ones can be made
# (tests/scenario/namespaces.sh; tests/guest/unshare.c, ns_limits and
# timens cover the rest of unshare).
if command -v unshare >/dev/null; then
	out=$(run /bin/bash -c 'exec 2>&1; unshare --uts true; echo $?; unshare --user true; echo $?; unshare --time true; echo $?')
	check "unshare --uts, --user and --time work as root inside" "0 0 0" "$(echo $out)"
fi

# reboot ends the instance as it ends a PID namespace: init killed by
# SIGHUP (restart) or SIGINT (halt, power off), the other processes with
# it; a user without CAP_SYS_BOOT gets EPERM and goes on.
if command -v busybox >/dev/null; then
	start=$(date +%s)
	run busybox sh -c 'sleep 20 & sleep 20 & busybox reboot -f; echo not reached'
	check "busybox reboot -f as root: skas exits as if SIGHUP killed init" "129" "$?"
	check "the instance ended at once (the sleeps with it)" "yes" \
		"$([ $(($(date +%s) - start)) -lt 10 ] && echo yes)"
	run busybox sh -c '(sleep 0.2; busybox poweroff -f) & sleep 20'
	check "busybox poweroff -f from a child of init: SIGINT" "130" "$?"
	out=$(timeout -k 5 60 "$SKAS" run --user=1000 -- busybox sh -c 'busybox reboot -f 2>/dev/null; echo $?')
	check "reboot as a user: refused, the shell goes on" "1" "$out"
fi

start=$(date +%s)
out=$(timeout -k 5 60 "$SKAS" run --pids-max=64 -- /bin/bash -c \
	':(){ :|:& };:; sleep 2; echo survived' 2>/dev/null)
check "a fork bomb meets --pids-max, the instance goes on" "survived" "$out"
check "the fork bomb run ended within 30 s" "yes" "$([ $(($(date +%s) - start)) -lt 30 ] && echo yes)"

run /bin/bash -c 'true'
check "after the fork bomb, skas still runs programs" "0" "$?"
out=$(timeout -k 5 30 "$SKAS" run --pids-max=64 -- /bin/cat /proc/sys/kernel/threads-max /proc/sys/fs/dir-notify-enable 2>&1)
check "kernel.threads-max says --pids-max; fs.dir-notify-enable 1 (dnotify is there)" "64
1" "$out"

# kernel.randomize_va_space: 2 by default; 0 turns exec's address
# randomization off (as setarch -R does for one program), 1 leaves brk
# where the image ends
out=$(timeout -k 5 30 "$SKAS" run -- /bin/sh -c '
cat /proc/sys/kernel/randomize_va_space
a=$(grep -m1 stack /proc/self/maps); b=$(grep -m1 stack /proc/self/maps)
[ "$a" != "$b" ] && echo differ
echo 0 >/proc/sys/kernel/randomize_va_space
a=$(grep -m1 stack /proc/self/maps); b=$(grep -m1 stack /proc/self/maps)
[ "$a" = "$b" ] && echo same
c=$(setarch -R grep -m1 stack /proc/self/maps)
[ "$a" = "$c" ] && echo as-setarch
echo -3 >/proc/sys/kernel/randomize_va_space; cat /proc/sys/kernel/randomize_va_space' 2>&1)
check "kernel.randomize_va_space: 2, randomizing; 0 as setarch -R; any int" "2
differ
same
as-setarch
-3" "$out"

# /proc/cpuinfo's flags: the instruction-set extensions user code may use,
# as the host's Linux names them (the AVX ones only with their state on):
# each of these is there inside exactly when it is there outside (skas
# showed 32 flags: no avx512bw, vaes, xsaveopt...)
isa="sse4_2 avx f16c avx2 bmi2 avx512f avx512dq avx512cd avx512bw avx512vl avx512vbmi avx512_vnni avx_vnni aes sha_ni gfni vaes vpclmulqdq xsaveopt xsavec fsrm movdiri erms adx"
flags_of() { sed -n 's/^flags[[:space:]]*: //p' | head -1 | tr ' ' '\n' | grep -xF -f <(echo "$isa" | tr ' ' '\n') | sort | tr '\n' ' '; }
want=$(flags_of </proc/cpuinfo)
out=$(timeout -k 5 30 "$SKAS" run -- /bin/cat /proc/cpuinfo 2>&1 | flags_of)
check "cpuinfo's instruction-set flags are the host's" "$want" "$out"

summary
