/* execve's argv and envp: many strings (thousands, laid across pages) arrive
 * whole and in order; strings that cross page boundaries; the longest string
 * allowed (MAX_ARG_STRLEN - 1 bytes) and one byte more (E2BIG); EFAULT for a
 * bad array, a bad string pointer, a string running into a PROT_NONE page
 * and an array whose NULL would be there. The program re-executes itself
 * (via /proc/self/exe's target) as the child, which checks what it got
 * against a hash the parent passes in argv[2]. Also "#!" scripts: the
 * interpreter gets its optional argument, the script's path and the
 * arguments; a first line longer than the 256-byte buffer is cut there. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tap.h"

#define MAX_ARG_STRLEN (32 * 4096)
static char self[4096];

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* the NUL separates strings */
}

/* The hash of argv[3..] and envp, as the child sees them. */
static uint64_t hash_strv(char **argv, char **envp)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; argv[i]; i++)
		h = fnv(h, argv[i]);
	h = fnv(h, "--env--");
	for (i = 0; envp && envp[i]; i++)
		h = fnv(h, envp[i]);
	return h;
}

/* Runs self with argv "self child HASH" + extra, envp; the exit status. */
static int run_child(char **extra, char **envp, int *err)
{
	char hash[32], **argv;
	int i, ne = 0, st;
	pid_t pid;

	while (extra && extra[ne])
		ne++;
	argv = calloc(ne + 4, sizeof(char *));
	argv[0] = self;
	argv[1] = "child";
	for (i = 0; i < ne; i++)
		argv[3 + i] = extra[i];
	snprintf(hash, sizeof(hash), "%llx", (unsigned long long)hash_strv(argv + 3, envp));
	argv[2] = hash;
	pid = fork();
	if (pid == 0) {
		execve(self, argv, envp);
		_exit(100 + errno);
	}
	free(argv);
	waitpid(pid, &st, 0);
	*err = WIFEXITED(st) && WEXITSTATUS(st) >= 100 ? WEXITSTATUS(st) - 100 : 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200;
}

/* execve with these arrays fails with errno want (in a child). */
static void want_errno(char **argv, char **envp, int want, const char *what)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execve(self, argv, envp);
		_exit(errno);
	}
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == want)
		printf("ok %d - %s -> %s\n", ++n, what, want == EFAULT ? "EFAULT" : "E2BIG");
	else
		printf("not ok %d - %s: status %#x, want errno %d\n", ++n, what, st, want);
}

static void test_many(void)
{
	int count = 3000, i, j, err;
	char **envp = calloc(count + 1, sizeof(char *)), *extra[4];
	char *pool = malloc(600 * 1024), *p = pool;

	for (i = 0; i < count; i++) {
		int len = 1 + (i * 37) % 300;

		envp[i] = p;
		p += sprintf(p, "V%d=", i);
		for (j = 0; j < len; j++)
			*p++ = (char)('a' + (i + j) % 26);
		*p++ = 0;
	}
	extra[0] = "first";
	extra[1] = "";
	extra[2] = "third arg";
	extra[3] = NULL;
	check(run_child(extra, envp, &err) == 0, "3000 env strings and 3 args arrive whole");
	free(envp);
	free(pool);
}

/* Strings packed in a fresh mapping, each crossing a page boundary. */
static void test_page_crossing(void)
{
	size_t size = 16 * 4096;
	char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *envp[40], *extra[2];
	int i, err;

	for (i = 0; i < 30; i++) {
		char *s = m + (size_t)(i / 2 + 1) * 4096 - 5 - (i % 2) * 4000;

		memset(s, 'A' + i % 26, 9);
		s[9] = 0;
		envp[i] = s;
	}
	envp[30] = NULL;
	extra[0] = m + 4 * 4096 - 2; /* "MM" then "" */
	memcpy(extra[0], "MM\0", 3);
	extra[1] = NULL;
	check(run_child(extra, envp, &err) == 0, "strings across page boundaries");
	munmap(m, size);
}

