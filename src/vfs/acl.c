/* vfs/acl.c: POSIX ACLs (vfs/acl.h), as Linux's fs/posix_acl.c: the xattr
 * form's parse and checks, the permission check, chmod's and create's
 * changes. The filesystem keeps the xattrs; this file reads and writes
 * them through its inode ops. */
#include <stdlib.h>
#include <string.h>

#include "vfs/acl.h"
#include "vfs/vfs.h"
#include "vfs/namei.h"
#include "kernel/task.h"
#include "kernel/cred.h"
#include "kernel/userns.h"
#include "abi/linux/errno.h"
#include "abi/linux/stat.h"

#define ACL_VERSION 2
#define ACL_MAX	    ((65536 - 4) / 8) /* entries in XATTR_SIZE_MAX */

/* e_tag */
#define ACL_USER_OBJ  0x01
#define ACL_USER      0x02
#define ACL_GROUP_OBJ 0x04
#define ACL_GROUP     0x08
#define ACL_MASK      0x10
#define ACL_OTHER     0x20
#define ACL_NO_ID     0xffffffffU

struct acl_entry {
	uint16_t tag, perm;
	uint32_t id;
};

struct acl {
	int n;
	struct acl_entry e[];
};

int acl_kind_of(const char *name)
{
	if (!strcmp(name, ACL_XATTR_ACCESS))
		return ACL_KIND_ACCESS;
	if (!strcmp(name, ACL_XATTR_DEFAULT))
		return ACL_KIND_DEFAULT;
	return 0;
}

/* Does ino keep ACLs? (A symlink does not: Linux's tmpfs gives its
 * symlinks no ACL ops.) */
static bool acl_supported(const struct inode *ino)
{
	return ino->iop->acl_kinds != NULL && !LINUX_S_ISLNK(ino->mode);
}

int acl_route(const struct inode *ino, const char *name)
{
	int kind = acl_kind_of(name);

	if (kind)
		return kind;
	return ino->iop->acl_kinds && !strncmp(name, "system.", 7) ? -EOPNOTSUPP : 0;
}

static const char *xattr_name(int kind)
{
	return kind == ACL_KIND_ACCESS ? ACL_XATTR_ACCESS : ACL_XATTR_DEFAULT;
}

/* The xattr form (little-endian, as x86's): a version word, then 8-byte
 * entries. ns: the user namespace whose ids the caller's form holds (NULL:
 * instance ids, the stored form). */
static int from_xattr(const void *val, size_t n, const struct user_ns *ns, struct acl **out)
{
	const unsigned char *p = val;
	uint32_t version;
	struct acl *a;
	int i, count;

	*out = NULL;
	if (n < 4)
		return -EINVAL;
	memcpy(&version, p, 4);
	if (version != ACL_VERSION)
		return -EOPNOTSUPP;
	if ((n - 4) % 8)
		return -EINVAL;
	count = (int)((n - 4) / 8);
	if (count == 0)
		return 0; /* no ACL */
	if (count > ACL_MAX)
		return -EINVAL;
	a = malloc(sizeof(*a) + (size_t)count * sizeof(a->e[0]));
	if (!a)
		return -ENOMEM;
	a->n = count;
	for (i = 0; i < count; i++) {
		struct acl_entry *e = &a->e[i];

		memcpy(&e->tag, p + 4 + 8 * i, 2);
		memcpy(&e->perm, p + 6 + 8 * i, 2);
		memcpy(&e->id, p + 8 + 8 * i, 4);
		switch (e->tag) {
		case ACL_USER_OBJ:
		case ACL_GROUP_OBJ:
		case ACL_MASK:
		case ACL_OTHER:
			e->id = ACL_NO_ID;
			break;
		case ACL_USER:
		case ACL_GROUP:
			/* posix_acl_from_xattr: an id the namespace cannot
			 * name is EINVAL */
			if (ns)
				e->id = e->tag == ACL_USER ? make_kuid(ns, e->id)
							   : make_kgid(ns, e->id);
			if (e->id == INVALID_ID) {
				free(a);
				return -EINVAL;
			}
			break;
		default:
			free(a);
			return -EINVAL;
		}
	}
	*out = a;
	return 0;
}

/* Its size; the bytes too when n is large enough (else -ERANGE; n 0:
 * the size alone). */
