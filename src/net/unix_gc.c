/* net/unix_gc.c: the garbage collector of AF_UNIX sockets. A socket sent
 * over a socket rides as a file reference in a queue; sockets can end up
 * held only by each other's queues (or their own), with no fd left
 * anywhere. When a socket is closed and some queued buffer carries files,
 * the collector finds the sockets whose every reference is in a queue and
 * that no other socket's queue leads to, and purges their queues, as
 * Linux's unix_gc does (synchronously here). */
#include <stdlib.h>

#include "net/unix.h"
#include "vfs/file.h"

int unix_skbs_with_fds;

static struct unix_sock *unix_of_file(struct file *f)
{
	struct socket *s = sock_from_file(f);

	return s && s->family == LINUX_AF_UNIX ? unix_sk(s) : NULL;
}

struct gc_work {
	struct unix_sock **stack;
	int n;
};

/* Calls fn for every AF_UNIX socket whose file rides in u's queue (or in
 * the queues of the connections waiting there). */
static void scan_children(struct unix_sock *u, void (*fn)(struct unix_sock *, struct gc_work *),
			  struct gc_work *w)
{
	struct skb *skb;
	int i;

	list_for_each_entry(skb, &u->queue, link)
	{
		if (skb->embryo)
			scan_children(skb->embryo, fn, w);
		for (i = 0; i < skb->scm.nfds; i++) {
			struct unix_sock *c = unix_of_file(skb->scm.fds[i]);

			if (c)
				fn(c, w);
		}
	}
}

static void inc_inflight(struct unix_sock *c, struct gc_work *w)
{
	(void)w;
	c->gc_inflight++;
}

static void mark_alive(struct unix_sock *c, struct gc_work *w)
{
	if (c->gc_candidate && !c->gc_alive) {
		c->gc_alive = true;
		w->stack[w->n++] = c;
	}
}

/* A socket whose file is referenced only from queues is a candidate; the
 * candidates no other socket's queue leads to are garbage: their queues
 * are purged, which drops the references that kept them. */
void unix_gc(void)
{
	static bool running;
	struct gc_work w = { NULL, 0 };
	struct unix_sock *u;
	int n = 0, i;

	if (running || !unix_skbs_with_fds)
		return;
	running = true;
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		u->gc_inflight = 0;
		u->gc_alive = false;
		n++;
	}
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		if (u->sk.file)
			scan_children(u, inc_inflight, &w);
	}
	w.stack = malloc((n ? n : 1) * sizeof(*w.stack));
	if (!w.stack)
		goto out;
	/* the roots: sockets held from outside the queues */
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		u->gc_candidate = u->sk.file && u->gc_inflight == u->sk.file->refcount;
		if (u->sk.file && !u->gc_candidate)
			w.stack[w.n++] = u;
	}
	while (w.n > 0) {
		u = w.stack[--w.n];
		scan_children(u, mark_alive, &w);
	}
	list_for_each_entry(u, &unix_every_sock, all_link)
	{
		if (u->gc_candidate && !u->gc_alive) {
			unix_get(u);
			w.stack[w.n++] = u;
		}
	}
	for (i = 0; i < w.n; i++)
		unix_purge_queue(w.stack[i]);
	for (i = 0; i < w.n; i++)
		unix_put(w.stack[i]);
	free(w.stack);
out:
	running = false;
}
