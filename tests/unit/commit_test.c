/* tests/unit/commit_test.c: the kernel memory a guest holds, against
 * --memory (mm/commit.c): mem_take_kernel counts bytes only while they fit,
 * mem_take_kernel_over counts them anyway, mem_give_kernel gives them
 * back. TAP output. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mm/commit.h"

static int passed, failed;

__attribute__((format(printf, 2, 3))) static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", passed + failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (cond)
		passed++;
	else
		failed++;
}

int main(void)
{
	uint64_t base = mem_used();

	mem_set_limit(base + 10000);
	ok(mem_take_kernel(6000), "6000 of 10000: taken");
	ok(mem_used() == base + 6000, "counted");
	ok(!mem_take_kernel(5000), "5000 more: refused");
	ok(mem_used() == base + 6000, "and nothing counted");
	ok(!mem_take_kernel(UINT64_MAX), "UINT64_MAX: refused");
	ok(mem_take_kernel(4000), "4000 more, to the limit exactly: taken");
	ok(!mem_take_kernel(1), "one byte past it: refused");
	mem_give_kernel(4000);
	mem_take_kernel_over(5000);
	ok(mem_used() == base + 11000, "over: counted past the limit");
	ok(!mem_fits(0) && !mem_take_kernel(0), "past it, not even 0 bytes fit");
	mem_give_kernel(5000);
	ok(mem_used() == base + 6000 && mem_fits(4000), "given back: room again");
	mem_give_kernel(6000);
	ok(mem_used() == base, "all given back");
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
