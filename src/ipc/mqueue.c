/* ipc/mqueue.c: POSIX message queues. A queue is named in its IPC
 * namespace and opened as an fd (always close-on-exec, as in Linux)
 * that reads as Linux's status line, polls readable while it holds a
 * message and writable while it has room. Messages are kept by priority,
 * oldest first within one; a send goes straight to a waiting receiver, and
 * a receive takes a waiting sender's message into the queue. mq_notify
 * signals its owner when a message arrives on an empty queue that no one
 * waits on. Timeouts are absolute CLOCK_REALTIME.
 * Differs from Linux: there is no mqueue filesystem to mount on
 * /dev/mqueue; SIGEV_THREAD needs a netlink socket, which skas does not
 * have (a socket there is EINVAL; glibc's mq_notify gives ENOSYS); a
 * registration survives its owner's exec; the deadline
 * does not follow changes of the realtime clock while waiting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "kernel/pidns.h"
#include "mm/usercopy.h"
#include "vfs/file.h"
#include "vfs/poll.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/misc.h"
#include "abi/linux/poll.h"
#include "abi/linux/stat.h"
#include "abi/linux/types.h"

#define MSG_MSG_SIZE   48 /* Linux's struct msg_msg and posix_msg_tree_node, */
#define TREE_NODE_SIZE 48 /* for RLIMIT_MSGQUEUE's accounting */
#define MQ_PATH_MAX    4096

struct mq_msg {
	struct list_head link;
	unsigned prio;
	size_t size;
	char data[];
};

/* A sleeping sender or receiver, on its caller's kernel stack. */
struct mq_waiter {
	struct list_head link;
	struct task *task;
	struct mq_msg *msg; /* a sender's message, or the one a receiver got */
	bool done;
};

struct mqueue {
	struct list_head link; /* in all_queues */
	/* Its IPC namespace; NULL once that has gone (its name went with
	 * it, its open files keep it). */
	struct ipc_ns *ns;
	char name[LINUX_MQ_NAME_MAX + 1];
	bool linked; /* still has its name */
	int nfiles;  /* open files */
	uint32_t uid, gid, charge_uid;
	unsigned mode;
	int64_t maxmsg, msgsize, curmsgs;
	uint64_t qsize;		   /* bytes of the queued messages */
	uint64_t bytes;		   /* what it counts against RLIMIT_MSGQUEUE */
	struct list_head messages; /* by priority, highest first, then age */
	struct list_head senders, receivers;
	struct waitq poll_wq;
	int notify_pid; /* the registered process, 0 if none */
	int notify_how, notify_signo;
	uint64_t notify_value;
};

/* Every queue of every namespace (RLIMIT_MSGQUEUE counts a user's in all
 * of them, as Linux's per-user count). */
static LIST_HEAD_DECL(all_queues);

static const struct file_ops mq_file_ops;

static struct mqueue *mq_lookup(struct ipc_ns *ns, const char *name)
{
	struct mqueue *q;

	list_for_each_entry(q, &all_queues,
			    link) if (q->linked && q->ns == ns && !strcmp(q->name, name)) return q;
	return NULL;
}

static void mq_free_if_unused(struct mqueue *q)
{
	struct mq_msg *m, *n;

	if (q->linked || q->nfiles > 0)
		return;
	list_for_each_entry_safe(m, n, &q->messages, link) free(m);
	list_del(&q->link);
	if (q->ns)
		q->ns->mq_queues--;
	free(q);
}

/* Copies a queue name from the guest and checks it as Linux's getname and
 * lookup_one_len do. */
static int get_mq_name(struct task *t, uaddr_t uname, char *out)
{
	char *buf = malloc(MQ_PATH_MAX);
	long len;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	len = strncpy_from_user(t->mm, buf, uname, MQ_PATH_MAX);
	if (len < 0)
		ret = (int)len;
	else if (len == 0)
		ret = -ENOENT;
	else if (!strcmp(buf, ".") || !strcmp(buf, "..") || strchr(buf, '/'))
		ret = -EACCES;
	else if (len > LINUX_MQ_NAME_MAX)
		ret = -ENAMETOOLONG;
	else
		memcpy(out, buf, (size_t)len + 1);
	free(buf);
	return ret;
}

