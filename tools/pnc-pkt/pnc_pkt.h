// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: build and decode the packets of the pnc project.
 *
 * Declarations shared by the files of the tool: the packet
 * specification that "build" fills from field=value arguments, and the
 * entry points of each file.
 */
#ifndef _PNC_PKT_H
#define _PNC_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "codec/cm.h"
#include "codec/errors.h"
#include "codec/icrc.h"
#include "codec/ipudp.h"
#include "codec/lhcnp.h"
#include "codec/notif.h"
#include "codec/ratead.h"
#include "codec/roce.h"

#define PKT_MAX		 9216 /* largest packet the tool handles */
#define PKT_PAYLOAD_MAX	 8192
#define PKT_DEFAULT_PLEN 64

/* Errors of the tool itself, next to the codec's (negative, see errors.h). */
#define PKT_E_ETH_TRUNCATED (-1000)
#define PKT_E_ETH_NOT_IP    (-1001)
#define PKT_E_UNKNOWN_PORT  (-1002)
#define PKT_E_PCAP_LINKTYPE (-1003)

enum pkt_kind {
	K_CNP,
	K_RC_WRITE,
	K_RC_SEND,
	K_ACK,
	K_CM_REQ,
	K_CM_REP,
	K_CM_RTU,
	K_CM_REJ,
	K_CM_DREQ,
	K_NOTIF,
	K_FCN,
	K_LH_ICMP6,
	K_LH_ROCE,
	K_RATE_ADVICE,
	K_NKINDS
};

/*
 * Kind masks.  KM_ROCE: RoCEv2 kinds whose whole BTH can be set field by
 * field; KM_ROCE_MSG: RoCEv2 kinds whose BTH their codec writes (only
 * P_Key, DestQP and the rate advice's opcode are fields); KM_UDP: kinds
 * with a UDP header, all but the ICMPv6 Long-haul CNP.
 */
#define KM(k)	    (1u << (k))
#define KM_RC	    (KM(K_RC_WRITE) | KM(K_RC_SEND))
#define KM_CM	    (KM(K_CM_REQ) | KM(K_CM_REP) | KM(K_CM_RTU) | KM(K_CM_REJ) | KM(K_CM_DREQ))
#define KM_ROCE	    (KM(K_CNP) | KM_RC | KM(K_ACK) | KM_CM)
#define KM_ROCE_MSG (KM(K_LH_ROCE) | KM(K_RATE_ADVICE))
#define KM_LH	    (KM(K_LH_ICMP6) | KM(K_LH_ROCE))
#define KM_UDPMSG   (KM(K_NOTIF) | KM(K_FCN))
#define KM_UDP	    (KM_ROCE | KM_ROCE_MSG | KM_UDPMSG)
#define KM_ALL	    (KM_UDP | KM(K_LH_ICMP6))

/* Position of an RC data packet in its message. */
enum rc_variant { RC_FIRST, RC_MIDDLE, RC_LAST, RC_ONLY };

enum csum_mode { CSUM_ZERO, CSUM_AUTO, CSUM_VALUE };

/* Everything "build" can set; defaults from spec_init(). */
struct pkt_spec {
	enum pkt_kind kind;
	struct pnc_ip_udp ip;
	bool src_set, dst_set;
	enum csum_mode udp_csum_mode;
	uint16_t udp_csum;
	bool ip_csum_set; /* IPv4 header checksum forced */
	uint16_t ip_csum;
	bool icrc_set; /* ICRC forced (as on the wire, LSB first) */
	uint32_t icrc;

	struct pnc_bth bth;
	bool opcode_set, pad_set;
	enum rc_variant variant;
	bool imm_present;
	uint32_t imm;
	struct pnc_reth reth;
	bool dma_len_set;
	uint8_t payload[PKT_PAYLOAD_MAX];
	size_t payload_len;
	bool payload_set;
	struct pnc_aeth aeth;
	struct pnc_deth deth;
	struct pnc_cm_msg cm;
	bool gid_set[2]; /* REQ primary local / remote GID given */

