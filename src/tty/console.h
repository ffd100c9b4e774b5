/* tty/console.h: /dev/console, a terminal on the host's stdio. */
#ifndef TTY_CONSOLE_H
#define TTY_CONSOLE_H

#include <stdbool.h>

struct file;
struct task;

/* Makes the console: input from the host's fd 0, output to its first
 * terminal among fds 1, 2 (else fd 1). A host terminal on fd 0 is made raw
 * for the run and lends the console its settings and window size. all:
 * guest fds 0-2 are all the console (-t); else only those that are a
 * terminal on the host. Returns 0 or -errno. */
int console_init(bool all);
/* Is guest fd (0-2) of the first process the console? */
bool console_is_stdio(int fd);
/* A file on the console for the first process t (one open file for all
 * of its fds 0-2), whose session gets the console as controlling terminal. */
int console_stdio_file(struct task *t, struct file **out);
/* open of char 5,1. */
int console_open(struct file *f);

#endif
