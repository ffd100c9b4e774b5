/*
 * The event-notification fds as the x86-64 kernel takes them: epoll(7)
 * (struct epoll_event is packed on x86-64: 12 bytes), and the flags of
 * eventfd2(2) and timerfd_create(2)/timerfd_settime(2).
 */
#ifndef ABI_LINUX_EPOLL_H
#define ABI_LINUX_EPOLL_H

#include <stddef.h>
#include <stdint.h>

/* epoll_ctl(2) operations */
#define LINUX_EPOLL_CTL_ADD 1
#define LINUX_EPOLL_CTL_DEL 2
#define LINUX_EPOLL_CTL_MOD 3

/* epoll_create1(2) */
#define LINUX_EPOLL_CLOEXEC 02000000

/* Event bits: the low ones are the POLL* bits of abi/linux/poll.h. */
#define LINUX_EPOLLIN	     0x00000001U
#define LINUX_EPOLLPRI	     0x00000002U
#define LINUX_EPOLLOUT	     0x00000004U
#define LINUX_EPOLLERR	     0x00000008U
#define LINUX_EPOLLHUP	     0x00000010U
#define LINUX_EPOLLNVAL	     0x00000020U
#define LINUX_EPOLLRDNORM    0x00000040U
#define LINUX_EPOLLRDBAND    0x00000080U
#define LINUX_EPOLLWRNORM    0x00000100U
#define LINUX_EPOLLWRBAND    0x00000200U
#define LINUX_EPOLLMSG	     0x00000400U
#define LINUX_EPOLLRDHUP     0x00002000U
#define LINUX_EPOLLEXCLUSIVE (1U << 28)
#define LINUX_EPOLLWAKEUP    (1U << 29)
#define LINUX_EPOLLONESHOT   (1U << 30)
#define LINUX_EPOLLET	     (1U << 31)

struct linux_epoll_event {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));
_Static_assert(sizeof(struct linux_epoll_event) == 12, "linux_epoll_event size");
_Static_assert(offsetof(struct linux_epoll_event, data) == 4, "linux_epoll_event data");

/* eventfd2(2) */
#define LINUX_EFD_SEMAPHORE 00000001
#define LINUX_EFD_NONBLOCK  00004000
#define LINUX_EFD_CLOEXEC   02000000

/* timerfd_create(2), timerfd_settime(2) */
#define LINUX_TFD_NONBLOCK	      00004000
#define LINUX_TFD_CLOEXEC	      02000000
#define LINUX_TFD_TIMER_ABSTIME	      (1 << 0)
#define LINUX_TFD_TIMER_CANCEL_ON_SET (1 << 1)

#endif /* ABI_LINUX_EPOLL_H */
