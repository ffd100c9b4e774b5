/* vfs/epoll.h: what the rest of the VFS tells epoll. */
#ifndef VFS_EPOLL_H
#define VFS_EPOLL_H

#include <stdint.h>

struct file;

/* f's last reference is going: its items leave every epoll. */
void epoll_file_release(struct file *f);

/* kcmp's KCMP_EPOLL_TFD (Linux's get_epoll_tfile_raw_ptr): the file of the
 * toff-th item of epoll f added under fd tfd, in the order the items were
 * added (no reference); NULL with *err -EINVAL if f is not an epoll,
 * -ENOENT if there is no such item. */
struct file *epoll_item_file(struct file *f, int tfd, uint64_t toff, int *err);

#endif
