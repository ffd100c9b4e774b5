/* abi/linux/aio.h: the native asynchronous I/O interface (linux/aio_abi.h
 * and fs/aio.c's ring). */
#ifndef ABI_LINUX_AIO_H
#define ABI_LINUX_AIO_H

#include <stdint.h>

#define LINUX_IOCB_CMD_PREAD   0
#define LINUX_IOCB_CMD_PWRITE  1
#define LINUX_IOCB_CMD_FSYNC   2
#define LINUX_IOCB_CMD_FDSYNC  3
#define LINUX_IOCB_CMD_POLL    5
#define LINUX_IOCB_CMD_NOOP    6
#define LINUX_IOCB_CMD_PREADV  7
#define LINUX_IOCB_CMD_PWRITEV 8

#define LINUX_IOCB_FLAG_RESFD  (1 << 0)
#define LINUX_IOCB_FLAG_IOPRIO (1 << 1)

/* struct iocb, little-endian: aio_key before aio_rw_flags */
struct linux_iocb {
	uint64_t aio_data;
	uint32_t aio_key;
	int32_t aio_rw_flags;
	uint16_t aio_lio_opcode;
	int16_t aio_reqprio;
	uint32_t aio_fildes;
	uint64_t aio_buf;
	uint64_t aio_nbytes;
	int64_t aio_offset;
	uint64_t aio_reserved2;
	uint32_t aio_flags;
	uint32_t aio_resfd;
};
_Static_assert(sizeof(struct linux_iocb) == 64, "linux_iocb size");

struct linux_io_event {
	uint64_t data;
	uint64_t obj;
	int64_t res;
	int64_t res2;
};
_Static_assert(sizeof(struct linux_io_event) == 32, "linux_io_event size");

/* The ring's header at the start of its pages (fs/aio.c struct aio_ring);
 * the events follow. */
struct linux_aio_ring {
	uint32_t id;
	uint32_t nr;
	uint32_t head;
	uint32_t tail;
	uint32_t magic;
	uint32_t compat_features;
	uint32_t incompat_features;
	uint32_t header_length;
};
_Static_assert(sizeof(struct linux_aio_ring) == 32, "linux_aio_ring size");

#define LINUX_AIO_RING_MAGIC	       0xa10a10a1U
#define LINUX_AIO_RING_COMPAT_FEATURES 1
#define LINUX_KIOCB_KEY		       0

#endif
