/* System V's termio ioctls on a pty (TCGETA, TCSETA, TCSETAW, TCSETAF:
 * the low 16 bits of each flag word and the first 8 control characters,
 * the rest kept) and the termios lock (TIOCGLCKTRMIOS, TIOCSLCKTRMIOS with
 * CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE: locked bits and characters stay as they were through
 * any later change). skas said ENOTTY to all of them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>

#include "caps.h"
#include "tap.h"

#define K_TCGETS	 0x5401
#define K_TCSETS	 0x5402
#define K_TCGETA	 0x5405
#define K_TCSETA	 0x5406
#define K_TCSETAW	 0x5407
#define K_TCSETAF	 0x5408
#define K_TIOCGLCKTRMIOS 0x5456
#define K_TIOCSLCKTRMIOS 0x5457
#define K_EXTPROC	 0x10000

struct k_termios { /* the kernel's, as TCGETS has it */
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line, c_cc[19];
};

struct k_termio {
	uint16_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line, c_cc[8];
};

int main(void)
{
	struct k_termios tios, lk, zero;
	struct k_termio tio;
	int m, s, st;
	pid_t c;

	setvbuf(stdout, NULL, _IONBF, 0);
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m))
		return 1;
	s = open(ptsname(m), O_RDWR | O_NOCTTY);
	check(s >= 0, "a pty");
	ioctl(s, K_TCGETS, &tios);
	check(ioctl(s, K_TCGETA, &tio) == 0 && tio.c_lflag == (uint16_t)tios.c_lflag &&
		      tio.c_iflag == (uint16_t)tios.c_iflag &&
		      tio.c_cflag == (uint16_t)tios.c_cflag && memcmp(tio.c_cc, tios.c_cc, 8) == 0,
	      "TCGETA: the low 16 bits and the first 8 characters");
	tios.c_lflag |= K_EXTPROC;
	tios.c_cc[VEOL2] = 'z';
	ioctl(s, K_TCSETS, &tios);
	tio.c_lflag &= (uint16_t)~ECHO;
	tio.c_cc[VINTR] = 'x';
	check(ioctl(s, K_TCSETA, &tio) == 0, "TCSETA");
	ioctl(s, K_TCGETS, &tios);
	check(!(tios.c_lflag & ECHO) && (tios.c_lflag & K_EXTPROC) && tios.c_cc[VINTR] == 'x' &&
		      tios.c_cc[VEOL2] == 'z',
	      "it set the low bits and the first characters, kept the rest");
	tio.c_lflag |= ECHO;
	check(ioctl(s, K_TCSETAW, &tio) == 0 && ioctl(s, K_TCSETAF, &tio) == 0,
	      "TCSETAW and TCSETAF");
	check(ioctl(m, K_TCGETA, &tio) == 0 && (tio.c_lflag & ECHO),
	      "the master's TCGETA: the slave's");
	check(ioctl(s, K_TCSETA, (void *)8) == -1 && errno == EFAULT, "a bad pointer: EFAULT");

	memset(&zero, 0, sizeof(zero));
	check(ioctl(s, K_TIOCGLCKTRMIOS, &lk) == 0 && memcmp(&lk, &zero, sizeof(lk)) == 0,
	      "TIOCGLCKTRMIOS: nothing locked");
	lk.c_lflag = ECHO;
	lk.c_cc[VINTR] = 1;
	check(ioctl(s, K_TIOCSLCKTRMIOS, &lk) == 0, "TIOCSLCKTRMIOS ECHO and VINTR");
	ioctl(s, K_TCGETS, &tios);
	tios.c_lflag &= ~(ECHO | ICANON);
	tios.c_cc[VINTR] = 'y';
	tios.c_cc[VQUIT] = 'q';
	ioctl(s, K_TCSETS, &tios);
	ioctl(s, K_TCGETS, &tios);
	check((tios.c_lflag & ECHO) && !(tios.c_lflag & ICANON) && tios.c_cc[VINTR] == 'x' &&
		      tios.c_cc[VQUIT] == 'q',
	      "a change keeps what is locked, takes the rest");
	check(ioctl(m, K_TIOCGLCKTRMIOS, &lk) == 0 && lk.c_lflag == ECHO && lk.c_cc[VINTR] == 1,
	      "the master's TIOCGLCKTRMIOS: the slave's lock");
	c = fork();
	if (c == 0) {
		caps_drop(CAP_SYS_ADMIN);
		caps_drop(CAP_CHECKPOINT_RESTORE);
		_exit(ioctl(s, K_TIOCSLCKTRMIOS, &zero) == -1 && errno == EPERM ? 0 : 1);
	}
	check(waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "TIOCSLCKTRMIOS without CAP_SYS_ADMIN and CAP_CHECKPOINT_RESTORE: EPERM");
	check(ioctl(s, K_TIOCSLCKTRMIOS, &zero) == 0, "unlocked");
	return 0;
}
