/* fs/nsfs/nsfs.h: namespace files (Linux's nsfs): what /proc/PID/ns/TYPE
 * leads to. Opening one gives a file that names the namespace: fstat
 * shows its inode number, setns(2) enters it, the NS_GET_* ioctls ask
 * about it, and it keeps the namespace alive while open. */
#ifndef FS_NSFS_NSFS_H
#define FS_NSFS_NSFS_H

#include <stddef.h>

#include "vfs/vfs.h"
#include "kernel/nsproxy.h"

struct file;

/* A path to ns's file (a reference in *out): 0 or -ENOMEM. */
int nsfs_path(struct ns_common *ns, struct path *out);
/* The namespace f names, or NULL if f is no namespace file. */
struct ns_common *nsfs_ns(struct file *f);
/* "uts:[4026531838]": readlink's name of ns, in buf of n bytes. */
void nsfs_name(struct ns_common *ns, char *buf, size_t n);

#endif
