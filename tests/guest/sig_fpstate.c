/* A signal frame's FPU area ends its legacy part with Linux's software
 * bytes: the XSAVE magic, the extended size (the state and the second
 * magic after it), the features (the XCR0, what xgetbv(0) says, not only
 * the components in use) and the state's size; the second magic follows
 * the state. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static uint32_t magic1, extended, size, magic2;
static uint64_t features;

static void handler(int sig, siginfo_t *si, void *u)
{
	ucontext_t *uc = u;
	const unsigned char *fp = (const unsigned char *)uc->uc_mcontext.fpregs;

	(void)sig;
	(void)si;
	memcpy(&magic1, fp + 464, 4);
	memcpy(&extended, fp + 468, 4);
	memcpy(&features, fp + 472, 8);
	memcpy(&size, fp + 480, 4);
	if (magic1 == 0x46505853 && size >= 512 && size < 65536)
		memcpy(&magic2, fp + size, 4);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	printf("magic1 %#x\n", magic1);
	printf("extended size is the state's and the second magic: %s\n",
	       extended == size + 4 ? "yes" : "no");
	printf("features are the XCR0: %s\n", features == ((uint64_t)hi << 32 | lo) ? "yes" : "no");
	printf("second magic %#x\n", magic2);
	return 0;
}