static long to_xattr(const struct acl *a, const struct user_ns *ns, void *buf, size_t n)
{
	size_t need = 4 + 8 * (size_t)a->n;
	unsigned char *p = buf;
	uint32_t version = ACL_VERSION;
	int i;

	if (!n)
		return (long)need;
	if (n < need)
		return -ERANGE;
	memcpy(p, &version, 4);
	for (i = 0; i < a->n; i++) {
		const struct acl_entry *e = &a->e[i];
		uint32_t id = e->id;

		/* posix_acl_to_xattr: from_kuid, -1 for one it cannot name */
		if (ns && e->tag == ACL_USER)
			id = from_kuid(ns, id);
		else if (ns && e->tag == ACL_GROUP)
			id = from_kgid(ns, id);
		memcpy(p + 4 + 8 * i, &e->tag, 2);
		memcpy(p + 6 + 8 * i, &e->perm, 2);
		memcpy(p + 8 + 8 * i, &id, 4);
	}
	return (long)need;
}

/* Linux's posix_acl_valid: one owner, group and other entry, named users
 * after the owner and named groups after the group, a mask (needed with
 * named entries) before other; permissions rwx only. */
static int acl_valid(const struct acl *a)
{
	int state = ACL_USER_OBJ, i;
	bool needs_mask = false;

	for (i = 0; i < a->n; i++) {
		const struct acl_entry *e = &a->e[i];

		if (e->perm & ~7)
			return -EINVAL;
		switch (e->tag) {
		case ACL_USER_OBJ:
			if (state != ACL_USER_OBJ)
				return -EINVAL;
			state = ACL_USER;
			break;
		case ACL_USER:
			if (state != ACL_USER)
				return -EINVAL;
			needs_mask = true;
			break;
		case ACL_GROUP_OBJ:
			if (state != ACL_USER)
				return -EINVAL;
			state = ACL_GROUP;
			break;
		case ACL_GROUP:
			if (state != ACL_GROUP)
				return -EINVAL;
			needs_mask = true;
			break;
		case ACL_MASK:
			if (state != ACL_GROUP)
				return -EINVAL;
			state = ACL_OTHER;
			break;
		case ACL_OTHER:
			if (state != ACL_OTHER && (state != ACL_GROUP || needs_mask))
				return -EINVAL;
			state = 0;
			break;
		default:
			return -EINVAL;
		}
	}
	return state == 0 ? 0 : -EINVAL;
}

/* Linux's posix_acl_equiv_mode: the permission bits a say (the mask for
 * the group's), into *mode's; 1 if a says more than they can. */
static int equiv_mode(const struct acl *a, uint32_t *mode)
{
	uint32_t m = 0;
	int not_equiv = 0, i;

	for (i = 0; i < a->n; i++) {
		const struct acl_entry *e = &a->e[i];

		switch (e->tag) {
		case ACL_USER_OBJ:
			m |= (uint32_t)(e->perm & 7) << 6;
			break;
		case ACL_GROUP_OBJ:
			m |= (uint32_t)(e->perm & 7) << 3;
			break;
		case ACL_OTHER:
			m |= e->perm & 7;
			break;
		case ACL_MASK:
			m = (m & ~070U) | (uint32_t)(e->perm & 7) << 3;
			not_equiv = 1;
			break;
		default:
			not_equiv = 1;
			break;
		}
	}
	*mode = (*mode & ~0777U) | m;
	return not_equiv;
}

/* ino's ACL of kind as stored, or NULL (none, or unreadable). */
static struct acl *get_stored(struct inode *ino, int kind)
{
	unsigned char buf[4 + 8 * 64], *big = NULL;
	struct acl *a = NULL;
	long n;

	if (!ino->iop->acl_kinds || !(ino->iop->acl_kinds(ino) & kind))
		return NULL;
	n = ino->iop->getxattr(ino, xattr_name(kind), buf, sizeof(buf));
	if (n == -ERANGE) {
		n = ino->iop->getxattr(ino, xattr_name(kind), NULL, 0);
		big = n > 0 ? malloc((size_t)n) : NULL;
		n = big ? ino->iop->getxattr(ino, xattr_name(kind), big, (size_t)n) : -ENOMEM;
	}
	if (n > 0)
		from_xattr(big ? big : buf, (size_t)n, NULL, &a);
	free(big);
	return a;
}

/* a as stored (instance ids), in a new buffer of *len bytes; NULL when
 * memory runs out. */
static void *xattr_of(const struct acl *a, size_t *len)
{
	long n = to_xattr(a, NULL, NULL, 0);
	void *buf = malloc((size_t)n);

	if (buf)
		to_xattr(a, NULL, buf, (size_t)n);
	*len = buf ? (size_t)n : 0;
	return buf;
}

