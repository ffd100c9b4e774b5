/* vfs/aio.h: Linux's native asynchronous I/O (io_setup and the rest). */
#ifndef VFS_AIO_H
#define VFS_AIO_H

#include <stdint.h>

struct mm;

/* The address space goes (exit, exec): its contexts with it, as Linux's
 * exit_aio. */
void aio_exit(struct mm *mm);
/* fs.aio-nr (the events of every live context's io_setup) and
 * fs.aio-max-nr (the most they may add up to: 65536). */
uint64_t aio_nr_now(void);
uint64_t aio_max_nr(void);
int aio_set_max_nr(uint64_t n);

#endif
