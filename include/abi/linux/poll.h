/* abi/linux/poll.h: poll(2) and select(2) as the x86-64 kernel takes them. */
#ifndef ABI_LINUX_POLL_H
#define ABI_LINUX_POLL_H

#include <stddef.h>
#include <stdint.h>

#define LINUX_POLLIN	 0x0001
#define LINUX_POLLPRI	 0x0002
#define LINUX_POLLOUT	 0x0004
#define LINUX_POLLERR	 0x0008
#define LINUX_POLLHUP	 0x0010
#define LINUX_POLLNVAL	 0x0020
#define LINUX_POLLRDNORM 0x0040
#define LINUX_POLLRDBAND 0x0080
#define LINUX_POLLWRNORM 0x0100
#define LINUX_POLLWRBAND 0x0200
#define LINUX_POLLMSG	 0x0400
#define LINUX_POLLRDHUP	 0x2000

struct linux_pollfd {
	int32_t fd;
	int16_t events;
	int16_t revents;
};
_Static_assert(sizeof(struct linux_pollfd) == 8, "linux_pollfd size");
_Static_assert(offsetof(struct linux_pollfd, revents) == 6, "linux_pollfd revents");

#define LINUX_FD_SETSIZE 1024

#endif