static void test_lengths(void)
{
	char *big = malloc(MAX_ARG_STRLEN + 2), *extra[2], *argv[4], *envp[1] = { NULL };
	int err;

	memset(big, 'x', MAX_ARG_STRLEN + 1);
	big[MAX_ARG_STRLEN - 1] = 0;
	extra[0] = big;
	extra[1] = NULL;
	check(run_child(extra, envp, &err) == 0, "an argument of MAX_ARG_STRLEN - 1 bytes");
	big[MAX_ARG_STRLEN - 1] = 'x';
	big[MAX_ARG_STRLEN] = 0;
	argv[0] = self;
	argv[1] = big;
	argv[2] = NULL;
	want_errno(argv, envp, E2BIG, "an argument of MAX_ARG_STRLEN bytes");
	free(big);
}

/* Linux's limit on the whole: a quarter of RLIMIT_STACK (at most 6 MiB,
 * at least 128 KiB of strings), the pointers counted: E2BIG, and the
 * caller lives on. */
static void test_limits(void)
{
	static char s[3000];
	char **v = calloc(1200001, sizeof(char *)), *envp[1] = { NULL };
	int i, st;
	pid_t pid;

	/* Should the exec succeed, the child fails its hash check at once. */
	memset(s, 'b', sizeof(s) - 1);
	v[0] = self;
	v[1] = "child";
	v[2] = "0";
	for (i = 3; i < 1200000; i++)
		v[i] = "";
	want_errno(v, envp, E2BIG, "1.2 million empty arguments (their pointers)");
	for (i = 3; i < 153; i++)
		v[i] = s;
	v[153] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 1 << 20, RLIM_INFINITY };

		setrlimit(RLIMIT_STACK, &rl);
		execve(self, v, envp);
		_exit(errno);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == E2BIG,
	      "450 KB of arguments under a 1 MB RLIMIT_STACK -> E2BIG");
	free(v);
}

static void test_faults(void)
{
	char *m = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *argv[3], *envp[2] = { NULL, NULL };
	char **arr;

	mprotect(m + 4096, 4096, PROT_NONE);
	argv[0] = self;
	argv[1] = NULL;
	want_errno((char **)8, envp, EFAULT, "argv at address 8");
	want_errno(argv, (char **)(m + 4096), EFAULT, "envp in a PROT_NONE page");
	argv[1] = (char *)16;
	argv[2] = NULL;
	want_errno(argv, envp, EFAULT, "an argv string at address 16");
	argv[1] = NULL;
	envp[0] = m + 4096 - 3;
	memcpy(envp[0], "A=B", 3); /* no NUL before the PROT_NONE page */
	want_errno(argv, envp, EFAULT, "an env string running into PROT_NONE");
	arr = (char **)(m + 4096 - 2 * sizeof(char *));
	arr[0] = self;
	arr[1] = "x"; /* the NULL would be in the PROT_NONE page */
	envp[0] = NULL;
	want_errno(arr, envp, EFAULT, "an argv array running into PROT_NONE");
	munmap(m, 2 * 4096);
}

/* Runs a script with these contents (len bytes) and argument "a1": the
 * child (self, its interpreter) checks it got argc and, if want_arg, that
 * argument; or execve fails with want_errno. */
static void shebang(const char *dir, const char *content, size_t len, int argc,
		    const char *want_arg, int want_errno, const char *what)
{
	char path[256], *env[5], *argv[3];
	int st, got;
	FILE *f;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/script", dir);
	f = fopen(path, "w");
	fwrite(content, 1, len, f);
	fclose(f);
	chmod(path, 0755);
	if (asprintf(&env[0], "SBARGC=%d", argc) < 0 || asprintf(&env[1], "SCRIPT=%s", path) < 0 ||
	    asprintf(&env[2], "SBARG=%s", want_arg ? want_arg : "") < 0)
		return;
	env[3] = want_arg ? NULL : "SBNOARG=1";
	env[4] = NULL;
	argv[0] = path;
	argv[1] = "a1";
	argv[2] = NULL;
	pid = fork();
	if (pid == 0) {
		execve(path, argv, env);
		_exit(100 + errno);
	}
	waitpid(pid, &st, 0);
	got = WIFEXITED(st) ? WEXITSTATUS(st) : 200;
	if (got == (want_errno ? 100 + want_errno : 0))
		printf("ok %d - %s\n", ++n, what);
	else
		printf("not ok %d - %s: status %d\n", ++n, what, got);
	unlink(path);
	free(env[0]);
	free(env[1]);
	free(env[2]);
}

