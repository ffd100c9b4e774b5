/* ipc/msg.c: System V message queues. A send hands its message straight to
 * the oldest waiting receiver that wants it (Linux's pipelined send), or
 * queues it; senders wait while msg_qbytes would overflow. msgrcv selects
 * by type (0, >0, <0, MSG_EXCEPT) and MSG_COPY peeks at the n-th message.
 * Waits are interruptible (restarted only for a signal without handler, as
 * Linux's ERESTARTNOHAND) and removal wakes them with EIDRM. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "mm/commit.h"
#include "mm/usercopy.h"
#include "abi/linux/errno.h"

struct msg_msg {
	struct list_head link;
	int64_t mtype;
	size_t size;
	char data[];
};

struct msg_queue {
	struct kern_ipc_perm perm; /* first: the table holds &perm */
	int64_t stime, rtime, ctime;
	uint64_t cbytes, qnum, qbytes;
	int lspid, lrpid;
	struct list_head messages;  /* struct msg_msg, oldest first */
	struct list_head receivers; /* struct msg_receiver */
	struct waitq senders;
};

enum { SEARCH_ANY, SEARCH_EQUAL, SEARCH_NOTEQUAL, SEARCH_LESSEQUAL, SEARCH_NUMBER };

/* A sleeping msgrcv, on its caller's kernel stack. */
struct msg_receiver {
	struct list_head link;
	struct task *task;
	int64_t type;
	int mode;
	size_t maxsize;
	struct msg_msg *msg; /* handed over by a sender */
	int status;	     /* 1 while waiting; 0 (msg set), -E2BIG, -EIDRM, -EAGAIN (retry) */
};

static struct msg_queue *msq_of(struct kern_ipc_perm *p)
{
	return (struct msg_queue *)p;
}

/* A queued message is kernel memory the guest holds: counted against
 * --memory (Linux charges it to the memcg), since each IPC namespace has
 * its own queue limits and namespaces are many. ENOMEM past it. */
static struct msg_msg *msg_alloc(long size)
{
	uint64_t bytes = sizeof(struct msg_msg) + (uint64_t)size;
	struct msg_msg *m;

	if (!mem_take_kernel(bytes))
		return NULL;
	m = malloc(bytes);
	if (!m)
		mem_give_kernel(bytes);
	return m;
}

static void msg_free(struct msg_msg *m)
{
	mem_give_kernel(sizeof(*m) + (uint64_t)m->size);
	free(m);
}

static bool testmsg(const struct msg_msg *m, int64_t type, int mode)
{
	switch (mode) {
	case SEARCH_EQUAL:
		return m->mtype == type;
	case SEARCH_NOTEQUAL:
		return m->mtype != type;
	case SEARCH_LESSEQUAL:
		return m->mtype <= type;
	default:
		return true;
	}
}

/* msgget */

static int msg_create(struct task *t, int32_t key, int flg, void *arg)
{
	struct msg_queue *q = calloc(1, sizeof(*q));
	int ret;

	(void)arg;
	if (!q)
		return -ENOMEM;
	q->qbytes = ipc_ns_of(t)->msg_ctlmnb;
	q->ctime = ipc_now();
	list_init(&q->messages);
	list_init(&q->receivers);
	waitq_init(&q->senders);
	ret = ipc_add(&ipc_ns_of(t)->msg_ids, &q->perm, t, key, flg);
	if (ret < 0)
		free(q);
	return ret;
}

static const struct ipc_ops msg_ops = { .create = msg_create };

long sys_msgget(struct task *t, const struct sysargs *a)
{
	return ipc_get(t, &ipc_ns_of(t)->msg_ids, (int32_t)sysarg_int(a, 0), sysarg_int(a, 1),
		       &msg_ops, NULL);
}

/* msgsnd */

