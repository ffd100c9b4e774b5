/* mm/internal.h: VMA list operations that mm.c shares with the other files
 * of mm/ (mlock.c); nothing outside mm/ includes this. */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include "mm/mm.h"

/* Splits v at addr (inside it): v keeps [start, addr), a new VMA the rest.
 * -EINVAL for the vDSO's parts, -ENOMEM over vm.max_map_count. */
int vma_split(struct mm *mm, struct vma *v, uaddr_t addr);
/* Splits *v, which holds [start, end), at those edges it does not have:
 * *v is then the VMA of exactly [start, end). 0, or vma_split's error. */
int vma_isolate(struct mm *mm, struct vma **v, uaddr_t start, uaddr_t end);
/* Does b continue a (a ends where b starts, the same mapping of the same
 * object with the same protection, flags and NUMA policy): Linux would
 * have them as one VMA. */
bool vma_continues(const struct vma *a, const struct vma *b);
/* Merges v with its neighbours when they continue each other; v may be
 * freed. */
void vma_try_merge(struct mm *mm, struct vma *v);

#endif
