/* tests/guest/tap.h: the TAP lines the guest tests print, "ok N - what"
 * or "not ok N - what", numbered by n, so that each test does not carry
 * its own copy of check() and of the errno checks. run.sh compares these
 * lines byte for byte between a native run and a run under skas.
 *
 * A test may define, before including this header:
 *
 * TAP_FLUSH: every line is flushed as it is printed, for a test that
 * forks, execs or dies with lines still in stdio's buffer (stdout is a
 * file under run.sh, so fully buffered): a child would print them again,
 * or they would be lost. It is not the default because that keeps every
 * test's output exactly as it was without running each one again under
 * skas on every platform, and spares the others a write(2) per line.
 *
 * TAP_ENAME: ename(), the names of the errnos the tests expect ("E?" for
 * one it does not know; the tables the tests carried, merged, each name as
 * they printed it), and check_err(r, want, what), which wants r == -1 with
 * errno want and prints its name.
 *
 * TAP_ERR_NAMED: check_err(r, want, name, what) instead, where the caller
 * names the errno it wants; a wrong one is printed as a number.
 *
 * TAP_ERR_RET: ename() and check_err(r, want, what) as TAP_ENAME's, but a
 * wrong result is printed as "ret R, errno NAME (want NAME)".
 *
 * These count at a test's first include only. A test whose checks print
 * otherwise keeps its own. The helpers are static inline: a test that does
 * not call one of them is not warned about it (-Wunused-function, -Werror).
 */
#ifndef TESTS_GUEST_TAP_H
#define TESTS_GUEST_TAP_H

#include <errno.h>
#include <stdio.h>

static int n;

static inline void check(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n, what);
#ifdef TAP_FLUSH
	fflush(stdout);
#endif
}

#if defined(TAP_ENAME) || defined(TAP_ERR_RET)
static inline const char *ename(int e)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ 0, "0" },
		{ E2BIG, "E2BIG" },
		{ EACCES, "EACCES" },
		{ EADDRINUSE, "EADDRINUSE" },
		{ EADDRNOTAVAIL, "EADDRNOTAVAIL" },
		{ EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EAGAIN, "EAGAIN" },
		{ EALREADY, "EALREADY" },
		{ EBADF, "EBADF" },
		{ EBUSY, "EBUSY" },
		{ ECONNABORTED, "ECONNABORTED" },
		{ ECONNREFUSED, "ECONNREFUSED" },
		{ ECONNRESET, "ECONNRESET" },
		{ EDEADLK, "EDEADLK" },
		{ EDESTADDRREQ, "EDESTADDRREQ" },
		{ EDOM, "EDOM" },
		{ EEXIST, "EEXIST" },
		{ EFAULT, "EFAULT" },
		{ EFBIG, "EFBIG" },
		{ EIDRM, "EIDRM" },
		{ EINPROGRESS, "EINPROGRESS" },
		{ EINTR, "EINTR" },
		{ EINVAL, "EINVAL" },
		{ EIO, "EIO" },
		{ EISCONN, "EISCONN" },
		{ EISDIR, "EISDIR" },
		{ ELOOP, "ELOOP" },
		{ EMSGSIZE, "EMSGSIZE" },
		{ ENAMETOOLONG, "ENAMETOOLONG" },
		{ ENETUNREACH, "ENETUNREACH" },
		{ ENOBUFS, "ENOBUFS" },
		{ ENODATA, "ENODATA" },
		{ ENODEV, "ENODEV" },
		{ ENOENT, "ENOENT" },
		{ ENOMEM, "ENOMEM" },
		{ ENOMSG, "ENOMSG" },
		{ ENOPROTOOPT, "ENOPROTOOPT" },
		{ ENOSPC, "ENOSPC" },
		{ ENOSYS, "ENOSYS" },
		{ ENOTCONN, "ENOTCONN" },
		{ ENOTDIR, "ENOTDIR" },
		{ ENOTEMPTY, "ENOTEMPTY" },
		{ ENOTSOCK, "ENOTSOCK" },
		{ ENOTTY, "ENOTTY" },
		{ ENXIO, "ENXIO" },
		{ EOPNOTSUPP, "EOPNOTSUPP" },
		{ EOVERFLOW, "EOVERFLOW" },
		{ EPERM, "EPERM" },
		{ ESTALE, "ESTALE" },
		{ EPIPE, "EPIPE" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
		{ EPROTOTYPE, "EPROTOTYPE" },
		{ ERANGE, "ERANGE" },
		{ EROFS, "EROFS" },
		{ ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" },
		{ ESPIPE, "ESPIPE" },
		{ ESRCH, "ESRCH" },
		{ ETIMEDOUT, "ETIMEDOUT" },
		{ ETXTBSY, "ETXTBSY" },
		{ EXDEV, "EXDEV" },
	};
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	return "E?";
}
#endif

#ifdef TAP_ENAME
static inline void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: got %ld (%s), want %s\n", ++n, what, r,
		       r == -1 ? ename(e) : "no error", ename(want));
#ifdef TAP_FLUSH
	fflush(stdout);
#endif
}
#endif

#ifdef TAP_ERR_NAMED
static inline void check_err(long r, int want, const char *name, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, name);
	else
		printf("not ok %d - %s: got %ld (errno %d), want %s\n", ++n, what, r,
		       r == -1 ? e : 0, name);
#ifdef TAP_FLUSH
	fflush(stdout);
#endif
}
#endif

#ifdef TAP_ERR_RET
static inline void check_err(long r, int want, const char *what)
{
	int e = errno;

	if (r == -1 && e == want)
		printf("ok %d - %s -> %s\n", ++n, what, ename(want));
	else
		printf("not ok %d - %s: ret %ld, errno %s (want %s)\n", ++n, what, r,
		       ename(r == -1 ? e : 0), ename(want));
#ifdef TAP_FLUSH
	fflush(stdout);
#endif
}
#endif

#endif
