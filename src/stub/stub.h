/* stub/stub.h: where the stub lives in every guest address space, and the
 * layout of its pages. Shared by the stub's assembly and by platform/.
 * Plain numbers only: this header is included from assembly too. */
#ifndef STUB_STUB_H
#define STUB_STUB_H

/* Top of the user range on x86-64 (TASK_SIZE). */
#define STUB_TASK_TOP 0x7ffffffff000

/* The stub's pages: 16 MiB below the top, inside the range a native process
 * uses only for its randomized stack. The guest never sees them. */
#define STUB_BASE     0x7fffff000000
#define STUB_CODE     STUB_BASE		   /* r-x: _start and the batch loop */
#define STUB_DATA     (STUB_BASE + 0x1000) /* rw-: recvmsg scratch, per stub */
#define STUB_OPS      (STUB_BASE + 0x2000) /* r--: shared with the kernel */
#define STUB_OPS_SIZE 0x4000
#define STUB_END      (STUB_OPS + STUB_OPS_SIZE)
#define STUB_SIZE     (STUB_END - STUB_BASE)

/* Entry of the batch loop (stub.S puts it here with .org). */
#define STUB_BATCH (STUB_CODE + 0x80)
/* Where a retired guest thread is sent to exit on its own. */
#define STUB_EXIT_THREAD (STUB_CODE + 0x100)

/* The doorbell loop (the control thread's resting place between batches):
 * it waits on STUB_BELL_WORD (FUTEX_WAIT) until the word differs from the
 * last value it ran, runs the ops from STUB_OPS, and reports the end with
 * write(STUB_SOCK_FD, STUB_OPS, len): len 1 if every op succeeded, else
 * 1 + the failing op's errno. The length is the whole report: nothing a
 * guest thread could write is read back. If STUB_BELL_REPORT is 0 the
 * batch ends with stub_batch's int3 instead (a clone's new pid is read
 * from the registers); a control thread continued from that int3 (or from
 * stub_batch's) goes back to this loop. */
#define STUB_BELL (STUB_CODE + 0x200)

/* seccomp backend: a new guest thread installs its own filter here
 * (seccomp(SET_MODE_FILTER, NEW_LISTENER, STUB_GUEST_PROG)) and stops with
 * int3, rax = the listener fd or -errno. */
#define STUB_GUEST_INIT (STUB_CODE + 0x180)

/* An op is 8 quadwords: nr, six arguments, the child entry: if nonzero, a
 * clone's new thread (where the call returns 0) jumps there instead of
 * running the rest of the batch. nr == -1 ends a batch. */
#define STUB_OP_SIZE 64
#define STUB_MAX_OPS 128
/* The rest of the ops area carries data the ops point at (BPF programs). */
#define STUB_PAYLOAD	  (STUB_OPS + STUB_OP_SIZE * STUB_MAX_OPS)
#define STUB_PAYLOAD_SIZE (STUB_OPS_SIZE - STUB_OP_SIZE * STUB_MAX_OPS)
/* Its last word before the second half: the doorbell (a 32-bit counter
 * only the kernel writes). */
#define STUB_BELL_WORD (STUB_PAYLOAD + 0x1000 - 8)
/* The word after it: 1 if the batch rung ends with the report, 0 if with
 * an int3 (written before the bell). */
#define STUB_BELL_REPORT (STUB_BELL_WORD + 4)
/* Its second half: the guest threads' filter (struct sock_fprog, then the
 * program), written once at boot. */
#define STUB_GUEST_PROG	     (STUB_PAYLOAD + 0x1000)
#define STUB_GUEST_PROG_SIZE (STUB_PAYLOAD + STUB_PAYLOAD_SIZE - STUB_GUEST_PROG)

/* Host fds in a stub: 0 is the kernel's socket; fds handed in for one batch
 * arrive at 1, 2, ... and are closed before the batch ends. */
#define STUB_SOCK_FD 0
#define STUB_OPS_FD  1 /* only at exec of the zygote, closed by _start */

#endif