static bool pipelined_send(struct msg_queue *q, struct msg_msg *m)
{
	struct msg_receiver *r, *n;

	list_for_each_entry_safe(r, n, &q->receivers, link)
	{
		if (!testmsg(m, r->type, r->mode))
			continue;
		list_del(&r->link);
		sched_wake(r->task);
		if (r->maxsize < m->size) {
			r->status = -E2BIG;
			continue;
		}
		q->lrpid = r->task->proc->pid;
		q->rtime = ipc_now();
		r->msg = m;
		r->status = 0;
		return true;
	}
	return false;
}

static long do_msgsnd(struct task *t, int msqid, uaddr_t msgp, int64_t msgsz, int flg)
{
	struct kern_ipc_perm *p;
	struct msg_queue *q;
	struct msg_msg *m;
	int64_t mtype;
	long ret;

	if (copy_from_user(t->mm, &mtype, msgp, sizeof(mtype)) < 0)
		return -EFAULT;
	if (msgsz > ipc_ns_of(t)->msg_ctlmax || msgsz < 0 || msqid < 0)
		return -EINVAL;
	if (mtype < 1)
		return -EINVAL;
	m = msg_alloc(msgsz);
	if (!m)
		return -ENOMEM;
	m->mtype = mtype;
	m->size = (size_t)msgsz;
	ret = -EFAULT;
	if (copy_from_user(t->mm, m->data, msgp + 8, (size_t)msgsz) < 0)
		goto out;
	ret = -EINVAL;
	p = ipc_lookup(&ipc_ns_of(t)->msg_ids, msqid);
	if (!p)
		goto out;
	q = msq_of(p);
	for (;;) {
		ret = ipc_perms(t, p, 0222);
		if (ret < 0)
			goto out;
		if (p->deleted) {
			ret = -EIDRM;
			goto out;
		}
		if (m->size + q->cbytes <= q->qbytes && 1 + q->qnum <= q->qbytes)
			break;
		ret = -EAGAIN;
		if (flg & LINUX_IPC_NOWAIT)
			goto out;
		ret = -ERESTARTNOHAND;
		if (signal_pending(t))
			goto out;
		waitq_sleep(&q->senders);
		if (p->deleted) {
			if (list_empty(&q->senders.waiters))
				free(q); /* the last sender of a removed queue */
			ret = -EIDRM;
			goto out;
		}
	}
	q->lspid = ipc_pid(t);
	q->stime = ipc_now();
	if (!pipelined_send(q, m)) {
		list_add_tail(&m->link, &q->messages);
		q->cbytes += m->size;
		q->qnum++;
		q->perm.ns->msg_hdrs++;
		q->perm.ns->msg_bytes += m->size;
	}
	return 0;
out:
	msg_free(m);
	return ret;
}

long sys_msgsnd(struct task *t, const struct sysargs *a)
{
	return do_msgsnd(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_long(a, 2),
			 sysarg_int(a, 3));
}

/* msgrcv */

static struct msg_msg *find_msg(struct msg_queue *q, int64_t *type, int mode)
{
	struct msg_msg *m, *found = NULL;
	int64_t count = 0;

	list_for_each_entry(m, &q->messages, link)
	{
		if (!testmsg(m, *type, mode))
			continue;
		if (mode == SEARCH_LESSEQUAL && m->mtype != 1) {
			*type = m->mtype - 1;
			found = m;
		} else if (mode == SEARCH_NUMBER) {
			if (*type == count)
				return m;
		} else {
			return m;
		}
		count++;
	}
	return found;
}

static void msg_unlink(struct task *t, struct msg_queue *q, struct msg_msg *m)
{
	list_del(&m->link);
	q->qnum--;
	q->cbytes -= m->size;
	q->perm.ns->msg_hdrs--;
	q->perm.ns->msg_bytes -= m->size;
	q->rtime = ipc_now();
	q->lrpid = ipc_pid(t);
	waitq_wake_all(&q->senders);
}

