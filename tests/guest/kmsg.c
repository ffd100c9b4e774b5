/* /dev/kmsg as Linux's devkmsg: a write is a record of the message buffer
 * ("<N>" its priority, else user.warning; one trailing newline dropped; at
 * most 1024 bytes), a read gives one record as "prio,seq,usecs,flags;text"
 * with control bytes and '\' escaped (EINVAL, and the record lost, if it
 * does not fit), SEEK_END skips what is there, other offsets are ESPIPE,
 * poll says when a record waits. skas had no /dev/kmsg (dmesg -w failed).
 * Each message ends in a newline, as Linux keeps one without it open for
 * a continuation, unseen until the next message; writev's pieces are one
 * record. Writes a few lines to the kernel's log (root). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define TAP_ENAME
#include "tap.h"

static int rfd, wfd;
static char tag[48];

/* The next record of ours (another's, the kernel's, skipped): its
 * priority, sequence number and text, or -1. */
static int next(unsigned *prio, unsigned long long *seq, char *text, size_t n)
{
	char buf[8192], *semi;
	unsigned long long us;
	char flag;

	for (;;) {
		ssize_t r = read(rfd, buf, sizeof(buf) - 1);

		if (r <= 0)
			return -1;
		buf[r] = 0;
		semi = strchr(buf, ';');
		if (!semi || sscanf(buf, "%u,%llu,%llu,%c", prio, seq, &us, &flag) != 4 ||
		    flag != '-')
			return -1;
		if (strncmp(semi + 1, tag, strlen(tag)) != 0)
			continue;
		snprintf(text, n, "%s", semi + 1 + strlen(tag));
		text[strcspn(text, "\n")] = 0;
		return 0;
	}
}

/* A message with its newline: Linux holds one without it open for a
 * continuation, unread until the next message comes. */
static void say(const char *prefix, const char *msg)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s%s%s\n", prefix, tag, msg);
	if (write(wfd, buf, strlen(buf)) != (ssize_t)strlen(buf))
		printf("# write: %s\n", ename(errno));
}

int main(void)
{
	unsigned prio;
	unsigned long long seq, seq2;
	char text[2048], big[1100];
	struct stat st;
	struct pollfd pfd;
	pid_t pid;
	int status;

	snprintf(tag, sizeof(tag), "skas-kmsg-test-%d ", (int)getpid());
	check(stat("/dev/kmsg", &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
		      minor(st.st_rdev) == 11 && (st.st_mode & 0777) == 0644,
	      "/dev/kmsg: character device 1:11, mode 644");
	rfd = open("/dev/kmsg", O_RDONLY);
	wfd = open("/dev/kmsg", O_WRONLY);
	check(rfd >= 0 && wfd >= 0, "opened for reading and for writing");
	check(lseek(rfd, 0, SEEK_END) == 0, "SEEK_END: 0");
	check_err(lseek(rfd, 5, SEEK_SET), ESPIPE, "an offset: ESPIPE");
	check_err(lseek(rfd, 0, SEEK_CUR), EINVAL, "SEEK_CUR: EINVAL");

	fcntl(rfd, F_SETFL, O_NONBLOCK);
	{
		char b[8192];
		ssize_t r;

		while ((r = read(rfd, b, sizeof(b))) > 0) /* what came since the seek */
			;
		check_err(r, EAGAIN, "nothing new, O_NONBLOCK: EAGAIN");
	}
	pfd.fd = rfd;
	pfd.events = POLLIN;
	check(poll(&pfd, 1, 0) == 0, "poll: nothing");
	fcntl(rfd, F_SETFL, 0);

	say("<30>", "one");
	check(next(&prio, &seq, text, sizeof(text)) == 0 && prio == 30 && strcmp(text, "one") == 0,
	      "<30>: daemon.info, the newline dropped");
	say("", "two");
	check(next(&prio, &seq2, text, sizeof(text)) == 0 && prio == 12 && strcmp(text, "two") == 0,
	      "no prefix: user.warning (12)");
	check(seq2 > seq, "a later sequence number");
	say("<6>", "three");
	check(next(&prio, &seq, text, sizeof(text)) == 0 && prio == 14,
	      "<6>: a level, user's facility");
	say("<>", "four");
	check(next(&prio, &seq, text, sizeof(text)) == 0 && prio == 8, "<>: level 0");
	say("<+3>", "five");
	{
		/* the tag is not at the start: read the raw record */
		char b[512];
		ssize_t r;

		do {
			r = read(rfd, b, sizeof(b) - 1);
			b[r > 0 ? r : 0] = 0;
		} while (r > 0 && !strstr(b, tag));
		check(r > 0 && strncmp(b, "12,", 3) == 0 && strstr(b, ";<+3>") != NULL,
		      "<+3>: no priority, kept as text");
	}
	/* a new open: Linux lets one open write ten messages per 5 s */
	close(wfd);
	wfd = open("/dev/kmsg", O_WRONLY);
	say("", "a\tb\\c\001d\x7f\n");
	check(next(&prio, &seq, text, sizeof(text)) == 0 &&
		      strcmp(text, "a\\x09b\\x5cc\\x01d\\x7f\\x0a") == 0,
	      "control bytes, DEL and backslash escaped; one newline dropped");

	memset(big, 'z', sizeof(big));
	check_err(write(wfd, big, 1025), EINVAL, "1025 bytes: EINVAL");
	big[1023] = '\n';
	check(write(wfd, big, 1024) == 1024, "1024 bytes: written");
	say("", "six");
	say("", "six-b");
	{
		char small[16];

		/* skip the 1024-byte record, then try the next too small */
		check(read(rfd, text, sizeof(text)) > 1024, "the 1024-byte record read whole");
		check_err(read(rfd, small, sizeof(small)), EINVAL, "a buffer too small: EINVAL");
		check(next(&prio, &seq, text, sizeof(text)) == 0 && strcmp(text, "six-b") == 0,
		      "that record is gone: the next one comes");
	}

	say("", "seven");
	pfd.revents = 0;
	check(poll(&pfd, 1, 5000) == 1 && (pfd.revents & POLLIN), "poll: a record waits");
	check(next(&prio, &seq, text, sizeof(text)) == 0 && strcmp(text, "seven") == 0, "read");
	{
		/* writev's pieces make one record (systemd writes "<N>", its
		 * name and the message so) */
		struct iovec v[3] = { { "<30>", 4 }, { tag, strlen(tag) }, { "eight\n", 6 } };

		close(wfd);
		wfd = open("/dev/kmsg", O_WRONLY);
		check(writev(wfd, v, 3) == (ssize_t)(10 + strlen(tag)), "writev of three pieces");
		check(next(&prio, &seq, text, sizeof(text)) == 0 && prio == 30 &&
			      strcmp(text, "eight") == 0,
		      "one record, its priority from the first piece");
	}

	check(lseek(rfd, 0, SEEK_SET) == 0, "SEEK_SET: 0");
	{
		char b[8192];
		ssize_t r = read(rfd, b, sizeof(b));

		check(r > 0 && strtoull(strchr(b, ',') + 1, NULL, 10) <= seq,
		      "then the oldest record kept");
	}

	pid = fork();
	if (pid == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		_exit(open("/dev/kmsg", O_WRONLY) < 0 && errno == EACCES);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 1, "another user's write open: EACCES");
	close(rfd);
	close(wfd);
	return 0;
}
