/* vfs/pipe.h: anonymous and named pipes. */
#ifndef VFS_PIPE_H
#define VFS_PIPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;

/* A new pipe: *rd and *wr each hold one reference. flags: O_NONBLOCK,
 * O_DIRECT (packet mode). */
int pipe_create(unsigned flags, struct file **rd, struct file **wr);

/* Opens a named pipe whose pipe is kept in *fifo (may sleep). */
int fifo_open(void **fifo, struct file *f);
void fifo_free(void *fifo);
/* Opens the named pipe of a host FIFO (hostfs): the instance's own pipe
 * for that host file (its device and number), made at the first open and
 * freed at the last close; never the host's pipe (see hostfs_open). */
int fifo_open_host(uint64_t dev, uint64_t ino, struct file *f);
/* Opens orig's pipe anew into f (/proc/PID/fd/N), never waiting;
 * -ENXIO if orig is no pipe. */
int pipe_reopen(struct file *orig, struct file *f);

bool file_is_pipe(struct file *f);
/* F_GETPIPE_SZ (set false) and F_SETPIPE_SZ: the size in bytes or -errno
 * (EBADF: not a pipe). */
long pipe_fcntl_size(struct file *f, bool set, unsigned long arg);

/* For splice (vfs/splice.c). */
struct pipe;
/* The pipe of a pipe or FIFO file, else NULL. */
struct pipe *pipe_of(struct file *f);
/* Held by current while it moves data between the pipe and a file whose
 * read or write may sleep: others' reads and writes of the pipe wait. */
void pipe_lock(struct pipe *p);
void pipe_unlock(struct pipe *p);
/* Until the pipe holds data: 1, or 0 if empty with no writer, -EAGAIN
 * (nonblock), -ERESTARTSYS. */
int pipe_wait_data(struct pipe *p, bool nonblock);
/* Until the pipe has a free buffer slot: their number, or -EPIPE (with
 * SIGPIPE: no reader), -EAGAIN (nonblock), -ERESTARTSYS. */
long pipe_wait_space(struct pipe *p, bool nonblock);
unsigned pipe_free_slots(struct pipe *p);
/* The bytes it holds. */
size_t pipe_len(struct pipe *p);
/* Copies up to n bytes from the front without consuming them. */
size_t pipe_peek(struct pipe *p, void *buf, size_t n);
/* Of the first n bytes, those in buffers that fit whole in the first ok
 * (the last may be cut by n): what Linux's splice_from_pipe_feed counts
 * when its actor's copy comes up short at ok. */
size_t pipe_whole(struct pipe *p, size_t n, size_t ok);
/* Drops n bytes from the front. */
void pipe_consume(struct pipe *p, size_t n);
/* Appends what fits of buf in the free slots, never merged into a buffer
 * before it: a buffer per page of a source at offset align (a file page,
 * a user page), as Linux's splice_read and vmsplice fill pipes. Returns the
 * bytes taken: less when --memory has no room for a page, unless over
 * (data already taken from a file: counted past the limit). */
size_t pipe_push(struct pipe *p, const void *buf, size_t n, uint64_t align, bool over);
/* splice(2) between two pipes (keep false) and tee(2) (keep true): the
 * bytes moved (copied), 0 at EOF, or -errno. */
long pipe_to_pipe(struct pipe *in, struct pipe *out, size_t len, bool nonblock, bool keep);

/* /proc/sys/fs/pipe-max-size: the most a guest without CAP_SYS_RESOURCE
 * may set. */
extern unsigned pipe_max_size;

#endif
