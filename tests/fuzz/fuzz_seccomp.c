/* tests/fuzz/fuzz_seccomp.c: libFuzzer over the checks of a guest's
 * seccomp filter and its interpreter (kernel/seccomp.c, linked as the
 * kernel has it). The input is a classic program (8 bytes per
 * instruction) followed by a struct seccomp_data; a program the checks
 * accept must run to a return on any data without a fault or undefined
 * behaviour (ASan, UBSan): a crash or a hang is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/seccomp.h"
#include "abi/linux/seccomp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct linux_seccomp_data d;
	struct linux_sock_filter *p;
	size_t n, i;

	if (size < sizeof(d) + sizeof(*p))
		return 0;
	memcpy(&d, data + size - sizeof(d), sizeof(d));
	n = (size - sizeof(d)) / sizeof(*p);
	if (n > LINUX_BPF_MAXINSNS)
		n = LINUX_BPF_MAXINSNS;
	p = malloc(n * sizeof(*p));
	if (!p)
		return 0;
	memcpy(p, data, n * sizeof(*p));
	if (seccomp_check_filter(p, (unsigned)n) == 0) {
		seccomp_run_filter(p, &d);
		/* the same program on the other ends of the data */
		for (i = 0; i < 6; i++)
			d.args[i] = ~d.args[i];
		d.nr = -d.nr;
		seccomp_run_filter(p, &d);
	}
	free(p);
	return 0;
}
