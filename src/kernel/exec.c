/* kernel/exec.c: execve's loader. The new address space is built whole
 * before the task switches to it, so a failure leaves the caller intact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/exec.h"
#include "kernel/timens.h"
#include "kernel/elf.h"
#include "kernel/task.h"
#include "kernel/userns.h"
#include "kernel/cpus.h"
#include "kernel/cred.h"
#include "kernel/log.h"
#include "mm/mm.h"
#include "mm/usercopy.h"
#include "vfs/denywrite.h"
#include "kernel/random.h"
#include "vfs/file.h"
#include "vfs/namei.h"
#include "vfs/fsnotify.h"
#include "host/host.h"
#include "stub/stub.h"
#include "abi/linux/auxv.h"
#include "abi/linux/errno.h"
#include "abi/linux/fcntl.h"
#include "abi/linux/misc.h"
#include "abi/linux/mman.h"
#include "abi/linux/stat.h"

#define BINPRM_BUF_SIZE	 256
#define BINFILE_HEAD	 1024
#define MAX_ARG_STRLEN	 (32 * PAGE_SIZE)
#define MAX_SCRIPT_DEPTH 4
#define ELF_ET_DYN_BASE	 0x555555554000UL
#define STACK_GUARD_GAP	 (256UL * PAGE_SIZE)
#define STACK_RND_PAGES	 0x3fffffUL /* 16 GiB, as Linux on x86-64 */
#define MMAP_RND_BITS	 28
#define BRK_RND		 0x02000000UL
/* Guest stacks sit below both of the stub's places (stub.h): so neither
 * is ever under a guest's stack, and a skas that runs in this one always
 * finds the low place free for its own stubs. */
#define STACK_TOP_MAX STUB_BASE_LOW

int strv_push(struct strv *sv, const char *s)
{
	return strv_insert(sv, sv->n, s);
}

int strv_insert(struct strv *sv, int at, const char *s)
{
	char **v = sv->v, *copy = strdup(s);

	/* Doubling: an exec may bring hundreds of thousands of strings. */
	if (copy && sv->n + 2 > sv->cap) {
		int cap = sv->cap ? 2 * sv->cap : 16;

		v = realloc(sv->v, (size_t)cap * sizeof(char *));
		if (v) {
			sv->v = v;
			sv->cap = cap;
		}
	}
	if (!v || !copy) {
		free(copy);
		return -ENOMEM;
	}
	memmove(&v[at + 1], &v[at], (sv->n - at) * sizeof(char *));
	v[at] = copy;
	sv->n++;
	v[sv->n] = NULL;
	sv->bytes += strlen(s) + 1;
	return 0;
}

