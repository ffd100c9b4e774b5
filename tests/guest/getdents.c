/* getdents64 on tests/guest/data/dir with a small buffer (several calls) and
 * a big one; the names are printed sorted, with their d_type. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define TAP_ERR_RET
#include "tap.h"

#define DIRPATH "tests/guest/data/dir"
#define MAXE	32

struct xdirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

struct ent {
	char name[64];
	int type;
	int ino_nonzero;
};

static const char *tname(int t)
{
	switch (t) {
	case DT_REG:
		return "DT_REG";
	case DT_DIR:
		return "DT_DIR";
	case DT_LNK:
		return "DT_LNK";
	case DT_UNKNOWN:
		return "DT_UNKNOWN";
	default:
		return "DT_other";
	}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->name, ((const struct ent *)b)->name);
}

/* read the whole directory with buffers of `size` bytes; returns the number
 * of entries, sets *calls to the number of nonzero getdents64 calls and
 * *bad if a record looked malformed */
static int read_all(int fd, size_t size, struct ent *e, int *calls, int *bad)
{
	static char buf[65536] __attribute__((aligned(8)));
	int cnt = 0;
	long r, off;

	*calls = 0;
	*bad = 0;
	for (;;) {
		r = syscall(SYS_getdents64, fd, buf, size);
		if (r <= 0)
			break;
		++*calls;
		for (off = 0; off < r;) {
			struct xdirent64 *d = (struct xdirent64 *)(buf + off);

			if (d->d_reclen == 0 || d->d_reclen % 8 || off + d->d_reclen > r ||
			    strlen(d->d_name) + 1 + offsetof(struct xdirent64, d_name) >
				    d->d_reclen) {
				*bad = 1;
				return cnt;
			}
			if (cnt < MAXE) {
				snprintf(e[cnt].name, sizeof e[cnt].name, "%s", d->d_name);
				e[cnt].type = d->d_type;
				e[cnt].ino_nonzero = d->d_ino != 0;
			}
			cnt++;
			off += d->d_reclen;
		}
	}
	if (r < 0)
		*bad = 1;
	return cnt > MAXE ? MAXE : cnt;
}

int main(void)
{
	struct ent small[MAXE], big[MAXE];
	int fd, ns, nb, calls, bad, i, same, types_ok;
	char buf[4096] __attribute__((aligned(8)));
	struct stat st;

	fd = open(DIRPATH, O_RDONLY | O_DIRECTORY);
	check(fd >= 0, "open the directory with O_DIRECTORY");

	ns = read_all(fd, 64, small, &calls, &bad);
	check(!bad, "64-byte buffer: records are well-formed");
	check(calls > 1, "64-byte buffer: needs more than one call");
	check(syscall(SYS_getdents64, fd, buf, sizeof buf) == 0, "getdents64 at the end returns 0");
	qsort(small, ns, sizeof small[0], cmp);
	printf("ok %d - %d entries\n", ++n, ns);
	for (i = 0; i < ns; i++)
		printf("ok %d - entry %s %s\n", ++n, small[i].name, tname(small[i].type));

	check(lseek(fd, 0, SEEK_SET) == 0, "lseek(0) rewinds the directory");
	nb = read_all(fd, 4096, big, &calls, &bad);
	check(!bad, "4096-byte buffer: records are well-formed");
	check(calls == 1, "4096-byte buffer: one call returns everything");
	qsort(big, nb, sizeof big[0], cmp);
	same = nb == ns;
	for (i = 0; same && i < nb; i++)
		if (strcmp(big[i].name, small[i].name) || big[i].type != small[i].type)
			same = 0;
	check(same, "both buffer sizes list the same entries");
	types_ok = 1;
	for (i = 0; i < nb; i++) {
		if (!big[i].ino_nonzero)
			types_ok = 0;
		if (fstatat(fd, big[i].name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			types_ok = 0;
		else if (big[i].type != DT_UNKNOWN &&
			 (unsigned)big[i].type != ((st.st_mode & S_IFMT) >> 12))
			types_ok = 0;
	}
	check(types_ok, "every entry has d_ino != 0 and a d_type matching fstatat");

	/* too small for even one entry */
	lseek(fd, 0, SEEK_SET);
	errno = 0;
	check_err(syscall(SYS_getdents64, fd, buf, 10), EINVAL, "getdents64 with a 10-byte buffer");
	errno = 0;
	check_err(syscall(SYS_getdents64, fd, buf, 0), EINVAL, "getdents64 with a 0-byte buffer");
	close(fd);

	/* a subdirectory */
	fd = open(DIRPATH "/sub", O_RDONLY | O_DIRECTORY);
	nb = read_all(fd, sizeof buf, big, &calls, &bad);
	qsort(big, nb, sizeof big[0], cmp);
	printf("ok %d - sub: %d entries:", ++n, nb);
	for (i = 0; i < nb; i++)
		printf(" %s", big[i].name);
	printf("\n");
	close(fd);

	/* not a directory */
	fd = open("tests/guest/data/hello.txt", O_RDONLY);
	errno = 0;
	check_err(syscall(SYS_getdents64, fd, buf, sizeof buf), ENOTDIR,
		  "getdents64 on a regular file");
	close(fd);
	errno = 0;
	check_err(syscall(SYS_getdents64, fd, buf, sizeof buf), EBADF, "getdents64 on a closed fd");
	return 0;
}
