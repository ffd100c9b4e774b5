/* vfs/inotify.h: inotify instances and their watches. Watches are kept
 * per file identity (st_dev, st_ino), so every inode object of a file sees
 * them; vfs/fsnotify.c decides which events a VFS change makes and calls
 * inotify_event for the inode and for its parent directory. */
#ifndef VFS_INOTIFY_H
#define VFS_INOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#define IN_ACCESS	 0x00000001
#define IN_MODIFY	 0x00000002
#define IN_ATTRIB	 0x00000004
#define IN_CLOSE_WRITE	 0x00000008
#define IN_CLOSE_NOWRITE 0x00000010
#define IN_OPEN		 0x00000020
#define IN_MOVED_FROM	 0x00000040
#define IN_MOVED_TO	 0x00000080
#define IN_CREATE	 0x00000100
#define IN_DELETE	 0x00000200
#define IN_DELETE_SELF	 0x00000400
#define IN_MOVE_SELF	 0x00000800
#define IN_ALL_EVENTS	 0x00000fff
#define IN_UNMOUNT	 0x00002000
#define IN_Q_OVERFLOW	 0x00004000
#define IN_IGNORED	 0x00008000
#define IN_ONLYDIR	 0x01000000
#define IN_DONT_FOLLOW	 0x02000000
#define IN_EXCL_UNLINK	 0x04000000
#define IN_MASK_CREATE	 0x10000000
#define IN_MASK_ADD	 0x20000000
#define IN_ISDIR	 0x40000000
#define IN_ONESHOT	 0x80000000

/* /proc/sys/fs/inotify/: per instance, per user, per user */
#define INOTIFY_MAX_QUEUED_EVENTS  16384
#define INOTIFY_MAX_USER_INSTANCES 128
#define INOTIFY_MAX_USER_WATCHES   65536

/* How many watches exist at all (0: every hook returns at once). */
extern int inotify_nwatches;

/* Is (dev, ino) watched by anybody? */
bool inotify_watched(uint64_t dev, uint64_t ino);
/* An event on (dev, ino); name is the child's name for an event a
 * directory hears about its entry (NULL otherwise); child_unlinked says
 * the child has no links left (watches with IN_EXCL_UNLINK skip it). */
void inotify_event(uint64_t dev, uint64_t ino, uint32_t mask, uint32_t cookie, const char *name,
		   bool child_unlinked);
/* The file (dev, ino) is gone: its watches end with IN_IGNORED. */
void inotify_inode_gone(uint64_t dev, uint64_t ino);
/* The file lost its last name but is still open: its IN_DELETE_SELF waits
 * for the last close (pending says whether one is waiting). */
void inotify_set_gone_pending(uint64_t dev, uint64_t ino);
bool inotify_gone_pending(uint64_t dev, uint64_t ino);

#endif