/* The inode permission check of a queue: MAY_READ 4, MAY_WRITE 2. */
static int mq_permission(struct task *t, const struct mqueue *q, unsigned want)
{
	const struct cred *c = &t->proc->cred;
	unsigned mode = q->mode;

	if (c->fsuid == q->uid)
		mode >>= 6;
	else if (in_group(c, q->gid))
		mode >>= 3;
	if ((want & ~mode & 7) == 0)
		return 0;
	if (capable(c, CAP_DAC_OVERRIDE))
		return 0;
	if (want == 4 && capable(c, CAP_DAC_READ_SEARCH))
		return 0;
	return -EACCES;
}

/* Linux's mq_attr_ok for the caller's attributes (given: the namespace's
 * defaults are taken unchecked), and the queue's bytes. */
static int mq_attr_ok(struct task *t, const struct linux_mq_attr *attr, bool given, uint64_t *bytes)
{
	struct ipc_ns *ns = ipc_ns_of(t);
	uint64_t total, tree;

	if (given) {
		bool res = capable(&t->proc->cred, CAP_SYS_RESOURCE);
		long maxmsg = res ? LINUX_HARD_MSGMAX : ns->mq_msg_max;
		long msgsize = res ? LINUX_HARD_MSGSIZEMAX : ns->mq_msgsize_max;

		if (attr->mq_maxmsg <= 0 || attr->mq_msgsize <= 0 || attr->mq_maxmsg > maxmsg ||
		    attr->mq_msgsize > msgsize)
			return -EINVAL;
	}
	total = (uint64_t)attr->mq_maxmsg * (uint64_t)attr->mq_msgsize;
	tree = (uint64_t)attr->mq_maxmsg * MSG_MSG_SIZE +
	       (uint64_t)(attr->mq_maxmsg < LINUX_MQ_PRIO_MAX ? attr->mq_maxmsg
							      : LINUX_MQ_PRIO_MAX) *
		       TREE_NODE_SIZE;
	*bytes = total + tree;
	return 0;
}

static uint64_t user_mq_bytes(uint32_t uid)
{
	struct mqueue *q;
	uint64_t sum = 0;

	list_for_each_entry(q, &all_queues, link) if (q->charge_uid == uid) sum += q->bytes;
	return sum;
}

static int mq_create(struct task *t, const char *name, unsigned mode,
		     const struct linux_mq_attr *uattr, struct mqueue **out)
{
	/* mq_overview(7): the smaller of msg_default and msg_max (and of
	 * the sizes) */
	struct ipc_ns *ns = ipc_ns_of(t);
	struct linux_mq_attr attr = {
		.mq_maxmsg =
			ns->mq_msg_default < ns->mq_msg_max ? ns->mq_msg_default : ns->mq_msg_max,
		.mq_msgsize = ns->mq_msgsize_default < ns->mq_msgsize_max ? ns->mq_msgsize_default
									  : ns->mq_msgsize_max,
	};
	const struct cred *c = &t->proc->cred;
	uint64_t bytes, limit = t->proc->rlim[LINUX_RLIMIT_MSGQUEUE].rlim_cur;
	struct mqueue *q;
	int ret;

	if (uattr)
		attr = *uattr;
	ret = mq_attr_ok(t, &attr, uattr != NULL, &bytes);
	if (ret < 0)
		return ret;
	/* unsigned, as Linux's: -1 is no limit */
	if ((unsigned)ns->mq_queues >= (unsigned)ns->mq_queues_max && !capable(c, CAP_SYS_RESOURCE))
		return -ENOSPC;
	if (user_mq_bytes(c->uid) + bytes > limit)
		return -EMFILE;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	strcpy(q->name, name);
	q->linked = true;
	q->uid = c->fsuid;
	q->gid = c->fsgid;
	q->charge_uid = c->uid;
	q->mode = mode & ~t->proc->umask & 0777;
	q->maxmsg = attr.mq_maxmsg;
	q->msgsize = attr.mq_msgsize;
	q->bytes = bytes;
	list_init(&q->messages);
	list_init(&q->senders);
	list_init(&q->receivers);
	waitq_init(&q->poll_wq);
	list_add_tail(&q->link, &all_queues);
	q->ns = ipc_ns_of(t);
	q->ns->mq_queues++;
	*out = q;
	return 0;
}

