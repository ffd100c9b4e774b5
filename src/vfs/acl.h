/* vfs/acl.h: POSIX access control lists, as Linux's fs/posix_acl.c, on the
 * filesystems that keep them (an inode_ops with acl_kinds: tmpfs, and the
 * overlay's copied-up files). A filesystem stores them as the xattrs
 * system.posix_acl_access and system.posix_acl_default in Linux's xattr
 * form with instance ids; the system calls give and take them with the
 * caller's user namespace's ids. An access ACL that says no more than the
 * mode is not kept (the mode says it); one that does keeps its mask in the
 * mode's group bits. */
#ifndef VFS_ACL_H
#define VFS_ACL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct task;
struct inode;

#define ACL_KIND_ACCESS	 1
#define ACL_KIND_DEFAULT 2
/* acl_kinds of an overlay file with no upper copy: it has none, and a
 * removal is ENODATA (Linux's ovl_set_or_remove_acl), not a copy-up. */
#define ACL_KIND_LOWER 4

#define ACL_XATTR_ACCESS  "system.posix_acl_access"
#define ACL_XATTR_DEFAULT "system.posix_acl_default"

/* The kind of an xattr name that is an ACL's, else 0. */
int acl_kind_of(const char *name);
/* How the xattr calls treat name on ino: the ACL kind of an ACL's name
 * (every filesystem: acl_set and acl_get answer EOPNOTSUPP where there
 * are none); -EOPNOTSUPP for another system.* name on a filesystem that
 * keeps ACLs (no handler, as Linux's xattr_resolve_name); else 0 (the
 * filesystem's own xattr). */
int acl_route(const struct inode *ino, const char *name);
/* setxattr and removexattr (val NULL, or n 0) of an ACL by t, once the
 * mount is known writable (Linux's do_set_acl and vfs_remove_acl): 0 or
 * -errno, in Linux's order. */
int acl_set(struct task *t, struct inode *ino, int kind, const void *val, size_t n);
/* getxattr of an ACL: its size (n 0: only that), -ENODATA, -ERANGE,
 * -EOPNOTSUPP. */
long acl_get(struct task *t, struct inode *ino, int kind, void *buf, size_t n);
/* Linux's check_acl for a caller that does not own ino (st: its
 * attributes, which the caller has read): 0, -EACCES, or -EAGAIN when ino
 * has no access ACL (the mode bits decide). mask is R_OK, W_OK, X_OK
 * bits. */
struct linux_stat;
int acl_permission(struct task *t, struct inode *ino, const struct linux_stat *st, int mask);
/* After a chmod of ino to mode: its access ACL's owner, mask (or group)
 * and other entries follow (Linux's posix_acl_chmod). */
void acl_chmod(struct inode *ino, uint32_t mode);

/* What a new inode in dir starts with (Linux's posix_acl_create): with a
 * default ACL on dir, *mode (type and permission bits) is masked by it
 * instead of the umask, and the new inode takes an access ACL (when it
 * says more than the mode) and, a directory, the default ACL too. 0 or
 * -ENOMEM. */
struct acl_new {
	void *access, *dflt; /* xattr values, or NULL */
	size_t access_len, dflt_len;
};
int acl_create_mode(struct task *t, struct inode *dir, uint32_t *mode, struct acl_new *out);
/* Has the new inode anything to take? */
static inline bool acl_new_any(const struct acl_new *a)
{
	return a->access || a->dflt;
}
/* Gives ino what acl_create_mode chose (ino NULL: the creation failed)
 * and frees it: 0, or the error storing it (the caller then undoes the
 * creation: a file made without the ACL it should have had would let in
 * whom that ACL keeps out). */
int acl_create_done(struct inode *ino, struct acl_new *a);

#endif
