/* mm/usercopy.c: copy_{from,to}_user and strncpy_from_user. The VMAs say
 * whether the guest may touch a range; the platform moves the bytes. Each
 * platform copy costs ~1.5 us under ptrace, so callers copy whole structs. */
#include <string.h>

#include "mm/usercopy.h"
#include "platform/platform.h"
#include "abi/linux/errno.h"

/* The accessible prefix of [addr, addr+n), once the stack has grown over
 * the first byte that is not if that lies below it: Linux's copy faults
 * there and the fault grows the stack (a signal frame, or any buffer the
 * guest's own pushes would reach). */
size_t user_prefix(struct mm *mm, uaddr_t addr, size_t n, bool write)
{
	size_t ok = mm_accessible(mm, addr, n, write);

	if (ok < n && mm_grow_stack(mm, addr + ok) == 0)
		ok = mm_accessible(mm, addr, n, write);
	return ok;
}

static bool accessible(struct mm *mm, uaddr_t addr, size_t n, bool write)
{
	return user_prefix(mm, addr, n, write) == n;
}

int copy_from_user(struct mm *mm, void *dst, uaddr_t src, size_t n)
{
	if (n == 0)
		return 0;
	if (!accessible(mm, src, n, false))
		return -EFAULT;
	return platform->mm_read(mm->pf, dst, src, n) == (long)n ? 0 : -EFAULT;
}

int copy_to_user(struct mm *mm, uaddr_t dst, const void *src, size_t n)
{
	if (n == 0)
		return 0;
	if (!accessible(mm, dst, n, true))
		return -EFAULT;
	return platform->mm_write(mm->pf, dst, src, n) == (long)n ? 0 : -EFAULT;
}

int cmpxchg_user32(struct mm *mm, uaddr_t addr, uint32_t old, uint32_t new, uint32_t *cur)
{
	int tries, ret;

	if ((addr & 3) || !accessible(mm, addr, sizeof(*cur), true))
		return -EFAULT;
	/* The read first: most calls find the word changed and need no
	 * exchange, and it proves the page is there before the stub's
	 * locked instruction touches it. */
	for (tries = 0; tries < 16; tries++) {
		if (platform->mm_read(mm->pf, cur, addr, sizeof(*cur)) != sizeof(*cur))
			return -EFAULT;
		if (*cur != old)
			return 0;
		ret = platform->mm_cmpxchg32(mm->pf, addr, old, new);
		if (ret != -EAGAIN)
			return ret;
	}
	return -EAGAIN;
}

int futex_op_user32(struct mm *mm, uaddr_t addr, int op, uint32_t arg, uint32_t *old)
{
	if ((addr & 3) || !accessible(mm, addr, sizeof(*old), true))
		return -EFAULT;
	/* the read proves the page is there before the stub's locked
	 * instruction touches it, as cmpxchg_user32's */
	if (platform->mm_read(mm->pf, old, addr, sizeof(*old)) != sizeof(*old))
		return -EFAULT;
	return platform->mm_futex_op(mm->pf, addr, op, arg, old);
}

long copy_to_user_partial(struct mm *mm, uaddr_t dst, const void *src, size_t n)
{
	size_t ok = user_prefix(mm, dst, n, true);
	long r;

	if (n == 0)
		return 0;
	if (ok == 0)
		return -EFAULT;
	r = platform->mm_write(mm->pf, dst, src, ok);
	return r <= 0 ? -EFAULT : r;
}

int copy_to_user_upto(struct mm *mm, uaddr_t dst, const void *src, size_t n)
{
	if (copy_to_user(mm, dst, src, n) == 0)
		return 0;
	copy_to_user_partial(mm, dst, src, n);
	return -EFAULT;
}

int poke_user(struct mm *mm, uaddr_t dst, const void *src, size_t n)
{
	return platform->mm_write(mm->pf, dst, src, n) == (long)n ? 0 : -EFAULT;
}

int poke_user_add(struct user_pokes *pk, uaddr_t dst, const void *src, size_t n)
{
	int ret = 0;

	if (pk->n == USER_POKE_MAX)
		ret = poke_user_flush(pk);
	pk->v[pk->n].addr = dst;
	pk->v[pk->n].src = src;
	pk->v[pk->n].len = n;
	pk->n++;
	return ret;
}

int poke_user_flush(struct user_pokes *pk)
{
	struct pf_iov v[USER_POKE_MAX];
	int i, n = pk->n, ret = 0;

	_Static_assert(USER_POKE_MAX <= PF_WRITEV_MAX, "pokes per host call");
	pk->n = 0;
	if (n == 0)
		return 0;
	if (!platform->mm_writev) {
		for (i = 0; i < n && ret == 0; i++)
			ret = poke_user(pk->mm, pk->v[i].addr, pk->v[i].src, pk->v[i].len);
		return ret;
	}
	for (i = 0; i < n; i++) {
		v[i].addr = pk->v[i].addr;
		v[i].src = pk->v[i].src;
		v[i].len = pk->v[i].len;
	}
	return platform->mm_writev(pk->mm->pf, v, n);
}