long sys_mq_open(struct task *t, const struct sysargs *a)
{
	int oflag = sysarg_int(a, 1), fd, ret;
	unsigned mode = sysarg_uint(a, 2);
	uaddr_t uattr = sysarg_uaddr(a, 3);
	struct linux_mq_attr attr;
	char name[LINUX_MQ_NAME_MAX + 1];
	struct mqueue *q;
	struct file *f;
	bool created = false;

	if (uattr && copy_from_user(t->mm, &attr, uattr, sizeof(attr)) < 0)
		return -EFAULT;
	ret = get_mq_name(t, sysarg_uaddr(a, 0), name);
	if (ret < 0)
		return ret;
	q = mq_lookup(ipc_ns_of(t), name);
	if (q && (oflag & LINUX_O_CREAT) && (oflag & LINUX_O_EXCL))
		return -EEXIST;
	if (!q && !(oflag & LINUX_O_CREAT))
		return -ENOENT;
	if (!q) {
		ret = mq_create(t, name, mode, uattr ? &attr : NULL, &q);
		if (ret < 0)
			return ret;
		created = true;
	} else {
		static const unsigned acc[3] = { 4, 2, 6 };

		if ((oflag & LINUX_O_ACCMODE) == 3)
			return -EINVAL;
		ret = mq_permission(t, q, acc[oflag & LINUX_O_ACCMODE]);
		if (ret < 0)
			return ret;
	}
	/* Differs from Linux: O_WRONLY|O_RDWR with O_CREAT of a new queue
	 * makes the queue and then an fd that can neither read nor write;
	 * here it makes the queue and fails with EINVAL. */
	if (created && (oflag & LINUX_O_ACCMODE) == 3)
		return -EINVAL;
	f = file_alloc(&mq_file_ops, (unsigned)oflag & (LINUX_O_ACCMODE | LINUX_O_NONBLOCK), -1,
		       NULL);
	if (!f) {
		ret = -ENFILE;
		goto out_unmake;
	}
	f->priv = q;
	q->nfiles++;
	fd = fd_install(t->files, f, 0, true, (int)t->proc->rlim[LINUX_RLIMIT_NOFILE].rlim_cur);
	if (fd < 0) {
		if (created)
			q->linked = false; /* Linux fails before it makes one */
		file_put(f);
	}
	return fd;
out_unmake:
	if (created) {
		q->linked = false;
		mq_free_if_unused(q);
	}
	return ret;
}

long sys_mq_unlink(struct task *t, const struct sysargs *a)
{
	const struct cred *c = &t->proc->cred;
	char name[LINUX_MQ_NAME_MAX + 1];
	struct mqueue *q;
	int ret = get_mq_name(t, sysarg_uaddr(a, 0), name);

	if (ret < 0)
		return ret;
	q = mq_lookup(ipc_ns_of(t), name);
	if (!q)
		return -ENOENT;
	/* The directory is sticky and root's: the owner, root or CAP_FOWNER. */
	if (c->fsuid != q->uid && c->fsuid != 0 && !capable(c, CAP_FOWNER))
		return -EPERM;
	q->linked = false;
	mq_free_if_unused(q);
	return 0;
}

/* Queue descriptors */

static struct mqueue *mq_file(struct file *f)
{
	return f && f->ops == &mq_file_ops ? f->priv : NULL;
}

bool mq_is_queue(struct file *f)
{
	return mq_file(f) != NULL;
}

static void mq_release(struct file *f)
{
	struct mqueue *q = f->priv;

	q->nfiles--;
	mq_free_if_unused(q);
}

/* Any close by the registered process ends its registration. */
static void mq_flush(struct file *f)
{
	struct mqueue *q = f->priv;

	if (current && q->notify_pid == current->proc->pid)
		q->notify_pid = 0;
}

#define FILENT_SIZE 80 /* Linux's i_size of a queue */

static long mq_pread(struct file *f, void *buf, size_t n, int64_t off)
{
	struct mqueue *q = f->priv;
	char line[128];
	int len;

	if (off < 0)
		return -EINVAL;
	len = snprintf(line, sizeof(line), "QSIZE:%-10llu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n",
		       (unsigned long long)q->qsize, q->notify_pid ? q->notify_how : 0,
		       q->notify_pid && q->notify_how == LINUX_SIGEV_SIGNAL ? q->notify_signo : 0,
		       pid_vnr(current, q->notify_pid));
	return read_from_buffer(buf, n, off, line, len < 0 ? 0 : (size_t)len);
}