/* Sleeps for a message; 0 with r->msg, or -errno (-EAGAIN: look again). */
static int msg_wait(struct task *t, struct msg_queue *q, struct msg_receiver *r)
{
	r->task = t;
	r->msg = NULL;
	r->status = 1;
	list_add_tail(&r->link, &q->receivers);
	while (r->status == 1 && !signal_pending(t)) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	if (r->status != 1)
		return r->status; /* q may be gone after -EIDRM */
	list_del(&r->link);
	return -ERESTARTNOHAND;
}

static long do_msgrcv(struct task *t, int msqid, uaddr_t msgp, int64_t bufsz, int64_t type, int flg)
{
	struct msg_receiver r = { .task = t };
	struct kern_ipc_perm *p;
	struct msg_queue *q;
	struct msg_msg *m;
	size_t n;
	int mode, ret;

	if (msqid < 0 || bufsz < 0)
		return -EINVAL;
	if (flg & LINUX_MSG_COPY) {
		if ((flg & LINUX_MSG_EXCEPT) || !(flg & LINUX_IPC_NOWAIT))
			return -EINVAL;
		mode = SEARCH_NUMBER;
	} else if (type == 0) {
		mode = SEARCH_ANY;
	} else if (type < 0) {
		type = type == INT64_MIN ? INT64_MAX : -type;
		mode = SEARCH_LESSEQUAL;
	} else {
		mode = (flg & LINUX_MSG_EXCEPT) ? SEARCH_NOTEQUAL : SEARCH_EQUAL;
	}
	if (flg & LINUX_MSG_COPY) {
		/* Linux's prepare_copy loads the buffer first: EFAULT before
		 * the id is looked at. */
		long max = ipc_ns_of(t)->msg_ctlmax;
		size_t len = bufsz < max ? (size_t)bufsz : (size_t)max;
		char *tmp;

		if (!mem_take_kernel(len)) /* msgmax may be 2 GiB */
			return -ENOMEM;
		tmp = malloc(len ? len : 1);
		if (!tmp) {
			mem_give_kernel(len);
			return -ENOMEM;
		}
		ret = copy_from_user(t->mm, tmp, msgp, len) < 0 ? -EFAULT : 0;
		free(tmp);
		mem_give_kernel(len);
		if (ret < 0)
			return ret;
	}
	p = ipc_lookup(&ipc_ns_of(t)->msg_ids, msqid);
	if (!p)
		return -EINVAL;
	q = msq_of(p);
	for (;;) {
		int64_t want = type;

		ret = ipc_perms(t, p, 0444);
		if (ret < 0)
			return ret;
		m = find_msg(q, &want, mode);
		if (m) {
			if ((uint64_t)bufsz < m->size && !(flg & LINUX_MSG_NOERROR))
				return -E2BIG;
			if (flg & LINUX_MSG_COPY) {
				long max = ipc_ns_of(t)->msg_ctlmax;

				if (m->size > (uint64_t)(bufsz < max ? bufsz : max))
					return -EINVAL;
				n = m->size;
				goto copy_out;
			}
			msg_unlink(t, q, m);
			break;
		}
		if (flg & LINUX_IPC_NOWAIT)
			return -ENOMSG;
		r.type = want;
		r.mode = mode;
		r.maxsize = (flg & LINUX_MSG_NOERROR) ? INT_MAX : (size_t)bufsz;
		ret = msg_wait(t, q, &r);
		if (ret == 0) {
			m = r.msg;
			break;
		}
		if (ret != -EAGAIN)
			return ret;
		/* Woken to look again (IPC_SET): the queue may have been
		 * removed, and freed, before this task ran (an IPC_RMID that
		 * was on the run queue first); look it up by its id anew, as
		 * Linux checks ipc_valid_object. */
		p = ipc_lookup(&ipc_ns_of(t)->msg_ids, msqid);
		if (!p)
			return -EIDRM;
		q = msq_of(p);
	}
	n = m->size < (uint64_t)bufsz ? m->size : (size_t)bufsz;
	ret = (copy_to_user(t->mm, msgp, &m->mtype, sizeof(m->mtype)) < 0 ||
	       copy_to_user(t->mm, msgp + 8, m->data, n) < 0)
		      ? -EFAULT
		      : 0;
	msg_free(m); /* Linux too loses a message it cannot copy out */
	return ret < 0 ? ret : (long)n;
copy_out:
	if (copy_to_user(t->mm, msgp, &m->mtype, sizeof(m->mtype)) < 0 ||
	    copy_to_user(t->mm, msgp + 8, m->data, n) < 0)
		return -EFAULT;
	return (long)n;
}

