/* fs/tmpfs/pages.h: a tmpfs file's data in kernel memory, as a sparse
 * array of 4 KiB pages (NULL: a hole, which reads as zeros). */
#ifndef FS_TMPFS_PAGES_H
#define FS_TMPFS_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TMPFS_PAGE 4096ULL

struct tmpfs_pages {
	void **slot;	 /* slot[i]: bytes [i * 4 KiB, (i + 1) * 4 KiB), or NULL */
	uint64_t nslots; /* entries of slot */
	uint64_t held;	 /* pages not NULL */
	/* A bit per slot: a page a fallocate took that nothing wrote since
	 * (shmem's !uptodate folio: it reads as zeros, and SEEK_DATA and
	 * SEEK_HOLE take it for a hole); NULL while the file has none. */
	uint64_t *unwritten;
};

/* Copies [off, off + n) out (the caller keeps it below the file's size). */
void pages_read(const struct tmpfs_pages *p, void *buf, size_t n, uint64_t off);
/* Copies buf into [off, off + n), taking pages as needed: the bytes
 * written (short if memory ran out on the way), or -ENOMEM for none. */
long pages_write(struct tmpfs_pages *p, const void *buf, size_t n, uint64_t off);
/* Takes a zeroed page for each hole in [off, end): 0 or -ENOMEM (the
 * pages taken before stay, as a fallocate's on Linux). */
int pages_alloc(struct tmpfs_pages *p, uint64_t off, uint64_t end);
/* Zeroes [off, end): whole pages go back, partial ones are cleared. */
void pages_punch(struct tmpfs_pages *p, uint64_t off, uint64_t end);
/* The file is cut to size: the pages past it go, the last one is cleared
 * past it (a later growth reads zeros there). */
void pages_truncate(struct tmpfs_pages *p, uint64_t size);
/* SEEK_DATA (data) or SEEK_HOLE from off in a file of size bytes (off <
 * size): the offset, or -ENXIO (no data from off on). */
int64_t pages_seek(const struct tmpfs_pages *p, uint64_t off, uint64_t size, bool data);
/* Whether page i is one a fallocate took that nothing wrote since. */
bool pages_unwritten(const struct tmpfs_pages *p, uint64_t i);
/* Page i, or NULL for a hole. */
const void *pages_at(const struct tmpfs_pages *p, uint64_t i);
void pages_free(struct tmpfs_pages *p);

#endif
