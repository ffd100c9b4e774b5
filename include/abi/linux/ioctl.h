/*
 * Terminal and generic file ioctls of x86-64 Linux, the kernel's struct
 * termios/termios2 (not glibc's, which is larger) and struct winsize, plus
 * the _IOC request encoding.
 */
#ifndef ABI_LINUX_IOCTL_H
#define ABI_LINUX_IOCTL_H

#include <stddef.h>
#include <stdint.h>

/* request = dir:2 | size:14 | type:8 | nr:8 (asm-generic/ioctl.h) */
#define LINUX_IOC_NONE	0U
#define LINUX_IOC_WRITE 1U
#define LINUX_IOC_READ	2U
#define LINUX_IOC(dir, type, nr, size)                                \
	(((unsigned int)(dir) << 30) | ((unsigned int)(size) << 16) | \
	 ((unsigned int)(type) << 8) | (unsigned int)(nr))
#define LINUX_IO(type, nr)	   LINUX_IOC(LINUX_IOC_NONE, (type), (nr), 0)
#define LINUX_IOR(type, nr, size)  LINUX_IOC(LINUX_IOC_READ, (type), (nr), (size))
#define LINUX_IOW(type, nr, size)  LINUX_IOC(LINUX_IOC_WRITE, (type), (nr), (size))
#define LINUX_IOWR(type, nr, size) LINUX_IOC(LINUX_IOC_READ | LINUX_IOC_WRITE, (type), (nr), (size))
#define LINUX_IOC_DIR(req)	   (((req) >> 30) & 0x3U)
#define LINUX_IOC_SIZE(req)	   (((req) >> 16) & 0x3fffU)
#define LINUX_IOC_TYPE(req)	   (((req) >> 8) & 0xffU)
#define LINUX_IOC_NR(req)	   ((req)&0xffU)

#define LINUX_NCCS 19

/* TCGETS/TCSETS* */
struct linux_termios {
	uint32_t c_iflag;
	uint32_t c_oflag;
	uint32_t c_cflag;
	uint32_t c_lflag;
	uint8_t c_line;
	uint8_t c_cc[LINUX_NCCS];
};
_Static_assert(sizeof(struct linux_termios) == 36, "linux_termios size");
_Static_assert(offsetof(struct linux_termios, c_lflag) == 12, "linux_termios c_lflag");
_Static_assert(offsetof(struct linux_termios, c_line) == 16, "linux_termios c_line");
_Static_assert(offsetof(struct linux_termios, c_cc) == 17, "linux_termios c_cc");

/* TCGETA/TCSETA*: System V's termio, the low 16 bits of each flag word
 * and the first NCC control characters */
#define LINUX_NCC 8
struct linux_termio {
	uint16_t c_iflag;
	uint16_t c_oflag;
	uint16_t c_cflag;
	uint16_t c_lflag;
	uint8_t c_line;
	uint8_t c_cc[LINUX_NCC];
};
_Static_assert(sizeof(struct linux_termio) == 18, "linux_termio size");

/* TCGETS2/TCSETS*2: arbitrary baud rates when c_cflag has BOTHER */
struct linux_termios2 {
	uint32_t c_iflag;
	uint32_t c_oflag;
	uint32_t c_cflag;
	uint32_t c_lflag;
	uint8_t c_line;
	uint8_t c_cc[LINUX_NCCS];
	uint32_t c_ispeed;
	uint32_t c_ospeed;
};
_Static_assert(sizeof(struct linux_termios2) == 44, "linux_termios2 size");
_Static_assert(offsetof(struct linux_termios2, c_ispeed) == 36, "linux_termios2 c_ispeed");
_Static_assert(offsetof(struct linux_termios2, c_ospeed) == 40, "linux_termios2 c_ospeed");

struct linux_winsize {
	uint16_t ws_row;
	uint16_t ws_col;
	uint16_t ws_xpixel;
	uint16_t ws_ypixel;
};
_Static_assert(sizeof(struct linux_winsize) == 8, "linux_winsize size");
_Static_assert(offsetof(struct linux_winsize, ws_ypixel) == 6, "linux_winsize ws_ypixel");

