/* vfs/splice.h: moving data between files inside the kernel: sendfile(2),
 * copy_file_range(2), splice(2), tee(2) and vmsplice(2). The callers
 * (syscalls/sys_splice.c) checked fds, access modes, flags and offsets;
 * these do the transfer. A position pointer is read at and advanced; NULL
 * means the file's own read or write (a stream, or the file position). */
#ifndef VFS_SPLICE_H
#define VFS_SPLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct file;
struct pipe;
struct task;
struct linux_iovec;

/* A file's type bits (LINUX_S_IF*), or 0 if it cannot say. */
uint32_t file_type(struct file *f);
/* Linux's do_splice_direct: from in, a regular file read at *ipos, to out
 * (not a pipe), until len bytes, EOF, a short write or an error. */
long splice_direct(struct file *in, int64_t *ipos, struct file *out, int64_t *opos, size_t len);
/* Linux's splice_file_to_pipe: waits for room in p, then what one read of
 * in gives, at most what the free slots hold. */
long splice_file_to_pipe(struct file *in, int64_t *ipos, struct pipe *p, size_t len, bool nonblock);
/* Linux's splice_from_pipe: waits for data in p, then writes what it
 * holds (up to len) to out; what was written is consumed. */
long splice_pipe_to_file(struct pipe *p, struct file *out, int64_t *opos, size_t len,
			 bool nonblock);
/* vmsplice(2) of a pipe's write end (to_pipe) or read end: the iovecs
 * were checked (in the user half, total at most MAX_RW_COUNT). */
long vmsplice_pipe(struct task *t, struct pipe *p, const struct linux_iovec *iov, int cnt,
		   bool to_pipe, bool nonblock);

#endif
