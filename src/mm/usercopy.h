/* mm/usercopy.h: the only way the kernel touches guest memory. Every
 * address is checked against the VMAs first: a bad pointer is -EFAULT. */
#ifndef MM_USERCOPY_H
#define MM_USERCOPY_H

#include <stddef.h>

#include "mm/mm.h"

/* All or nothing: 0 or -EFAULT. */
int copy_from_user(struct mm *mm, void *dst, uaddr_t src, size_t n);
int copy_to_user(struct mm *mm, uaddr_t dst, const void *src, size_t n);
/* Copies a NUL-terminated string of at most max-1 bytes plus NUL. Returns
 * its length, -EFAULT, or -ENAMETOOLONG if no NUL came within max bytes. */
long strncpy_from_user(struct mm *mm, char *dst, uaddr_t src, size_t max);
/* Like copy_to_user, but writes only the accessible prefix (as a faulting
 * copy_to_user in Linux does). Returns bytes written or -EFAULT if none. */
long copy_to_user_partial(struct mm *mm, uaddr_t dst, const void *src, size_t n);
/* Bytes of [addr, addr+n) the guest can have written to (or read from). */
size_t user_prefix(struct mm *mm, uaddr_t addr, size_t n, bool write);
/* Like copy_to_user, ignoring page protections (exec building a stack). */
int poke_user(struct mm *mm, uaddr_t dst, const void *src, size_t n);

#endif