/* Stores a (NULL: removes it); 0 or -errno. */
static int put_stored(struct inode *ino, int kind, const struct acl *a)
{
	size_t n;
	void *buf;
	int ret;

	if (!a) {
		ret = ino->iop->removexattr(ino, xattr_name(kind));
		return ret == -ENODATA ? 0 : ret;
	}
	buf = xattr_of(a, &n);
	if (!buf)
		return -ENOMEM;
	ret = ino->iop->setxattr(ino, xattr_name(kind), buf, n, 0);
	free(buf);
	return ret;
}

static int set_mode(struct inode *ino, uint32_t mode)
{
	struct iattr ia = { .valid = ATTR_MODE | ATTR_CTIME, .mode = mode & 07777 };

	return ino->iop->setattr ? ino->iop->setattr(ino, &ia) : -EPERM;
}

int acl_set(struct task *t, struct inode *ino, int kind, const void *val, size_t n)
{
	const struct cred *c = &t->proc->cred;
	struct linux_stat st;
	struct acl *a = NULL;
	int ret;

	/* do_set_acl: the parse (an empty value: no ACL, a removal), then
	 * set_posix_acl's checks, in Linux's order */
	if (val && n) {
		ret = from_xattr(val, n, cred_user_ns(c), &a);
		if (ret < 0)
			return ret;
	}
	ret = -EOPNOTSUPP;
	if (!acl_supported(ino) || !ino->iop->setxattr || !ino->iop->removexattr)
		goto out;
	ret = vfs_getattr(ino, &st);
	if (ret < 0)
		goto out;
	if (kind == ACL_KIND_DEFAULT && !LINUX_S_ISDIR(st.st_mode)) {
		ret = a ? -EACCES : 0;
		goto out;
	}
	/* inode_owner_or_capable */
	ret = -EPERM;
	if (st.st_uid != c->fsuid && !capable_wrt_ids(c, st.st_uid, st.st_gid, CAP_FOWNER))
		goto out;
	ret = a ? acl_valid(a) : 0;
	if (ret < 0)
		goto out;
	ret = -ENODATA;
	if (!a && (ino->iop->acl_kinds(ino) & (ACL_KIND_LOWER | kind)) == ACL_KIND_LOWER)
		goto out; /* an overlay's lower file has none to remove */
	if (kind == ACL_KIND_ACCESS) {
		/* posix_acl_update_mode: one the mode says is not kept; the
		 * set-group-ID bit needs the group or CAP_FSETID */
		uint32_t mode = st.st_mode;

		if (a && equiv_mode(a, &mode) == 0) {
			free(a);
			a = NULL;
		}
		if (!in_group(c, st.st_gid) &&
		    !capable_wrt_ids(c, st.st_uid, st.st_gid, 4 /* CAP_FSETID */))
			mode &= ~(uint32_t)LINUX_S_ISGID;
		ret = put_stored(ino, kind, a);
		if (ret == 0)
			ret = set_mode(ino, mode);
	} else {
		ret = put_stored(ino, kind, a);
	}
out:
	free(a);
	return ret;
}

long acl_get(struct task *t, struct inode *ino, int kind, void *buf, size_t n)
{
	struct acl *a;
	long ret;

	if (!acl_supported(ino))
		return -EOPNOTSUPP;
	a = get_stored(ino, kind);
	if (!a)
		return -ENODATA;
	ret = to_xattr(a, cred_user_ns(&t->proc->cred), buf, n);
	free(a);
	return ret;
}

/* Linux's posix_acl_permission. */
static int check(const struct cred *c, const struct linux_stat *st, const struct acl *a, int want)
{
	const struct acl_entry *e, *end = a->e + a->n;
	bool found = false;

	want &= 7;
	for (e = a->e; e < end; e++) {
		switch (e->tag) {
		case ACL_USER_OBJ:
			if (st->st_uid == c->fsuid)
				goto check_perm;
			break;
		case ACL_USER:
			if (e->id == c->fsuid)
				goto mask;
			break;
		case ACL_GROUP_OBJ:
		case ACL_GROUP:
			if (in_group(c, e->tag == ACL_GROUP ? e->id : st->st_gid)) {
				found = true;
				if ((e->perm & want) == want)
					goto mask;
			}
			break;
		case ACL_MASK:
			break;
		case ACL_OTHER:
			if (found)
				return -EACCES;
			goto check_perm;
		default:
			return -EIO;
		}
	}
	return -EIO;
mask:
	for (const struct acl_entry *m = e + 1; m < end; m++)
		if (m->tag == ACL_MASK)
			return (e->perm & m->perm & want) == want ? 0 : -EACCES;
check_perm:
	return (e->perm & want) == want ? 0 : -EACCES;
}