/* terminal ioctls (asm-generic/ioctls.h) */
#define LINUX_TCGETS	     0x5401
#define LINUX_TCSETS	     0x5402
#define LINUX_TCSETSW	     0x5403
#define LINUX_TCSETSF	     0x5404
#define LINUX_TCGETA	     0x5405
#define LINUX_TCSETA	     0x5406
#define LINUX_TCSETAW	     0x5407
#define LINUX_TCSETAF	     0x5408
#define LINUX_TIOCGLCKTRMIOS 0x5456
#define LINUX_TIOCSLCKTRMIOS 0x5457
#define LINUX_TCSBRK	     0x5409
#define LINUX_TCXONC	     0x540A
#define LINUX_TCFLSH	     0x540B
#define LINUX_TIOCEXCL	     0x540C
#define LINUX_TIOCNXCL	     0x540D
#define LINUX_TIOCSCTTY	     0x540E
#define LINUX_TIOCGPGRP	     0x540F
#define LINUX_TIOCSPGRP	     0x5410
#define LINUX_TIOCOUTQ	     0x5411
#define LINUX_TIOCSTI	     0x5412
#define LINUX_TIOCGWINSZ     0x5413
#define LINUX_TIOCSWINSZ     0x5414
#define LINUX_FIONREAD	     0x541B
#define LINUX_TIOCINQ	     LINUX_FIONREAD
#define LINUX_TIOCPKT	     0x5420
#define LINUX_FIONBIO	     0x5421
#define LINUX_TIOCNOTTY	     0x5422
#define LINUX_TIOCSETD	     0x5423
#define LINUX_TIOCGETD	     0x5424
#define LINUX_TCSBRKP	     0x5425
#define LINUX_TIOCGSID	     0x5429
#define LINUX_TCGETS2	     LINUX_IOR('T', 0x2A, sizeof(struct linux_termios2))
#define LINUX_TCSETS2	     LINUX_IOW('T', 0x2B, sizeof(struct linux_termios2))
#define LINUX_TCSETSW2	     LINUX_IOW('T', 0x2C, sizeof(struct linux_termios2))
#define LINUX_TCSETSF2	     LINUX_IOW('T', 0x2D, sizeof(struct linux_termios2))
#define LINUX_TIOCGPTN	     LINUX_IOR('T', 0x30, 4)
#define LINUX_TIOCSPTLCK     LINUX_IOW('T', 0x31, 4)
#define LINUX_TIOCGDEV	     LINUX_IOR('T', 0x32, 4)
#define LINUX_TIOCSIG	     LINUX_IOW('T', 0x36, 4)
#define LINUX_TIOCVHANGUP    0x5437
#define LINUX_TIOCGPKT	     LINUX_IOR('T', 0x38, 4)
#define LINUX_TIOCGPTLCK     LINUX_IOR('T', 0x39, 4)
#define LINUX_TIOCGEXCL	     LINUX_IOR('T', 0x40, 4)
#define LINUX_TIOCGPTPEER    LINUX_IO('T', 0x41)
#define LINUX_FIONCLEX	     0x5450
#define LINUX_FIOCLEX	     0x5451
#define LINUX_FIOASYNC	     0x5452
#define LINUX_FIOQSIZE	     0x5460

/* TCFLSH argument */
#define LINUX_TCIFLUSH	0
#define LINUX_TCOFLUSH	1
#define LINUX_TCIOFLUSH 2

/* TCXONC argument */
#define LINUX_TCOOFF 0
#define LINUX_TCOON  1
#define LINUX_TCIOFF 2
#define LINUX_TCION  3

/* c_cc indices */
#define LINUX_VINTR    0
#define LINUX_VQUIT    1
#define LINUX_VERASE   2
#define LINUX_VKILL    3
#define LINUX_VEOF     4
#define LINUX_VTIME    5
#define LINUX_VMIN     6
#define LINUX_VSWTC    7
#define LINUX_VSTART   8
#define LINUX_VSTOP    9
#define LINUX_VSUSP    10
#define LINUX_VEOL     11
#define LINUX_VREPRINT 12
#define LINUX_VDISCARD 13
#define LINUX_VWERASE  14
#define LINUX_VLNEXT   15
#define LINUX_VEOL2    16

/* c_iflag */
#define LINUX_IGNBRK  0x0001
#define LINUX_BRKINT  0x0002
#define LINUX_IGNPAR  0x0004
#define LINUX_PARMRK  0x0008
#define LINUX_INPCK   0x0010
#define LINUX_ISTRIP  0x0020
#define LINUX_INLCR   0x0040
#define LINUX_IGNCR   0x0080
#define LINUX_ICRNL   0x0100
#define LINUX_IUCLC   0x0200
#define LINUX_IXON    0x0400
#define LINUX_IXANY   0x0800
#define LINUX_IXOFF   0x1000
#define LINUX_IMAXBEL 0x2000
#define LINUX_IUTF8   0x4000

/* c_oflag */
#define LINUX_OPOST  0x01
#define LINUX_OLCUC  0x02
#define LINUX_ONLCR  0x04
#define LINUX_OCRNL  0x08
#define LINUX_ONOCR  0x10
#define LINUX_ONLRET 0x20

