/* vfs/epoll.h: what the rest of the VFS tells epoll. */
#ifndef VFS_EPOLL_H
#define VFS_EPOLL_H

struct file;

/* f's last reference is going: its items leave every epoll. */
void epoll_file_release(struct file *f);

#endif
