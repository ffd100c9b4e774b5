/* vfs/fown.h: a file's owner, who hears of it by signal (F_SETOWN,
 * F_SETOWN_EX, F_SETSIG and their getters), and the signal itself. */
#ifndef VFS_FOWN_H
#define VFS_FOWN_H

#include <stdbool.h>
#include <stdint.h>

struct file;
struct task;

/* fcntl's owner and signal commands on f: the result or -errno. */
long fown_fcntl(struct task *t, struct file *f, int cmd, uint64_t arg);
/* Makes the caller f's owner (its process) unless f has one (Linux's
 * __f_setown without force: F_NOTIFY). */
void fown_set_default(struct task *t, struct file *f);
/* Signals f's owner that something happened to f, which the owner knows
 * as fd: reason is a LINUX_POLL_* code (Linux's send_sigio). */
void fown_send_sigio(struct file *f, int fd, int reason);
/* Out-of-band data arrived on f: SIGURG to its owner (Linux's
 * send_sigurg), and SIGIO with POLL_PRI if it is O_ASYNC. */
void fown_send_sigurg(struct file *f);
/* O_ASYNC turned on or off for f, known as fd (its si_fd): -ENOTTY for a
 * file whose kind sends no such signals (the caller then only keeps the
 * flag, as F_SETFL does), -ENOMEM. */
long fown_fasync(struct file *f, int fd, bool on);
/* f's last reference is gone: it leaves the queues it listened on. */
void fown_file_gone(struct file *f);

#endif
