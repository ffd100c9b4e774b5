/* mm/mempolicy.c: set_mempolicy(2), get_mempolicy(2), mbind(2),
 * set_mempolicy_home_node(2), migrate_pages(2) and move_pages(2), as
 * Linux 6.18's mm/mempolicy.c and mm/migrate.c on one node (mempolicy.h).
 * Each call checks what Linux checks, in Linux's order; where Linux would
 * move pages between nodes there is nothing to move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/mempolicy.h"
#include "mm/mm.h"
#include "mm/internal.h"
#include "mm/commit.h"
#include "mm/usercopy.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cred.h"
#include "syscalls/dispatch.h"
#include "host/host.h"
#include "vfs/file.h"
#include "abi/linux/errno.h"
#include "abi/linux/mman.h"

#define NUMA_NO_NODE -1

/* The policy internal to a call that has not become a VMA's or a
 * thread's: its mode, its flags and the caller's mask. */
struct mpol_args {
	int mode;
	unsigned short flags;
	uint64_t nodes[NODEMASK_WORDS];
};

void mpol_get(struct mempolicy *p)
{
	if (p)
		p->refcount++;
}

void mpol_put(struct mempolicy *p)
{
	if (p && --p->refcount == 0)
		mem_free_kernel(p, sizeof(*p));
}

/* The mode flags keep the caller's mask (Linux's mpol_store_user_nodemask). */
static bool keeps_user(const struct mempolicy *p)
{
	return p->flags & LINUX_MPOL_MODE_FLAGS;
}

bool mpol_equal(const struct mempolicy *a, const struct mempolicy *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->mode != b->mode || a->flags != b->flags || a->home_node != b->home_node)
		return false;
	if (keeps_user(a) && memcmp(a->user, b->user, sizeof(a->user)) != 0)
		return false;
	return a->nodes == b->nodes;
}

static bool mask_empty(const uint64_t *m)
{
	int i;

	for (i = 0; i < NODEMASK_WORDS; i++)
		if (m[i])
			return false;
	return true;
}

/* Linux's sanitize_mpol_flags: the mode argument's mode and flags. */
static int mpol_parse(long arg, struct mpol_args *pa)
{
	int mode = (int)arg;

	pa->flags = (unsigned short)(mode & LINUX_MPOL_MODE_FLAGS);
	mode &= ~LINUX_MPOL_MODE_FLAGS;
	if ((unsigned)mode >= LINUX_MPOL_MAX)
		return -EINVAL;
	if ((pa->flags & LINUX_MPOL_F_STATIC_NODES) && (pa->flags & LINUX_MPOL_F_RELATIVE_NODES))
		return -EINVAL;
	if ((pa->flags & LINUX_MPOL_F_NUMA_BALANCING) && mode != LINUX_MPOL_BIND &&
	    mode != LINUX_MPOL_PREFERRED_MANY)
		return -EINVAL;
	pa->mode = mode;
	return 0;
}

/* Linux's get_bitmap: maxnode bits (at least one) from the guest, the
 * rest of the last word cleared. */
static int get_bitmap(struct task *t, uint64_t *mask, uaddr_t src, uint64_t maxnode)
{
	uint64_t words = (maxnode + 63) / 64;

	if (copy_from_user(t->mm, mask, src, words * 8) < 0)
		return -EFAULT;
	if (maxnode % 64)
		mask[words - 1] &= (1ULL << (maxnode % 64)) - 1;
	return 0;
}

/* Linux's get_nodes: maxnode counts one more than the bits (man 2
 * set_mempolicy); bits past MAX_NUMNODES must be clear, read a word at a
 * time from the end (the last such word whole, as Linux reads it). */
static int get_nodes(struct task *t, uint64_t *nodes, uaddr_t nmask, uint64_t maxnode)
{
	maxnode--;
	memset(nodes, 0, NODEMASK_WORDS * 8);
	if (maxnode == 0 || !nmask)
		return 0;
	if (maxnode > PAGE_SIZE * 8)
		return -EINVAL;
	while (maxnode > MAX_NUMNODES) {
		uint64_t bits = maxnode < 64 ? maxnode : 64, w;

		if (get_bitmap(t, &w, nmask + (maxnode - 1) / 64 * 8, bits) < 0)
			return -EFAULT;
		if (maxnode - bits >= MAX_NUMNODES)
			maxnode -= bits;
		else
			maxnode = MAX_NUMNODES; /* MAX_NUMNODES % 64 == 0: w whole */
		if (w)
			return -EINVAL;
	}
	return get_bitmap(t, nodes, nmask, maxnode);
}

/* Linux's mpol_new and mpol_set_nodemask with node 0 the only node with
 * memory: NULL for the default, a new policy (one reference), or
 * -EINVAL for a mask the mode cannot take. */