	struct pnc_notif notif;
	bool tuple_set; /* any five-tuple field given */
	uint8_t invoking[PKT_MAX];
	size_t invoking_len;
	struct pkt_spec *inv; /* invoking packet built from another kind */
	struct pnc_fcn fcn;
	bool bare;	 /* notif/fcn: UDP payload only */
	bool notif_icmp; /* notif: the ICMP form (6.5) instead of UDP */

	struct pnc_lh_cnp lh; /* long-haul-*: block and RFC 4884 extension */
	uint8_t icmp_type, icmp_code;
	bool icmp_csum_set; /* ICMP(v6) checksum forced */
	uint16_t icmp_csum;
	bool lh_cnp_sized;	   /* long-haul-rocev2: pad to a CNP's length */
	struct pnc_rate_advice ra; /* rate-advice: rate, version, peer QP */
};

/* ---- kinds and fields (fields.c) ---- */
extern const char *kind_name(enum pkt_kind k);
extern int kind_parse(const char *name, enum pkt_kind *k);
/* Defaults of a kind for an IP version (4 or 6). */
extern void spec_init(struct pkt_spec *s, enum pkt_kind k, uint8_t version);
/* Apply name=value; prints a message and returns -1 on error. */
extern int spec_set(struct pkt_spec *s, const char *name, const char *value);
/* Randomise the interesting fields of the kind. */
extern void spec_randomize(struct pkt_spec *s, uint64_t *rng);
extern void spec_free(struct pkt_spec *s);
extern void fields_help(FILE *f);
/* Name of a Long-haul Metric Type, "unknown" beyond the defined ones. */
extern const char *lh_metric_name(uint8_t type);

/* ---- value parsers (args.c) ---- */
extern int parse_u64(const char *s, uint64_t max, uint64_t *out);
extern int parse_bool(const char *s, bool *out);
extern int parse_addr(const char *s, uint8_t *addr, uint8_t *version);
extern int parse_hex(const char *s, uint8_t *buf, size_t max, size_t *len);
extern uint64_t rng_next(uint64_t *state);

/* ---- build (build.c) ---- */
/* Build the packet; returns its length or a negative error. */
extern int build_packet(struct pkt_spec *s, uint8_t *buf, size_t buflen);

/* ---- plain IPv4/IPv6 + UDP (ipudp.c) ---- */
extern int ipudp_encode(const struct pnc_ip_udp *ip, const uint8_t *payload, size_t plen,
			uint8_t *buf, size_t buflen);
/* Recompute (IPv4) header and UDP checksums as the spec says. */
extern void ipudp_fix_csums(const struct pkt_spec *s, uint8_t *pkt, size_t len);

/* ---- output (emit.c): JSON object or indented text ---- */
enum emit_fmt { EMIT_JSON, EMIT_TEXT };

struct emit {
	FILE *f;
	enum emit_fmt fmt;
	int depth;
	bool first[16];
};

extern void emit_begin(struct emit *e, FILE *f, enum emit_fmt fmt);
extern void emit_end(struct emit *e);
extern void emit_obj(struct emit *e, const char *name);
extern void emit_obj_end(struct emit *e);
extern void emit_uint(struct emit *e, const char *name, uint64_t v);
extern void emit_xint(struct emit *e, const char *name, uint64_t v, int digits);
extern void emit_bool(struct emit *e, const char *name, bool v);
extern void emit_str(struct emit *e, const char *name, const char *v);
/* A string from the wire: escaped for JSON, invalid UTF-8 as U+FFFD. */
extern void emit_text(struct emit *e, const char *name, const char *v);
extern void emit_hex(struct emit *e, const char *name, const uint8_t *p, size_t len);
extern void emit_addr(struct emit *e, const char *name, uint8_t version, const uint8_t *a);

/* ---- decode (decode.c, decode_roce.c) ---- */
enum decode_as { AS_AUTO, AS_NOTIF, AS_FCN };