/* Most strings (paths, names) are short: the first read takes at most
 * FIRST_CHUNK bytes (a 4 KiB process_vm_readv costs ~0.4 µs more than a
 * 64-byte one here), the rest goes a page at a time. */
#define FIRST_CHUNK 256

long strncpy_from_user(struct mm *mm, char *dst, uaddr_t src, size_t max)
{
	size_t done = 0;

	while (done < max) {
		size_t chunk = PAGE_SIZE - ((src + done) & (PAGE_SIZE - 1));
		char *nul;

		if (done == 0 && chunk > FIRST_CHUNK)
			chunk = FIRST_CHUNK;
		if (chunk > max - done)
			chunk = max - done;
		if (copy_from_user(mm, dst + done, src + done, chunk) < 0)
			return -EFAULT;
		nul = memchr(dst + done, 0, chunk);
		if (nul)
			return nul - dst;
		done += chunk;
	}
	return -ENAMETOOLONG;
}

void user_reader_init(struct user_reader *r, struct mm *mm)
{
	r->mm = mm;
	r->base = 0;
	r->len = 0;
	r->peer = NULL;
}

void user_reader_pair(struct user_reader *a, struct user_reader *b)
{
	a->peer = b;
	b->peer = a;
}

/* Makes the window hold addr (from addr's page on): 0 or -EFAULT. */
static int reader_fill(struct user_reader *r, uaddr_t addr)
{
	struct user_reader *q = r->peer;
	uaddr_t base = addr & PAGE_MASK;
	size_t ok;
	long n;

	/* The peer's window holds addr: its bytes from addr's page on (the
	 * same moment's), no host read. */
	if (q && addr >= q->base && addr - q->base < q->len) {
		if (base < q->base)
			base = q->base;
		r->len = q->len - (base - q->base);
		memcpy(r->buf, q->buf + (base - q->base), r->len);
		r->base = base;
		return 0;
	}
	ok = mm_accessible(r->mm, base, USER_READER_SIZE, false);
	if (ok <= addr - base) {
		/* Not readable, or just below the stack: grow it or fail. */
		if (!accessible(r->mm, addr, 1, false))
			return -EFAULT;
		ok = mm_accessible(r->mm, base, USER_READER_SIZE, false);
		if (ok <= addr - base)
			return -EFAULT;
	}
	n = platform->mm_read(r->mm->pf, r->buf, base, ok);
	r->len = 0;
	if (n <= (long)(addr - base))
		return -EFAULT;
	r->base = base;
	r->len = (size_t)n;
	return 0;
}

void user_reader_prefetch(struct user_reader *r, uaddr_t addr)
{
	uaddr_t base = addr & PAGE_MASK;
	size_t ok = mm_accessible(r->mm, base, USER_READER_SIZE, false);
	long n;

	if (ok <= addr - base)
		return; /* no stack growth for a look ahead */
	n = platform->mm_read(r->mm->pf, r->buf, base, ok);
	r->len = 0;
	if (n > (long)(addr - base)) {
		r->base = base;
		r->len = (size_t)n;
	}
}

/* The bytes of the window from addr on (filling it if needed): how many,
 * or -EFAULT. */
static long reader_at(struct user_reader *r, uaddr_t addr, const char **p)
{
	if (addr < r->base || addr - r->base >= r->len) {
		int ret = reader_fill(r, addr);

		if (ret < 0)
			return ret;
	}
	*p = r->buf + (addr - r->base);
	return (long)(r->len - (addr - r->base));
}

int user_reader_copy(struct user_reader *r, void *dst, uaddr_t src, size_t n)
{
	size_t done = 0;

	if (src + n < src)
		return -EFAULT;
	while (done < n) {
		const char *p;
		long avail = reader_at(r, src + done, &p);

		if (avail < 0)
			return -EFAULT;
		if ((size_t)avail > n - done)
			avail = (long)(n - done);
		memcpy((char *)dst + done, p, (size_t)avail);
		done += (size_t)avail;
	}
	return 0;
}

long user_reader_strncpy(struct user_reader *r, char *dst, uaddr_t src, size_t max)
{
	size_t done = 0;

	while (done < max) {
		const char *p, *nul;
		long avail;

		if (src + done < src)
			return -EFAULT;
		avail = reader_at(r, src + done, &p);
		if (avail < 0)
			return -EFAULT;
		if ((size_t)avail > max - done)
			avail = (long)(max - done);
		nul = memchr(p, 0, (size_t)avail);
		if (nul) {
			memcpy(dst + done, p, (size_t)(nul - p) + 1);
			return (long)(done + (size_t)(nul - p));
		}
		memcpy(dst + done, p, (size_t)avail);
		done += (size_t)avail;
	}
	return -ENAMETOOLONG;
}
