/* platform/stub_image.h: the stub image built into skas, and the host-call
 * allowlist every stub runs under. Shared by the platform backends. */
#ifndef PLATFORM_STUB_IMAGE_H
#define PLATFORM_STUB_IMAGE_H

#include <stddef.h>

/* A close-on-exec memfd holding the stub ELF image, or -errno. */
int stub_image_fd(void);

/* Writes the stub's seccomp filter (classic BPF) into buf; *len in bytes. */
int stub_filter_build(char *buf, size_t size, size_t *len);

/* How many host system calls the stub allowlist names. */
int stub_filter_count(void);

#endif
