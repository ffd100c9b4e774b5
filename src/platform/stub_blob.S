/* platform/stub_blob.S: the linked stub image, carried inside skas, once
 * for each of its places (stub/stub.h); and --init's pid 1 (init/init.c). */
	.section .rodata
	.balign	16
	.globl	stub_blob, stub_blob_end, stub_blob_low, stub_blob_low_end
	.globl	init_blob, init_blob_end
stub_blob:
	.incbin	STUB_ELF
stub_blob_end:
	.balign	16
stub_blob_low:
	.incbin	STUB_LOW_ELF
stub_blob_low_end:
	.balign	16
init_blob:
	.incbin	INIT_ELF
init_blob_end:
	.section .note.GNU-stack, "", @progbits
