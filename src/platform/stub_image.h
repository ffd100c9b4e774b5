/* platform/stub_image.h: the stub image built into skas, and the host-call
 * allowlist every stub runs under. Shared by the platform backends. */
#ifndef PLATFORM_STUB_IMAGE_H
#define PLATFORM_STUB_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* A close-on-exec memfd holding the stub ELF image, or -errno. */
int stub_image_fd(void);

/* Writes the stub's seccomp filter (classic BPF) into buf; *len in bytes.
 * seccomp: for the seccomp backend (see stub_image.c). */
int stub_filter_build(char *buf, size_t size, bool seccomp, size_t *len);

/* How many host system calls the stub allowlist names. */
int stub_filter_count(void);

#endif
