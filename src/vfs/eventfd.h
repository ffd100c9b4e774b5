/* vfs/eventfd.h: eventfd(2) files, and what every anonymous-inode file
 * (eventfd, timerfd, epoll) shares: one inode, as Linux's anon_inodefs. */
#ifndef VFS_EVENTFD_H
#define VFS_EVENTFD_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct linux_stat;

/* fstat of an anonymous-inode file: mode 0600 and no file type. */
int anon_inode_stat(struct file *f, struct linux_stat *st);
/* lseek: a no-op that returns 0, as Linux's noop_llseek. */
int64_t anon_inode_llseek(struct file *f, int64_t off, int whence);
/* Is f an eventfd? And Linux's eventfd_signal: its count goes up by one
 * (never past the largest it may hold), its readers woken. */
bool is_eventfd(const struct file *f);
void eventfd_signal_file(struct file *f);

#endif