static int mpol_make(const struct mpol_args *pa, struct mempolicy **out)
{
	bool empty = mask_empty(pa->nodes);
	int mode = pa->mode;
	struct mempolicy *p;
	uint64_t nodes = 0;

	*out = NULL;
	if (mode == LINUX_MPOL_DEFAULT)
		return empty ? 0 : -EINVAL;
	if (mode == LINUX_MPOL_PREFERRED) {
		if (empty) {
			if (pa->flags & (LINUX_MPOL_F_STATIC_NODES | LINUX_MPOL_F_RELATIVE_NODES))
				return -EINVAL;
			mode = LINUX_MPOL_LOCAL;
		}
	} else if (mode == LINUX_MPOL_LOCAL) {
		if (!empty ||
		    (pa->flags & (LINUX_MPOL_F_STATIC_NODES | LINUX_MPOL_F_RELATIVE_NODES)))
			return -EINVAL;
	} else if (empty) {
		return -EINVAL;
	}
	if (mode != LINUX_MPOL_LOCAL) {
		/* Relative nodes fold onto the allowed ones (node 0 alone):
		 * any of them is node 0. Others are those allowed. */
		nodes = (pa->flags & LINUX_MPOL_F_RELATIVE_NODES) ? 1 : (pa->nodes[0] & 1);
		if (!nodes)
			return -EINVAL;
	}
	p = mem_zalloc_kernel(sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->refcount = 1;
	p->mode = (unsigned short)mode;
	p->flags = pa->flags;
	p->home_node = NUMA_NO_NODE;
	p->nodes = nodes;
	if (keeps_user(p))
		memcpy(p->user, pa->nodes, sizeof(p->user));
	*out = p;
	return 0;
}

static struct mempolicy *mpol_dup(const struct mempolicy *o)
{
	struct mempolicy *p = mem_zalloc_kernel(sizeof(*p));

	if (p) {
		*p = *o;
		p->refcount = 1;
	}
	return p;
}

static const char *const mode_names[LINUX_MPOL_MAX] = {
	[LINUX_MPOL_DEFAULT] = "default",
	[LINUX_MPOL_PREFERRED] = "prefer",
	[LINUX_MPOL_BIND] = "bind",
	[LINUX_MPOL_INTERLEAVE] = "interleave",
	[LINUX_MPOL_WEIGHTED_INTERLEAVE] = "weighted interleave",
	[LINUX_MPOL_LOCAL] = "local",
	[LINUX_MPOL_PREFERRED_MANY] = "prefer (many)",
};

void mpol_to_str(char *buf, size_t len, const struct mempolicy *p)
{
	unsigned short mode = p ? p->mode : LINUX_MPOL_DEFAULT, flags = p ? p->flags : 0;
	size_t at;

	at = (size_t)snprintf(buf, len, "%s", mode_names[mode]);
	if ((flags & LINUX_MPOL_MODE_FLAGS) && at < len) {
		const char *sep = "=";

		if (flags & LINUX_MPOL_F_STATIC_NODES) {
			at += (size_t)snprintf(buf + at, len - at, "=static");
			sep = "|";
		} else if (flags & LINUX_MPOL_F_RELATIVE_NODES) {
			at += (size_t)snprintf(buf + at, len - at, "=relative");
			sep = "|";
		}
		if ((flags & LINUX_MPOL_F_NUMA_BALANCING) && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%sbalancing", sep);
	}
	if (p && p->nodes && at < len)
		snprintf(buf + at, len - at, ":0");
}

struct sp_node {
	struct sp_node *next;
	uint64_t start, end; /* page indexes */
	struct mempolicy *policy;
};

static struct sp_node *sp_alloc(void)
{
	return mem_zalloc_kernel(sizeof(struct sp_node));
}

static void sp_free(struct sp_node *n)
{
	if (n) {
		mpol_put(n->policy);
		mem_free_kernel(n, sizeof(*n));
	}
}

void mpol_shared_free(struct shared_policy *sp)
{
	struct sp_node *n, *next;

	for (n = sp->first; n; n = next) {
		next = n->next;
		sp_free(n);
	}
	sp->first = NULL;
}

static struct mempolicy *sp_lookup(const struct shared_policy *sp, uint64_t idx)
{
	const struct sp_node *n;

	for (n = sp->first; n && n->start <= idx; n = n->next)
		if (idx < n->end)
			return n->policy;
	return NULL;
}

/* [start, end) takes p (NULL: none), as Linux's shared_policy_replace:
 * ranges inside go, ranges across an edge are cut, one across both is
 * split in two. Both nodes it may need are had first, so that a failure
 * (-ENOMEM) changes nothing. */
static int sp_replace(struct shared_policy *sp, uint64_t start, uint64_t end, struct mempolicy *p)
{
	struct sp_node **pp = &sp->first, *n, *nw = NULL, *tail = NULL;

	if ((p && !(nw = sp_alloc())) || !(tail = sp_alloc())) {
		sp_free(nw);
		return -ENOMEM;
	}
	while (*pp && (*pp)->end <= start)
		pp = &(*pp)->next;
	n = *pp;
	if (n && n->start < start) {
		if (n->end > end) { /* across the whole range: split */
			tail->start = end;
			tail->end = n->end;
			tail->policy = n->policy;
			mpol_get(tail->policy);
			tail->next = n->next;
			n->end = start;
			n->next = tail;
			tail = NULL;
			pp = &n->next;
			goto insert;
		}
		n->end = start;
		pp = &n->next;
	}
	while ((n = *pp) != NULL && n->start < end) {
		if (n->end > end) {
			n->start = end;
			break;
		}
		*pp = n->next;
		sp_free(n);
	}
insert:
	if (nw) {
		nw->start = start;
		nw->end = end;
		nw->policy = p;
		mpol_get(p);
		nw->next = *pp;
		*pp = nw;
	}
	sp_free(tail);
	return 0;
}

static bool region_end(char c)
{
	return c == ',' || c == ' ' || (c >= '\t' && c <= '\r') || c == 0;
}

/* bitmap_getnum: a decimal, or "N" for the last node. */
static const char *list_num(const char *s, unsigned long *n)
{
	unsigned long v = 0;
	const char *d = s;

	if (*s == 'N') {
		*n = MAX_NUMNODES - 1;
		return s + 1;
	}
	for (; *d >= '0' && *d <= '9'; d++) {
		v = v * 10 + (unsigned long)(*d - '0');
		if (v > 0xffffffffUL)
			return NULL;
	}
	*n = v;
	return d == s ? NULL : d;
}

/* Linux's bitmap_parselist of the node list s into nodes: regions "N",
 * "N-M", "all", each with an optional ":used/group", between commas and
 * white space; -EINVAL for anything else or past MAX_NUMNODES. */
static int parse_nodelist(const char *s, uint64_t *nodes)
{
	unsigned long a, b, used, group, i;

	memset(nodes, 0, NODEMASK_WORDS * 8);
	for (;;) {
		while (*s && *s != '\n' && region_end(*s))
			s++;
		if (!*s || *s == '\n')
			return 0;
		if (strncasecmp(s, "all", 3) == 0) {
			a = 0;
			b = MAX_NUMNODES - 1;
			s += 3;
		} else {
			if (!(s = list_num(s, &a)))
				return -EINVAL;
			b = a;
			if (*s == '-') {
				if (!(s = list_num(s + 1, &b)))
					return -EINVAL;
			} else if (!region_end(*s) && *s != '\n') {
				return -EINVAL; /* a pattern only after a range */
			}
		}
		used = group = b + 1;
		if (*s == ':') {
			if (!(s = list_num(s + 1, &used)) || *s != '/' ||
			    !(s = list_num(s + 1, &group)))
				return -EINVAL;
		} else if (!region_end(*s) && *s != '\n') {
			return -EINVAL;
		}
		if (a > b || group == 0 || used > group)
			return -EINVAL;
		if (b >= MAX_NUMNODES)
			return -EINVAL; /* Linux's ERANGE, which mpol= reports as EINVAL */
		for (; a <= b; a += group)
			for (i = a; i <= b && i < a + used; i++)
				nodes[i / 64] |= 1ULL << (i % 64);
	}
}

/* mpol_parse_str's parse of buf (changed in place) into pa: 0 or
 * -EINVAL. */
static int mpol_parse_buf(char *buf, struct mpol_args *pa)
{
	char *list, *fl, *rest;
	int mode;

	list = strchr(buf, ':');
	fl = strchr(buf, '=');
	if (fl)
		*fl++ = 0;
	if (list) {
		*list++ = 0;
		/* only node 0 has memory (nodes_subset of N_MEMORY) */
		if (parse_nodelist(list, pa->nodes) < 0 || (pa->nodes[0] & ~1ULL))
			return -EINVAL;
		for (mode = 1; mode < NODEMASK_WORDS; mode++)
			if (pa->nodes[mode])
				return -EINVAL;
	}
	for (mode = 0; mode < LINUX_MPOL_MAX; mode++)
		if (strcmp(buf, mode_names[mode]) == 0)
			break;
	switch (mode) {
	case LINUX_MPOL_PREFERRED: /* one node, a number alone */
		if (list) {
			for (rest = list; *rest >= '0' && *rest <= '9'; rest++)
				;
			if (*rest || mask_empty(pa->nodes))
				return -EINVAL;
		}
		break;
	case LINUX_MPOL_INTERLEAVE:
	case LINUX_MPOL_WEIGHTED_INTERLEAVE:
		if (!list)
			pa->nodes[0] = 1; /* the nodes with memory */
		break;
	case LINUX_MPOL_LOCAL:
		if (list)
			return -EINVAL;
		break;
	case LINUX_MPOL_DEFAULT:
		return list ? -EINVAL : 0;
	case LINUX_MPOL_PREFERRED_MANY:
	case LINUX_MPOL_BIND:
		if (!list)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (fl && strcmp(fl, "static") == 0)
		pa->flags = LINUX_MPOL_F_STATIC_NODES;
	else if (fl && strcmp(fl, "relative") == 0)
		pa->flags = LINUX_MPOL_F_RELATIVE_NODES;
	else if (fl)
		return -EINVAL;
	pa->mode = mode;
	return 0;
}

int mpol_parse_str(const char *str, struct mempolicy **out)
{
	char *buf = strdup(str);
	struct mpol_args pa = { 0 };
	struct mempolicy *p;
	int ret;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	ret = mpol_parse_buf(buf, &pa);
	free(buf);
	if (ret < 0)
		return ret;
	if (pa.mode == LINUX_MPOL_DEFAULT)
		return 0;
	/* mpol_new's checks; the mount keeps the nodes as given (all node 0
	 * here), PREFERRED without any becoming LOCAL */
	if (mpol_make(&pa, &p) < 0 || !p)
		return -EINVAL;
	p->nodes = pa.nodes[0] & 1;
	memcpy(p->user, pa.nodes, sizeof(p->user));
	*out = p;
	return 0;
}

void mpol_shared_init(struct shared_policy *sp, const struct mempolicy *mp)
{
	struct mpol_args pa = { 0 };
	struct mempolicy *p;

	if (!mp)
		return;
	pa.mode = mp->mode;
	pa.flags = mp->flags;
	memcpy(pa.nodes, mp->user, sizeof(pa.nodes));
	/* no intersection with the nodes there: no policy */
	if (mpol_make(&pa, &p) == 0 && p) {
		sp_replace(sp, 0, (uint64_t)INT64_MAX >> PAGE_SHIFT, p);
		mpol_put(p);
	}
}

/* The page index of addr in v's object. */
static uint64_t vma_index(const struct vma *v, uaddr_t addr)
{
	return (addr - v->start) / PAGE_SIZE + v->off / PAGE_SIZE;
}

struct mempolicy *mpol_vma_at(struct vma *v, uint64_t addr)
{
	struct shared_policy *sp = vma_shared_policy(v);

	return sp ? sp_lookup(sp, vma_index(v, addr)) : v->policy;
}

/* Is v a guest mapping whose pages the page walks see (not the stub's,
 * not the vDSO's special pages: Linux's vm_normal_folio skips those)? */
static bool vma_walks(const struct vma *v)
{
	return !(v->flags & (VMA_STUB | VMA_VDSO | VMA_VVAR | VMA_VVAR_VCLOCK));
}

/* mbind's page walk (Linux's queue_pages_range without moving): -EFAULT
 * for a hole in [start, end) unless discontig (or when all of it is one),
 * -EIO when strict finds a page off the caller's nodes (invert: a page on
 * node 0 is off them unless the mask has node 0). */
static int mbind_walk(struct mm *mm, uaddr_t start, uaddr_t end, bool discontig, bool strict,
		      const uint64_t *nodes)
{
	struct vma *v = mm_find_vma(mm, start), *n;
	bool first = true;
	int pm = -1, ret = 0;

	for (; v && &v->link != &mm->vmas && v->start < end && ret == 0; v = n) {
		n = list_entry(v->link.next, struct vma, link);
		if (v->flags & VMA_STUB)
			continue;
		if (first && !discontig && start < v->start)
			ret = -EFAULT;
		first = false;
		while (&n->link != &mm->vmas && (n->flags & VMA_STUB))
			n = list_entry(n->link.next, struct vma, link);
		if (!discontig && v->end < end && (&n->link == &mm->vmas || v->end < n->start))
			ret = ret ?: -EFAULT;
		if (ret == 0 && strict && !(nodes[0] & 1) && vma_walks(v)) {
			long r = pm >= 0 ? 0 : (pm = mm_pagemap_open(mm));

			if (r >= 0)
				r = host_pagemap_present(pm, v->start > start ? v->start : start,
							 v->end < end ? v->end : end, 1);
			if (r != 0)
				ret = r < 0 ? (int)r : -EIO;
		}
	}
	if (pm >= 0)
		host_close(pm);
	return ret ?: first ? -EFAULT : 0;
}

/* Gives [start, end), inside v, the policy p (Linux's mbind_range): split
 * at the edges, then merged with its neighbours where they are equal. */
static int vma_set_policy(struct mm *mm, struct vma *v, uaddr_t start, uaddr_t end,
			  struct mempolicy *p)
{
	struct mempolicy *old;
	struct shared_policy *sp;
	int ret;

	if (mpol_equal(v->policy, p))
		return 0;
	ret = vma_isolate(mm, &v, start, end);
	if (ret < 0)
		return ret;
	/* Shared memory's object (Linux's vm_ops->set_policy) takes the
	 * policy for the pages of the VMA Linux's vma_modify_policy gives:
	 * this one merged with the neighbours that now continue it (whose
	 * policy was p already), which skas may keep apart (a tmpfs file's
	 * VMAs never merge here). */
	old = v->policy;
	v->policy = p;
	sp = vma_shared_policy(v);
	if (sp) {
		struct vma *lo = v, *hi = v, *x;

		for (x = list_entry(lo->link.prev, struct vma, link);
		     &x->link != &mm->vmas && vma_continues(x, lo);
		     x = list_entry(lo->link.prev, struct vma, link))
			lo = x;
		for (x = list_entry(hi->link.next, struct vma, link);
		     &x->link != &mm->vmas && vma_continues(hi, x);
		     x = list_entry(hi->link.next, struct vma, link))
			hi = x;
		ret = sp_replace(sp, vma_index(lo, lo->start), vma_index(hi, hi->end), p);
		if (ret < 0) {
			v->policy = old;
			return ret;
		}
	}
	mpol_get(p);
	mpol_put(old);
	vma_try_merge(mm, v);
	return 0;
}

static int mm_set_policy(struct mm *mm, uaddr_t start, uaddr_t end, struct mempolicy *p)
{
	uaddr_t at = start, e;
	struct vma *v;
	int ret;

	while (at < end && (v = mm_find_vma(mm, at)) != NULL && v->start < end) {
		if (v->start > at)
			at = v->start;
		e = v->end < end ? v->end : end;
		if (!(v->flags & VMA_STUB)) {
			ret = vma_set_policy(mm, v, at, e, p);
			if (ret < 0)
				return ret;
		}
		at = e;
	}
	return 0;
}

/* mbind's and set_mempolicy_home_node's range: len rounded up to pages;
 * -EINVAL when it wraps, 0 when empty (the call does nothing), else 1. */
static int page_range(uaddr_t start, uint64_t len, uaddr_t *end)
{
	*end = start + ((len + PAGE_SIZE - 1) & PAGE_MASK);
	if (*end < start)
		return -EINVAL;
	return *end > start;
}

long sys_set_mempolicy(struct task *t, const struct sysargs *a)
{
	struct mpol_args pa;
	struct mempolicy *p;
	int ret = mpol_parse(sysarg_int(a, 0), &pa);

	if (ret == 0)
		ret = get_nodes(t, pa.nodes, sysarg_uaddr(a, 1), a->a[2]);
	if (ret == 0)
		ret = mpol_make(&pa, &p);
	if (ret < 0)
		return ret;
	mpol_put(t->mempolicy);
	t->mempolicy = p;
	return 0;
}

long sys_mbind(struct task *t, const struct sysargs *a)
{
	uaddr_t start = sysarg_uaddr(a, 0), end;
	uint64_t len = a->a[1];
	unsigned flags = sysarg_uint(a, 5);
	struct mempolicy *p;
	struct mpol_args pa;
	int ret = mpol_parse((long)a->a[2], &pa);

	if (ret == 0)
		ret = get_nodes(t, pa.nodes, sysarg_uaddr(a, 3), a->a[4]);
	if (ret < 0)
		return ret;
	if (flags & ~LINUX_MPOL_MF_VALID)
		return -EINVAL;
	if ((flags & LINUX_MPOL_MF_MOVE_ALL) && !capable(&t->proc->cred, CAP_SYS_NICE))
		return -EPERM;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (pa.mode == LINUX_MPOL_DEFAULT)
		flags &= ~LINUX_MPOL_MF_STRICT;
	ret = page_range(start, len, &end);
	if (ret <= 0)
		return ret;
	ret = mpol_make(&pa, &p);
	if (ret < 0)
		return ret;
	/* Strict without a move fails on a page off the nodes; with one, the
	 * page would move to the node it is on. */
	ret = mbind_walk(t->mm, start, end, !p,
			 (flags & (LINUX_MPOL_MF_STRICT | LINUX_MPOL_MF_MOVE |
				   LINUX_MPOL_MF_MOVE_ALL)) == LINUX_MPOL_MF_STRICT,
			 pa.nodes);
	if (ret == 0)
		ret = mm_set_policy(t->mm, start, end, p);
	mpol_put(p);
	return ret;
}

long sys_set_mempolicy_home_node(struct task *t, const struct sysargs *a)
{
	uaddr_t start = sysarg_uaddr(a, 0), end, at;
	uint64_t len = a->a[1], home = a->a[2];
	struct mm *mm = t->mm;
	int ret = -ENOENT;
	struct vma *v;

	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (a->a[3] != 0)
		return -EINVAL;
	if (home >= MAX_NUMNODES || home != 0) /* node 0 is the only one online */
		return -EINVAL;
	ret = page_range(start, len, &end);
	if (ret <= 0)
		return ret;
	ret = -ENOENT;
	/* Each VMA with a policy in turn: another mode stops the walk with
	 * EOPNOTSUPP, those done stay done; none with a policy: ENOENT. */
	for (at = start; at < end && (v = mm_find_vma(mm, at)) != NULL && v->start < end;) {
		struct mempolicy *old = v->policy, *np; /* the VMA's own (vma_policy) */
		uaddr_t s = v->start > at ? v->start : at, e = v->end < end ? v->end : end;

		at = e;
		if (!old || (v->flags & VMA_STUB))
			continue;
		if (old->mode != LINUX_MPOL_BIND && old->mode != LINUX_MPOL_PREFERRED_MANY)
			return -EOPNOTSUPP;
		np = mpol_dup(old);
		if (!np)
			return -ENOMEM;
		np->home_node = (int)home;
		ret = vma_set_policy(mm, v, s, e, np);
		mpol_put(np);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/* Linux's copy_nodes_to_user: maxnode - 1 bits rounded up to whole words;
 * past the node ids' one word they are cleared (EINVAL past a page). */
static int copy_nodes_to_user(struct task *t, uaddr_t mask, uint64_t maxnode, uint64_t nodes)
{
	static const char zero[PAGE_SIZE];
	uint64_t copy = ((maxnode - 1 + 63) & ~63ULL) / 8;

	if (copy > 8) {
		if (copy > PAGE_SIZE)
			return -EINVAL;
		if (copy_to_user_upto(t->mm, mask + 8, zero, copy - 8) < 0)
			return -EFAULT;
		copy = 8;
	}
	return copy_to_user_upto(t->mm, mask, &nodes, copy) < 0 ? -EFAULT : 0;
}

/* Is the page at addr in v past the end of v's file (a fault there is a
 * SIGBUS)? */
static bool past_eof(struct vma *v, uaddr_t addr)
{
	struct linux_stat st;

	if (!v->file || v->shared || file_stat(v->file, &st) < 0)
		return false;
	return v->off + (addr - v->start) >= PAGE_ALIGN((uint64_t)st.st_size);
}

/* The node of the page at addr in v, as Linux's lookup_node (a read of it
 * through get_user_pages): 0, or -EFAULT where that read fails: the
 * vvar's PFN map, a page past its file's end, and a page of a mapping
 * that is not readable unless it is there (x86 maps a writable or
 * executable page readable, which the lockless walk finds). Differs from
 * Linux: a page not there is not faulted in. */
static int lookup_node(struct mm *mm, struct vma *v, uaddr_t addr)
{
	addr &= PAGE_MASK;
	if (v->flags & (VMA_VVAR | VMA_VVAR_VCLOCK))
		return -EFAULT;
	if (past_eof(v, addr))
		return -EFAULT;
	if (v->prot & LINUX_PROT_READ)
		return 0;
	if (v->prot != LINUX_PROT_NONE && mm_pages_present(mm, addr, addr + PAGE_SIZE, 1) == 1)
		return 0;
	return -EFAULT;
}

long sys_get_mempolicy(struct task *t, const struct sysargs *a)
{
	uaddr_t upol = sysarg_uaddr(a, 0), nmask = sysarg_uaddr(a, 1), addr = sysarg_uaddr(a, 3);
	uint64_t maxnode = a->a[2], flags = a->a[4], nodes = 0;
	struct mempolicy *p = t->mempolicy;
	int pval = 0;

	if (nmask && maxnode < 1) /* nr_node_ids */
		return -EINVAL;
	if (flags & ~(uint64_t)(LINUX_MPOL_F_NODE | LINUX_MPOL_F_ADDR | LINUX_MPOL_F_MEMS_ALLOWED))
		return -EINVAL;
	if (flags & LINUX_MPOL_F_MEMS_ALLOWED) {
		if (flags & (LINUX_MPOL_F_NODE | LINUX_MPOL_F_ADDR))
			return -EINVAL;
		nodes = 1;
	} else {
		struct vma *v = NULL;

		if (flags & LINUX_MPOL_F_ADDR) {
			v = mm_find_vma(t->mm, addr);
			if (!v || v->start > addr || (v->flags & VMA_STUB))
				return -EFAULT;
			p = mpol_vma_at(v, addr); /* NULL: the default, not the thread's */
		} else if (addr) {
			return -EINVAL;
		}
		if (flags & LINUX_MPOL_F_NODE) {
			if (v) {
				pval = lookup_node(t->mm, v, addr);
				if (pval < 0)
					return pval;
			} else if (!p || (p->mode != LINUX_MPOL_INTERLEAVE &&
					  p->mode != LINUX_MPOL_WEIGHTED_INTERLEAVE)) {
				return -EINVAL;
			} /* else the next interleave node: 0 */
		} else {
			pval = p ? p->mode | (p->flags & LINUX_MPOL_MODE_FLAGS)
				 : LINUX_MPOL_DEFAULT;
		}
		/* The mask: the caller's own where a mode flag kept it (of
		 * which one word is ever copied out), else the nodes. */
		if (p)
			nodes = keeps_user(p) ? p->user[0] : p->nodes;
	}
	if (upol && copy_to_user(t->mm, upol, &pval, sizeof(pval)) < 0)
		return -EFAULT;
	return nmask ? copy_nodes_to_user(t, nmask, maxnode, nodes) : 0;
}

/* The task pid names for migrate_pages and move_pages (Linux's
 * find_task_by_vpid, a zombie's too: *zombie then), with the ptrace check
 * (PTRACE_MODE_READ_REALCREDS): NULL with *err -ESRCH or -EPERM. */
static struct task *mpol_target(struct task *t, int pid, bool *zombie, int *err)
{
	struct task *o = pid ? task_by_vtid(t, pid) : t;
	struct process *p = o ? o->proc : pid ? process_by_vpid(t, pid) : NULL;

	*zombie = !o || !o->mm || o->state == TASK_DEAD || o->proc->zombie;
	*err = -ESRCH;
	if (!p || (!o && !p->zombie))
		return NULL;
	if (p != t->proc && !cred_ptrace_may_access(&t->proc->cred, p, true)) {
		*err = -EPERM;
		return NULL;
	}
	*err = 0;
	return o ? o : t; /* a zombie is only checked, never used */
}

long sys_migrate_pages(struct task *t, const struct sysargs *a)
{
	uint64_t old[NODEMASK_WORDS], new[NODEMASK_WORDS], others = 0;
	int ret, i;
	bool zombie;

	ret = get_nodes(t, old, sysarg_uaddr(a, 2), a->a[1]);
	if (ret == 0)
		ret = get_nodes(t, new, sysarg_uaddr(a, 3), a->a[1]);
	if (ret < 0)
		return ret;
	if (!mpol_target(t, sysarg_int(a, 0), &zombie, &ret))
		return ret;
	/* The target nodes must be the process's (node 0), or the caller
	 * needs CAP_SYS_NICE; of them, those the caller may use (node 0)
	 * must not be none; a process without memory is EINVAL. */
	for (i = 0; i < NODEMASK_WORDS; i++)
		others |= i ? new[i] : new[i] & ~1ULL;
	if (others && !capable(&t->proc->cred, CAP_SYS_NICE))
		return -EPERM;
	if (!(new[0] & 1) || zombie)
		return -EINVAL;
	/* Every page is on node 0, the only node to move to: none moves,
	 * none fails to. */
	return 0;
}

/* What move_pages knows of a page map: the classes (host_pagemap_classes)
 * of a window of pages read at once, so that a run of addresses near each
 * other costs one host call. */
#define PM_WINDOW 512
struct pm_window {
	int fd;	      /* the stub's page map, or -errno */
	uaddr_t base; /* the window's first page (0: none yet) */
	uint64_t n;
	unsigned char cls[PM_WINDOW];
};

/* move_pages' status of the page at addr in mm: its node (0), -ENOENT
 * when none is there, -EFAULT outside a mapping, for the zero page, or,
 * when moving, in a mapping whose pages cannot move (Linux's
 * vma_migratable: the vvar's PFN map). */
static int page_status(struct mm *mm, struct pm_window *w, uaddr_t addr, bool moving)
{
	struct vma *v = mm_find_vma(mm, addr);

	if (!v || v->start > addr || (v->flags & VMA_STUB))
		return -EFAULT;
	if (v->flags & (VMA_VVAR | VMA_VVAR_VCLOCK))
		return moving ? -EFAULT : -ENOENT;
	addr &= PAGE_MASK;
	if (!w->base || addr < w->base || addr >= w->base + w->n * PAGE_SIZE) {
		w->base = addr;
		w->n = (v->end - addr) / PAGE_SIZE;
		if (w->n > PM_WINDOW)
			w->n = PM_WINDOW;
		if (w->fd < 0 ||
		    host_pagemap_classes(w->fd, addr, addr + w->n * PAGE_SIZE, w->cls) < 0) {
			w->base = 0;
			return -ENOENT;
		}
	}
	switch (w->cls[(addr - w->base) / PAGE_SIZE]) {
	case 1:
		return 0;
	case 2:
		return -EFAULT; /* the zero page */
	default:
		return -ENOENT;
	}
}

#define STAT_CHUNK 16	/* Linux's DO_PAGES_STAT_CHUNK_NR */
#define STAT_BULK  1024 /* read at once while no copy fails */

/* Only asking (Linux's do_pages_stat): 16 pointers in, 16 statuses out;
 * read STAT_BULK at once where they all can be, as the result is the
 * same. */
static int pages_stat(struct task *t, struct mm *mm, struct pm_window *w, uint64_t nr,
		      uaddr_t pages, uaddr_t status)
{
	uint64_t *addr = malloc(STAT_BULK * (sizeof(*addr) + sizeof(int)));
	int *st = (int *)(addr + STAT_BULK);

	if (!addr)
		return -ENOMEM;
	while (nr) {
		uint64_t n = nr < STAT_BULK ? nr : STAT_BULK, i;

		if (copy_from_user(t->mm, addr, pages, n * 8) < 0) {
			n = nr < STAT_CHUNK ? nr : STAT_CHUNK;
			if (copy_from_user(t->mm, addr, pages, n * 8) < 0)
				break;
		}
		for (i = 0; i < n; i++)
			st[i] = page_status(mm, w, addr[i], false);
		if (copy_to_user_upto(t->mm, status, st, n * 4) < 0)
			break;
		pages += n * 8;
		status += n * 4;
		nr -= n;
	}
	free(addr);
	return nr ? -EFAULT : 0;
}

#define MOVE_CHUNK 64

/* Moving (Linux's do_pages_move): each page's pointer, then its node, then
 * its status, in order; a bad one ends the call with the statuses before
 * it written. Read and written MOVE_CHUNK at a time; where a chunk's copy
 * fails, one at a time to find the entry. */
static int pages_move(struct task *t, struct mm *mm, struct pm_window *w, uint64_t nr,
		      uaddr_t pages, uaddr_t nodes, uaddr_t status)
{
	uint64_t addr[MOVE_CHUNK], i;
	int node[MOVE_CHUNK], st[MOVE_CHUNK];

	while (nr) {
		uint64_t n = nr < MOVE_CHUNK ? nr : MOVE_CHUNK, done = 0;
		int ret = 0;

		if (copy_from_user(t->mm, addr, pages, n * 8) < 0 ||
		    copy_from_user(t->mm, node, nodes, n * 4) < 0)
			n = 1; /* this one alone: its own copies say which fails */
		for (i = 0; i < n; i++) {
			if (n == 1 && (copy_from_user(t->mm, &addr[0], pages, 8) < 0 ||
				       copy_from_user(t->mm, &node[0], nodes, 4) < 0)) {
				ret = -EFAULT;
				break;
			}
			if (node[i] < 0 || node[i] >= MAX_NUMNODES || node[i] != 0) {
				ret = -ENODEV; /* not a node with memory */
				break;
			}
			st[i] = page_status(mm, w, addr[i], true);
			done++;
		}
		if (done && copy_to_user_upto(t->mm, status, st, done * 4) < 0)
			return -EFAULT;
		if (ret < 0)
			return ret;
		pages += n * 8;
		nodes += n * 4;
		status += n * 4;
		nr -= n;
	}
	return 0;
}

long sys_move_pages(struct task *t, const struct sysargs *a)
{
	int flags = sysarg_int(a, 5), ret;
	uaddr_t nodes = sysarg_uaddr(a, 3);
	struct pm_window w = { .fd = -1 };
	struct task *o;
	bool zombie;

	if (flags & ~(LINUX_MPOL_MF_MOVE | LINUX_MPOL_MF_MOVE_ALL))
		return -EINVAL;
	if ((flags & LINUX_MPOL_MF_MOVE_ALL) && !capable(&t->proc->cred, CAP_SYS_NICE))
		return -EPERM;
	o = mpol_target(t, sysarg_int(a, 0), &zombie, &ret);
	if (!o)
		return ret;
	if (zombie)
		return -EINVAL;
	mm_get(o->mm);
	w.fd = a->a[1] ? mm_pagemap_open(o->mm) : -1;
	if (nodes)
		ret = pages_move(t, o->mm, &w, a->a[1], sysarg_uaddr(a, 2), nodes,
				 sysarg_uaddr(a, 4));
	else
		ret = pages_stat(t, o->mm, &w, a->a[1], sysarg_uaddr(a, 2), sysarg_uaddr(a, 4));
	if (w.fd >= 0)
		host_close(w.fd);
	mm_put(o->mm);
	return ret;
}

void mpol_task_fork(struct task *c, const struct task *t)
{
	c->mempolicy = t->mempolicy;
	mpol_get(c->mempolicy);
}
