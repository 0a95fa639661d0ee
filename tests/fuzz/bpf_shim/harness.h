// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the BPF fuzz targets (tests/fuzz/fuzz_bpf_*.c) share besides the
 * shim: reading the fuzz input, big-endian loads, the Internet
 * checksum, and the small keyed tables their plain-C models keep.
 */
#ifndef _PNC_BPF_HARNESS_H
#define _PNC_BPF_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"

/* The input, read front to back; past its end every field reads 0. */
struct h_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t h_u8(struct h_in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint16_t h_u16(struct h_in *in)
{
	uint16_t lo = h_u8(in);

	return (uint16_t)(lo | h_u8(in) << 8);
}

static inline uint32_t h_u32(struct h_in *in)
{
	uint32_t lo = h_u16(in);

	return lo | (uint32_t)h_u16(in) << 16;
}

static inline void h_bytes(struct h_in *in, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = h_u8(in);
}

/* Up to len octets of the input, as they are (no copy). */
static inline const uint8_t *h_take(struct h_in *in, size_t *len)
{
	const uint8_t *p = in->p;

	if (*len > in->n)
		*len = in->n;
	in->p += *len;
	in->n -= *len;
	return p;
}

/* A frame: its u16 length, then as many of its octets as there are, max at most. */
static inline const uint8_t *h_frame(struct h_in *in, size_t max, size_t *len)
{
	const uint8_t *f;

	*len = h_u16(in);
	f = h_take(in, len);
	if (*len > max)
		*len = max;
	return f;
}

static inline uint16_t h_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t h_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t h_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | h_be24(p + 1);
}

/* The ones' complement sum of len octets, folded to 16 bits (0xffff: valid). */
static inline uint16_t h_sum16(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += h_be16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/*
 * The UDP header behind the IPv6 header at ip6 (n octets from it on) as
 * the stack finds it, past any number of hop-by-hop, routing, fragment
 * and destination options headers: its offset from ip6, or 0 when these
 * octets hold none (another protocol, a later fragment, cut short).
 */
static inline size_t h_ipv6_udp(const uint8_t *ip6, size_t n)
{
	size_t off = 40;
	uint8_t nh;

	if (n < off)
		return 0;
	nh = ip6[6];
	while (nh == 0 || nh == 43 || nh == 44 || nh == 60) {
		size_t hdr = off;

		if (n < hdr + 8)
			return 0;
		if (nh == 44) {
			/* Only the first fragment has the UDP header. */
			if (h_be16(ip6 + hdr + 2) & 0xfff8)
				return 0;
			off += 8;
		} else {
			off += (ip6[hdr + 1] + 1u) * 8;
		}
		nh = ip6[hdr];
	}
	return nh == 17 && n >= off + 8 ? off : 0;
}

/*
 * A table of rows whose first ksize octets are the key: the models'
 * state (flows, buckets, accept entries ...).  Small and linear: an
 * input has few frames.
 */
#define H_TAB_ROWS 256
#define H_TAB_ROW  96

struct h_tab {
	size_t ksize, n;
	_Alignas(8) uint8_t rows[H_TAB_ROWS][H_TAB_ROW];
};

/* Rows of rsize octets, the key their first ksize. */
static inline void h_tab_init(struct h_tab *t, size_t ksize, size_t rsize)
{
	FUZZ_CHECK(ksize <= rsize && rsize <= H_TAB_ROW);
	t->ksize = ksize;
	t->n = 0;
}

static inline void *h_tab_find(struct h_tab *t, const void *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (!memcmp(t->rows[i], key, t->ksize))
			return t->rows[i];
	return NULL;
}

/* The row of key, a new zeroed one if there was none. */
static inline void *h_tab_put(struct h_tab *t, const void *key)
{
	uint8_t *row = h_tab_find(t, key);

	if (row)
		return row;
	FUZZ_CHECK(t->n < H_TAB_ROWS);
	row = t->rows[t->n++];
	memset(row, 0, H_TAB_ROW);
	memcpy(row, key, t->ksize);
	return row;
}

static inline void h_tab_del(struct h_tab *t, const void *key)
{
	uint8_t *row = h_tab_find(t, key);

	if (row) {
		memmove(row, t->rows[t->n - 1], H_TAB_ROW);
		t->n--;
	}
}

#endif /* _PNC_BPF_HARNESS_H */
