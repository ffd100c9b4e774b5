/* vfs/denywrite.c: the counts of vfs/denywrite.h, in a hash table of the
 * files that have any (an entry goes when all are back at 0). */
#include <stdlib.h>

#include "vfs/denywrite.h"
#include "vfs/vfs.h"
#include "abi/linux/errno.h"

#define NBUCKETS 256

struct wa_entry {
	struct wa_entry *next;
	uint64_t dev, ino;
	int writers, deniers, readers;
};

static struct wa_entry *buckets[NBUCKETS];

static struct wa_entry **slot(uint64_t dev, uint64_t ino)
{
	struct wa_entry **e = &buckets[(ino * 0x9e3779b97f4a7c15ULL + dev) >> 56];

	while (*e && ((*e)->dev != dev || (*e)->ino != ino))
		e = &(*e)->next;
	return e;
}

/* The entry of dev/ino, made if none (NULL without memory). */
static struct wa_entry *entry(uint64_t dev, uint64_t ino)
{
	struct wa_entry **e = slot(dev, ino);

	if (!*e) {
		*e = calloc(1, sizeof(**e));
		if (*e) {
			(*e)->dev = dev;
			(*e)->ino = ino;
		}
	}
	return *e;
}

static void drop_if_unused(uint64_t dev, uint64_t ino)
{
	struct wa_entry **e = slot(dev, ino), *d = *e;

	if (d && d->writers == 0 && d->deniers == 0 && d->readers == 0) {
		*e = d->next;
		free(d);
	}
}

int write_access_get(const struct inode *ino)
{
	struct wa_entry *e = entry(ino->dev, ino->ino);

	if (!e)
		return -ENOMEM;
	if (e->deniers > 0) {
		drop_if_unused(ino->dev, ino->ino);
		return -ETXTBSY;
	}
	e->writers++;
	return 0;
}

void write_access_put(uint64_t dev, uint64_t ino)
{
	struct wa_entry *e = *slot(dev, ino);

	if (e && e->writers > 0) {
		e->writers--;
		drop_if_unused(dev, ino);
	}
}

int write_access_deny(const struct inode *ino)
{
	struct wa_entry *e = entry(ino->dev, ino->ino);

	if (!e)
		return -ENOMEM;
	if (e->writers > 0)
		return -ETXTBSY;
	e->deniers++;
	return 0;
}

void write_access_allow(uint64_t dev, uint64_t ino)
{
	struct wa_entry *e = *slot(dev, ino);

	if (e && e->deniers > 0) {
		e->deniers--;
		drop_if_unused(dev, ino);
	}
}

int read_access_get(const struct inode *ino)
{
	struct wa_entry *e = entry(ino->dev, ino->ino);

	if (!e)
		return -ENOMEM;
	e->readers++;
	return 0;
}

void read_access_put(uint64_t dev, uint64_t ino)
{
	struct wa_entry *e = *slot(dev, ino);

	if (e && e->readers > 0) {
		e->readers--;
		drop_if_unused(dev, ino);
	}
}

void access_counts(uint64_t dev, uint64_t ino, int *writers, int *readers, int *deniers)
{
	struct wa_entry *e = *slot(dev, ino);

	*writers = e ? e->writers : 0;
	*readers = e ? e->readers : 0;
	*deniers = e ? e->deniers : 0;
}
