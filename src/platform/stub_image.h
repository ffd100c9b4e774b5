/* platform/stub_image.h: the stub image built into skas, and the host-call
 * allowlist every stub runs under. Shared by the platform backends. */
#ifndef PLATFORM_STUB_IMAGE_H
#define PLATFORM_STUB_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* The clone flags of a stub's two clones (the only ones its allowlist
 * lets through): copying an address space, adding a guest thread.
 * CLONE_PTRACE: the new stub or thread is seized like its creator (it
 * first stops with PTRACE_EVENT_STOP), without the fork or clone event
 * stop in the creator that PTRACE_O_TRACEFORK/TRACECLONE would cost; the
 * batch's last result (rax at its int3) is the new host pid. Needs
 * <sched.h> and <signal.h>. */
#define FORK_CLONE_FLAGS (CLONE_PARENT | CLONE_PTRACE | SIGCHLD)
#define THREAD_CLONE_FLAGS                                                                  \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | \
	 CLONE_PTRACE)

/* seccomp backend, on a host with PIDFD_THREAD (6.9): a guest thread with
 * a fd table of its own (no CLONE_FILES), where the listener its filter
 * makes stays (the kernel takes its copy through a pidfd of the thread):
 * the control thread's table never holds it, so no batch is needed to
 * close it. */
#define NOTIF_THREAD_CLONE_FLAGS (THREAD_CLONE_FLAGS & ~CLONE_FILES)

/* sigsys backend: a guest thread is made by the control thread, not traced
 * (the handler takes its signals), with its slot's tid word set and, when
 * it is gone, cleared (stub.h STUB_SLOT_TID). */
#define SIGSYS_THREAD_CLONE_FLAGS                                                           \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | \
	 CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)

/* Which backend the stubs serve: their allowlists differ. */
enum stub_mode { STUB_MODE_PTRACE, STUB_MODE_NOTIF, STUB_MODE_SIGSYS };

/* Chooses the stub's place (stub.h STUB_BASE_HIGH, or _LOW when the high
 * one is held: skas inside skas), before any stub or address space is
 * made. 0, or -ENOMEM if neither is free. */
int stub_place(void);

/* A close-on-exec memfd holding the stub ELF image linked for the place
 * chosen, or -errno. */
int stub_image_fd(void);

/* Writes the stub's seccomp filter (classic BPF) into buf; *len in bytes
 * (see stub_image.c). */
int stub_filter_build(char *buf, size_t size, enum stub_mode mode, size_t *len);

#endif
