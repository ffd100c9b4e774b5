/* kernel/coredump.c: ELF core files, as Linux's fs/coredump.c and
 * binfmt_elf's elf_core_dump write them for x86-64: an ET_CORE header, a
 * PT_NOTE segment (NT_PRSTATUS, NT_PRPSINFO, NT_SIGINFO, NT_AUXV, NT_FILE,
 * NT_PRFPREG, NT_X86_XSTATE), then a PT_LOAD per VMA holding what the
 * process's coredump_filter asks for (its default 0x33: anonymous memory
 * that holds pages, shared anonymous memory, the first page of a mapped
 * ELF file) and the vDSO. The file is kernel.core_pattern in the process's working
 * directory (default "core"; %p %P %i %I %u %g %s %t %h %e %E %% expand),
 * made afresh (an old one unlinked, O_EXCL, O_NOFOLLOW, mode 0600), at most
 * RLIMIT_CORE bytes (a write that would pass it is not made, and the dump
 * ends there: still a core, as Linux 6.x counts it); pages that read as
 * zero are holes.
 * Every thread is in the notes, the one that took the signal first: the
 * others are killed and stop at their exits first (coredump_wait, as
 * Linux's), so memory no longer changes under the dump.
 * Differs from Linux: a thread that has not stopped within CORE_WAIT_NS
 * (a wait that a kill does not end) is left out; what is read is bounded
 * by twice the process's resident memory and 64 MiB (the rest of a huge
 * sparse mapping is holes, with a log line; Linux reads only the pages
 * present); whether a
 * private mapping holds pages comes from the host's count for its range
 * (Linux asks for an anon_vma); a range the host cannot read (PROT_NONE)
 * is a hole; a mapping over 16 GiB that holds pages is left empty (with
 * a log line) rather than read through; no pipes in core_pattern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/coredump.h"
#include "kernel/task.h"
#include "kernel/pidns.h"
#include "kernel/cputime.h"
#include "kernel/uts.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "fs/tmpfs/tmpfs.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/vfs.h"
#include "platform/platform.h"
#include "host/host.h"
#include "abi/linux/elf.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/mman.h"
#include "abi/linux/signal.h"
#include "abi/linux/stat.h"

#define CORENAME_MAX  128
#define NT_PRSTATUS   1
#define NT_PRFPREG    2
#define NT_PRPSINFO   3
#define NT_AUXV	      6
#define NT_X86_XSTATE 0x202
#define NT_SIGINFO    0x53494749
#define NT_FILE	      0x46494c45
#define FPU_MAX	      16384
#define CHUNK	      (256UL << 10)
#define HUGE_VMA      (16ULL << 30)
#define CORE_WAIT_NS  (2000 * 1000000LL)

/* A parked thread's registers (coredump_park). */
struct core_thread {
	struct pf_regs regs;
	bool regs_valid;
	long fpsize;
	char fpu[FPU_MAX] __attribute__((aligned(64)));
};

static char pattern[CORENAME_MAX + 1] = "core";

const char *coredump_pattern(void)
{
	return pattern;
}

int coredump_set_pattern(const char *s, size_t len)
{
	const char *nul = memchr(s, 0, len);

	/* proc_dostring: up to a NUL, at most CORENAME_MAX - 1 characters
	 * (the rest dropped), one trailing newline off. */
	if (nul)
		len = (size_t)(nul - s);
	if (len > CORENAME_MAX - 1)
		len = CORENAME_MAX - 1;
	if (len && s[len - 1] == '\n')
		len--;
	if (len && s[0] == '|')
		return -EINVAL; /* no usermode helpers */
	memcpy(pattern, s, len);
	pattern[len] = 0;
	return 0;
}

struct elf_prstatus {
	int32_t si_signo, si_code, si_errno;
	int16_t cursig;
	int16_t pad0;
	uint64_t sigpend, sighold;
	int32_t pid, ppid, pgrp, sid;
	int64_t utime[2], stime[2], cutime[2], cstime[2];
	uint64_t reg[27];
	int32_t fpvalid;
	int32_t pad1;
};
_Static_assert(sizeof(struct elf_prstatus) == 336, "elf_prstatus");