void strv_free(struct strv *sv)
{
	int i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

/* An opened executable: its file, size and first bytes. */
struct binfile {
	struct file *file;
	uint64_t size;
	uint32_t mode, uid, gid;
	/* The file's first bytes: a "#!" line is looked for in the first
	 * BINPRM_BUF_SIZE, as Linux; more are read so that the program
	 * headers usually come with the same host read. */
	char buf[BINFILE_HEAD];
	size_t buflen;
	struct linux_elf64_ehdr eh;
	struct linux_elf64_phdr *ph;
	struct elf_layout lay;
	/* Its file capabilities (security.capability; none on a nosuid
	 * mount): permitted, inheritable, effective; fcap_err: the xattr
	 * is malformed (-EINVAL, as Linux's exec then). */
	bool has_fcap, fcap_eff;
	uint64_t fcap_p, fcap_i;
	int fcap_err;
};

/* The exec is done with the file: its open's deny goes now, though its
 * mappings keep the file (Linux's allow_write_access at the end of the
 * load); only the running image's own (mm->exe) stays. */
static void binfile_close(struct binfile *b)
{
	if (b->file && b->file->write_access < 0) {
		write_access_allow(b->file->wa_dev, b->file->wa_ino);
		b->file->write_access = 0;
	}
	file_put(b->file);
	free(b->ph);
	memset(b, 0, sizeof(*b));
}

/* Linux's get_vfs_caps_from_disk: revision 1 (one 32-bit word each),
 * 2 (two), 3 (two and the root uid they are for: the file's caps count
 * only for the namespace whose root that is, here the instance's uid 0
 * or the caller's namespace's root). */
static void read_fcaps(struct binfile *b)
{
	struct inode *ino = b->file->path.dentry ? b->file->path.dentry->inode : NULL;
	uint8_t v[24];
	uint32_t w[6] = { 0 }, rev;
	long n;

	if (!ino || !ino->iop->getxattr)
		return;
	n = ino->iop->getxattr(ino, "security.capability", v, sizeof(v));
	if (n < 4)
		return; /* none (ENODATA) or no xattrs */
	memcpy(w, v, (size_t)n & ~3UL);
	rev = w[0] & 0xff000000u;
	if (!((rev == 0x01000000u && n == 12) || (rev == 0x02000000u && n == 20) ||
	      (rev == 0x03000000u && n == 24))) {
		b->fcap_err = -EINVAL;
		return;
	}
	if (rev == 0x03000000u && current &&
	    w[5] != from_kuid(cred_user_ns(&current->proc->cred),
			      make_kuid(cred_user_ns(&current->proc->cred), 0)) &&
	    w[5] != 0)
		return; /* another namespace's root's */
	b->has_fcap = true;
	b->fcap_eff = w[0] & 1;
	b->fcap_p = w[1] | (rev == 0x01000000u ? 0 : (uint64_t)w[3] << 32);
	b->fcap_i = w[2] | (rev == 0x01000000u ? 0 : (uint64_t)w[4] << 32);
}

/* Takes over file, opened by vfs_open_exec (which checked its type and
 * the search permission). */
static int binfile_from(struct file *file, struct binfile *b)
{
	struct linux_stat st;
	long n;
	int ret;

	memset(b, 0, sizeof(*b));
	b->file = file;
	ret = file_stat(b->file, &st);
	if (ret < 0)
		goto fail;
	b->size = st.st_size;
	b->mode = st.st_mode;
	/* A nosuid mount's set-user/group-ID bits do nothing (Linux's
	 * bprm_fill_uid). */
	if (b->file->path.mnt && (b->file->path.mnt->flags & MNT_NOSUID))
		b->mode &= ~06000;
	b->uid = st.st_uid;
	b->gid = st.st_gid;
	if (!(b->file->path.mnt && (b->file->path.mnt->flags & MNT_NOSUID)))
		read_fcaps(b);
	n = b->file->ops->pread(b->file, b->buf, sizeof(b->buf), 0);
	if (n < 0) {
		ret = (int)n;
		goto fail;
	}
	b->buflen = n;
	if (n > 0)
		fsnotify_file(b->file, IN_ACCESS); /* as Linux's kernel_read */
	return 0;
fail:
	binfile_close(b);
	return ret;
}

static int binfile_open(struct task *t, int dirfd, const char *path, int atflags, struct binfile *b)
{
	struct file *file;
	int ret = vfs_open_exec(t, dirfd, path, atflags, &file);

	if (ret < 0) {
		memset(b, 0, sizeof(*b));
		return ret;
	}
	return binfile_from(file, b);
}

static int binfile_read_elf(struct binfile *b)
{
	size_t phsize;
	int ret;

	if (b->buflen < sizeof(b->eh))
		return -ENOEXEC;
	memcpy(&b->eh, b->buf, sizeof(b->eh));
	ret = elf_check_ehdr(&b->eh, b->size);
	if (ret < 0)
		return ret;
	phsize = (size_t)b->eh.e_phnum * sizeof(*b->ph);
	b->ph = malloc(phsize);
	if (!b->ph)
		return -ENOMEM;
	if (b->eh.e_phoff <= b->buflen && phsize <= b->buflen - b->eh.e_phoff)
		memcpy(b->ph, b->buf + b->eh.e_phoff, phsize);
	else if (b->file->ops->pread(b->file, b->ph, phsize, b->eh.e_phoff) != (long)phsize)
		return -ENOEXEC;
	return elf_check_phdrs(&b->eh, b->ph, b->size, &b->lay);
}

static int prot_of(uint32_t pflags)
{
	return ((pflags & LINUX_PF_R) ? LINUX_PROT_READ : 0) |
	       ((pflags & LINUX_PF_W) ? LINUX_PROT_WRITE : 0) |
	       ((pflags & LINUX_PF_X) ? LINUX_PROT_EXEC : 0);
}

/* Maps b's PT_LOADs at bias; returns the end of the highest segment. */
static int map_segments(struct mm *mm, struct binfile *b, uint64_t bias, uint64_t *end,
			bool is_main)
{
	int i, ret;

	*end = 0;
	for (i = 0; i < b->eh.e_phnum; i++) {
		const struct linux_elf64_phdr *p = &b->ph[i];
		uint64_t start = (bias + p->p_vaddr) & PAGE_MASK;
		uint64_t fend = bias + p->p_vaddr + p->p_filesz;
		uint64_t mend = bias + p->p_vaddr + p->p_memsz;
		int prot = prot_of(p->p_flags);

		if (p->p_type != LINUX_PT_LOAD)
			continue;
		if (mm_deny_write_exec(mm, prot, prot))
			return -EACCES; /* elf_map's do_mmap */
		if (p->p_filesz > 0) {
			ret = mm_map(mm, start, PAGE_ALIGN(fend) - start, prot, 0, b->file,
				     p->p_offset & PAGE_MASK);
			if (ret < 0)
				return ret;
		}
		if (p->p_memsz > p->p_filesz) {
			/* bss: anonymous pages (the file page's tail is zeroed
			 * by zero_bss once everything is mapped). */
			if (PAGE_ALIGN(mend) > PAGE_ALIGN(fend)) {
				uint64_t s = p->p_filesz ? PAGE_ALIGN(fend) : start;

				ret = mm_map(mm, s, PAGE_ALIGN(mend) - s, prot, 0, NULL, 0);
				if (ret < 0)
					return ret;
			}
		}
		if (!is_main) {
			/* the interpreter's segments are not the program's */
		} else if (prot & LINUX_PROT_EXEC) {
			if (!mm->start_code || start < mm->start_code)
				mm->start_code = start;
			if (fend > mm->end_code)
				mm->end_code = fend;
		} else if (fend > mm->end_data) {
			mm->end_data = fend;
			if (!mm->start_data)
				mm->start_data = start;
		}
		if (mend > *end)
			*end = mend;
	}
	return 0;
}

/* Zeroes the tail of the last file page of each writable PT_LOAD with a
 * bss, as Linux's padzero, after map_segments has mapped everything: the
 * writes then need no batch of their own, and go to pk, with the stack
 * image (one host write). A page that a later PT_LOAD maps again is left
 * alone (Linux zeroes it first and the later mapping replaces it). */
static int zero_bss(struct user_pokes *pk, struct binfile *b, uint64_t bias)
{
	static const char zeros[PAGE_SIZE];
	int i, j, ret;

	for (i = 0; i < b->eh.e_phnum; i++) {
		const struct linux_elf64_phdr *p = &b->ph[i];
		uint64_t fend = bias + p->p_vaddr + p->p_filesz, page = fend & PAGE_MASK;
		bool again = false;

		if (p->p_type != LINUX_PT_LOAD || p->p_memsz <= p->p_filesz || p->p_filesz == 0 ||
		    !(fend & (PAGE_SIZE - 1)) || !(prot_of(p->p_flags) & LINUX_PROT_WRITE))
			continue;
		for (j = i + 1; j < b->eh.e_phnum && !again; j++) {
			const struct linux_elf64_phdr *q = &b->ph[j];
			uint64_t qs = (bias + q->p_vaddr) & PAGE_MASK;
			uint64_t qe = PAGE_ALIGN(bias + q->p_vaddr + q->p_memsz);

			again = q->p_type == LINUX_PT_LOAD && q->p_memsz > 0 && page >= qs &&
				page < qe;
		}
		if (again)
			continue;
		ret = poke_user_add(pk, fend, zeros, PAGE_ALIGN(fend) - fend);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int randomize_va_space = 2;

static uint64_t mmap_rnd(struct mm *mm)
{
	return mm->randomize ? (get_random_u64() & ((1UL << MMAP_RND_BITS) - 1)) << 12 : 0;
}

/* Picks the load bias of an ELF: fixed for ET_EXEC, at ELF_ET_DYN_BASE for a
 * PIE with an interpreter, top-down in the mmap area otherwise. */
static long choose_bias(struct mm *mm, struct binfile *b, bool is_main)
{
	uint64_t span = b->lay.hi - b->lay.lo;
	long at;

	if (b->eh.e_type == LINUX_ET_EXEC) {
		if (b->lay.lo < MMAP_MIN_ADDR || mm_range_used(mm, b->lay.lo, b->lay.hi))
			return -ENOMEM;
		return 0;
	}
	if (is_main && b->lay.interp >= 0) {
		at = (long)((ELF_ET_DYN_BASE + mmap_rnd(mm)) & PAGE_MASK);
		if (!mm_range_used(mm, at, at + span))
			return at - (long)b->lay.lo;
	}
	at = mm_unmapped_area(mm, 0, span);
	if (at < 0)
		return at;
	return at - (long)b->lay.lo;
}

static void setup_layout(struct mm *mm, const struct linux_rlimit *stack_rlim)
{
	uint64_t rlim = stack_rlim->rlim_cur, gap, pad;

	mm->stack_top = STACK_TOP_MAX;
	if (mm->randomize)
		mm->stack_top -= (get_random_u64() & STACK_RND_PAGES) << 12;
	/* Linux's mmap_base(): below the largest the stack may grow to. */
	pad = STACK_GUARD_GAP + (mm->randomize ? (STACK_RND_PAGES << 12) : 0);
	gap = rlim > TASK_SIZE ? TASK_SIZE : rlim;
	gap += pad;
	if (gap < (128UL << 20))
		gap = 128UL << 20;
	if (gap > TASK_SIZE / 6 * 5)
		gap = TASK_SIZE / 6 * 5;
	mm->mmap_base = (STACK_TOP_MAX - gap - mmap_rnd(mm)) & PAGE_MASK;
}

/* The stack VMA, as Linux's setup_arg_pages makes it: the argument pages
 * and 128 KiB more under stack_top; it grows on faults below it up to the
 * rlimit (mm_grow_stack), and is counted against --memory as it grows. */
static int map_stack(struct mm *mm, const struct linux_rlimit *stack_rlim, size_t args)
{
	uint64_t size = PAGE_ALIGN(args) + (128UL << 10), max = stack_rlim->rlim_cur;

	if (max < (128UL << 10))
		max = 128UL << 10;
	if (max > TASK_SIZE / 6 * 5)
		max = TASK_SIZE / 6 * 5;
	mm->stack_max = PAGE_ALIGN(max);
	if (size > mm->stack_max)
		size = mm->stack_max;
	return mm_map(mm, mm->stack_top - size, size, LINUX_PROT_READ | LINUX_PROT_WRITE, VMA_STACK,
		      NULL, 0);
}

struct auxv_builder {
	uint64_t v[64];
	int n;
};

static void aux(struct auxv_builder *a, uint64_t type, uint64_t val)
{
	a->v[a->n++] = type;
	a->v[a->n++] = val;
}

/* Lays out argv, envp and auxv as Linux's create_elf_tables does; the
 * whole stack image goes to pk as one write (*img_out: the caller frees it
 * once pk is flushed). */
static int build_stack(struct task *t, struct mm *mm, struct strv *argv, struct strv *envp,
		       const char *execfn, struct auxv_builder *a, uint64_t *sp_out,
		       struct user_pokes *pk, char **img_out)
{
	static const char platform_str[] = "x86_64";
	uint64_t top = mm->stack_top, p, strings_lo, sp, rand_addr, plat_addr, execfn_addr;
	size_t execfn_len = strlen(execfn) + 1, items, img_size;
	uint64_t *words, rnd[2];
	char *img;
	int i;

	(void)t;
	/* Strings, from the top down: 8 zero bytes, execfn, envp, argv. */
	p = top - 8 - execfn_len - envp->bytes - argv->bytes;
	strings_lo = p;
	/* Then randomized alignment, the platform string, 16 random bytes. */
	if (mm->randomize)
		p -= get_random_u64() % 8192;
	p &= ~15UL;
	p -= sizeof(platform_str);
	plat_addr = p;
	p -= 16;
	rand_addr = p;
	execfn_addr = top - 8 - execfn_len;
	/* The tail in create_elf_tables's order. */
	aux(a, LINUX_AUXV_RANDOM, rand_addr);
	aux(a, LINUX_AUXV_HWCAP2, host_auxv(LINUX_AUXV_HWCAP2));
	aux(a, LINUX_AUXV_EXECFN, execfn_addr);
	aux(a, LINUX_AUXV_PLATFORM, plat_addr);
	aux(a, LINUX_AUXV_NULL, 0);
	memcpy(mm->saved_auxv, a->v, a->n * sizeof(uint64_t));
	mm->nauxv = a->n;
	items = 1 + (argv->n + 1) + (envp->n + 1) + a->n;
	sp = (p - items * 8) & ~15UL;
	img_size = top - sp;
	if (img_size > (6UL << 20))
		return -E2BIG;
	img = calloc(1, img_size);
	if (!img)
		return -ENOMEM;
	/* The pointer block at sp. */
	words = (uint64_t *)img;
	*words++ = argv->n;
	p = strings_lo;
	for (i = 0; i < argv->n; i++) {
		size_t l = strlen(argv->v[i]) + 1;

		*words++ = p;
		memcpy(img + (p - sp), argv->v[i], l);
		p += l;
	}
	*words++ = 0;
	for (i = 0; i < envp->n; i++) {
		size_t l = strlen(envp->v[i]) + 1;

		*words++ = p;
		memcpy(img + (p - sp), envp->v[i], l);
		p += l;
	}
	*words++ = 0;
	memcpy(words, a->v, a->n * sizeof(uint64_t));
	memcpy(img + (execfn_addr - sp), execfn, execfn_len);
	memcpy(img + (plat_addr - sp), platform_str, sizeof(platform_str));
	get_random_bytes(rnd, sizeof(rnd));
	memcpy(img + (rand_addr - sp), rnd, sizeof(rnd));
	mm->arg_start = strings_lo;
	mm->arg_end = mm->env_start = strings_lo + argv->bytes;
	mm->env_end = mm->env_start + envp->bytes;
	*img_out = img;
	mm->start_stack = sp;
	*sp_out = sp;
	return poke_user_add(pk, sp, img, img_size);
}

/* Replaces argv[0] with the interpreter of a "#!" script. */
static int parse_shebang(struct binfile *b, const char *path, struct strv *argv)
{
	char line[BINPRM_BUF_SIZE + 1], *p, *interp, *arg = NULL, *end;
	size_t n = b->buflen < BINPRM_BUF_SIZE ? b->buflen : BINPRM_BUF_SIZE;
	int ret;

	memset(line, 0, sizeof(line));
	memcpy(line, b->buf, n);
	end = memchr(line, '\n', BINPRM_BUF_SIZE);
	if (!end) {
		/* As Linux: without a newline the line is the first 255 bytes
		 * (zeros past the file's end), and a space, tab or NUL must
		 * follow the interpreter's name there (else it may be cut). */
		end = line + BINPRM_BUF_SIZE - 1;
		for (p = line + 2; p <= end && (*p == ' ' || *p == '\t'); p++)
			;
		while (p <= end && *p && *p != ' ' && *p != '\t')
			p++;
		if (p > end)
			return -ENOEXEC;
	}
	/* Trailing blanks go; not across a NUL: a file without a newline
	 * keeps them, and "#!interp " then passes an empty argument (Linux). */
	while (end > line + 2 && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = 0;
	for (p = line + 2; *p == ' ' || *p == '\t'; p++)
		;
	if (!*p)
		return -ENOEXEC;
	interp = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p) {
		*p++ = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		arg = p;
	}
	/* argv: interp [arg] path argv[1..] */
	if (argv->n > 0) {
		argv->bytes -= strlen(argv->v[0]) + 1;
		free(argv->v[0]);
		memmove(&argv->v[0], &argv->v[1], argv->n * sizeof(char *));
		argv->n--;
	}
	ret = strv_insert(argv, 0, path);
	if (ret == 0 && arg)
		ret = strv_insert(argv, 0, arg);
	if (ret == 0)
		ret = strv_insert(argv, 0, interp);
	return ret;
}

/* The credentials after exec: set-user/group-ID bits, then capabilities
 * as capabilities(7) computes them (Linux's cap_bprm_creds_from_file):
 * the file's capabilities, root's program taken to have them all (within
 * the bounding set) unless SECBIT_NOROOT. -EPERM if the file asks for a
 * permitted capability the bounding and inheritable sets cannot give;
 * -EINVAL for a malformed security.capability. */
static int exec_cred(const struct task *t, const struct binfile *b, struct cred *nc)
{
	/* A tracer without CAP_SYS_PTRACE would hold the new privileges
	 * (Linux's LSM_UNSAFE_PTRACE): the bits are ignored then. */
	bool unsafe = t->pt.tracer && t->pt.tracer->proc &&
		      !capable(&t->pt.tracer->proc->cred, CAP_SYS_PTRACE);

	const struct user_ns *ns = cred_user_ns(&t->proc->cred);
	uint32_t root = make_kuid(ns, 0); /* root is the user namespace's */
	bool effective;

	*nc = t->proc->cred;
	/* bprm_fill_uid: an owner the namespace cannot name gives nothing */
	if (!t->proc->no_new_privs && !unsafe && from_kuid(ns, b->uid) != INVALID_ID &&
	    from_kgid(ns, b->gid) != INVALID_ID) {
		if (b->mode & 04000)
			nc->euid = b->uid;
		if ((b->mode & 02010) == 02010)
			nc->egid = b->gid;
	}
	nc->suid = nc->fsuid = nc->euid;
	nc->sgid = nc->fsgid = nc->egid;
	nc->securebits &= ~(unsigned)SECBIT_KEEP_CAPS;
	/* a set-user/group-ID exec, or one of a file with capabilities,
	 * loses the ambient set; else it joins the permitted set, and is the
	 * effective one of a program that is not root's */
	if (nc->euid != nc->uid || nc->egid != nc->gid || b->has_fcap)
		nc->cap_ambient = 0;
	if (b->fcap_err)
		return b->fcap_err;
	effective = false;
	nc->cap_permitted = 0;
	if (b->has_fcap) { /* pP' = (X & fP) | (pI & fI) */
		nc->cap_permitted = (nc->cap_bset & b->fcap_p) | (nc->cap_inheritable & b->fcap_i);
		if (b->fcap_p & ~nc->cap_permitted)
			return -EPERM; /* insufficient to run correctly */
		effective = b->fcap_eff;
	}
	/* handle_privileged_root; SECBIT_NOROOT: root is a user like any
	 * other here. A set-user-ID-root program with file capabilities
	 * gets those only. */
	if (!(nc->securebits & SECBIT_NOROOT) &&
	    !(b->has_fcap && nc->uid != root && nc->euid == root)) {
		if (nc->uid == root || nc->euid == root)
			nc->cap_permitted = nc->cap_bset | nc->cap_inheritable;
		if (nc->euid == root)
			effective = true;
	}
	/* Under NO_NEW_PRIVS, or traced by a tracer without CAP_SYS_PTRACE,
	 * nothing is gained: no more than it had (Linux's downgrade in
	 * cap_bprm_creds_from_file; root that dropped its capabilities does
	 * not get them back by an exec). */
	if ((t->proc->no_new_privs || unsafe) && (nc->cap_permitted & ~t->proc->cred.cap_permitted))
		nc->cap_permitted &= t->proc->cred.cap_permitted;
	nc->cap_permitted |= nc->cap_ambient;
	nc->cap_effective = effective ? nc->cap_permitted : nc->cap_ambient;
	return 0;
}

/* Linux's bprm_stack_limits: the strings (and the file name) and their
 * pointers take at most a quarter of RLIMIT_STACK, capped at
 * EXEC_ARGS_MAX, but always ARG_MAX (128 KiB) for the strings; else
 * E2BIG, before the point of no return (the new stack must hold them). */
static int args_fit(struct task *t, const char *filename, const struct strv *argv,
		    const struct strv *envp)
{
	uint64_t limit = t->proc->rlim[LINUX_RLIMIT_STACK].rlim_cur / 4, ptrs;

	if (limit > EXEC_ARGS_MAX)
		limit = EXEC_ARGS_MAX;
	if (limit < 32 * PAGE_SIZE)
		limit = 32 * PAGE_SIZE;
	ptrs = ((uint64_t)(argv->n ? argv->n : 1) + (uint64_t)envp->n) * sizeof(uint64_t);
	if (limit <= ptrs)
		return -E2BIG;
	if (argv->bytes + envp->bytes + strlen(filename) + 1 > limit - ptrs)
		return -E2BIG;
	return 0;
}

/* The name the program gets (AT_EXECFN, a script's argument), as Linux's
 * bprm->filename: a name relative to an fd is "/dev/fd/N[/name]". */
static char *exec_name(int dirfd, const char *path)
{
	size_t n = strlen(path) + 32;
	char *s;

	if (dirfd == LINUX_AT_FDCWD || path[0] == '/')
		return strdup(path);
	s = malloc(n);
	if (s)
		snprintf(s, n, path[0] ? "/dev/fd/%d/%s" : "/dev/fd/%d", dirfd, path);
	return s;
}

/* The name the log gives a failed exec: path, or for an exec by fd
 * (AT_EMPTY_PATH: path is "") the file's, as /proc/PID/fd shows it. */
static void log_exec_failed(struct task *t, const char *path, struct file *byfd, int err)
{
	char *name = NULL;

	if (byfd && byfd->path.dentry && t->fs)
		name = path_name(&byfd->path, &t->fs->root);
	klog_ratelimited(LOG_INFO, "pid %d: exec of %s failed past the point of no return (%d)",
			 t->proc->pid,
			 name	   ? name
			 : path[0] ? path
				   : "a file by fd",
			 err);
	free(name);
}

int exec_load(struct task *t, int dirfd, const char *path, int atflags, struct file *file,
	      struct strv *argv, struct strv *envp, struct mm **mm_out, struct pf_thread **th_out,
	      struct pf_regs *regs, struct cred *newcred)
{
	struct pf_thread *th = NULL;
	struct binfile main_bin, interp_bin;
	struct auxv_builder a = { .n = 0 };
	struct user_pokes pk = { .n = 0 };
	char *img = NULL;
	char *execfn = exec_name(dirfd, path), *cur = strdup(execfn ? execfn : ""),
	     *interp_path = NULL;
	/* The name is gone after exec when its fd is close-on-exec: a
	 * script's interpreter could not open it (ENOENT, as Linux's
	 * BINPRM_FLAGS_PATH_INACCESSIBLE). */
	bool inaccessible =
		dirfd != LINUX_AT_FDCWD && path[0] != '/' && fd_is_cloexec(t->files, dirfd);
	uint64_t bias = 0, ibias = 0, end, entry, sp = 0, vdso = 0, vdso_from = 0;
	struct mm *mm = NULL;
	/* An exec by fd: its file, for the log (log_exec_failed). */
	struct file *byfd = NULL;
	bool recycled = false, exec_failed = false, past_return = false;
	long lb;
	int ret, depth;

	memset(&interp_bin, 0, sizeof(interp_bin));
	memset(&main_bin, 0, sizeof(main_bin));
	if (!execfn || !cur) {
		file_put(file);
		ret = -ENOMEM;
		goto out;
	}
	for (depth = 0;; depth++) {
		if (depth)
			ret = binfile_open(t, LINUX_AT_FDCWD, cur, 0, &main_bin);
		else if (file)
			ret = binfile_from(file, &main_bin);
		else
			ret = binfile_open(t, dirfd, path, atflags, &main_bin);
		if (ret < 0)
			goto out;
		if (depth == 0 && !path[0]) {
			byfd = main_bin.file;
			file_get(byfd);
		}
		if (main_bin.buflen < 2 || main_bin.buf[0] != '#' || main_bin.buf[1] != '!')
			break;
		ret = -ENOENT;
		if (depth == 0 && inaccessible)
			goto out;
		ret = -ELOOP;
		if (depth >= MAX_SCRIPT_DEPTH)
			goto out;
		ret = parse_shebang(&main_bin, cur, argv);
		if (ret < 0)
			goto out;
		free(cur);
		cur = strdup(argv->v[0]);
		binfile_close(&main_bin);
		if (!cur) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = args_fit(t, execfn, argv, envp);
	if (ret < 0)
		goto out;
	ret = binfile_read_elf(&main_bin);
	if (ret < 0)
		goto out;
	if (main_bin.lay.interp >= 0) {
		const struct linux_elf64_phdr *ip = &main_bin.ph[main_bin.lay.interp];

		interp_path = calloc(1, ip->p_filesz + 1);
		ret = -ENOMEM;
		if (!interp_path)
			goto out;
		ret = -ENOEXEC;
		if (main_bin.file->ops->pread(main_bin.file, interp_path, ip->p_filesz,
					      ip->p_offset) != (long)ip->p_filesz ||
		    interp_path[ip->p_filesz - 1] != 0)
			goto out;
		ret = binfile_open(t, LINUX_AT_FDCWD, interp_path, 0, &interp_bin);
		if (ret < 0)
			goto out;
		ret = binfile_read_elf(&interp_bin);
		if (ret < 0)
			goto out;
	}

	/* The new credentials, before the point of no return: a file whose
	 * capabilities cannot be given fails the exec (EPERM) */
	ret = exec_cred(t, &main_bin, newcred);
	if (ret < 0)
		goto out;

	/* A single-threaded process that is its address space's only user
	 * keeps its stub and host thread (emptied): no new stub and thread to
	 * make and box. Else a fresh stub is built while the old image lives
	 * on. Either way this is the point of no return, as Linux's
	 * begin_new_exec: a failure below kills the process (SIGSEGV), even
	 * where skas could have kept the old image. */
	/* Before the old image is emptied. Differs from Linux: should
	 * mm_create fail (host memory), the caller goes on with its robust
	 * futexes and clear_child_tid released. */
	if (t->mm)
		exec_mm_release(t);
	memset(&t->sud, 0, sizeof(t->sud)); /* its selector was the old image's */
	if (t->thread && t->mm && t->proc->nthreads == 1 &&
	    mm_create_recycled(t->mm, &mm, &vdso_from) == 0) {
		recycled = true;
	} else {
		ret = mm_create(&mm);
		if (ret < 0)
			goto out;
	}
	past_return = true;
	if (t->mm)
		mm->thp = t->mm->thp;
	if (t->mm && !(t->mm->mdwe & LINUX_PR_MDWE_NO_INHERIT))
		mm->mdwe = t->mm->mdwe;
	mm->randomize = !(t->proc->personality & LINUX_ADDR_NO_RANDOMIZE) && randomize_va_space;
	setup_layout(mm, &t->proc->rlim[LINUX_RLIMIT_STACK]);
	/* The vDSO first: it leaves its place in the fresh stub before
	 * anything could be mapped over it. */
	ret = mm_map_vdso(mm, &vdso, vdso_from);
	if (ret < 0)
		goto out;
	/* Linux's exec_task_namespaces: the time namespace for children is
	 * the new image's, whose vDSO must then add its offsets. */
	ret = timens_enter_children(t, true);
	if (ret < 0)
		goto out;
	if (vdso && task_time_ns(t) != &init_time_ns)
		mm_vdso_syscalls(mm);
	/* The strings, the pointers to them and the auxv (64 words), padded. */
	ret = map_stack(mm, &t->proc->rlim[LINUX_RLIMIT_STACK],
			argv->bytes + envp->bytes + ((size_t)argv->n + envp->n + 2 + 64) * 8 +
				PAGE_SIZE);
	if (ret < 0)
		goto out;
	lb = choose_bias(mm, &main_bin, true);
	if (lb < 0 && lb > -4096) {
		ret = (int)lb;
		goto out;
	}
	bias = (uint64_t)lb;
	ret = map_segments(mm, &main_bin, bias, &end, true);
	if (ret < 0)
		goto out;
	mm->start_brk = PAGE_ALIGN(end);
	if (main_bin.eh.e_type == LINUX_ET_DYN && main_bin.lay.interp < 0)
		mm->start_brk = ELF_ET_DYN_BASE; /* static PIE: brk away from the image */
	if (mm->randomize && randomize_va_space > 1)
		mm->start_brk += (get_random_u64() % (BRK_RND / PAGE_SIZE)) * PAGE_SIZE;
	mm->brk = mm->start_brk;
	if (main_bin.file->path.dentry) {
		mm->exe = main_bin.file->path;
		path_get(&mm->exe);
		/* the image denies writes while it runs (the open file denies
		 * them already, so this cannot fail) */
		(void)write_access_deny(mm->exe.dentry->inode);
	}
	entry = bias + main_bin.eh.e_entry;
	if (main_bin.lay.interp >= 0) {
		lb = choose_bias(mm, &interp_bin, false);
		if (lb < 0 && lb > -4096) {
			ret = (int)lb;
			goto out;
		}
		ibias = (uint64_t)lb;
		ret = map_segments(mm, &interp_bin, ibias, &end, false);
		if (ret < 0)
			goto out;
		entry = ibias + interp_bin.eh.e_entry;
	}

	if (vdso)
		aux(&a, LINUX_AUXV_SYSINFO_EHDR, vdso);
	if (host_auxv(LINUX_AUXV_MINSIGSTKSZ))
		aux(&a, LINUX_AUXV_MINSIGSTKSZ, host_auxv(LINUX_AUXV_MINSIGSTKSZ));
	aux(&a, LINUX_AUXV_HWCAP, host_auxv(LINUX_AUXV_HWCAP));
	aux(&a, LINUX_AUXV_PAGESZ, PAGE_SIZE);
	aux(&a, LINUX_AUXV_CLKTCK, 100);
	aux(&a, LINUX_AUXV_PHDR, main_bin.lay.phdr_vaddr ? bias + main_bin.lay.phdr_vaddr : 0);
	aux(&a, LINUX_AUXV_PHENT, sizeof(struct linux_elf64_phdr));
	aux(&a, LINUX_AUXV_PHNUM, main_bin.eh.e_phnum);
	aux(&a, LINUX_AUXV_BASE, ibias);
	aux(&a, LINUX_AUXV_FLAGS, 0);
	aux(&a, LINUX_AUXV_ENTRY, bias + main_bin.eh.e_entry);
	/* the ids as the program's user namespace names them */
	aux(&a, LINUX_AUXV_UID, from_kuid_munged(cred_user_ns(newcred), newcred->uid));
	aux(&a, LINUX_AUXV_EUID, from_kuid_munged(cred_user_ns(newcred), newcred->euid));
	aux(&a, LINUX_AUXV_GID, from_kgid_munged(cred_user_ns(newcred), newcred->gid));
	aux(&a, LINUX_AUXV_EGID, from_kgid_munged(cred_user_ns(newcred), newcred->egid));
	aux(&a, LINUX_AUXV_SECURE, newcred->euid != newcred->uid || newcred->egid != newcred->gid);
	/* Everything is mapped but nothing written yet: the thread's creation
	 * runs the whole queue of mappings in the same stub batch, and the
	 * writes below (bss tails, the stack image) need no batch. */
	if (recycled)
		ret = platform->mm_flush(mm->pf);
	else
		ret = platform->thread_new(mm->pf, t, &th);
	if (ret < 0)
		goto out;
	pk.mm = mm;
	ret = zero_bss(&pk, &main_bin, bias);
	if (ret == 0 && main_bin.lay.interp >= 0)
		ret = zero_bss(&pk, &interp_bin, ibias);
	if (ret == 0)
		ret = build_stack(t, mm, argv, envp, execfn, &a, &sp, &pk, &img);
	if (ret == 0)
		ret = poke_user_flush(&pk);
	free(img);
	if (ret < 0)
		goto out;
	ret = platform->mm_flush(mm->pf);
	if (ret < 0)
		goto out;
	memset(regs, 0, sizeof(*regs));
	regs->rip = entry;
	regs->rsp = sp;
	regs->eflags = 0x202;
	*mm_out = mm;
	*th_out = recycled ? t->thread : th;
	mm = NULL;
	th = NULL;
out:
	if (th)
		platform->thread_put(th);
	if (mm && recycled) {
		/* Past the point of no return: the process goes, in its new
		 * (unfinished) address space, which holds its thread. */
		mm_put(t->mm);
		t->mm = mm;
		mm = NULL;
		exec_failed = true;
	}
	if (ret < 0 && past_return)
		exec_failed = true; /* a fresh stub's: the old image is whole */
	mm_put(mm);
	binfile_close(&main_bin);
	binfile_close(&interp_bin);
	free(interp_path);
	free(execfn);
	free(cur);
	if (exec_failed)
		log_exec_failed(t, path, byfd, ret);
	file_put(byfd);
	return exec_failed ? EXEC_FATAL : ret;
}

int exec_switch(struct task *t, struct mm *mm, struct pf_thread *th, const struct pf_regs *regs)
{
	struct pf_regs r;
	bool fpu_done;
	int ret;

	/* Every register is set here: none is read from the thread first
	 * (a host call under ptrace and seccomp, where setting them costs
	 * none until the resume). */
	memset(&r, 0, sizeof(r));
	r.orig_rax = (uint64_t)-1;
	r.rip = regs->rip;
	r.rsp = regs->rsp;
	r.eflags = regs->eflags;
	r.fs_base = r.gs_base = 0;
	/* 64-bit user code and stack, as Linux's start_thread (a recycled
	 * thread may have left 64-bit mode). */
	r.cs = 0x33;
	r.ss = 0x2b;
	/* The same host thread: its FPU starts afresh, where the platform
	 * can with the registers (no host call of its own). Not for a
	 * traced task: its tracer must see the new program's registers at
	 * the exec stop, not the stub's start of them. */
	ret = -EOPNOTSUPP;
	if (th == t->thread && platform->exec_regs && !t->pt.tracer)
		ret = platform->exec_regs(th, &r);
	fpu_done = ret == 0;
	if (ret == -EOPNOTSUPP)
		ret = platform->set_regs(th, &r);
	if (ret < 0 && th == t->thread) {
		mm_put(t->mm);
		t->mm = mm;
		return EXEC_FATAL; /* its stub is gone */
	}
	if (ret < 0) {
		platform->thread_put(th);
		return ret;
	}
	if (th == t->thread) {
		/* The same host thread (mm_create_recycled): its counts go on,
		 * as the stub's peak size does; its FPU starts afresh. */
		if (!fpu_done)
			fpu_init_state(t);
		mm_put(t->mm);
		t->mm = mm;
		return 0;
	}
	cputime_thread_retire(t, true);
	if (t->thread) {
		mm_last_thread(t->mm);
		cpus_thread_put(t);
		platform->thread_put(t->thread);
	}
	t->thread = th;
	mm_put(t->mm);
	t->mm = mm;
	return 0;
}
