/* platform/stub_image.c: the stub image (stub/, linked into skas by
 * stub_blob.S) and the seccomp allowlist a stub runs under. A stub makes
 * only the host calls listed here, with the arguments checked where they
 * can be; anything else kills the stub, and so only its guest process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <asm/prctl.h>
#include <stdbool.h>
#include <seccomp.h>
#include <linux/seccomp.h>

#include "platform/stub_image.h"
#include "stub/stub.h"

extern const char stub_blob[], stub_blob_end[], stub_blob_low[], stub_blob_low_end[];

unsigned long stub_base = STUB_BASE_HIGH;

/* Whether [base, base + the stub's span) is free in skas's own address
 * space: a guest of another skas has that skas's stub (hidden, but held)
 * at the high place, and the outer kernel refuses a mapping there. A
 * host without MAP_FIXED_NOREPLACE (before 4.17) takes it as a hint and
 * maps elsewhere when the range is taken: no answer then but "not free". */
static bool place_free(unsigned long base)
{
	size_t span = STUB_END - STUB_BASE;
	void *p = mmap((void *)base, span, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return false;
	munmap(p, span);
	return p == (void *)base;
}

/* Whether skas's own /proc/self/maps shows a mapping in [base, base +
 * the stub's span): then the place is held by skas itself (its stack,
 * randomized there by the host about once in 2000 starts), which says
 * nothing of a fresh stub's address space. A place another skas holds
 * for its stub is hidden from its guests' maps. */
static bool place_ours(unsigned long base)
{
	unsigned long lo, hi, end = base + (STUB_END - STUB_BASE);
	char line[512];
	bool ours = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!ours && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo < end && hi > base)
			ours = true;
	fclose(f);
	return ours;
}

int stub_place(void)
{
	if (place_free(STUB_BASE_HIGH) || place_ours(STUB_BASE_HIGH))
		stub_base = STUB_BASE_HIGH;
	else if (place_free(STUB_BASE_LOW) || place_ours(STUB_BASE_LOW))
		stub_base = STUB_BASE_LOW;
	else
		return -ENOMEM;
	return 0;
}

int stub_image_fd(void)
{
	bool low = stub_base == STUB_BASE_LOW;
	const char *image = low ? stub_blob_low : stub_blob;
	size_t n = (size_t)((low ? stub_blob_low_end : stub_blob_end) - image);
	int fd = memfd_create("skas-stub", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, image, n) != (ssize_t)n) {
		close(fd);
		return -EIO;
	}
	return fd;
}

