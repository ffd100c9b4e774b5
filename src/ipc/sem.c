/* ipc/sem.c: System V semaphores. semop applies its array of operations
 * all or nothing (in order, undone on failure, as Linux's slow path does);
 * an operation that cannot proceed sleeps in the set's FIFO of pending
 * operations, which is retried after every change. SEM_UNDO adjustments
 * are kept per process (by pid, so threads share them as with glibc's
 * CLONE_SYSVSEM) and applied when the process exits.
 * Differs from Linux: one FIFO per set instead of per-semaphore queues, so
 * the wakeup order of waiters on different semaphores may differ; a thread
 * created without CLONE_SYSVSEM shares its process's adjustments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipc/ipc.h"
#include "syscalls/dispatch.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "mm/commit.h"
#include "mm/usercopy.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/misc.h"
#include "abi/linux/types.h"

struct sem {
	int semval;
	int sempid;
};

struct sem_array {
	struct kern_ipc_perm perm; /* first: the table holds &perm */
	int nsems;
	int64_t otime, ctime;
	struct list_head pending; /* struct sem_queue, oldest first */
	struct list_head undos;	  /* struct sem_undo, by set_link */
	struct sem sems[];
};

struct sem_undo {
	struct list_head link;	   /* in undo_list */
	struct list_head set_link; /* in the set's undos */
	int pid;
	int semid;
	struct sem_array *sma;
	short adj[];
};

/* A sleeping semop, on its caller's kernel stack. */
struct sem_queue {
	struct list_head link;
	struct task *task;
	struct linux_sembuf *sops;
	int nsops;
	int pid;
	bool undo;
	int blocking; /* index of the operation that would block */
	int status;   /* 1 while waiting, then 0 or -errno */
	bool timed_out;
};

static LIST_HEAD_DECL(undo_list);

static struct sem_array *sma_of(struct kern_ipc_perm *p)
{
	return (struct sem_array *)p;
}

/* By set, not id: two IPC namespaces may have sets of the same id. */
static struct sem_undo *undo_find(int pid, struct sem_array *sma)
{
	struct sem_undo *u;

	list_for_each_entry(u, &undo_list, link) if (u->pid == pid && u->sma == sma) return u;
	return NULL;
}

static void undo_free(struct sem_undo *u)
{
	list_del(&u->link);
	list_del(&u->set_link);
	free(u);
}

/* Applies sops in order; on a failure undoes what it did. 0 done, 1 would
 * block (q->blocking says where), -EAGAIN, -ERANGE. */
static int try_semop(struct sem_array *sma, struct linux_sembuf *sops, int nsops,
		     struct sem_undo *un, int pid, int *blocking)
{
	int i, ret;

	for (i = 0; i < nsops; i++) {
		struct sem *s = &sma->sems[sops[i].sem_num];
		int op = sops[i].sem_op, result = s->semval + op;

		if ((op == 0 && s->semval) || result < 0) {
			*blocking = i;
			ret = (sops[i].sem_flg & LINUX_IPC_NOWAIT) ? -EAGAIN : 1;
			goto undo;
		}
		if (result > LINUX_SEMVMX) {
			ret = -ERANGE;
			goto undo;
		}
		if ((sops[i].sem_flg & LINUX_SEM_UNDO) && un) {
			int adj = un->adj[sops[i].sem_num] - op;

			if (adj < -LINUX_SEMAEM - 1 || adj > LINUX_SEMAEM) {
				ret = -ERANGE;
				goto undo;
			}
			un->adj[sops[i].sem_num] = (short)adj;
		}
		s->semval = result;
	}
	for (i = 0; i < nsops; i++)
		sma->sems[sops[i].sem_num].sempid = pid;
	sma->otime = ipc_now();
	return 0;
undo:
	while (--i >= 0) {
		sma->sems[sops[i].sem_num].semval -= sops[i].sem_op;
		if ((sops[i].sem_flg & LINUX_SEM_UNDO) && un)
			un->adj[sops[i].sem_num] += sops[i].sem_op;
	}
	return ret;
}

static bool sops_alter(const struct linux_sembuf *sops, int nsops)
{
	for (int i = 0; i < nsops; i++)
		if (sops[i].sem_op)
			return true;
	return false;
}

/* The values changed: complete whatever pending operations can go, oldest
 * first, again from the start after each one that changed values. */
