/* fs/tmpfs/pages.c: a tmpfs file's data in kernel memory: a flat array of
 * pointers to 4 KiB pages, NULL for a hole, grown as data lands further
 * in. tmpfs keeps files below a size here (tmpfs.c says which), so the
 * array stays small; a hole costs 8 bytes, a page 4 KiB. */
#include <stdlib.h>
#include <string.h>

#include "fs/tmpfs/pages.h"
#include "abi/linux/errno.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

const void *pages_at(const struct tmpfs_pages *p, uint64_t i)
{
	return i < p->nslots ? p->slot[i] : NULL;
}

void pages_read(const struct tmpfs_pages *p, void *buf, size_t n, uint64_t off)
{
	char *dst = buf;

	while (n) {
		uint64_t in = off % TMPFS_PAGE;
		size_t len = (size_t)min_u64(n, TMPFS_PAGE - in);
		const char *pg = pages_at(p, off / TMPFS_PAGE);

		if (pg)
			memcpy(dst, pg + in, len);
		else
			memset(dst, 0, len);
		dst += len;
		off += len;
		n -= len;
	}
}

static uint64_t bitmap_words(uint64_t nslots)
{
	return (nslots + 63) / 64;
}

bool pages_unwritten(const struct tmpfs_pages *p, uint64_t i)
{
	return p->unwritten && i < p->nslots && (p->unwritten[i / 64] >> (i % 64) & 1);
}

static void set_written(struct tmpfs_pages *p, uint64_t i)
{
	if (p->unwritten && i < p->nslots)
		p->unwritten[i / 64] &= ~(1ULL << (i % 64));
}

/* The unwritten bitmap resized from old to nslots slots (new bits 0):
 * 0 or -ENOMEM. */
static int bitmap_resize(struct tmpfs_pages *p, uint64_t old, uint64_t nslots)
{
	uint64_t *b, was = bitmap_words(old), words = bitmap_words(nslots);

	if (!p->unwritten || words == was)
		return 0;
	b = realloc(p->unwritten, words * sizeof(*b));
	if (!b)
		return -ENOMEM;
	if (words > was)
		memset(b + was, 0, (words - was) * sizeof(*b));
	p->unwritten = b;
	return 0;
}

