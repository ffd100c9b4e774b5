/* vfs/dnotify.h: directory notification by signal (fcntl F_NOTIFY), fed
 * by vfs/fsnotify.c with inotify's events. */
#ifndef VFS_DNOTIFY_H
#define VFS_DNOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct files;
struct task;

#define LINUX_DN_ACCESS	   0x00000001
#define LINUX_DN_MODIFY	   0x00000002
#define LINUX_DN_CREATE	   0x00000004
#define LINUX_DN_DELETE	   0x00000008
#define LINUX_DN_RENAME	   0x00000010
#define LINUX_DN_ATTRIB	   0x00000020
#define LINUX_DN_MULTISHOT 0x80000000

/* How many directories' marks exist (0: the hooks return at once). */
extern int dnotify_nmarks;

/* fcntl(fd, F_NOTIFY, arg) by t on f. */
long dnotify_fcntl(struct task *t, struct file *f, int fd, uint64_t arg);
/* Is the directory (dev, ino) marked? */
bool dnotify_marked(uint64_t dev, uint64_t ino);
/* An inotify event (IN_* mask) on (dev, ino): on an entry of the
 * directory, or on the directory itself. */
void dnotify_event(uint64_t dev, uint64_t ino, uint32_t mask);
/* fs closes an fd of f: the mark it set through f goes (dnotify_flush). */
void dnotify_flush(struct file *f, struct files *fs);
/* f is released: any mark through it goes. */
void dnotify_file_gone(struct file *f);

#endif