struct decode_opts {
	enum decode_as as;
	bool lenient; /* decode despite a bad ICRC (icrc_ok false) */
	bool with_hex;
	uint16_t notif_port, fcn_port;
	uint8_t notif_icmp_type, notif_icmp6_type; /* the notification's ICMP form */
	uint8_t lh_icmp_type; /* ICMPv6 type of the Long-haul CNP */
	uint8_t lh_class_num; /* Class-Num of its extension objects */
	uint8_t ra_opcode;    /* BTH opcode of the rate advice */
};

/* Decode options as the daemon's defaults have them. */
extern void decode_opts_init(struct decode_opts *o);

/* Decode one packet from the IP header and print it; 0 or an error. */
extern int decode_packet(const uint8_t *pkt, size_t len, const struct decode_opts *o,
			 struct emit *e);
/* RoCEv2 part (decode_roce.c). */
extern int decode_roce(const uint8_t *pkt, size_t len, const struct decode_opts *o, struct emit *e);
extern void emit_roce_view(struct emit *e, const uint8_t *pkt, const struct pnc_roce_view *v);
/* The headers every decoder prints (emit_hdr.c). */
extern void emit_ip(struct emit *e, const uint8_t *pkt, const struct pnc_ip_udp *ip);
extern void emit_ip_udp(struct emit *e, const uint8_t *pkt, const struct pnc_ip_udp *ip);
extern void emit_lh(struct emit *e, const struct pnc_lh_cnp *m);
/* Rate advice (decode_roce.c). */
extern void emit_rate_advice(struct emit *e, const struct pnc_rate_advice *ra);
/* An IPv6 packet with next header 58: the ICMPv6 Long-haul CNP. */
extern bool is_icmp6(const uint8_t *pkt, size_t len);
extern int decode_lh_icmp6(const uint8_t *pkt, size_t len, const struct decode_opts *o,
			   struct emit *e);
extern const char *pkt_strerror(int err);

/* ---- a whole input: hex lines, a pcap file or one raw packet (cmd_decode.c) ---- */
enum in_fmt { IN_AUTO, IN_HEX, IN_PCAP, IN_RAW };

struct dec_state {
	struct decode_opts d;
	enum emit_fmt fmt;
	bool eth;	 /* hex/raw input holds Ethernet frames */
	FILE *out, *err; /* the packets decoded; what went wrong */
	unsigned long n;
	unsigned long bad;
};

/*
 * Decode every packet of buf[0..len) (in: its format, IN_AUTO to guess
 * it from the content), counting them in st->n and st->bad.  0, or -1
 * when the input itself is broken (said on st->err).
 */
extern int decode_input(struct dec_state *st, enum in_fmt in, const uint8_t *buf, size_t len);

/* ---- pcap (pcap.c) ---- */
#define LINKTYPE_ETHERNET 1
#define LINKTYPE_RAW	  101

struct pcap_reader {
	FILE *f;
	bool swap;
	uint32_t linktype;
};

extern int pcap_write_header(FILE *f, uint32_t linktype);
extern int pcap_write_packet(FILE *f, const uint8_t *pkt, size_t len, uint32_t sec, uint32_t usec);
extern int pcap_open(struct pcap_reader *r, FILE *f);
/* 1: a record read, 0: end of file, -1: error. */
extern int pcap_next(struct pcap_reader *r, uint8_t *buf, size_t buflen, size_t *len);
/* Offset of the IP header in a frame of the link type, or an error. */
extern int link_ip_offset(uint32_t linktype, const uint8_t *frame, size_t len, size_t *off);
/* Prepend an Ethernet header (made-up MACs) for an IP packet. */
extern size_t eth_wrap(const uint8_t *pkt, size_t len, uint8_t *out, size_t outlen);

/* ---- usage (usage.c) ---- */
extern void usage_main(FILE *f);
extern void usage_build(FILE *f);
extern void usage_decode(FILE *f);

/* ---- subcommands ---- */
extern int cmd_build(int argc, char **argv);
extern int cmd_decode(int argc, char **argv);

#endif /* _PNC_PKT_H */
