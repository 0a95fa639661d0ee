// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Long-haul CNP (seed 000, doc/wire-formats.md 7.2 and 7.3), both
 * encapsulations:
 *  - an ICMPv6 informational message, whole IPv6 packet;
 *  - the RoCEv2 backward-compatible CNP: opcode 0x81 with the E bit, the
 *    12-octet Long-haul block where a CNP has its reserved octets.
 * Both carry the same block and the same optional RFC 4884 extension
 * (timestamp, device ID, path ID objects).
 *
 * Pure C, no I/O, no allocation.  Packets start at the IP header.
 */
#ifndef _CNPPROXY_CODEC_LHCNP_H
#define _CNPPROXY_CODEC_LHCNP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/errors.h"
#include "codec/roce.h"

/* TBD code points (section 0), configurable; these are the defaults. */
#define PNC_LH_ICMP6_TYPE    200  /* RFC 4443 private experimentation */
#define PNC_LH_EXT_CLASS_NUM 0xf7 /* RFC 4884 private use */

#define PNC_LH_BLOCK_LEN  12
#define PNC_LH_ICMP6_HLEN 4 /* type, code, checksum */
#define PNC_LH_EXT_HLEN	  4
#define PNC_LH_OBJ_HLEN	  4
/* The E bit: most significant bit of the BTH's 6-bit reserved field. */
#define PNC_LH_BTH_EBIT	     0x20
#define PNC_LH_DEVICE_ID_MAX 64
#define PNC_LH_PATH_ID_MAX   32
/* Largest extension this codec writes: header and the three objects. */
#define PNC_LH_EXT_MAX                                                                            \
	(PNC_LH_EXT_HLEN + (PNC_LH_OBJ_HLEN + 8) + (PNC_LH_OBJ_HLEN + PNC_LH_DEVICE_ID_MAX) +     \
	 (PNC_LH_OBJ_HLEN + PNC_LH_PATH_ID_MAX))
#define PNC_LH_ICMP6_MAX_LEN                                                                      \
	(PNC_IPV6_HLEN + PNC_LH_ICMP6_HLEN + PNC_LH_BLOCK_LEN + PNC_LH_EXT_MAX)
#define PNC_LH_ROCE_MAX_LEN                                                                       \
	(PNC_IPV6_HLEN + PNC_UDP_HLEN + PNC_BTH_LEN + PNC_LH_BLOCK_LEN + PNC_LH_EXT_MAX + 4)

/* Action Flags, bits 7-6 of octet 1 of the block. */
enum pnc_lh_action {
	PNC_LH_NOTIFY = 0,
	PNC_LH_PAUSE = 1,	/* Parameter: pause time in microseconds */
	PNC_LH_RATE_REDUCE = 2, /* Parameter: percent to cut, 0-100 */
	PNC_LH_RESUME = 3,	/* Parameter: percent of the cut to restore, 0 = all */
};

/* Metric Type, octet 8 of the block. */
enum pnc_lh_metric {
	PNC_LH_METRIC_NONE = 0,	    /* unspecified: the value is 0 */
	PNC_LH_METRIC_QUEUE_KB = 1, /* queue depth, KB */
	PNC_LH_METRIC_GROWTH = 2,   /* queue growth, KB/ms */
	PNC_LH_METRIC_ECN_PCT = 3,  /* ECN marking ratio, percent */
	PNC_LH_METRIC_RTT_US = 4,   /* RTT based, microseconds */
};

/* The 12-octet block both forms carry. */
struct pnc_lh_block {
	uint8_t level;	/* 0 none - 255 maximum */
	uint8_t action; /* enum pnc_lh_action */
	uint16_t parameter;
	uint32_t src_qp; /* the traffic source's QP (32 bits on the wire) */
	uint8_t metric_type;
	uint32_t metric; /* 24 bits */
};

/* The optional RFC 4884 extension and the objects this codec knows. */
struct pnc_lh_ext {
	bool present;
	/* Encode: write the checksum (else 0).  Decode: it was set (and right). */
	bool checksum;
	uint8_t class_num; /* encode: objects' Class-Num; decode: the one matched */
	bool has_timestamp;
	uint64_t timestamp; /* 64-bit NTP format */
	/* UTF-8, not NUL-terminated on the wire; decode NUL-terminates. */
	char device_id[PNC_LH_DEVICE_ID_MAX + 1];
	uint8_t path_id[PNC_LH_PATH_ID_MAX];
	size_t path_id_len;   /* 0: no path ID object */
	unsigned int unknown; /* decode: objects of other classes or C-Types, skipped */
};

