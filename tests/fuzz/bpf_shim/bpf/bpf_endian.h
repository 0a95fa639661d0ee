// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space stand-in for libbpf's <bpf/bpf_endian.h>: byte order of a
 * little-endian host (vmlinux.h of the shim refuses any other).
 */
#ifndef _PNC_BPF_SHIM_BPF_ENDIAN_H
#define _PNC_BPF_SHIM_BPF_ENDIAN_H

#define bpf_htons(x) ((__u16)__builtin_bswap16((__u16)(x)))
#define bpf_ntohs(x) ((__u16)__builtin_bswap16((__u16)(x)))
#define bpf_htonl(x) ((__u32)__builtin_bswap32((__u32)(x)))
#define bpf_ntohl(x) ((__u32)__builtin_bswap32((__u32)(x)))

#endif /* _PNC_BPF_SHIM_BPF_ENDIAN_H */
