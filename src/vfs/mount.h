/* vfs/mount.h: the instance's mount table at boot. */
#ifndef VFS_MOUNT_H
#define VFS_MOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs/vfs.h"

struct volume {
	const char *host_dir;
	const char *guest_dir;
	bool rdonly;
};

struct root_config {
	const char *host_root; /* the host directory under / */
	bool rw;	       /* writes go through to host_root (no overlay) */
	uint64_t tmpfs_size;   /* the upper tmpfs's limit, bytes */
	const struct volume *volumes;
	int nvolumes;
};

/* Mounts /, /dev, /dev/shm, /proc (where procfs exists) and the volumes,
 * and makes shm_mnt.
 * *root gets a reference to the root. Returns 0 or -errno with a message
 * in *why. */
int vfs_mount_root(const struct root_config *cfg, struct path *root, const char **why);

/* The kernel's own tmpfs, mounted nowhere (Linux's shm_mnt), of the root
 * tmpfs's size: memfd_create's files. NULL before vfs_mount_root. */
extern struct mount *shm_mnt;

/* The root tmpfs's size: a tmpfs mounted without size= gets it. */
extern uint64_t tmpfs_default_size;

/* procfs registers itself here (fs/procfs). */
extern int (*procfs_mount_hook)(struct super_block **sb, struct inode **root);

/* One line of /proc/mounts per mount, for procfs: fn(source, mountpoint
 * path, fstype, rdonly). */
void mounts_for_each(const struct path *root,
		     void (*fn)(void *ctx, const char *src, const char *dir, const char *type,
				bool rdonly),
		     void *ctx);

#endif