struct elf_prpsinfo {
	char state, sname, zomb, nice;
	int32_t pad0;
	uint64_t flag;
	uint32_t uid, gid;
	int32_t pid, ppid, pgrp, sid;
	char fname[16];
	char psargs[80];
};
_Static_assert(sizeof(struct elf_prpsinfo) == 136, "elf_prpsinfo");

/* A growing buffer of notes. */
struct notes {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void put(struct notes *n, const void *p, size_t len)
{
	size_t need = n->len + ((len + 3) & ~3UL);

	if (n->oom)
		return;
	if (need > n->cap) {
		size_t cap = n->cap ? n->cap : 4096;
		char *b;

		while (cap < need)
			cap *= 2;
		b = realloc(n->buf, cap);
		if (!b) {
			n->oom = true;
			return;
		}
		n->buf = b;
		n->cap = cap;
	}
	memcpy(n->buf + n->len, p, len);
	memset(n->buf + n->len + len, 0, ((len + 3) & ~3UL) - len);
	n->len = need;
}

static void note(struct notes *n, const char *name, uint32_t type, const void *desc, size_t size)
{
	uint32_t h[3] = { (uint32_t)strlen(name) + 1, (uint32_t)size, type };

	put(n, h, sizeof(h));
	put(n, name, h[0]);
	put(n, desc, size);
}

static void timeval_of(int64_t ns, int64_t tv[2])
{
	tv[0] = ns / 1000000000;
	tv[1] = ns % 1000000000 / 1000;
}

/* The name the pattern gives, in buf (CORENAME_MAX + 1 and more). */
static void core_name(struct task *t, int sig, char *buf, size_t size)
{
	struct process *p = t->proc;
	const char *s;
	size_t o = 0;
	char tmp[64], *c;

	for (s = pattern; *s && o + 1 < size; s++) {
		const char *add = tmp;

		if (*s != '%' || !s[1]) {
			buf[o++] = *s;
			continue;
		}
		switch (*++s) {
		case '%':
			add = "%";
			break;
		case 'p': /* in its own pid namespace; the capitals the instance's */
			snprintf(tmp, sizeof(tmp), "%d", pid_vnr(t, p->pid));
			break;
		case 'P':
			snprintf(tmp, sizeof(tmp), "%d", p->pid);
			break;
		case 'i':
			snprintf(tmp, sizeof(tmp), "%d", pid_vnr(t, t->tid));
			break;
		case 'I':
			snprintf(tmp, sizeof(tmp), "%d", t->tid);
			break;
		case 'u':
			snprintf(tmp, sizeof(tmp), "%u", p->cred.uid);
			break;
		case 'g':
			snprintf(tmp, sizeof(tmp), "%u", p->cred.gid);
			break;
		case 's':
			snprintf(tmp, sizeof(tmp), "%d", sig);
			break;
		case 't':
			snprintf(tmp, sizeof(tmp), "%lld", (long long)vfs_now().tv_sec);
			break;
		case 'h':
			snprintf(tmp, sizeof(tmp), "%s", uts_name(t, false));
			break;
		case 'e':
			snprintf(tmp, sizeof(tmp), "%s", t->comm);
			break;
		case 'E': {
			char *path = p->pid && t->mm && t->mm->exe.dentry && t->fs
					     ? path_name_d(&t->mm->exe, &t->fs->root)
					     : NULL;

			snprintf(tmp, sizeof(tmp), "%s", path ? path : "");
			free(path);
			break;
		}
		default: /* unknown: dropped, as Linux */
			add = "";
		}
		/* %h, %e and %E name one file: a '/' in them is '!' (Linux's
		 * cn_esc_printf). */
		if (*s == 'h' || *s == 'e' || *s == 'E')
			for (c = tmp; *c; c++)
				if (*c == '/')
					*c = '!';
		while (*add && o + 1 < size)
			buf[o++] = *add++;
	}
	buf[o] = 0;
}

/* How much of v the core holds under the process's coredump_filter
 * (Linux's vma_dump_size). Differs from Linux: a shared mapping of a file
 * with no name left (a memfd, System V memory) counts as a mapped file,
 * not as shared anonymous memory. */
static uint64_t dump_size(struct mm *mm, struct vma *v, const struct host_smap *h, long nh,
			  unsigned filter)
{
	uint64_t len = v->end - v->start, rss = 0;
	char magic[4];
	long i;

	if (v->flags & (VMA_STUB | VMA_VVAR | VMA_VVAR_VCLOCK))
		return 0;
	if (v->flags & VMA_VDSO)
		return len;
	if (v->flags & VMA_SHARED)
		return (filter & (v->file ? COREDUMP_MAPPED_SHARED : COREDUMP_ANON_SHARED)) ? len
											    : 0;
	for (i = 0; i < nh; i++)
		if (h[i].start < v->end && v->start < h[i].end)
			rss += h[i].kb[HOST_SM_ANONYMOUS];
	/* written: it has anonymous pages (Linux: an anon_vma) */
	if (rss && (filter & COREDUMP_ANON_PRIVATE))
		return len;
	if (!v->file)
		return 0;
	if (filter & COREDUMP_MAPPED_PRIVATE)
		return len;
	/* The ELF header page of a file mapped from its start. */
	if ((filter & COREDUMP_ELF_HEADERS) && v->off == 0 && (v->prot & LINUX_PROT_READ) &&
	    copy_from_user(mm, magic, v->start, 4) == 0 &&
	    memcmp(magic,
		   "\x7f"
		   "ELF",
		   4) == 0)
		return PAGE_SIZE;
	return 0;
}

static bool all_zero(const char *p, size_t n)
{
	static const char zero[PAGE_SIZE];

	for (; n >= PAGE_SIZE; p += PAGE_SIZE, n -= PAGE_SIZE)
		if (memcmp(p, zero, PAGE_SIZE))
			return false;
	return n == 0 || memcmp(p, zero, n) == 0;
}

/* Writes [addr, addr + len) of mm at off, page by page where a chunk will
 * not read; zero pages stay holes. A write that would pass limit is not
 * made (Linux's dump_emit): *cut says so. */
static int write_range(struct file *f, struct mm *mm, uint64_t addr, uint64_t len, uint64_t off,
		       uint64_t limit, char *buf, bool *cut, uint64_t *budget)
{
	uint64_t done = 0, n, pg;

	while (done < len) {
		n = len - done < CHUNK ? len - done : CHUNK;
		if (off + done + n > limit) {
			n = off + done < limit ? (limit - off - done) & PAGE_MASK : 0;
			if (n == 0) {
				*cut = true;
				return 0;
			}
		}
		/* Past the budget the rest is holes: reading untouched pages
		 * of a huge sparse mapping would hold the kernel for minutes. */
		if (*budget < n) {
			*budget = 0;
			return 1;
		}
		*budget -= n;
		if (copy_from_user(mm, buf, addr + done, n) < 0) {
			for (pg = 0; pg < n; pg += PAGE_SIZE) {
				uint64_t m = n - pg < PAGE_SIZE ? n - pg : PAGE_SIZE;

				if (copy_from_user(mm, buf + pg, addr + done + pg, m) < 0)
					memset(buf + pg, 0, m);
			}
		}
		if (!all_zero(buf, n) &&
		    f->ops->pwrite(f, buf, n, (int64_t)(off + done)) != (long)n)
			return -EIO;
		done += n;
	}
	return 0;
}

static void fill_prstatus(struct task *t, const struct linux_siginfo *info, struct elf_prstatus *ps,
			  bool *fpvalid, const struct pf_regs *regs)
{
	struct process *p = t->proc;
	struct cpu_usage u, c;
	struct pf_regs r;

	memset(ps, 0, sizeof(*ps));
	ps->si_signo = info->si_signo;
	ps->si_code = info->si_code;
	ps->si_errno = info->si_errno;
	ps->cursig = (int16_t)info->si_signo;
	ps->sigpend = t->pending | p->pending;
	ps->sighold = t->sigmask;
	ps->pid = pid_vnr(t, t->tid); /* as the dumping process sees them */
	ps->ppid = p->parent ? pid_vnr(t, p->parent->pid) : 0;
	ps->pgrp = pid_vnr(t, p->pgid);
	ps->sid = pid_vnr(t, p->sid);
	cputime_task(t, &u);
	cputime_children(p, &c);
	timeval_of(u.utime, ps->utime);
	timeval_of(u.stime, ps->stime);
	timeval_of(c.utime, ps->cutime);
	timeval_of(c.stime, ps->cstime);
	if (regs)
		memcpy(ps->reg, regs, sizeof(ps->reg));
	else if (t->thread && platform->get_regs(t->thread, &r) == 0)
		memcpy(ps->reg, &r, sizeof(ps->reg));
	ps->fpvalid = *fpvalid;
}

bool coredump_wait(struct task *t, int sig)
{
	struct process *p = t->proc;
	int64_t deadline = sched_now_ns() + CORE_WAIT_NS;

	if (p->core_dumper || p->exiting)
		return false;
	process_kill(p, sig);
	p->core_dumper = t;
	p->core_pending = p->nthreads - 1;
	while (p->core_pending > 0 && sched_now_ns() < deadline)
		sched_sleep_until(deadline); /* coredump_park wakes us */
	if (p->core_pending > 0)
		klog_ratelimited(LOG_INFO,
				 "pid %d (%s): core: %d thread(s) did not stop in time, left out",
				 p->pid, t->comm, p->core_pending);
	return true;
}

void coredump_done(struct task *t)
{
	struct process *p = t->proc;

	p->core_dumper = NULL;
	waitq_wake_all(&p->core_wait);
}

void coredump_park(struct task *t)
{
	struct process *p = t->proc;
	struct core_thread *c = t->thread ? malloc(sizeof(*c)) : NULL;

	if (c) {
		signal_settle_stub(t);
		c->regs_valid = platform->get_regs(t->thread, &c->regs) == 0;
		c->fpsize = platform->fpu_get(t->thread, c->fpu, sizeof(c->fpu));
		t->core = c;
	}
	p->core_pending--;
	sched_wake(p->core_dumper);
	while (p->core_dumper)
		waitq_sleep(&p->core_wait);
	t->core = NULL;
	free(c);
}

/* The other threads' notes, as Linux's fill_note_info: for each thread
 * parked with its registers, NT_PRSTATUS, then its FPU state. */
static void note_threads(struct task *t, const struct linux_siginfo *info, struct notes *n)
{
	struct task *o;
	struct elf_prstatus ps;
	bool fpvalid;

	list_for_each_entry(o, &t->proc->threads, thread_link)
	{
		struct core_thread *c = o->core;

		if (o == t || !c || !c->regs_valid)
			continue;
		fpvalid = c->fpsize >= 512;
		fill_prstatus(o, info, &ps, &fpvalid, &c->regs);
		note(n, "CORE", NT_PRSTATUS, &ps, sizeof(ps));
		if (fpvalid) {
			note(n, "CORE", NT_PRFPREG, c->fpu, 512);
			if (c->fpsize > 512)
				note(n, "LINUX", NT_X86_XSTATE, c->fpu, (size_t)c->fpsize);
		}
	}
}

static void fill_prpsinfo(struct task *t, struct elf_prpsinfo *pi)
{
	struct process *p = t->proc;
	struct mm *mm = t->mm;
	uint64_t n;
	size_t i;

	memset(pi, 0, sizeof(*pi));
	pi->state = 0;
	pi->sname = 'R';
	pi->nice = (char)t->nice;
	pi->uid = p->cred.uid;
	pi->gid = p->cred.gid;
	pi->pid = pid_vnr(t, p->pid);
	pi->ppid = p->parent ? pid_vnr(t, p->parent->pid) : 0;
	pi->pgrp = pid_vnr(t, p->pgid);
	pi->sid = pid_vnr(t, p->sid);
	memcpy(pi->fname, t->comm, sizeof(pi->fname) - 1);
	n = mm->arg_end > mm->arg_start ? mm->arg_end - mm->arg_start : 0;
	if (n > sizeof(pi->psargs) - 1)
		n = sizeof(pi->psargs) - 1;
	if (n && copy_from_user(mm, pi->psargs, mm->arg_start, n) < 0)
		n = 0;
	for (i = 0; i < n; i++)
		if (pi->psargs[i] == 0)
			pi->psargs[i] = ' ';
	while (n && pi->psargs[n - 1] == ' ')
		pi->psargs[--n] = 0;
}

/* NT_FILE: the file mappings, then their names. */
static void note_files(struct task *t, struct notes *n)
{
	struct notes d = { 0 };
	uint64_t count = 0, page = PAGE_SIZE, w[3];
	struct vma *v;

	list_for_each_entry(v, &t->mm->vmas, link) count += v->file && !(v->flags & VMA_STUB);
	put(&d, &count, 8);
	put(&d, &page, 8);
	list_for_each_entry(v, &t->mm->vmas, link)
	{
		if (!v->file || (v->flags & VMA_STUB))
			continue;
		w[0] = v->start;
		w[1] = v->end;
		w[2] = v->off / PAGE_SIZE;
		put(&d, w, sizeof(w));
	}
	/* the names, NUL-terminated and packed (put pads to 4: build by hand) */
	list_for_each_entry(v, &t->mm->vmas, link)
	{
		char *name;
		size_t len;

		if (!v->file || (v->flags & VMA_STUB))
			continue;
		name = v->file->path.dentry && t->fs ? path_name_d(&v->file->path, &t->fs->root)
						     : NULL;
		len = strlen(name ? name : "") + 1;
		if (!d.oom && d.len + len + 4 > d.cap) {
			char *b = realloc(d.buf, d.len + len + 4096);

			if (b) {
				d.buf = b;
				d.cap = d.len + len + 4096;
			} else {
				d.oom = true;
			}
		}
		if (!d.oom) {
			memcpy(d.buf + d.len, name ? name : "", len);
			d.len += len;
		}
		free(name);
	}
	if (!d.oom)
		note(n, "CORE", NT_FILE, d.buf, d.len);
	free(d.buf);
}

bool coredump(struct task *t, const struct linux_siginfo *info)
{
	struct process *p = t->proc;
	uint64_t limit = p->rlim[LINUX_RLIMIT_CORE].rlim_cur, off, *sizes = NULL;
	struct linux_elf64_ehdr eh;
	struct linux_elf64_phdr ph;
	struct elf_prstatus ps;
	struct elf_prpsinfo pi;
	struct notes n = { 0 };
	struct host_smap *h = NULL;
	static char fpu[FPU_MAX] __attribute__((aligned(64)));
	char name[CORENAME_MAX + 64], *buf = NULL;
	struct file *f = NULL;
	struct vma *v;
	long fpsize, nh;
	int nph = 1, i;
	bool fpvalid, ok = false, cut = false, over = false;
	uint64_t budget = 0, budget_all = 0;
	struct iattr ia;

	if (limit < PAGE_SIZE || p->nondumpable || !t->mm || !t->fs || !pattern[0])
		return false;
	core_name(t, info->si_signo, name, sizeof(name));
	/* Linux: an old file of that name goes first (O_EXCL then). */
	vfs_unlinkat(t, LINUX_AT_FDCWD, name, false);
	if (vfs_openat(t, LINUX_AT_FDCWD, name,
		       LINUX_O_CREAT | LINUX_O_EXCL | LINUX_O_NOFOLLOW | LINUX_O_WRONLY |
			       LINUX_O_LARGEFILE,
		       0600, &f) < 0)
		return false;
	if (!LINUX_S_ISREG(f->inode->mode) || !f->ops->pwrite)
		goto out;

	/* The notes. */
	fpsize = platform->fpu_get(t->thread, fpu, sizeof(fpu));
	fpvalid = fpsize >= 512;
	fill_prstatus(t, info, &ps, &fpvalid, NULL);
	note(&n, "CORE", NT_PRSTATUS, &ps, sizeof(ps));
	fill_prpsinfo(t, &pi);
	note(&n, "CORE", NT_PRPSINFO, &pi, sizeof(pi));
	note(&n, "CORE", NT_SIGINFO, info, sizeof(*info));
	note(&n, "CORE", NT_AUXV, t->mm->saved_auxv, (size_t)t->mm->nauxv * sizeof(uint64_t));
	note_files(t, &n);
	if (fpvalid) {
		note(&n, "CORE", NT_PRFPREG, fpu, 512);
		if (fpsize > 512)
			note(&n, "LINUX", NT_X86_XSTATE, fpu, (size_t)fpsize);
	}
	note_threads(t, info, &n);
	if (n.oom)
		goto out;

	/* The segments: their sizes first, for the headers. */
	nh = host_proc_smaps(platform->mm_host_pid(t->mm->pf), &h);
	if (nh < 0)
		nh = 0;
	/* What is read is bounded by what the process holds (twice its
	 * resident pages, and 64 MiB more), not by its mappings' sizes. */
	for (i = 0; i < nh; i++)
		budget_all += h[i].kb[HOST_SM_RSS] << 11;
	budget_all += 64ULL << 20;
	budget = budget_all;
	list_for_each_entry(v, &t->mm->vmas, link) nph += !(v->flags & VMA_STUB);
	sizes = calloc((size_t)nph, sizeof(*sizes));
	buf = malloc(CHUNK);
	if (!sizes || !buf)
		goto out;
	i = 0;
	list_for_each_entry(v, &t->mm->vmas, link)
	{
		if (v->flags & VMA_STUB)
			continue;
		sizes[i] = dump_size(t->mm, v, h, nh, p->coredump_filter);
		if (sizes[i] > HUGE_VMA) {
			klog_ratelimited(LOG_INFO,
					 "pid %d (%s): core: %llu bytes at %#llx left empty",
					 p->pid, t->comm, (unsigned long long)sizes[i],
					 (unsigned long long)v->start);
			sizes[i] = 0;
		}
		i++;
	}

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident,
	       "\x7f"
	       "ELF\2\1\1",
	       7);
	eh.e_type = 4; /* ET_CORE */
	eh.e_machine = 62;
	eh.e_version = 1;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = (uint16_t)nph;
	if (f->ops->pwrite(f, &eh, sizeof(eh), 0) != (long)sizeof(eh))
		goto out;
	off = sizeof(eh) + (uint64_t)nph * sizeof(ph);
	memset(&ph, 0, sizeof(ph));
	ph.p_type = LINUX_PT_NOTE;
	ph.p_offset = off;
	ph.p_filesz = n.len;
	if (f->ops->pwrite(f, &ph, sizeof(ph), sizeof(eh)) != (long)sizeof(ph) ||
	    f->ops->pwrite(f, n.buf, n.len, (int64_t)off) != (long)n.len)
		goto out;
	off = PAGE_ALIGN(off + n.len);
	i = 0;
	list_for_each_entry(v, &t->mm->vmas, link)
	{
		if (v->flags & VMA_STUB)
			continue;
		memset(&ph, 0, sizeof(ph));
		ph.p_type = LINUX_PT_LOAD;
		ph.p_offset = off;
		ph.p_vaddr = v->start;
		ph.p_filesz = sizes[i];
		ph.p_memsz = v->end - v->start;
		ph.p_flags = ((v->prot & LINUX_PROT_READ) ? 4 : 0) |
			     ((v->prot & LINUX_PROT_WRITE) ? 2 : 0) |
			     ((v->prot & LINUX_PROT_EXEC) ? 1 : 0);
		ph.p_align = PAGE_SIZE;
		if (f->ops->pwrite(f, &ph, sizeof(ph),
				   (int64_t)(sizeof(eh) + (uint64_t)(i + 1) * sizeof(ph))) !=
		    (long)sizeof(ph))
			goto out;
		if (!cut && !over) {
			int r = write_range(f, t->mm, v->start, sizes[i], off, limit, buf, &cut,
					    &budget);

			if (r < 0)
				goto out;
			if (r > 0) {
				over = true;
				klog_ratelimited(
					LOG_INFO,
					"pid %d (%s): core: more than %llu MiB to read: the rest "
					"left as holes",
					p->pid, t->comm, (unsigned long long)(budget_all >> 20));
			}
		}
		off += sizes[i];
		i++;
	}
	/* The holes at the end are the file's too, unless RLIMIT_CORE cut
	 * it (it ends at the last write that fitted, as Linux's). */
	ok = true;
	if (!cut) {
		memset(&ia, 0, sizeof(ia));
		ia.valid = ATTR_SIZE;
		ia.size = off;
		ok = vfs_setattr_inode(t, &f->path, &ia) == 0;
	}
out:
	free(sizes);
	free(buf);
	free(h);
	free(n.buf);
	file_put(f);
	return ok;
}
