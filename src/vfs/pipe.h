/* vfs/pipe.h: anonymous pipes. */
#ifndef VFS_PIPE_H
#define VFS_PIPE_H

struct file;

/* A new pipe: *rd and *wr each hold one reference. flags: O_NONBLOCK. */
int pipe_create(unsigned flags, struct file **rd, struct file **wr);

/* Opens a named pipe whose pipe is kept in *fifo (may sleep). */
int fifo_open(void **fifo, struct file *f);
void fifo_free(void *fifo);

#endif
