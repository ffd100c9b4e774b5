/* Nested epolls at Linux's depth limit: five layers of 60 epolls, each
 * holding every epoll of the layer below (14,400 items). The loop check
 * of each insert costs what it reaches, not every path there (60^3 per
 * insert into the top layer); the limit and loops are still ELOOP, an
 * existing item EEXIST. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/resource.h>

#include "tap.h"

#define LAYERS 5
#define WIDTH  60

static int add(int ep, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0 ? 0 : errno;
}

int main(void)
{
	static int l[LAYERS][WIDTH];
	struct rlimit rl = { 1024, 1024 };
	int i, j, k, added = 0, top, other;

	setrlimit(RLIMIT_NOFILE, &rl);
	for (i = 0; i < LAYERS; i++)
		for (j = 0; j < WIDTH; j++)
			if ((l[i][j] = epoll_create1(0)) < 0) {
				printf("not ok - epoll_create1 %d\n", i * WIDTH + j);
				return 1;
			}
	/* Bottom up, so that each insert's walk down grows to three layers. */
	for (i = LAYERS - 2; i >= 0; i--)
		for (j = 0; j < WIDTH; j++)
			for (k = 0; k < WIDTH; k++)
				added += add(l[i][j], l[i + 1][k]) == 0;
	check(added == (LAYERS - 1) * WIDTH * WIDTH, "the lattice: every insert succeeds");
	top = epoll_create1(0);
	check(add(top, l[0][WIDTH - 1]) == ELOOP, "a sixth layer on top -> ELOOP");
	check(add(l[LAYERS - 1][0], top) == ELOOP, "an epoll under the bottom layer -> ELOOP");
	check(add(l[LAYERS - 1][1], l[0][0]) == ELOOP,
	      "the top under the bottom (a loop) -> ELOOP");
	check(add(l[LAYERS - 2][0], l[LAYERS - 1][1]) == EEXIST, "an item again -> EEXIST");
	other = epoll_create1(0);
	check(add(other, l[1][0]) == 0, "four layers under a new epoll");
	check(add(l[0][0], other) == ELOOP, "that epoll under the top (six deep) -> ELOOP");
	check(add(top, l[2][5]) == 0, "three layers under top");
	return 0;
}