static void update_queue(struct sem_array *sma)
{
	struct sem_queue *q, *n;
	bool again = true;

	while (again) {
		again = false;
		list_for_each_entry_safe(q, n, &sma->pending, link)
		{
			struct sem_undo *un = q->undo ? undo_find(q->pid, sma) : NULL;
			int ret = try_semop(sma, q->sops, q->nsops, un, q->pid, &q->blocking);

			if (ret == 1)
				continue;
			list_del(&q->link);
			q->status = ret; /* -EAGAIN: a later IPC_NOWAIT operation */
			sched_wake(q->task);
			if (ret == 0 && sops_alter(q->sops, q->nsops)) {
				again = true;
				break;
			}
		}
	}
}

static void sem_timeout(void *arg)
{
	struct sem_queue *q = arg;

	q->timed_out = true;
	sched_wake(q->task);
}

/* semget */

static int sem_create(struct task *t, int32_t key, int flg, void *arg)
{
	int nsems = *(int *)arg, ret;
	struct sem_array *sma;
	uint64_t bytes;

	if (nsems == 0)
		return -EINVAL;
	if (ipc_ns_of(t)->used_sems + nsems > (long)ipc_ns_of(t)->sem_ctlmns)
		return -ENOSPC;
	/* Kernel memory the guest holds, counted against --memory as the
	 * message queues' (each IPC namespace has its own SEMMNS). */
	bytes = sizeof(*sma) + (uint64_t)nsems * sizeof(struct sem);
	if (!mem_take_kernel(bytes))
		return -ENOMEM;
	sma = calloc(1, bytes);
	if (!sma) {
		mem_give_kernel(bytes);
		return -ENOMEM;
	}
	sma->nsems = nsems;
	list_init(&sma->pending);
	list_init(&sma->undos);
	sma->ctime = ipc_now();
	ret = ipc_add(&ipc_ns_of(t)->sem_ids, &sma->perm, t, key, flg);
	if (ret < 0) {
		mem_give_kernel(bytes);
		free(sma);
		return ret;
	}
	ipc_ns_of(t)->used_sems += nsems;
	return ret;
}

static int sem_more_checks(struct kern_ipc_perm *p, void *arg)
{
	return *(int *)arg > sma_of(p)->nsems ? -EINVAL : 0;
}

static const struct ipc_ops sem_ops = { .create = sem_create, .more_checks = sem_more_checks };

long sys_semget(struct task *t, const struct sysargs *a)
{
	int nsems = sysarg_int(a, 1);

	if (nsems < 0 || nsems > ipc_ns_of(t)->sem_ctlmsl)
		return -EINVAL;
	return ipc_get(t, &ipc_ns_of(t)->sem_ids, (int32_t)sysarg_int(a, 0), sysarg_int(a, 2),
		       &sem_ops, &nsems);
}

/* semop, semtimedop */

static struct sem_undo *undo_get(struct sem_array *sma, int pid)
{
	struct sem_undo *u = undo_find(pid, sma);

	if (u)
		return u;
	u = calloc(1, sizeof(*u) + (size_t)sma->nsems * sizeof(short));
	if (!u)
		return NULL;
	u->pid = pid;
	u->semid = sma->perm.id;
	u->sma = sma;
	list_add_tail(&u->link, &undo_list);
	list_add_tail(&u->set_link, &sma->undos);
	return u;
}

/* Sleeps until q is done, removed, interrupted or timed out. */
static long sem_wait(struct task *t, struct sem_array *sma, struct sem_queue *q, int64_t deadline)
{
	struct ktimer tm = { .armed = false };

	list_add_tail(&q->link, &sma->pending);
	if (deadline >= 0)
		ktimer_arm(&tm, deadline, sem_timeout, q);
	while (q->status == 1 && !q->timed_out && !signal_pending(t)) {
		t->state = TASK_SLEEPING;
		schedule();
	}
	ktimer_cancel(&tm);
	if (q->status != 1)
		return q->status; /* sma may be gone after -EIDRM */
	list_del(&q->link);
	return q->timed_out ? -EAGAIN : -EINTR;
}

