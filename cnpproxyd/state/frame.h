// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The frame of cnpproxyd's state files (learned flows, flow labels), so
 * that each kind only says what its records hold.  Pure codec, no I/O.
 *
 * All fields big-endian.  Header: magic (4 octets), version (16 bits),
 * 0 (16 bits), record count (32 bits), CRC-32 of what follows the header
 * (32 bits); then meta_len octets of the kind's own data, then the
 * records, all rec_len octets long.
 */
#ifndef _CNPPROXY_STATE_FRAME_H
#define _CNPPROXY_STATE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PNC_STATE_HDR_LEN 16

struct pnc_state_kind {
	char magic[4];
	uint16_t version;
	size_t meta_len; /* octets between the header and the records */
	size_t rec_len;
};

enum pnc_state_err {
	PNC_STATE_E_SHORT = -1,	  /* shorter than its header */
	PNC_STATE_E_MAGIC = -2,	  /* not a state file of this kind */
	PNC_STATE_E_VERSION = -3, /* a version this code does not read */
	PNC_STATE_E_LENGTH = -4,  /* length and record count disagree */
	PNC_STATE_E_CRC = -5,	  /* damaged */
};

/* Octets of a file of n records. */
extern size_t pnc_state_size(const struct pnc_state_kind *k, size_t n);
/* Offset of the meta data, and of record i, in a file. */
extern size_t pnc_state_meta_off(const struct pnc_state_kind *k);
extern size_t pnc_state_rec_off(const struct pnc_state_kind *k, size_t i);
/* With meta data and n records in place, write the header. */
extern void pnc_state_seal(const struct pnc_state_kind *k, uint8_t *buf, size_t n);
/* Check a whole file: its number of records, or a PNC_STATE_E_*. */
extern int pnc_state_check(const struct pnc_state_kind *k, const uint8_t *buf, size_t len);
extern const char *pnc_state_strerror(int err);

#endif /* _CNPPROXY_STATE_FRAME_H */