long sys_msgrcv(struct task *t, const struct sysargs *a)
{
	return do_msgrcv(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_long(a, 2),
			 sysarg_long(a, 3), sysarg_int(a, 4));
}

/* msgctl */

static void expunge_all(struct msg_queue *q, int status)
{
	struct msg_receiver *r, *n;

	list_for_each_entry_safe(r, n, &q->receivers, link)
	{
		list_del(&r->link);
		r->status = status;
		sched_wake(r->task);
	}
}

static void freeque(struct msg_queue *q)
{
	struct msg_msg *m, *n;

	ipc_remove(&q->perm.ns->msg_ids, &q->perm);
	expunge_all(q, -EIDRM);
	/* Senders wake, see the queue deleted and leave; the memory waits
	 * until the last of them is gone. */
	list_for_each_entry_safe(m, n, &q->messages, link)
	{
		q->perm.ns->msg_hdrs--;
		q->perm.ns->msg_bytes -= m->size;
		msg_free(m);
	}
	list_init(&q->messages);
	if (list_empty(&q->senders.waiters)) {
		free(q);
		return;
	}
	waitq_wake_all(&q->senders);
}

static long msgctl_info(struct task *t, int cmd, uaddr_t buf)
{
	struct ipc_ns *ns = ipc_ns_of(t);
	struct linux_msginfo mi = {
		.msgmni = ns->msg_ids.mni,
		.msgmax = ns->msg_ctlmax,
		.msgmnb = ns->msg_ctlmnb,
		.msgssz = LINUX_MSGSSZ,
		.msgseg = LINUX_MSGSEG,
		.msgmap = LINUX_MSGMAP,
		.msgpool = LINUX_MSGPOOL,
		.msgtql = LINUX_MSGTQL,
	};

	if (cmd == LINUX_MSG_INFO) {
		mi.msgpool = ns->msg_ids.in_use;
		mi.msgmap = (int32_t)ns->msg_hdrs;
		mi.msgtql = (int32_t)ns->msg_bytes;
	}
	if (copy_to_user(t->mm, buf, &mi, sizeof(mi)) < 0)
		return -EFAULT;
	return ns->msg_ids.max_idx < 0 ? 0 : ns->msg_ids.max_idx;
}

static long msgctl_stat(struct task *t, int msqid, int cmd, uaddr_t buf)
{
	struct linux_msqid64_ds ds;
	struct kern_ipc_perm *p;
	struct msg_queue *q;
	int ret;

	p = ipc_stat_lookup(&ipc_ns_of(t)->msg_ids, t, msqid, cmd == LINUX_IPC_STAT,
			    cmd == LINUX_MSG_STAT_ANY, &ret);
	if (!p)
		return ret;
	q = msq_of(p);
	memset(&ds, 0, sizeof(ds));
	ipc_perm_to_user(p, &ds.msg_perm);
	ds.msg_stime = q->stime;
	ds.msg_rtime = q->rtime;
	ds.msg_ctime = q->ctime;
	ds.msg_cbytes = q->cbytes;
	ds.msg_qnum = q->qnum;
	ds.msg_qbytes = q->qbytes;
	ds.msg_lspid = pid_vnr(t, q->lspid);
	ds.msg_lrpid = pid_vnr(t, q->lrpid);
	if (copy_to_user(t->mm, buf, &ds, sizeof(ds)) < 0)
		return -EFAULT;
	return cmd == LINUX_IPC_STAT ? 0 : p->id;
}

