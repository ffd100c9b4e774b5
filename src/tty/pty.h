/* tty/pty.h: pseudo-terminals. Opening /dev/ptmx makes a master and a
 * slave; the slave is /dev/pts/N in devpts until the master's last close. */
#ifndef TTY_PTY_H
#define TTY_PTY_H

#include <stdint.h>

#include "vfs/vfs.h"

struct file;
struct super_block;
struct inode;

/* kernel.pty.max's default, and the most ptys there can be whatever it
 * says (devpts's max, NR_UNIX98_PTY_MAX: the 20-bit minors). */
#define PTY_MAX_DEFAULT 4096
#define PTY_LIMIT	(1 << 20)
/* Pty N's master and slave are (128, N) and (136, N): Linux's pty
 * drivers each take one major's whole 20-bit minor range (the old
 * 8-major split of UNIX98_PTY_MAJOR_COUNT is not in the numbers). */
#define PTY_MASTER_MAJOR   128
#define PTY_SLAVE_MAJOR	   136
#define DEVPTS_SUPER_MAGIC 0x1cd1
/* A new /dev/pts/N: its opener's, group tty, mode 620 (devpts as systemd
 * mounts it: gid=5,mode=620). */
#define PTY_GID	 5
#define PTY_MODE 0620

/* The pty numbered index, while its master is open. */
struct pty {
	int index;
	struct tty *master, *slave; /* the pty holds a reference on each */
	uint32_t uid, gid, mode;    /* of /dev/pts/N */
	struct linux_timespec ctime;
};

/* open of /dev/ptmx: a new pair; f becomes the master. */
int ptmx_open(struct file *f);
/* open of char 136+,N: the slave of pty N. */
int pts_open(unsigned index, struct file *f);
struct pty *pty_lookup(unsigned index);
/* One past the highest index a pty may have now (for a walk of them). */
unsigned pty_index_end(void);

/* kernel.pty.{max,reserve,nr}: the most ptys at once (a new one past it,
 * or past PTY_LIMIT, is ENOSPC), the part of them kept for the initial
 * devpts instance (skas's only one: it changes nothing), and how many
 * there are. The setters take 0 to INT_MAX: 0 or -EINVAL. */
int pty_max(void);
int pty_reserve(void);
int pty_nr(void);
int pty_set_max(long v);
int pty_set_reserve(long v);

/* devpts.c: the filesystem on /dev/pts (one instance, however mounted). */
int devpts_mount(struct super_block **sb, struct inode **root);
/* mount -t devpts -o ptmxmode=M: the mode of /dev/pts/ptmx. */
void devpts_set_ptmx_mode(uint32_t mode);

#endif
