// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Included by a BPF fuzz target right after the program it tests
 * (#include "<name>.bpf.c"): makes sure the program compiled against
 * the shim, not a kernel's vmlinux.h, and ends the rewriting of BPF
 * assembly that bpf_helpers.h set up for the program only.
 */
#ifndef PNC_BPF_SHIM
#error "compiled against a kernel vmlinux.h, not tests/fuzz/bpf_shim"
#endif
#undef asm
#undef volatile

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
