/* tests/fuzz/fuzz_namei.c: libFuzzer over the path walk (vfs/namei.c) on
 * the kernel's real mount table: an overlay of a tmpfs on an empty host
 * directory as /, with devfs, /dev/shm and devpts, and a tree of
 * directories, files and symlinks made through the kernel's own calls
 * (loops, "..", absolute and relative links, a 255-byte name). Each input
 * is a path (with .., //, long names, NULs cut it) and an operation byte:
 * lookups with and without following, opens with flags, openat2 with
 * RESOLVE_* flags, and a mkdir/symlink that is undone at once. A directory
 * found is entered and getcwd's answer must lead back to it: a mismatch
 * aborts, as does any sanitizer report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/task.h"
#include "kernel/cred.h"
#include "vfs/file.h"
#include "vfs/mount.h"
#include "vfs/namei.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/stat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct task task;
static struct process proc;
static struct path root;

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "fuzz_namei: %s (path '%s')\n", what, path);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char dir[] = "/tmp/skas-fuzz-root.XXXXXX";
	struct root_config rc = { .tmpfs_size = 64 << 20 };
	const char *why = "";
	char name[256];
	int ret;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	rc.host_root = dir;
	procfs_mount_hook = NULL; /* procfs wants a running task */
	ret = vfs_mount_root(&rc, &root, &why);
	if (ret < 0) {
		fprintf(stderr, "fuzz_namei: cannot mount the root: %s\n", why);
		abort();
	}
	rmdir(dir); /* the overlay holds it open */
	task.proc = &proc;
	cred_init(&proc.cred, 0, 0);
	proc.umask = 022;
	if (fs_info_create(&root, &root, &task.fs) < 0 || files_create(&task.files) < 0)
		abort();
	memset(name, 'n', 255);
	name[255] = 0;
	ret = vfs_mknodat(&task, LINUX_AT_FDCWD, "/a", LINUX_S_IFDIR | 0755, 0);
	ret = ret ?: vfs_mknodat(&task, LINUX_AT_FDCWD, "/a/b", LINUX_S_IFDIR | 0755, 0);
	ret = ret ?: vfs_mknodat(&task, LINUX_AT_FDCWD, "/a/b/c", LINUX_S_IFDIR | 0700, 0);
	ret = ret ?: vfs_mknodat(&task, LINUX_AT_FDCWD, "/a/f", LINUX_S_IFREG | 0644, 0);
	ret = ret ?: vfs_mknodat(&task, LINUX_AT_FDCWD, "/a/x", LINUX_S_IFDIR | 0000, 0);
	ret = ret ?: vfs_symlinkat(&task, "..", LINUX_AT_FDCWD, "/a/up");
	ret = ret ?: vfs_symlinkat(&task, "loop", LINUX_AT_FDCWD, "/a/loop");
	ret = ret ?: vfs_symlinkat(&task, "/a/b", LINUX_AT_FDCWD, "/a/abs");
	ret = ret ?: vfs_symlinkat(&task, "b/c/../../../../..", LINUX_AT_FDCWD, "/a/esc");
	ret = ret ?: vfs_symlinkat(&task, "f/", LINUX_AT_FDCWD, "/a/fslash");
	ret = ret ?: vfs_symlinkat(&task, "/dev/fd/0", LINUX_AT_FDCWD, "/a/proc");
	ret = ret ?: vfs_symlinkat(&task, "nowhere", LINUX_AT_FDCWD, "/a/dangling");
	ret = ret ?: vfs_mknodat(&task, LINUX_AT_FDCWD, "/a/n", LINUX_S_IFDIR | 0755, 0);
	if (ret == 0) {
		char p[300];

		snprintf(p, sizeof(p), "/a/n/%s", name);
		ret = vfs_mknodat(&task, LINUX_AT_FDCWD, p, LINUX_S_IFDIR | 0755, 0);
	}
	if (ret < 0) {
		fprintf(stderr, "fuzz_namei: cannot build the tree: %d\n", ret);
		abort();
	}
	return 0;
}