/* Room in the array for page i: 0 or -ENOMEM. */
static int grow(struct tmpfs_pages *p, uint64_t i)
{
	uint64_t want = p->nslots ? p->nslots : 4;
	void **slot;

	if (i < p->nslots)
		return 0;
	while (want <= i)
		want *= 2;
	if (bitmap_resize(p, p->nslots, want) < 0)
		return -ENOMEM;
	slot = realloc(p->slot, want * sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	memset(slot + p->nslots, 0, (want - p->nslots) * sizeof(*slot));
	p->slot = slot;
	p->nslots = want;
	return 0;
}

/* Page i, taken if it is a hole (zeroed unless whole says the caller
 * overwrites all of it), or NULL without memory. */
static char *page_get(struct tmpfs_pages *p, uint64_t i, bool whole)
{
	if (grow(p, i) < 0)
		return NULL;
	if (!p->slot[i]) {
		p->slot[i] = whole ? malloc(TMPFS_PAGE) : calloc(1, TMPFS_PAGE);
		if (!p->slot[i])
			return NULL;
		p->held++;
	}
	return p->slot[i];
}

long pages_write(struct tmpfs_pages *p, const void *buf, size_t n, uint64_t off)
{
	const char *src = buf;
	size_t done = 0;

	while (done < n) {
		uint64_t in = off % TMPFS_PAGE;
		size_t len = (size_t)min_u64(n - done, TMPFS_PAGE - in);
		char *pg = page_get(p, off / TMPFS_PAGE, len == TMPFS_PAGE);

		if (!pg)
			return done ? (long)done : -ENOMEM;
		/* shmem_write_end: the page is up to date, all of it */
		set_written(p, off / TMPFS_PAGE);
		memcpy(pg + in, src + done, len);
		done += len;
		off += len;
	}
	return (long)done;
}

static void page_drop(struct tmpfs_pages *p, uint64_t i)
{
	if (i < p->nslots && p->slot[i]) {
		free(p->slot[i]);
		p->slot[i] = NULL;
		p->held--;
		set_written(p, i);
	}
}

int pages_alloc(struct tmpfs_pages *p, uint64_t off, uint64_t end)
{
	uint64_t i;

	for (i = off / TMPFS_PAGE; i * TMPFS_PAGE < end; i++) {
		if (pages_at(p, i)) {
			/* shmem_get_folio's SGP_FALLOC: a page an earlier
			 * fallocate took is zeroed and up to date now */
			set_written(p, i);
			continue;
		}
		if (!page_get(p, i, false))
			return -ENOMEM;
		if (!p->unwritten) {
			p->unwritten = calloc(bitmap_words(p->nslots), sizeof(*p->unwritten));
			if (!p->unwritten) {
				page_drop(p, i);
				return -ENOMEM;
			}
		}
		p->unwritten[i / 64] |= 1ULL << (i % 64);
	}
	return 0;
}

/* Clears [off, end) inside one page, if it is held. */
static void page_clear(struct tmpfs_pages *p, uint64_t off, uint64_t end)
{
	char *pg = (char *)pages_at(p, off / TMPFS_PAGE);

	if (pg && end > off)
		memset(pg + off % TMPFS_PAGE, 0, end - off);
}

void pages_punch(struct tmpfs_pages *p, uint64_t off, uint64_t end)
{
	uint64_t first = (off + TMPFS_PAGE - 1) / TMPFS_PAGE, last = end / TMPFS_PAGE, i;

	if (end <= off)
		return;
	if (first > last) { /* inside one page */
		page_clear(p, off, end);
		return;
	}
	page_clear(p, off, first * TMPFS_PAGE);
	page_clear(p, last * TMPFS_PAGE, end);
	for (i = first; i < last && i < p->nslots; i++)
		page_drop(p, i);
}

void pages_truncate(struct tmpfs_pages *p, uint64_t size)
{
	uint64_t i, keep = (size + TMPFS_PAGE - 1) / TMPFS_PAGE;

	for (i = keep; i < p->nslots; i++)
		page_drop(p, i);
	if (size % TMPFS_PAGE)
		page_clear(p, size, keep * TMPFS_PAGE);
	/* An array far larger than the file's pages shrinks with it. */
	if (keep == 0) {
		free(p->slot);
		free(p->unwritten);
		p->slot = NULL;
		p->unwritten = NULL;
		p->nslots = 0;
	} else if (keep < p->nslots / 4 && bitmap_resize(p, p->nslots, keep) == 0) {
		void **slot = realloc(p->slot, keep * sizeof(*slot));

		if (slot)
			p->slot = slot;
		p->nslots = keep; /* a failed shrink keeps the larger array */
	}
}

int64_t pages_seek(const struct tmpfs_pages *p, uint64_t off, uint64_t size, bool data)
{
	uint64_t i, end = (size + TMPFS_PAGE - 1) / TMPFS_PAGE;

	for (i = off / TMPFS_PAGE; i < end; i++) {
		if ((pages_at(p, i) != NULL && !pages_unwritten(p, i)) == data) {
			uint64_t at = i * TMPFS_PAGE;

			return (int64_t)(at > off ? at : off);
		}
	}
	return data ? -ENXIO : (int64_t)size;
}

void pages_free(struct tmpfs_pages *p)
{
	uint64_t i;

	for (i = 0; i < p->nslots; i++)
		free(p->slot[i]);
	free(p->slot);
	free(p->unwritten);
	p->slot = NULL;
	p->unwritten = NULL;
	p->nslots = p->held = 0;
}
