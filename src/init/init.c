/* init/init.c: skas-init, the instance's pid 1 under `skas run --init`.
 *
 * A namespace's init (the instance's first process) has signal rules of
 * its own: Linux drops every signal it neither handles nor blocks, SIGKILL
 * and SIGSTOP but from above included. A program that is not written to
 * be an init then outlives what would end it anywhere else: `yes | head`
 * leaves yes writing into EPIPE, Ctrl-C and kill -TERM do nothing to
 * `sleep 100`, and the orphans it leaves as zombies stay. Under --init
 * this program is pid 1 instead, as Docker's --init (tini) is:
 * - it starts the program as its child (pid 2) in a process group of its
 *   own, which it makes the terminal's foreground group (Ctrl-C reaches
 *   the program alone, once);
 * - it blocks every signal it can and waits for them (a blocked signal
 *   reaches init whatever its action), passing each on to the program;
 *   a fault of its own still kills it (forced through the mask);
 * - it reaps every child, the orphans it adopts included;
 * - a program stopped by SIGTSTP (Ctrl-Z) is continued at once, with its
 *   process group: no shell is there to continue it, and pid 1 ignored
 *   the stop before;
 * - it exits with the program's status once the program has ended:
 *   128+N if a signal N killed it, which is what skas exits with.
 * The program is found as skas finds it (execvp: $PATH, 127 if missing,
 * 126 if it cannot be run, the same message); without one, /bin/bash,
 * else /bin/sh, as the shell skas starts.
 *
 * Freestanding: no libc (the root may have none, or another), linked
 * apart from the kernel and carried inside skas (platform/stub_blob.S);
 * the kernel runs it from a sealed memfd (task_start_init). */
#include <stddef.h>

#define SYS_write	    1
#define SYS_rt_sigprocmask  14
#define SYS_ioctl	    16
#define SYS_getpid	    39
#define SYS_fork	    57
#define SYS_execve	    59
#define SYS_wait4	    61
#define SYS_kill	    62
#define SYS_setpgid	    109
#define SYS_rt_sigtimedwait 128
#define SYS_exit_group	    231

#define E_NOENT	 2
#define E_INTR	 4
#define E_ACCES	 13
#define E_NOTDIR 20

#define SIG_SETMASK 2
#define SIGKILL	    9
#define SIGCHLD	    17
#define SIGCONT	    18
#define SIGSTOP	    19
#define SIGTSTP	    20
#define BIT(sig)    (1UL << ((sig)-1))

#define WNOHANG	  1
#define WUNTRACED 2
#define TCGETS	  0x5401
#define TIOCSPGRP 0x5410

void init_main(long *sp);

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#define sys(nr, a, b, c) sys6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call init_main\n"
	"	hlt\n");

static size_t len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static void put(const char *s)
{
	sys(SYS_write, 2, s, len(s));
}

/* strerror's words for what an exec can fail with. */
static const char *error_text(long err)
{
	static const struct {
		int err;
		const char *text;
	} texts[] = {
		{ 1, "Operation not permitted" },
		{ 2, "No such file or directory" },
		{ 5, "Input/output error" },
		{ 7, "Argument list too long" },
		{ 8, "Exec format error" },
		{ 12, "Cannot allocate memory" },
		{ 13, "Permission denied" },
		{ 14, "Bad address" },
		{ 20, "Not a directory" },
		{ 21, "Is a directory" },
		{ 22, "Invalid argument" },
		{ 24, "Too many open files" },
		{ 26, "Text file busy" },
		{ 36, "File name too long" },
		{ 40, "Too many levels of symbolic links" },
	};
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].err == err)
			return texts[i].text;
	return "Unknown error";
}

/* The value of name in envp, or NULL. */
static const char *env(char **envp, const char *name)
{
	size_t n = len(name), i;

	for (; *envp; envp++) {
		for (i = 0; i < n && (*envp)[i] == name[i]; i++)
			;
		if (i == n && (*envp)[n] == '=')
			return *envp + n + 1;
	}
	return NULL;
}

/* execvp, as skas's own look-up (main.c start_in_path): a name without a
 * slash is tried in each directory of $PATH, the first that is not
 * missing taken, EACCES if only those. Returns -errno. */