static bool same_file(struct inode *x, struct inode *y)
{
	struct linux_stat sx, sy;

	if (x == y)
		return true;
	return vfs_getattr(x, &sx) == 0 && vfs_getattr(y, &sy) == 0 && sx.st_dev == sy.st_dev &&
	       sx.st_ino == sy.st_ino;
}

/* Enter a directory that was found; getcwd must name it. */
static void check_cwd(const char *path)
{
	struct path a, b;
	char cwd[4200];
	long n;

	if (vfs_chdir(&task, LINUX_AT_FDCWD, path) < 0)
		return;
	n = vfs_getcwd(&task, cwd, sizeof(cwd));
	if (n > 0 && cwd[0] == '/' && path_lookupat(&task, LINUX_AT_FDCWD, ".", 0, &a) == 0) {
		if (path_lookupat(&task, LINUX_AT_FDCWD, cwd, LOOKUP_FOLLOW, &b) < 0)
			fail("getcwd names no directory", path);
		if (!same_file(a.dentry->inode, b.dentry->inode)) {
			fprintf(stderr, "fuzz_namei: getcwd: '%s'\n", cwd);
			fail("getcwd names another directory", path);
		}
		path_put(&a);
		path_put(&b);
	}
	if (vfs_chdir(&task, LINUX_AT_FDCWD, "/") < 0)
		fail("cannot go back to /", path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned open_flags[] = {
		LINUX_O_RDONLY,
		LINUX_O_RDONLY | LINUX_O_DIRECTORY,
		LINUX_O_RDONLY | LINUX_O_NOFOLLOW,
		LINUX_O_PATH,
		LINUX_O_PATH | LINUX_O_NOFOLLOW,
		LINUX_O_WRONLY,
	};
	char *path;
	struct path p;
	struct file *f;
	unsigned op;
	int ret;

	if (size < 1 || size > 8192)
		return 0;
	op = data[0];
	path = malloc(size);
	if (!path)
		return 0;
	memcpy(path, data + 1, size - 1);
	path[size - 1] = 0;
	switch (op % 8) {
	case 0:
	case 1:
		ret = path_lookupat(&task, LINUX_AT_FDCWD, path, (op & 0x10) ? LOOKUP_FOLLOW : 0,
				    &p);
		if (ret == 0) {
			bool dir = LINUX_S_ISDIR(p.dentry->inode->mode);

			path_put(&p);
			if (dir)
				check_cwd(path);
		}
		break;
	case 2:
	case 3:
		ret = vfs_openat(&task, LINUX_AT_FDCWD, path, open_flags[(op >> 3) % 6], 0, &f);
		if (ret == 0)
			file_put(f);
		break;
	case 4:
		/* RESOLVE_NO_XDEV 1, NO_MAGICLINKS 2, NO_SYMLINKS 4, BENEATH 8, IN_ROOT 16 */
		ret = vfs_openat2(&task, LINUX_AT_FDCWD, path, LINUX_O_PATH, 0, (op >> 3) & 31, &f);
		if (ret == 0)
			file_put(f);
		break;
	case 5:
		if (vfs_mknodat(&task, LINUX_AT_FDCWD, path, LINUX_S_IFDIR | 0755, 0) == 0 &&
		    vfs_unlinkat(&task, LINUX_AT_FDCWD, path, true) < 0)
			fail("a new directory cannot be removed", path);
		break;
	case 6:
		/* A symlink with the input as its target, followed once. */
		if (vfs_symlinkat(&task, path, LINUX_AT_FDCWD, "/a/fz") == 0) {
			if (path_lookupat(&task, LINUX_AT_FDCWD, "/a/fz/.", LOOKUP_FOLLOW, &p) == 0)
				path_put(&p);
			if (vfs_unlinkat(&task, LINUX_AT_FDCWD, "/a/fz", false) < 0)
				fail("a new symlink cannot be removed", path);
		}
		break;
	case 7: {
		struct linux_stat st;

		vfs_fstatat(&task, LINUX_AT_FDCWD, path, (op & 0x10) ? 0 : 0x100, &st);
		break;
	}
	}
	free(path);
	return 0;
}