static int add_rules(scmp_filter_ctx ctx, enum stub_mode mode)
{
	int r = 0;

	/* Building guest memory: the kernel's map/unmap/protect ops. */
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 0);
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(munmap), 0);
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 0);
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(madvise), 0);
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mremap), 0);
	/* Receiving an fd to map, on the kernel's socket only; closing it. */
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(recvmsg), 1,
			      SCMP_A0(SCMP_CMP_EQ, STUB_SOCK_FD));
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(close), 1,
			      SCMP_A0(SCMP_CMP_NE, STUB_SOCK_FD));
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(close_range), 2,
			      SCMP_A0(SCMP_CMP_EQ, 1), SCMP_A1(SCMP_CMP_EQ, 1));
	/* The doorbell loop: waiting for the bell, reporting a batch's end. */
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(futex), 2,
			      SCMP_A0(SCMP_CMP_EQ, STUB_BELL_WORD), SCMP_A1(SCMP_CMP_EQ, 0));
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 2,
			      SCMP_A0(SCMP_CMP_EQ, STUB_SOCK_FD), SCMP_A1(SCMP_CMP_EQ, STUB_OPS));
	/* Copying an address space (fork) and adding a guest thread. */
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
			      SCMP_A0(SCMP_CMP_EQ, FORK_CLONE_FLAGS));
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
			      SCMP_A0(SCMP_CMP_EQ, THREAD_CLONE_FLAGS));
	/* seccomp backend: a new guest thread installs its own filter. */
	if (mode == STUB_MODE_NOTIF) {
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(seccomp), 2,
				      SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER),
				      SCMP_A1(SCMP_CMP_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER));
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
				      SCMP_A0(SCMP_CMP_EQ, NOTIF_THREAD_CLONE_FLAGS));
	}
	/* sigsys backend: a new guest thread takes its slot as signal stack,
	 * unblocks signals and installs its filter (STUB_SIGSYS_INIT); its
	 * handler waits on the slot, wakes the kernel and returns. The
	 * thread's own filter lets these through from the stub's code only. */
	if (mode == STUB_MODE_SIGSYS) {
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
				      SCMP_A0(SCMP_CMP_EQ, SIGSYS_THREAD_CLONE_FLAGS));
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(seccomp), 2,
				      SCMP_A0(SCMP_CMP_EQ, SECCOMP_SET_MODE_FILTER),
				      SCMP_A1(SCMP_CMP_EQ, 0));
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sigaltstack), 0);
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigprocmask), 0);
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(sched_setaffinity), 1,
				      SCMP_A0(SCMP_CMP_EQ, 0));
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigreturn), 0);
		r |= seccomp_rule_add(
			ctx, SCMP_ACT_ALLOW, SCMP_SYS(futex), 2,
			SCMP_A0(SCMP_CMP_MASKED_EQ, ~(uint64_t)(0x400000 - 1), STUB_SLOTS),
			SCMP_A1(SCMP_CMP_EQ, 0));
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 2,
				      SCMP_A0(SCMP_CMP_EQ, STUB_WAKE_FD),
				      SCMP_A1(SCMP_CMP_EQ, STUB_G_ONE));
		/* A host without FSGSBASE: the handler sets the thread's own
		 * fs or gs base (the thread's filter allows it only there). */
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(arch_prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, ARCH_SET_FS));
		r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(arch_prctl), 1,
				      SCMP_A0(SCMP_CMP_EQ, ARCH_SET_GS));
	}
	/* Dying. */
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit), 0);
	r |= seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit_group), 0);
	return r ? -EINVAL : 0;
}

int stub_filter_build(char *buf, size_t size, enum stub_mode mode, size_t *len)
{
	scmp_filter_ctx ctx;
	int fd = -1, ret;
	off_t n;

	/* skas wants Linux 5.10+, which has SECCOMP_RET_KILL_PROCESS (API
	 * level 3); libseccomp probes for it with seccomp(2), which fails
	 * under valgrind. */
	if (seccomp_api_get() < 3)
		seccomp_api_set(3);
	/* Under the seccomp and sigsys backends a guest thread's own filter
	 * decides (USER_NOTIF, TRAP or TRACE for everything): a KILL default
	 * here would override it. The control thread's calls off the list then stop it
	 * with PTRACE_EVENT_SECCOMP, and the kernel kills the stub. */
	ctx = seccomp_init(mode != STUB_MODE_PTRACE ? SCMP_ACT_TRACE(0) : SCMP_ACT_KILL_PROCESS);
	if (!ctx)
		return -ENOMEM;
	/* Another architecture's call (int 0x80) likewise: a guest thread's
	 * filter decides (a notification under seccomp) and the kernel
	 * answers ENOSYS; the default KILL would take the whole stub. */
	if (mode != STUB_MODE_PTRACE &&
	    seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRACE(0)) < 0) {
		seccomp_release(ctx);
		return -EINVAL;
	}
	ret = add_rules(ctx, mode);
	if (ret < 0)
		goto out;
	fd = memfd_create("skas-bpf", MFD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = seccomp_export_bpf(ctx, fd);
	if (ret < 0)
		goto out;
	n = lseek(fd, 0, SEEK_CUR);
	if (n <= 0 || (size_t)n > size) {
		ret = -E2BIG;
		goto out;
	}
	if (pread(fd, buf, n, 0) != n) {
		ret = -EIO;
		goto out;
	}
	*len = n;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return ret;
}