static long do_semtimedop(struct task *t, int semid, uaddr_t usops, unsigned nsops,
			  const struct linux_timespec *ts)
{
	struct sem_queue q = { .task = t, .status = 1 };
	struct linux_sembuf *sops;
	struct kern_ipc_perm *p;
	struct sem_array *sma;
	struct sem_undo *un = NULL;
	int64_t deadline = -1;
	unsigned max = 0;
	bool alter = false;
	long ret;

	/* Linux 6's order: the count, the copy, then the id and timeout. */
	if (nsops > (size_t)ipc_ns_of(t)->sem_ctlopm)
		return -E2BIG;
	if (nsops < 1)
		return -EINVAL;
	/* a copy the guest sizes (SEMOPM may be anything): charged, as
	 * Linux's kvmalloc_array to the memory cgroup */
	if (!mem_take_kernel(nsops * sizeof(*sops)))
		return -ENOMEM;
	sops = malloc(nsops * sizeof(*sops));
	if (!sops) {
		mem_give_kernel(nsops * sizeof(*sops));
		return -ENOMEM;
	}
	ret = -EFAULT;
	if (copy_from_user(t->mm, sops, usops, nsops * sizeof(*sops)) < 0)
		goto out;
	ret = -EINVAL;
	if (semid < 0)
		goto out;
	if (ts) {
		if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000L)
			goto out;
		deadline = sched_now_ns() + (ts->tv_sec > 4000000000LL
						     ? INT64_MAX / 4
						     : ts->tv_sec * 1000000000LL + ts->tv_nsec);
	}
	for (unsigned i = 0; i < nsops; i++) {
		if (sops[i].sem_num >= max)
			max = sops[i].sem_num;
		if (sops[i].sem_flg & LINUX_SEM_UNDO)
			q.undo = true;
		if (sops[i].sem_op)
			alter = true;
	}
	/* Linux makes the undo list before it looks the set up. */
	if (q.undo)
		t->proc->sem_undo_list = true;
	p = ipc_lookup(&ipc_ns_of(t)->sem_ids, semid);
	if (!p)
		goto out;
	sma = sma_of(p);
	ret = -EFBIG;
	if ((int)max >= sma->nsems)
		goto out;
	ret = ipc_perms(t, p, alter ? 0222 : 0444);
	if (ret < 0)
		goto out;
	q.pid = ipc_pid(t);
	if (q.undo) {
		un = undo_get(sma, q.pid);
		ret = -ENOMEM;
		if (!un)
			goto out;
	}
	q.sops = sops;
	q.nsops = (int)nsops;
	ret = try_semop(sma, sops, (int)nsops, un, q.pid, &q.blocking);
	if (ret == 0) {
		if (alter)
			update_queue(sma);
		goto out;
	}
	if (ret < 0)
		goto out;
	ret = -EAGAIN;
	if (deadline >= 0 && deadline <= sched_now_ns())
		goto out;
	ret = sem_wait(t, sma, &q, deadline);
out:
	free(sops);
	mem_give_kernel(nsops * sizeof(*sops));
	return ret;
}

long sys_semop(struct task *t, const struct sysargs *a)
{
	return do_semtimedop(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uint(a, 2), NULL);
}

long sys_semtimedop(struct task *t, const struct sysargs *a)
{
	uaddr_t uts = sysarg_uaddr(a, 3);
	struct linux_timespec ts;

	if (!uts)
		return do_semtimedop(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uint(a, 2),
				     NULL);
	if (copy_from_user(t->mm, &ts, uts, sizeof(ts)) < 0)
		return -EFAULT;
	return do_semtimedop(t, sysarg_int(a, 0), sysarg_uaddr(a, 1), sysarg_uint(a, 2), &ts);
}

/* semctl */

static void freeary(struct sem_array *sma)
{
	struct sem_queue *q, *qn;
	struct sem_undo *u, *un;

	ipc_remove(&sma->perm.ns->sem_ids, &sma->perm);
	list_for_each_entry_safe(q, qn, &sma->pending, link)
	{
		list_del(&q->link);
		q->status = -EIDRM;
		sched_wake(q->task);
	}
	list_for_each_entry_safe(u, un, &sma->undos, set_link) undo_free(u);
	sma->perm.ns->used_sems -= sma->nsems;
	mem_give_kernel(sizeof(*sma) + (uint64_t)sma->nsems * sizeof(struct sem));
	free(sma);
}

/* Pending operations blocked on semnum: decrements (GETNCNT) or waits for
 * zero (GETZCNT). */
static int count_waiters(struct sem_array *sma, int semnum, bool zero)
{
	struct sem_queue *q;
	int n = 0;

	list_for_each_entry(q, &sma->pending, link)
	{
		const struct linux_sembuf *b = &q->sops[q->blocking];

		if (b->sem_num == semnum && (zero ? b->sem_op == 0 : b->sem_op < 0))
			n++;
	}
	return n;
}

static void clear_adj(struct sem_array *sma, int semnum)
{
	struct sem_undo *u;

	list_for_each_entry(u, &sma->undos, set_link)
	{
		if (semnum < 0)
			memset(u->adj, 0, (size_t)sma->nsems * sizeof(short));
		else
			u->adj[semnum] = 0;
	}
}

