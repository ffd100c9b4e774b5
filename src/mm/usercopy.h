/* mm/usercopy.h: the only way the kernel touches guest memory. Every
 * address is checked against the VMAs first: a bad pointer is -EFAULT. */
#ifndef MM_USERCOPY_H
#define MM_USERCOPY_H

#include <stddef.h>

#include "mm/mm.h"

/* All or nothing: 0 or -EFAULT. */
int copy_from_user(struct mm *mm, void *dst, uaddr_t src, size_t n);
int copy_to_user(struct mm *mm, uaddr_t dst, const void *src, size_t n);
/* Linux's futex_cmpxchg_value_locked: the aligned 32-bit word at addr
 * becomes new if it is old, atomically against the guest's own threads.
 * *cur is what the word held: the exchange was made iff *cur == old. 0,
 * -EFAULT (not mapped writable), or -EAGAIN if the guest kept changing it
 * under us (the caller starts over, as Linux's callers do). */
int cmpxchg_user32(struct mm *mm, uaddr_t addr, uint32_t old, uint32_t new, uint32_t *cur);
/* FUTEX_WAKE_OP's operation (LINUX_FUTEX_OP_SET..XOR) with arg on the
 * aligned 32-bit word at addr, atomically in place (Linux's
 * arch_futex_atomic_op_inuser): 0 with the old value in *old, or -EFAULT
 * (not mapped writable). */
int futex_op_user32(struct mm *mm, uaddr_t addr, int op, uint32_t arg, uint32_t *old);
/* Copies a NUL-terminated string of at most max-1 bytes plus NUL. Returns
 * its length, -EFAULT, or -ENAMETOOLONG if no NUL came within max bytes. */
long strncpy_from_user(struct mm *mm, char *dst, uaddr_t src, size_t max);
/* Like copy_to_user, but writes only the accessible prefix (as a faulting
 * copy_to_user in Linux does). Returns bytes written or -EFAULT if none. */
long copy_to_user_partial(struct mm *mm, uaddr_t dst, const void *src, size_t n);
/* As Linux's copy_to_user: 0, or -EFAULT once the accessible prefix is
 * written (x86's copy stops at the faulting byte). For Linux's put_user,
 * one store that writes nothing when it faults, use copy_to_user. */
int copy_to_user_upto(struct mm *mm, uaddr_t dst, const void *src, size_t n);
/* Bytes of [addr, addr+n) the guest can have written to (or read from),
 * the stack grown down over them as a fault there would grow it. */
size_t user_prefix(struct mm *mm, uaddr_t addr, size_t n, bool write);
/* Like copy_to_user, ignoring page protections (exec building a stack). */
int poke_user(struct mm *mm, uaddr_t dst, const void *src, size_t n);
/* poke_user of several ranges at once (one host call where the platform
 * can): writes queued with poke_user_add go with poke_user_flush (or
 * with the add that finds the queue full). 0 or -EFAULT. */
#define USER_POKE_MAX 16
struct user_pokes {
	struct mm *mm;
	int n;
	struct {
		uaddr_t addr;
		const void *src;
		size_t len;
	} v[USER_POKE_MAX];
};
int poke_user_add(struct user_pokes *pk, uaddr_t dst, const void *src, size_t n);
int poke_user_flush(struct user_pokes *pk);

/* A read-ahead window over guest memory, for many small reads close
 * together (execve's argv and envp: a pointer and a string each): one
 * platform read per window of up to USER_READER_SIZE readable bytes instead
 * of one per pointer and per string. The bytes are those of the moment the
 * window was read (a guest that changes them meanwhile races, as on Linux). */
#define USER_READER_SIZE (16 * 1024)

struct user_reader {
	struct mm *mm;
	uaddr_t base; /* the window: [base, base + len) */
	size_t len;
	/* Another window over the same memory (or NULL): an address it holds
	 * is taken from it, not read again (execve's path, pointers and
	 * strings often share the caller's stack page). */
	struct user_reader *peer;
	char buf[USER_READER_SIZE];
};

void user_reader_init(struct user_reader *r, struct mm *mm);
/* Makes a and b (initialized) each other's peer. */
void user_reader_pair(struct user_reader *a, struct user_reader *b);
/* Fills the window from addr's page on if addr is readable as it is (no
 * error: a later read reports it). */
void user_reader_prefetch(struct user_reader *r, uaddr_t addr);
/* As copy_from_user and strncpy_from_user, through the window. */
int user_reader_copy(struct user_reader *r, void *dst, uaddr_t src, size_t n);
long user_reader_strncpy(struct user_reader *r, char *dst, uaddr_t src, size_t max);

#endif
