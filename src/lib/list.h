/* lib/list.h: intrusive doubly linked lists, as in Linux and xv6.
 * A struct list_head is embedded in the object; container_of gets it back. */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include <stddef.h>
#include <stdbool.h>

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)     \
	{                        \
		&(name), &(name) \
	}
#define LIST_HEAD_DECL(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void list_init(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_insert_between(struct list_head *n, struct list_head *prev,
				       struct list_head *next)
{
	n->next = next;
	n->prev = prev;
	prev->next = n;
	next->prev = n;
}

/* Adds n at the tail of h. */
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	list_insert_between(n, h->prev, h);
}

/* Adds n right after h (at the head of the list h). */
static inline void list_add(struct list_head *n, struct list_head *h)
{
	list_insert_between(n, h, h->next);
}

/* Unlinks n and leaves it self-linked, so list_del twice is harmless. */
static inline void list_del(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

#define list_entry(ptr, type, member)	  container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)

#define list_for_each_entry(pos, h, member)                                              \
	for (pos = list_entry((h)->next, __typeof__(*pos), member); &pos->member != (h); \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_reverse(pos, h, member)                                      \
	for (pos = list_entry((h)->prev, __typeof__(*pos), member); &pos->member != (h); \
	     pos = list_entry(pos->member.prev, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, h, member)                     \
	for (pos = list_entry((h)->next, __typeof__(*pos), member),     \
	    n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (h); pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