static long msgctl_down(struct task *t, int msqid, int cmd, const struct linux_msqid64_ds *ds)
{
	struct kern_ipc_perm *p = ipc_lookup(&ipc_ns_of(t)->msg_ids, msqid);
	struct msg_queue *q;
	int ret, qbytes;

	if (!p)
		return -EINVAL;
	ret = ipc_owner_check(t, p);
	if (ret < 0)
		return ret;
	q = msq_of(p);
	if (cmd == LINUX_IPC_RMID) {
		freeque(q);
		return 0;
	}
	/* Linux's msgctl_down takes msg_qbytes as an int, compares it with
	 * the unsigned msgmnb and stores it sign-extended. */
	qbytes = (int)ds->msg_qbytes;
	if ((unsigned)qbytes > (unsigned)ipc_ns_of(t)->msg_ctlmnb &&
	    !capable(&t->proc->cred, CAP_SYS_RESOURCE))
		return -EPERM;
	ret = ipc_perm_set(p, &ds->msg_perm);
	if (ret < 0)
		return ret;
	q->qbytes = (uint64_t)(int64_t)qbytes;
	q->ctime = ipc_now();
	expunge_all(q, -EAGAIN); /* receivers check their permission again */
	waitq_wake_all(&q->senders);
	return 0;
}

long sys_msgctl(struct task *t, const struct sysargs *a)
{
	int msqid = sysarg_int(a, 0), cmd = sysarg_int(a, 1);
	uaddr_t buf = sysarg_uaddr(a, 2);
	struct linux_msqid64_ds ds;

	if (msqid < 0 || cmd < 0)
		return -EINVAL;
	switch (cmd) {
	case LINUX_IPC_INFO:
	case LINUX_MSG_INFO:
		return msgctl_info(t, cmd, buf);
	case LINUX_IPC_STAT:
	case LINUX_MSG_STAT:
	case LINUX_MSG_STAT_ANY:
		return msgctl_stat(t, msqid, cmd, buf);
	case LINUX_IPC_SET:
		if (copy_from_user(t->mm, &ds, buf, sizeof(ds)) < 0)
			return -EFAULT;
		return msgctl_down(t, msqid, cmd, &ds);
	case LINUX_IPC_RMID:
		return msgctl_down(t, msqid, cmd, NULL);
	default:
		return -EINVAL;
	}
}

void msg_proc_show(ipc_emit_fn emit, void *arg)
{
	struct ipc_ns *ns = ipc_ns_of(current);
	char line[192];

	emit(arg,
	     "       key      msqid perms      cbytes       qnum lspid lrpid   uid   gid  cuid  "
	     "cgid      stime      rtime      ctime\n");
	for (int i = 0; i <= ns->msg_ids.max_idx; i++) {
		struct linux_ipc64_perm u;
		struct kern_ipc_perm *p = ipc_at(&ns->msg_ids, i);
		struct msg_queue *q;

		if (!p)
			continue;
		ipc_perm_to_user(p, &u); /* the reader's ids */
		q = msq_of(p);
		snprintf(line, sizeof(line),
			 "%10d %10d  %4o  %10llu %10llu %5d %5d %5u %5u %5u %5u %10lld %10lld "
			 "%10lld\n",
			 p->key, p->id, p->mode, (unsigned long long)q->cbytes,
			 (unsigned long long)q->qnum, pid_vnr(current, q->lspid),
			 pid_vnr(current, q->lrpid), u.uid, u.gid, u.cuid, u.cgid,
			 (long long)q->stime, (long long)q->rtime, (long long)q->ctime);
		emit(arg, line);
	}
}

/* The namespace's end: its queues go (no task of it is left to wait on
 * one). */
void msg_exit_ns(struct ipc_ns *ns)
{
	for (int i = 0; i <= ns->msg_ids.max_idx; i++) {
		struct kern_ipc_perm *p = ipc_at(&ns->msg_ids, i);

		if (p)
			freeque(msq_of(p));
	}
}
