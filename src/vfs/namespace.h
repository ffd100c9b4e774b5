/* vfs/namespace.h: mount namespaces, and mount(2) and umount2(2) inside
 * the instance: new mounts of tmpfs, proc and sysfs, bind mounts,
 * remounts, moves and unmounts in the caller's mount namespace. */
#ifndef VFS_NAMESPACE_H
#define VFS_NAMESPACE_H

#include <stdint.h>

#include "kernel/nsproxy.h"

struct task;
struct mount;
struct fs_info;

/* A mount namespace: the tree of mounts whose ns is it, from root (Linux's
 * struct mnt_namespace). Its mounts are detached with its last
 * reference; what still holds one of them (an open file, a cwd) keeps it
 * as a detached mount. */
struct mnt_ns {
	struct ns_common ns;
	struct mount *root;
};

extern struct mnt_ns init_mnt_ns;

/* t's mount namespace. */
struct mnt_ns *task_mnt_ns(struct task *t);
/* CLONE_NEWNS: a copy of old (a mnt_ns) in *out; fs's root and cwd move
 * to their copies; lock: it goes to a less privileged user namespace, and
 * the copies are locked (MNT_LOCKED and the MNT_LOCK_* flags). 0, -ENOMEM
 * or -ENOSPC. */
int mnt_ns_copy(struct ns_common *old, struct fs_info *fs, bool lock, struct ns_common **out);
/* setns to a mount namespace: fs's root and cwd become its root (with
 * what is mounted on it). */
void mnt_ns_enter(struct mnt_ns *ns, struct fs_info *fs);

/* mount(2)'s flags. */
#define LINUX_MS_RDONLY	     0x1
#define LINUX_MS_NOSUID	     0x2
#define LINUX_MS_NODEV	     0x4
#define LINUX_MS_NOEXEC	     0x8
#define LINUX_MS_SYNCHRONOUS 0x10
#define LINUX_MS_REMOUNT     0x20
#define LINUX_MS_MANDLOCK    0x40
#define LINUX_MS_DIRSYNC     0x80
#define LINUX_MS_NOSYMFOLLOW 0x100
#define LINUX_MS_NOATIME     0x400
#define LINUX_MS_NODIRATIME  0x800
#define LINUX_MS_BIND	     0x1000
#define LINUX_MS_MOVE	     0x2000
#define LINUX_MS_REC	     0x4000
#define LINUX_MS_SILENT	     0x8000
#define LINUX_MS_POSIXACL    (1 << 16)
#define LINUX_MS_UNBINDABLE  (1 << 17)
#define LINUX_MS_PRIVATE     (1 << 18)
#define LINUX_MS_SLAVE	     (1 << 19)
#define LINUX_MS_SHARED	     (1 << 20)
#define LINUX_MS_RELATIME    (1 << 21)
#define LINUX_MS_I_VERSION   (1 << 23)
#define LINUX_MS_STRICTATIME (1 << 24)
#define LINUX_MS_LAZYTIME    (1 << 25)
/* The superblock flags a super_block's sflags keeps. */
#define SB_SHOWN	 (LINUX_MS_SYNCHRONOUS | LINUX_MS_DIRSYNC | LINUX_MS_MANDLOCK | LINUX_MS_LAZYTIME)
#define LINUX_MS_NOUSER	 (1UL << 31)
#define LINUX_MS_MGC_VAL 0xC0ED0000UL
#define LINUX_MS_MGC_MSK 0xffff0000UL

/* umount2(2)'s flags. */
#define LINUX_MNT_FORCE	      1
#define LINUX_MNT_DETACH      2
#define LINUX_MNT_EXPIRE      4
#define LINUX_UMOUNT_NOFOLLOW 8

/* source, type and data may be NULL; data is at most a page, NUL-ended. */
int vfs_mount(struct task *t, const char *source, const char *target, const char *type,
	      uint64_t flags, const char *data);
int vfs_umount(struct task *t, const char *target, int flags);
/* pivot_root(2): 0 or -errno. */
int vfs_pivot_root(struct task *t, const char *new_root, const char *put_old);
/* Linux's may_mount: CAP_SYS_ADMIN over t's mount namespace (in its
 * owning user namespace). */
bool vfs_may_mount(struct task *t);
/* Is t's root other than its mount namespace's (Linux's
 * current_chrooted)? */
bool fs_chrooted(struct task *t);

#endif