static long semctl_info(struct task *t, int cmd, uaddr_t buf)
{
	struct ipc_ns *ns = ipc_ns_of(t);
	struct linux_seminfo si = {
		.semmni = ns->sem_ids.mni,
		.semmns = ns->sem_ctlmns,
		.semmsl = ns->sem_ctlmsl,
		.semopm = ns->sem_ctlopm,
		.semvmx = LINUX_SEMVMX,
		.semmnu = LINUX_SEMMNU,
		.semmap = LINUX_SEMMAP,
		.semume = LINUX_SEMUME,
		.semusz = LINUX_SEMUSZ,
		.semaem = LINUX_SEMAEM,
	};

	if (cmd == LINUX_SEM_INFO) {
		si.semusz = ipc_ns_of(t)->sem_ids.in_use;
		si.semaem = (int32_t)ipc_ns_of(t)->used_sems;
	}
	if (copy_to_user(t->mm, buf, &si, sizeof(si)) < 0)
		return -EFAULT;
	return ipc_ns_of(t)->sem_ids.max_idx < 0 ? 0 : ipc_ns_of(t)->sem_ids.max_idx;
}

static long semctl_stat(struct task *t, int semid, int cmd, uaddr_t buf)
{
	struct linux_semid64_ds ds;
	struct kern_ipc_perm *p;
	struct sem_array *sma;
	int ret;

	p = ipc_stat_lookup(&ipc_ns_of(t)->sem_ids, t, semid, cmd == LINUX_IPC_STAT,
			    cmd == LINUX_SEM_STAT_ANY, &ret);
	if (!p)
		return ret;
	sma = sma_of(p);
	memset(&ds, 0, sizeof(ds));
	ipc_perm_to_user(p, &ds.sem_perm);
	ds.sem_otime = sma->otime;
	ds.sem_ctime = sma->ctime;
	ds.sem_nsems = (uint64_t)sma->nsems;
	if (copy_to_user(t->mm, buf, &ds, sizeof(ds)) < 0)
		return -EFAULT;
	return cmd == LINUX_IPC_STAT ? 0 : p->id;
}

static long semctl_setval(struct task *t, int semid, int semnum, int val)
{
	struct kern_ipc_perm *p;
	struct sem_array *sma;
	int ret;

	if (val > LINUX_SEMVMX || val < 0)
		return -ERANGE;
	p = ipc_lookup(&ipc_ns_of(t)->sem_ids, semid);
	if (!p)
		return -EINVAL;
	sma = sma_of(p);
	if (semnum < 0 || semnum >= sma->nsems)
		return -EINVAL;
	ret = ipc_perms(t, p, 0222);
	if (ret < 0)
		return ret;
	clear_adj(sma, semnum);
	sma->sems[semnum].semval = val;
	sma->sems[semnum].sempid = ipc_pid(t);
	sma->ctime = ipc_now();
	update_queue(sma);
	return 0;
}

static long semctl_main(struct task *t, int semid, int semnum, int cmd, uaddr_t buf)
{
	struct kern_ipc_perm *p = ipc_lookup(&ipc_ns_of(t)->sem_ids, semid);
	struct sem_array *sma;
	uint16_t *vals;
	int ret, i;

	if (!p)
		return -EINVAL;
	sma = sma_of(p);
	ret = ipc_perms(t, p, cmd == LINUX_SETALL ? 0222 : 0444);
	if (ret < 0)
		return ret;
	if (cmd == LINUX_GETALL || cmd == LINUX_SETALL) {
		vals = calloc((size_t)sma->nsems, sizeof(*vals));
		if (!vals)
			return -ENOMEM;
		ret = 0;
		if (cmd == LINUX_GETALL) {
			for (i = 0; i < sma->nsems; i++)
				vals[i] = (uint16_t)sma->sems[i].semval;
			if (copy_to_user(t->mm, buf, vals, (size_t)sma->nsems * sizeof(*vals)) < 0)
				ret = -EFAULT;
			free(vals);
			return ret;
		}
		if (copy_from_user(t->mm, vals, buf, (size_t)sma->nsems * sizeof(*vals)) < 0)
			ret = -EFAULT;
		for (i = 0; ret == 0 && i < sma->nsems; i++)
			if (vals[i] > LINUX_SEMVMX)
				ret = -ERANGE;
		if (ret == 0) {
			for (i = 0; i < sma->nsems; i++) {
				sma->sems[i].semval = vals[i];
				sma->sems[i].sempid = ipc_pid(t);
			}
			clear_adj(sma, -1);
			sma->ctime = ipc_now();
			update_queue(sma);
		}
		free(vals);
		return ret;
	}
	if (semnum < 0 || semnum >= sma->nsems)
		return -EINVAL;
	switch (cmd) {
	case LINUX_GETVAL:
		return sma->sems[semnum].semval;
	case LINUX_GETPID:
		return pid_vnr(t, sma->sems[semnum].sempid);
	case LINUX_GETNCNT:
		return count_waiters(sma, semnum, false);
	default:
		return count_waiters(sma, semnum, true);
	}
}

