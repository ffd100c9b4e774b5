/* mm/memfd.h: memfd_create(2)'s files and file seals (F_ADD_SEALS,
 * F_GET_SEALS), as Linux's mm/memfd.c. */
#ifndef MM_MEMFD_H
#define MM_MEMFD_H

#include <stddef.h>

struct file;
struct path;
struct task;

/* fcntl's F_ADD_SEALS and F_GET_SEALS on f: the seals, 0, or -errno. */
long memfd_fcntl(struct file *f, int cmd, unsigned arg);
/* A new shared mapping of f with prot (vflags: its VMA_* so far): EPERM
 * if f is write-sealed and prot has PROT_WRITE; a read-only one loses
 * VMA_MAYWRITE (mprotect cannot make it writable), as from Linux 6.7
 * (before it, any MAP_SHARED mapping of a writable fd was EPERM). */
int memfd_check_seals_mmap(struct file *f, int prot, unsigned *vflags);
/* A memfd named name holding len bytes of data, sealed against every
 * change (F_SEAL_SEAL, WRITE, SHRINK, GROW), made with t's credentials:
 * its path (the caller puts it), for an exec of the kernel's own program
 * (--init's). 0 or -errno. */
int memfd_image(struct task *t, const char *name, const void *data, size_t len, struct path *out);

#endif