struct pnc_lh_cnp {
	struct pnc_lh_block block;
	struct pnc_lh_ext ext;
};

/* ICMPv6 form: IPv6 header fields plus the message. */
struct pnc_lh_icmp6 {
	uint8_t src[16];
	uint8_t dst[16];
	uint8_t tclass;
	uint8_t hop_limit;
	uint32_t flow_label;
	uint8_t type; /* configured ICMPv6 type */
	uint8_t code; /* 0: flow level */
	struct pnc_lh_cnp msg;
};

/* RoCEv2 form. */
struct pnc_lh_roce {
	struct pnc_ip_udp ip;
	uint16_t pkey;
	uint32_t dest_qp; /* BTH DestQP: the source's QP, as in a CNP */
	/*
	 * Encode only: without an extension, pad with 4 zero octets to a
	 * standard CNP's length, for RNICs that check a CNP's length
	 * strictly (a deviation, off by default; doc/wire-formats.md 9).
	 * Seed 000 section 6.2.2 puts the ICRC right after the block.
	 */
	bool cnp_sized;
	struct pnc_lh_cnp msg;
};

/*
 * Congestion Level between the 0-7 scale of the notifications and the
 * 0-255 scale of the block (doc/wire-formats.md 8).  Seed 002's CL 0 is
 * the lowest congestion, seed 000's level 0 none at all: CL 0-7 go to
 * 1-255, 1 + floor(cl * 254 / 7), and back by ceil((v - 1) * 7 / 254),
 * so every 0-7 level round trips and no notification reads "none".
 */
extern uint8_t pnc_lh_level_from_cl(uint8_t cl);
extern uint8_t pnc_lh_level_to_cl(uint8_t level);

extern const char *pnc_lh_action_name(uint8_t action);

/*
 * Metric Type 1's value: the queue depth in kilobytes of 1000 octets
 * (seed 000 section 7 has 130 MB as 130000), saturating at 24 bits.
 */
extern uint32_t pnc_lh_queue_kb(uint64_t bytes);

/*
 * The block and the extension after it, as both forms lay them out.
 * Encode refuses out-of-range fields (PNC_E_INVALID_ARG).  Decode of
 * len octets: the block, then nothing, four zero octets (the RoCEv2
 * form's padding) or an extension.  Rate Reduce and Resume parameters
 * above 100 are refused; the six reserved action bits are ignored.
 */
extern int pnc_lh_body_encode(const struct pnc_lh_cnp *in, uint8_t *buf, size_t buflen,
			      size_t *outlen);
extern int pnc_lh_body_decode(const uint8_t *buf, size_t len, uint8_t class_num,
			      struct pnc_lh_cnp *out);

/* Whole IPv6 packet; the ICMPv6 checksum is always computed. */
extern int pnc_lh_icmp6_encode(const struct pnc_lh_icmp6 *in, uint8_t *buf, size_t buflen,
			       size_t *outlen);
/*
 * From the IPv6 header: next header 58 with the given type (else
 * PNC_E_LH_NOT_LONG_HAUL), checksum verified.
 */
extern int pnc_lh_icmp6_decode(const uint8_t *pkt, size_t len, uint8_t type, uint8_t class_num,
			       struct pnc_lh_icmp6 *out);
/*
 * The ICMPv6 message alone (what a raw ICMPv6 socket reads, the kernel
 * having checked the checksum): type, code, block, extension.
 */
extern int pnc_lh_icmp6_msg_decode(const uint8_t *msg, size_t len, uint8_t type, uint8_t class_num,
				   struct pnc_lh_icmp6 *out);

/*
 * RoCEv2 form: BTH as a CNP's plus the E bit; the block; then the
 * extension, or without one four zero octets, so the packet has a
 * standard CNP's length and a receiver that ignores the E bit accepts
 * it as a CNP; ICRC over all of it.
 */
extern int pnc_lh_roce_encode(const struct pnc_lh_roce *in, uint8_t *buf, size_t buflen,
			      size_t *outlen);
/*
 * Opcode 0x81 with the E bit (else PNC_E_LH_NOT_LONG_HAUL), valid ICRC,
 * at least the block after the BTH: the seed's 12-octet form is
 * accepted too.
 */
extern int pnc_lh_roce_decode(const uint8_t *pkt, size_t len, uint8_t class_num,
			      struct pnc_lh_roce *out);

#endif /* _CNPPROXY_CODEC_LHCNP_H */