int acl_permission(struct task *t, struct inode *ino, const struct linux_stat *st, int mask)
{
	struct acl *a = get_stored(ino, ACL_KIND_ACCESS);
	int ret;

	if (!a)
		return -EAGAIN;
	ret = check(&t->proc->cred, st, a, mask);
	free(a);
	return ret;
}

/* Linux's __posix_acl_chmod_masq. */
static void chmod_masq(struct acl *a, uint32_t mode)
{
	struct acl_entry *group = NULL, *mask = NULL;
	int i;

	for (i = 0; i < a->n; i++) {
		struct acl_entry *e = &a->e[i];

		if (e->tag == ACL_USER_OBJ)
			e->perm = (mode >> 6) & 7;
		else if (e->tag == ACL_GROUP_OBJ)
			group = e;
		else if (e->tag == ACL_MASK)
			mask = e;
		else if (e->tag == ACL_OTHER)
			e->perm = mode & 7;
	}
	if (mask)
		mask->perm = (mode >> 3) & 7;
	else if (group)
		group->perm = (mode >> 3) & 7;
}

void acl_chmod(struct inode *ino, uint32_t mode)
{
	struct acl *a = get_stored(ino, ACL_KIND_ACCESS);

	if (!a)
		return;
	chmod_masq(a, mode);
	put_stored(ino, ACL_KIND_ACCESS, a);
	free(a);
}

/* Linux's posix_acl_create_masq: a (the parent's default ACL, a copy)
 * and *mode mask each other; 1 if a then says more than the mode. */
static int create_masq(struct acl *a, uint32_t *mode_p)
{
	struct acl_entry *group = NULL, *mask = NULL;
	uint32_t mode = *mode_p;
	int not_equiv = 0, i;

	for (i = 0; i < a->n; i++) {
		struct acl_entry *e = &a->e[i];

		switch (e->tag) {
		case ACL_USER_OBJ:
			e->perm &= (uint16_t)((mode >> 6) | ~7U);
			mode &= ((uint32_t)e->perm << 6) | ~0700U;
			break;
		case ACL_USER:
		case ACL_GROUP:
			not_equiv = 1;
			break;
		case ACL_GROUP_OBJ:
			group = e;
			break;
		case ACL_OTHER:
			e->perm &= (uint16_t)(mode | ~7U);
			mode &= e->perm | ~7U;
			break;
		case ACL_MASK:
			mask = e;
			not_equiv = 1;
			break;
		}
	}
	if (!mask)
		mask = group;
	if (mask) {
		mask->perm &= (uint16_t)((mode >> 3) | ~7U);
		mode &= ((uint32_t)mask->perm << 3) | ~070U;
	}
	*mode_p = (*mode_p & ~0777U) | (mode & 0777);
	return not_equiv;
}

int acl_create_mode(struct task *t, struct inode *dir, uint32_t *mode, struct acl_new *out)
{
	struct acl *dflt;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	dflt = LINUX_S_ISLNK(*mode) ? NULL : get_stored(dir, ACL_KIND_DEFAULT);
	if (!dflt) {
		*mode &= ~(uint32_t)t->proc->umask;
		return 0;
	}
	if (LINUX_S_ISDIR(*mode) && !(out->dflt = xattr_of(dflt, &out->dflt_len)))
		ret = -ENOMEM;
	if (ret == 0 && create_masq(dflt, mode) &&
	    !(out->access = xattr_of(dflt, &out->access_len)))
		ret = -ENOMEM;
	free(dflt);
	if (ret < 0)
		acl_create_done(NULL, out);
	return ret;
}

int acl_create_done(struct inode *ino, struct acl_new *a)
{
	int ret = 0;

	if (ino && a->access)
		ret = ino->iop->setxattr(ino, ACL_XATTR_ACCESS, a->access, a->access_len, 0);
	if (ino && a->dflt && ret == 0)
		ret = ino->iop->setxattr(ino, ACL_XATTR_DEFAULT, a->dflt, a->dflt_len, 0);
	free(a->access);
	free(a->dflt);
	memset(a, 0, sizeof(*a));
	return ret;
}
