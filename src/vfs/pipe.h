/* vfs/pipe.h: anonymous and named pipes. */
#ifndef VFS_PIPE_H
#define VFS_PIPE_H

#include <stdbool.h>

struct file;

/* A new pipe: *rd and *wr each hold one reference. flags: O_NONBLOCK,
 * O_DIRECT (packet mode). */
int pipe_create(unsigned flags, struct file **rd, struct file **wr);

/* Opens a named pipe whose pipe is kept in *fifo (may sleep). */
int fifo_open(void **fifo, struct file *f);
void fifo_free(void *fifo);

bool file_is_pipe(struct file *f);
/* F_GETPIPE_SZ (set false) and F_SETPIPE_SZ: the size in bytes or -errno
 * (EBADF: not a pipe). */
long pipe_fcntl_size(struct file *f, bool set, unsigned long arg);

/* /proc/sys/fs/pipe-max-size: the most a guest without CAP_SYS_RESOURCE
 * may set. */
extern unsigned pipe_max_size;

#endif
