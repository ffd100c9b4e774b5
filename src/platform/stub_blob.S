/* platform/stub_blob.S: the linked stub image, carried inside skas. */
	.section .rodata
	.balign	16
	.globl	stub_blob, stub_blob_end
stub_blob:
	.incbin	STUB_ELF
stub_blob_end:
	.section .note.GNU-stack, "", @progbits