/* Linux's default_llseek over an i_size of FILENT_SIZE. */
static int64_t mq_llseek(struct file *f, int64_t off, int whence)
{
	switch (whence) {
	case LINUX_SEEK_SET:
		break;
	case LINUX_SEEK_CUR:
		off += f->pos;
		break;
	case LINUX_SEEK_END:
		off += FILENT_SIZE;
		break;
	case LINUX_SEEK_DATA:
		if (off >= FILENT_SIZE)
			return -ENXIO;
		break;
	case LINUX_SEEK_HOLE:
		if (off >= FILENT_SIZE)
			return -ENXIO;
		off = FILENT_SIZE;
		break;
	default:
		return -EINVAL;
	}
	if (off < 0)
		return -EINVAL;
	return f->pos = off;
}

static unsigned mq_poll(struct file *f, struct poll_table *pt)
{
	struct mqueue *q = f->priv;
	unsigned mask = 0;

	poll_wait(pt, &q->poll_wq);
	if (q->curmsgs)
		mask |= LINUX_POLLIN | LINUX_POLLRDNORM;
	if (q->curmsgs < q->maxmsg)
		mask |= LINUX_POLLOUT | LINUX_POLLWRNORM;
	return mask;
}

static int mq_stat(struct file *f, struct linux_stat *st)
{
	struct mqueue *q = f->priv;

	memset(st, 0, sizeof(*st));
	st->st_mode = LINUX_S_IFREG | q->mode;
	st->st_nlink = q->linked ? 1 : 0;
	st->st_uid = q->uid;
	st->st_gid = q->gid;
	st->st_size = FILENT_SIZE;
	st->st_blksize = 4096;
	return 0;
}

static const struct file_ops mq_file_ops = {
	.read = file_read_at_pos,
	.pread = mq_pread,
	.llseek = mq_llseek,
	.poll = mq_poll,
	.stat = mq_stat,
	.release = mq_release,
	.flush = mq_flush,
};

/* Messages */

static void msg_insert(struct mqueue *q, struct mq_msg *m)
{
	struct mq_msg *pos;

	q->curmsgs++;
	q->qsize += m->size;
	list_for_each_entry(pos, &q->messages, link)
	{
		if (pos->prio < m->prio) {
			list_add_tail(&m->link, &pos->link);
			return;
		}
	}
	list_add_tail(&m->link, &q->messages);
}

static struct mq_msg *msg_get(struct mqueue *q)
{
	struct mq_msg *m = list_first_entry(&q->messages, struct mq_msg, link);

	list_del(&m->link);
	q->curmsgs--;
	q->qsize -= m->size;
	return m;
}

static void do_notify(struct task *t, struct mqueue *q)
{
	struct linux_siginfo info;
	struct process *p;

	if (!q->notify_pid || q->curmsgs != 1)
		return;
	if (q->notify_how == LINUX_SIGEV_SIGNAL && q->notify_signo) {
		p = process_by_pid(q->notify_pid);
		memset(&info, 0, sizeof(info));
		info.si_signo = q->notify_signo;
		info.si_code = LINUX_SI_MESGQ;
		info.fields.rt.pid = p ? pid_nr_ns(t->proc->pid, pid_ns_of(p->pid)) : 0;
		info.fields.rt.uid =
			p ? from_kuid_munged(cred_user_ns(&p->cred), t->proc->cred.uid) : 0;
		info.fields.rt.sigval.sival_ptr = q->notify_value;
		if (p)
			send_signal_info(p, NULL, q->notify_signo, &info);
	}
	q->notify_pid = 0; /* one notification per registration */
}

static void mq_timeout(void *arg)
{
	sched_wake(arg);
}

/* Sleeps on list until w is done, the deadline (monotonic, -1 none)
 * passes or a signal comes. 0, -ETIMEDOUT or -ERESTARTSYS. */