static void test_shebang(const char *dir)
{
	char buf[8192], arg[300];
	size_t l = strlen(self), cut = l < 200 ? 255 - 3 - l : 0;

	snprintf(buf, sizeof(buf), "#!%s shebang\nexit 3\n", self);
	shebang(dir, buf, strlen(buf), 4, "shebang", 0, "#!interp arg: interp, arg, path, args");
	snprintf(buf, sizeof(buf), "#!%s  x \t\nrest", self);
	shebang(dir, buf, strlen(buf), 4, "x", 0, "blanks around the argument go");
	snprintf(buf, sizeof(buf), "#!%s   \n", self);
	shebang(dir, buf, strlen(buf), 3, NULL, 0, "#!interp and blanks: no argument");
	snprintf(buf, sizeof(buf), "#!%s arg  ", self);
	shebang(dir, buf, strlen(buf), 4, "arg  ", 0, "no newline: trailing blanks stay");
	snprintf(buf, sizeof(buf), "#!%s   ", self);
	shebang(dir, buf, strlen(buf), 4, "", 0, "no newline, blanks only: an empty argument");
	snprintf(buf, sizeof(buf), "#!%s shebang", self);
	memset(buf + strlen(buf), 'y', 400);
	buf[3 + l + 7 + 400] = 0;
	memcpy(arg, buf + 3 + l, cut);
	arg[cut] = 0;
	if (cut) /* (the program's path is short enough for this one) */
		shebang(dir, buf, strlen(buf), 4, arg, 0,
			"a first line past 255 bytes is cut there");
	memcpy(buf, "#!", 2);
	memset(buf + 2, '/', 400);
	shebang(dir, buf, 402, 0, NULL, ENOEXEC,
		"an interpreter name cut by the buffer -> ENOEXEC");
	memset(buf + 2, ' ', 400);
	shebang(dir, buf, 402, 0, NULL, ENOEXEC, "#! and 400 blanks -> ENOEXEC");
	shebang(dir, "#!  \t\necho\n", 9, 0, NULL, ENOEXEC,
		"#! and blanks, then a newline -> ENOEXEC");
}

int main(int argc, char **argv, char **envp)
{
	ssize_t len;

	if (getenv("SBARGC")) {
		const char *sc = getenv("SCRIPT"), *sa = getenv("SBARG");

		if (argc != atoi(getenv("SBARGC")) || !sc || strcmp(argv[argc - 2], sc) != 0 ||
		    strcmp(argv[argc - 1], "a1") != 0)
			return 1;
		return getenv("SBNOARG") || (sa && strcmp(argv[1], sa) == 0) ? 0 : 2;
	}
	if (argc >= 3 && strcmp(argv[1], "child") == 0) {
		char want[32];

		snprintf(want, sizeof(want), "%llx", (unsigned long long)hash_strv(argv + 3, envp));
		return strcmp(want, argv[2]) == 0 ? 0 : 1;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		printf("not ok 1 - readlink /proc/self/exe\n");
		return 1;
	}
	self[len] = 0;
	test_many();
	test_page_crossing();
	test_lengths();
	test_limits();
	test_faults();
	{
		char dir[] = "/tmp/skasexec.XXXXXX";

		if (mkdtemp(dir)) {
			test_shebang(dir);
			rmdir(dir);
		} else {
			printf("not ok %d - mkdtemp\n", ++n);
		}
	}
	printf("1..%d\n", n);
	return 0;
}
