/* kernel/task.c: creating the first process, and ending processes. The
 * instance has its own pid namespace: the first program is pid 1.
 * Differs from Linux (until the processes issue): one process, no fork. */
#include <stdlib.h>
#include <string.h>

#include "kernel/task.h"
#include "kernel/exec.h"
#include "kernel/run.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "fs/hostfs/hostfs.h"
#include "host/host.h"
#include "abi/linux/errno.h"
#include "abi/linux/types.h"

static int ntasks;
static int init_status = -1;

int task_count(void)
{
	return ntasks;
}

int task_init_status(void)
{
	return init_status;
}

static struct process *process_new(int pid)
{
	struct process *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	p->pid = pid;
	p->umask = 022;
	for (i = 0; i < NRLIMITS; i++)
		p->rlim[i].rlim_cur = p->rlim[i].rlim_max = LINUX_RLIM_INFINITY;
	p->rlim[LINUX_RLIMIT_STACK].rlim_cur = 8UL << 20;
	p->rlim[LINUX_RLIMIT_NOFILE].rlim_cur = 1024;
	p->rlim[LINUX_RLIMIT_NOFILE].rlim_max = 1024 * 1024;
	p->rlim[LINUX_RLIMIT_CORE].rlim_cur = 0;
	p->rlim[LINUX_RLIMIT_NPROC].rlim_cur = p->rlim[LINUX_RLIMIT_NPROC].rlim_max = 4096;
	p->rlim[LINUX_RLIMIT_SIGPENDING].rlim_cur = p->rlim[LINUX_RLIMIT_SIGPENDING].rlim_max =
		4096;
	p->rlim[LINUX_RLIMIT_MEMLOCK].rlim_cur = p->rlim[LINUX_RLIMIT_MEMLOCK].rlim_max =
		8UL << 20;
	p->rlim[LINUX_RLIMIT_MSGQUEUE].rlim_cur = p->rlim[LINUX_RLIMIT_MSGQUEUE].rlim_max = 819200;
	p->rlim[LINUX_RLIMIT_NICE].rlim_cur = p->rlim[LINUX_RLIMIT_NICE].rlim_max = 0;
	p->rlim[LINUX_RLIMIT_RTPRIO].rlim_cur = p->rlim[LINUX_RLIMIT_RTPRIO].rlim_max = 0;
	return p;
}

void task_free(struct task *t)
{
	if (t->thread)
		platform->thread_put(t->thread);
	mm_put(t->mm);
	files_put(t->files);
	fs_info_put(t->fs);
	kstack_free(&t->kstack);
	if (t->proc && --t->proc->nthreads == 0) {
		free(t->proc->cred.groups);
		free(t->proc);
	}
	free(t->trace_buf);
	free(t);
	ntasks--;
}

/* Guest fds 0, 1, 2 are the host's, dup'ed (the kernel keeps its own). */
static int install_stdio(struct files *files)
{
	int fd, ret;

	for (fd = 0; fd < 3; fd++) {
		struct file *f;
		int hfd = host_dup_stdio(fd);

		if (hfd < 0)
			continue; /* closed on the host: closed in the guest */
		ret = hostfs_stdio(hfd, host_fd_flags(hfd), &f);
		if (ret < 0) {
			host_close(hfd);
			return ret;
		}
		ret = fd_install_at(files, fd, f, false);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int task_start_init(const struct init_config *cfg)
{
	struct strv argv = { 0 }, envp = { 0 };
	struct pf_regs regs;
	struct mm *mm = NULL;
	struct task *t;
	int i, ret;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	ntasks++;
	t->tid = 1;
	t->state = TASK_SLEEPING;
	list_init(&t->run_link);
	t->proc = process_new(1);
	if (!t->proc) {
		ret = -ENOMEM;
		goto fail;
	}
	t->proc->nthreads = 1;
	t->proc->cred.uid = t->proc->cred.euid = t->proc->cred.suid = t->proc->cred.fsuid =
		cfg->uid;
	t->proc->cred.gid = t->proc->cred.egid = t->proc->cred.sgid = t->proc->cred.fsgid =
		cfg->gid;
	ret = fs_info_create(cfg->host_root, cfg->cwd, &t->fs);
	if (ret < 0)
		goto fail;
	ret = files_create(&t->files);
	if (ret < 0)
		goto fail;
	ret = install_stdio(t->files);
	if (ret < 0)
		goto fail;
	for (i = 0; cfg->argv[i]; i++)
		if ((ret = strv_push(&argv, cfg->argv[i])) < 0)
			goto fail;
	for (i = 0; cfg->envp[i]; i++)
		if ((ret = strv_push(&envp, cfg->envp[i])) < 0)
			goto fail;
	ret = exec_load(t, cfg->path, &argv, &envp, &mm, &regs);
	if (ret < 0)
		goto fail;
	ret = exec_switch(t, mm, &regs);
	if (ret < 0) {
		mm_put(mm);
		goto fail;
	}
	set_comm(t, cfg->path);
	ret = kstack_init(&t->kstack, task_main, t);
	if (ret < 0)
		goto fail;
	strv_free(&argv);
	strv_free(&envp);
	sched_add(t);
	return 0;
fail:
	strv_free(&argv);
	strv_free(&envp);
	task_free(t);
	return ret;
}

void set_comm(struct task *t, const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	memset(t->comm, 0, sizeof(t->comm));
	strncpy(t->comm, base, sizeof(t->comm) - 1);
}

void process_exit(struct task *t, int wait_status)
{
	if (t->proc->pid == 1)
		init_status = wait_status;
	t->proc->exiting = true;
	t->proc->exit_code = wait_status;
	if (t->thread) {
		platform->thread_put(t->thread);
		t->thread = NULL;
	}
	mm_put(t->mm);
	t->mm = NULL;
	t->state = TASK_DEAD;
	schedule();
	panic("a dead task ran again");
}