static long exec_program(char **argv, char **envp)
{
	const char *name = argv[0], *path = env(envp, "PATH"), *dir;
	static char full[4096];
	size_t nlen = len(name), dlen, i;
	long ret, err = -E_NOENT;

	for (i = 0; i < nlen; i++)
		if (name[i] == '/')
			return sys(SYS_execve, name, argv, envp);
	if (!path || !*path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	for (dir = path;; dir += dlen + 1) {
		for (dlen = 0; dir[dlen] && dir[dlen] != ':'; dlen++)
			;
		if (dlen + nlen + 3 <= sizeof(full)) {
			size_t at = 0;

			if (dlen == 0)
				full[at++] = '.';
			for (i = 0; i < dlen; i++)
				full[at++] = dir[i];
			full[at++] = '/';
			for (i = 0; i <= nlen; i++)
				full[at++] = name[i];
			ret = sys(SYS_execve, full, argv, envp);
			if (ret == -E_ACCES)
				err = ret;
			else if (ret != -E_NOENT && ret != -E_NOTDIR)
				return ret;
		}
		if (!dir[dlen])
			return err;
	}
}

/* The child: its own process group, the terminal's foreground (every
 * signal is still blocked, SIGTTOU too), then the program. */
static void child(char **argv, char **envp, const unsigned long *mask)
{
	static char *shell[] = { "/bin/bash", NULL, "/bin/sh", NULL };
	char termios[64];
	const char *name;
	int pgrp;
	long ret;

	sys(SYS_setpgid, 0, 0, 0);
	pgrp = (int)sys(SYS_getpid, 0, 0, 0);
	if (sys(SYS_ioctl, 0, TCGETS, termios) == 0)
		sys(SYS_ioctl, 0, TIOCSPGRP, &pgrp);
	sys6(SYS_rt_sigprocmask, SIG_SETMASK, (long)mask, 0, 8, 0, 0);
	if (argv[0]) {
		name = argv[0];
		ret = exec_program(argv, envp);
	} else {
		name = shell[0];
		ret = sys(SYS_execve, shell[0], &shell[0], envp);
		if (ret == -E_NOENT) {
			name = shell[2];
			ret = sys(SYS_execve, shell[2], &shell[2], envp);
		}
	}
	put("skas: ");
	put(name);
	put(": ");
	put(error_text(-ret));
	put("\n");
	sys(SYS_exit_group, ret == -E_NOENT ? 127 : 126, 0, 0);
}

/* argv: "skas-init", then "--" and the program's argv, or nothing (the
 * shell). */
void init_main(long *sp)
{
	char **argv = (char **)(sp + 1), **envp = argv + sp[0] + 1;
	/* Every signal waits here to be passed on, kill's SIGSEGV too: a
	 * fault of init's own is forced through the mask all the same. */
	unsigned long all = ~(BIT(SIGKILL) | BIT(SIGSTOP));
	unsigned long old = 0;
	char **prog = argv + 1;
	long pid, sig, w;
	unsigned char info[128];
	int status, code = 0, done = 0;

	if (*prog && prog[0][0] == '-' && prog[0][1] == '-' && !prog[0][2])
		prog++;
	sys6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	pid = sys(SYS_fork, 0, 0, 0);
	if (pid == 0)
		child(prog, envp, &old);
	if (pid < 0) {
		put("skas-init: cannot start the program: ");
		put(error_text(-pid));
		put("\n");
		sys(SYS_exit_group, 126, 0, 0);
	}
	for (;;) {
		sig = sys6(SYS_rt_sigtimedwait, (long)&all, (long)info, 0, 8, 0, 0);
		if (sig == -E_INTR || sig < 0)
			continue;
		if (sig != SIGCHLD) {
			sys(SYS_kill, pid, sig, 0);
			continue;
		}
		while ((w = sys6(SYS_wait4, -1, (long)&status, WNOHANG | WUNTRACED, 0, 0, 0)) > 0) {
			if (w != pid)
				continue;
			if ((status & 0xff) == 0x7f) { /* stopped */
				/* its group, as a shell's fg: the program's
				 * children stopped with it */
				if (((status >> 8) & 0xff) == SIGTSTP)
					sys(SYS_kill, -pid, SIGCONT, 0);
				continue;
			}
			code = (status & 0x7f) ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
			done = 1;
		}
		if (done)
			sys(SYS_exit_group, code, 0, 0);
	}
}