static long mq_wait(struct task *t, struct list_head *list, struct mq_waiter *w, int64_t deadline)
{
	struct ktimer tm = { .armed = false };
	long ret = 0;

	if (deadline >= 0 && deadline <= sched_now_ns())
		return -ETIMEDOUT;
	w->task = t;
	w->done = false;
	list_add_tail(&w->link, list);
	if (deadline >= 0)
		ktimer_arm(&tm, deadline, mq_timeout, t);
	for (;;) {
		if (w->done)
			break;
		if (deadline >= 0 && sched_now_ns() >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		if (signal_pending(t)) {
			ret = -ERESTARTSYS;
			break;
		}
		t->state = TASK_SLEEPING;
		schedule();
	}
	ktimer_cancel(&tm);
	if (!w->done)
		list_del(&w->link);
	return ret;
}

/* An absolute CLOCK_REALTIME timeout as a monotonic deadline; -1 if none. */
static int get_deadline(struct task *t, uaddr_t uts, int64_t *deadline)
{
	struct linux_timespec ts;
	int64_t ns;

	*deadline = -1;
	if (!uts)
		return 0;
	if (copy_from_user(t->mm, &ts, uts, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000L)
		return -EINVAL;
	ns = ts.tv_sec > 4000000000LL ? INT64_MAX / 4 : ts.tv_sec * 1000000000LL + ts.tv_nsec;
	*deadline = sched_now_ns() + (ns - host_clock_ns(LINUX_CLOCK_REALTIME));
	return 0;
}

long sys_mq_timedsend(struct task *t, const struct sysargs *a)
{
	int fd = sysarg_int(a, 0);
	uaddr_t ubuf = sysarg_uaddr(a, 1);
	uint64_t len = sysarg_size(a, 2);
	unsigned prio = sysarg_uint(a, 3);
	struct mq_waiter w, *r;
	struct mqueue *q;
	struct mq_msg *m = NULL;
	struct file *f;
	int64_t deadline;
	long ret;

	ret = get_deadline(t, sysarg_uaddr(a, 4), &deadline);
	if (ret < 0)
		return ret;
	if (prio >= LINUX_MQ_PRIO_MAX)
		return -EINVAL;
	f = fdget(t->files, fd);
	q = mq_file(f);
	ret = -EBADF;
	if (!q || !file_writable(f))
		goto out;
	ret = -EMSGSIZE;
	if (len > (uint64_t)q->msgsize)
		goto out;
	ret = -ENOMEM;
	m = malloc(sizeof(*m) + len);
	if (!m)
		goto out;
	m->prio = prio;
	m->size = len;
	ret = -EFAULT;
	if (copy_from_user(t->mm, m->data, ubuf, len) < 0)
		goto out;
	if (q->curmsgs == q->maxmsg) {
		ret = -EAGAIN;
		if (f->flags & LINUX_O_NONBLOCK)
			goto out;
		w.msg = m;
		ret = mq_wait(t, &q->senders, &w, deadline);
		if (ret < 0)
			goto out;
		m = NULL; /* a receiver queued it */
		goto out;
	}
	if (!list_empty(&q->receivers)) {
		r = list_first_entry(&q->receivers, struct mq_waiter, link);
		list_del(&r->link);
		r->msg = m;
		r->done = true;
		sched_wake(r->task);
	} else {
		msg_insert(q, m);
		do_notify(t, q);
	}
	m = NULL;
	ret = 0;
	waitq_wake_all(&q->poll_wq);
out:
	free(m);
	file_put(f);
	return ret;
}

long sys_mq_timedreceive(struct task *t, const struct sysargs *a)
{
	int fd = sysarg_int(a, 0);
	uaddr_t ubuf = sysarg_uaddr(a, 1), uprio = sysarg_uaddr(a, 3);
	uint64_t len = sysarg_size(a, 2);
	struct mq_waiter w, *s;
	struct mqueue *q;
	struct mq_msg *m;
	struct file *f;
	int64_t deadline;
	long ret;

	ret = get_deadline(t, sysarg_uaddr(a, 4), &deadline);
	if (ret < 0)
		return ret;
	f = fdget(t->files, fd);
	q = mq_file(f);
	ret = -EBADF;
	if (!q || !file_readable(f))
		goto out;
	ret = -EMSGSIZE;
	if (len < (uint64_t)q->msgsize)
		goto out;
	if (q->curmsgs == 0) {
		ret = -EAGAIN;
		if (f->flags & LINUX_O_NONBLOCK)
			goto out;
		ret = mq_wait(t, &q->receivers, &w, deadline);
		if (ret < 0)
			goto out;
		m = w.msg;
	} else {
		m = msg_get(q);
		/* Room now: the oldest waiting sender's message goes in. */
		if (!list_empty(&q->senders)) {
			s = list_first_entry(&q->senders, struct mq_waiter, link);
			list_del(&s->link);
			msg_insert(q, s->msg);
			s->done = true;
			sched_wake(s->task);
		}
		waitq_wake_all(&q->poll_wq);
	}
	ret = (long)m->size;
	if ((uprio && copy_to_user(t->mm, uprio, &m->prio, sizeof(m->prio)) < 0) ||
	    copy_to_user(t->mm, ubuf, m->data, m->size) < 0)
		ret = -EFAULT;
	free(m);
out:
	file_put(f);
	return ret;
}

long sys_mq_notify(struct task *t, const struct sysargs *a)
{
	uaddr_t uev = sysarg_uaddr(a, 1);
	struct linux_mq_sigevent ev;
	struct mqueue *q;
	struct file *f;
	long ret;

	if (uev) {
		if (copy_from_user(t->mm, &ev, uev, sizeof(ev)) < 0)
			return -EFAULT;
		if (ev.sigev_notify != LINUX_SIGEV_NONE && ev.sigev_notify != LINUX_SIGEV_SIGNAL &&
		    ev.sigev_notify != LINUX_SIGEV_THREAD)
			return -EINVAL;
		if (ev.sigev_notify == LINUX_SIGEV_SIGNAL &&
		    ((unsigned)ev.sigev_signo > LINUX_NSIG))
			return -EINVAL;
		if (ev.sigev_notify == LINUX_SIGEV_THREAD) {
			char cookie[LINUX_NOTIFY_COOKIE_LEN];
			struct linux_stat st;
			struct file *sf;

			if (copy_from_user(t->mm, cookie, ev.sigev_value, sizeof(cookie)) < 0)
				return -EFAULT;
			sf = fdget(t->files, ev.sigev_signo);
			if (!sf)
				return -EBADF;
			ret = file_stat(sf, &st) == 0 && LINUX_S_ISSOCK(st.st_mode) ? -EINVAL
										    : -ENOTSOCK;
			file_put(sf);
			return ret; /* no netlink sockets in skas */
		}
	}
	f = fdget(t->files, sysarg_int(a, 0));
	q = mq_file(f);
	ret = -EBADF;
	if (!q)
		goto out;
	ret = 0;
	if (!uev) {
		if (q->notify_pid == t->proc->pid)
			q->notify_pid = 0;
	} else if (q->notify_pid) {
		ret = -EBUSY;
	} else {
		q->notify_pid = t->proc->pid;
		q->notify_how = ev.sigev_notify;
		q->notify_signo = ev.sigev_signo;
		q->notify_value = ev.sigev_value;
	}
out:
	file_put(f);
	return ret;
}

long sys_mq_getsetattr(struct task *t, const struct sysargs *a)
{
	uaddr_t unew = sysarg_uaddr(a, 1), uold = sysarg_uaddr(a, 2);
	struct linux_mq_attr nattr, oattr;
	struct mqueue *q;
	struct file *f;
	long ret;

	if (unew) {
		if (copy_from_user(t->mm, &nattr, unew, sizeof(nattr)) < 0)
			return -EFAULT;
		if (nattr.mq_flags & ~(int64_t)LINUX_O_NONBLOCK)
			return -EINVAL;
	}
	f = fdget(t->files, sysarg_int(a, 0));
	q = mq_file(f);
	ret = -EBADF;
	if (!q)
		goto out;
	memset(&oattr, 0, sizeof(oattr));
	oattr.mq_flags = f->flags & LINUX_O_NONBLOCK;
	oattr.mq_maxmsg = q->maxmsg;
	oattr.mq_msgsize = q->msgsize;
	oattr.mq_curmsgs = q->curmsgs;
	if (unew) {
		if (nattr.mq_flags & LINUX_O_NONBLOCK)
			f->flags |= LINUX_O_NONBLOCK;
		else
			f->flags &= ~(unsigned)LINUX_O_NONBLOCK;
	}
	ret = 0;
	if (uold && copy_to_user(t->mm, uold, &oattr, sizeof(oattr)) < 0)
		ret = -EFAULT;
out:
	file_put(f);
	return ret;
}

/* The namespace's end: its names go, as at mq_unlink; a queue still open
 * lives on without a namespace. */
void mq_exit_ns(struct ipc_ns *ns)
{
	struct mqueue *q, *n;

	list_for_each_entry_safe(q, n, &all_queues, link)
	{
		if (q->ns != ns)
			continue;
		q->linked = false;
		q->ns = NULL;
		ns->mq_queues--;
		mq_free_if_unused(q);
	}
}