/* c_cflag */
#define LINUX_CBAUD   0x0000100f
#define LINUX_B0      0x00000000
#define LINUX_B9600   0x0000000d
#define LINUX_B38400  0x0000000f
#define LINUX_CSIZE   0x00000030
#define LINUX_CS5     0x00000000
#define LINUX_CS6     0x00000010
#define LINUX_CS7     0x00000020
#define LINUX_CS8     0x00000030
#define LINUX_CSTOPB  0x00000040
#define LINUX_CREAD   0x00000080
#define LINUX_PARENB  0x00000100
#define LINUX_PARODD  0x00000200
#define LINUX_HUPCL   0x00000400
#define LINUX_CLOCAL  0x00000800
#define LINUX_CBAUDEX 0x00001000
#define LINUX_BOTHER  0x00001000
#define LINUX_B115200 0x00001002
#define LINUX_CIBAUD  0x100f0000
#define LINUX_CRTSCTS 0x80000000

/* c_lflag */
#define LINUX_ISIG    0x00001
#define LINUX_ICANON  0x00002
#define LINUX_ECHO    0x00008
#define LINUX_ECHOE   0x00010
#define LINUX_ECHOK   0x00020
#define LINUX_ECHONL  0x00040
#define LINUX_NOFLSH  0x00080
#define LINUX_TOSTOP  0x00100
#define LINUX_ECHOCTL 0x00200
#define LINUX_ECHOPRT 0x00400
#define LINUX_ECHOKE  0x00800
#define LINUX_FLUSHO  0x01000
#define LINUX_PENDIN  0x04000
#define LINUX_IEXTEN  0x08000
#define LINUX_EXTPROC 0x10000

/* TIOCPKT packet-mode status byte */
#define LINUX_TIOCPKT_DATA	 0
#define LINUX_TIOCPKT_FLUSHREAD	 1
#define LINUX_TIOCPKT_FLUSHWRITE 2
#define LINUX_TIOCPKT_STOP	 4
#define LINUX_TIOCPKT_START	 8
#define LINUX_TIOCPKT_NOSTOP	 16
#define LINUX_TIOCPKT_DOSTOP	 32
#define LINUX_TIOCPKT_IOCTL	 64

/* reflinks (linux/fs.h): FICLONE takes the source fd as its argument */
#define LINUX_FICLONE	   LINUX_IOW(0x94, 9, 4)
#define LINUX_FICLONERANGE LINUX_IOW(0x94, 13, 32)

/* chattr's file attributes (linux/fs.h): FS_IOC_GETFLAGS and SETFLAGS
 * move an int despite the long in their numbers */
#define LINUX_FS_IOC_GETFLAGS	LINUX_IOR('f', 1, 8)
#define LINUX_FS_IOC_SETFLAGS	LINUX_IOW('f', 2, 8)
#define LINUX_FS_IOC_FSGETXATTR LINUX_IOR('X', 31, 28)
#define LINUX_FS_IOC_FSSETXATTR LINUX_IOW('X', 32, 28)

#define LINUX_FS_SYNC_FL	0x00000008
#define LINUX_FS_IMMUTABLE_FL	0x00000010
#define LINUX_FS_APPEND_FL	0x00000020
#define LINUX_FS_NODUMP_FL	0x00000040
#define LINUX_FS_NOATIME_FL	0x00000080
#define LINUX_FS_DAX_FL		0x02000000
#define LINUX_FS_PROJINHERIT_FL 0x20000000

#define LINUX_FS_XFLAG_PREALLOC	    0x00000002
#define LINUX_FS_XFLAG_IMMUTABLE    0x00000008
#define LINUX_FS_XFLAG_APPEND	    0x00000010
#define LINUX_FS_XFLAG_SYNC	    0x00000020
#define LINUX_FS_XFLAG_NOATIME	    0x00000040
#define LINUX_FS_XFLAG_NODUMP	    0x00000080
#define LINUX_FS_XFLAG_PROJINHERIT  0x00000200
#define LINUX_FS_XFLAG_EXTSIZE	    0x00000800
#define LINUX_FS_XFLAG_EXTSZINHERIT 0x00001000
#define LINUX_FS_XFLAG_DAX	    0x00008000
#define LINUX_FS_XFLAG_COWEXTSIZE   0x00010000
#define LINUX_FS_XFLAG_HASATTR	    0x80000000

struct linux_fsxattr {
	uint32_t fsx_xflags;
	uint32_t fsx_extsize;
	uint32_t fsx_nextents;
	uint32_t fsx_projid;
	uint32_t fsx_cowextsize;
	uint8_t fsx_pad[8];
};
_Static_assert(sizeof(struct linux_fsxattr) == 28, "linux_fsxattr size");

#endif /* ABI_LINUX_IOCTL_H */