static long semctl_down(struct task *t, int semid, int cmd, const struct linux_semid64_ds *ds)
{
	struct kern_ipc_perm *p = ipc_lookup(&ipc_ns_of(t)->sem_ids, semid);
	int ret;

	if (!p)
		return -EINVAL;
	ret = ipc_owner_check(t, p);
	if (ret < 0)
		return ret;
	if (cmd == LINUX_IPC_RMID) {
		freeary(sma_of(p));
		return 0;
	}
	ret = ipc_perm_set(p, &ds->sem_perm);
	if (ret == 0)
		sma_of(p)->ctime = ipc_now();
	return ret;
}

long sys_semctl(struct task *t, const struct sysargs *a)
{
	int semid = sysarg_int(a, 0), semnum = sysarg_int(a, 1), cmd = sysarg_int(a, 2);
	uaddr_t arg = sysarg_uaddr(a, 3);
	struct linux_semid64_ds ds;

	if (semid < 0)
		return -EINVAL;
	switch (cmd) {
	case LINUX_IPC_INFO:
	case LINUX_SEM_INFO:
		return semctl_info(t, cmd, arg);
	case LINUX_IPC_STAT:
	case LINUX_SEM_STAT:
	case LINUX_SEM_STAT_ANY:
		return semctl_stat(t, semid, cmd, arg);
	case LINUX_GETALL:
	case LINUX_GETVAL:
	case LINUX_GETPID:
	case LINUX_GETNCNT:
	case LINUX_GETZCNT:
	case LINUX_SETALL:
		return semctl_main(t, semid, semnum, cmd, arg);
	case LINUX_SETVAL:
		return semctl_setval(t, semid, semnum, (int)arg);
	case LINUX_IPC_SET:
		if (copy_from_user(t->mm, &ds, arg, sizeof(ds)) < 0)
			return -EFAULT;
		return semctl_down(t, semid, cmd, &ds);
	case LINUX_IPC_RMID:
		return semctl_down(t, semid, cmd, NULL);
	default:
		return -EINVAL;
	}
}

/* The process pid is gone: its adjustments are applied, each value kept
 * within 0..SEMVMX, and waiters get their chance. */
void sem_exit(int pid)
{
	struct sem_undo *u, *n;

	list_for_each_entry_safe(u, n, &undo_list, link)
	{
		struct sem_array *sma = u->sma;

		if (u->pid != pid)
			continue;
		for (int i = 0; i < sma->nsems; i++) {
			int v;

			if (!u->adj[i])
				continue;
			v = sma->sems[i].semval + u->adj[i];
			sma->sems[i].semval = v < 0 ? 0 : v > LINUX_SEMVMX ? LINUX_SEMVMX : v;
			sma->sems[i].sempid = pid;
		}
		undo_free(u);
		update_queue(sma);
	}
}

void sem_proc_show(ipc_emit_fn emit, void *arg)
{
	struct ipc_ns *ns = ipc_ns_of(current);
	char line[160];

	emit(arg, "       key      semid perms      nsems   uid   gid  cuid  cgid      otime      "
		  "ctime\n");
	for (int i = 0; i <= ns->sem_ids.max_idx; i++) {
		struct linux_ipc64_perm u;
		struct kern_ipc_perm *p = ipc_at(&ns->sem_ids, i);

		if (!p)
			continue;
		ipc_perm_to_user(p, &u); /* the reader's ids */
		snprintf(line, sizeof(line), "%10d %10d  %4o %10d %5u %5u %5u %5u %10lld %10lld\n",
			 p->key, p->id, p->mode, sma_of(p)->nsems, u.uid, u.gid, u.cuid, u.cgid,
			 (long long)sma_of(p)->otime, (long long)sma_of(p)->ctime);
		emit(arg, line);
	}
}

/* The namespace's end: its sets go (no task of it is left to wait on
 * one), with the adjustments recorded for them. */
void sem_exit_ns(struct ipc_ns *ns)
{
	for (int i = 0; i <= ns->sem_ids.max_idx; i++) {
		struct kern_ipc_perm *p = ipc_at(&ns->sem_ids, i);

		if (p)
			freeary(sma_of(p));
	}
}
