// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu: software RoCEv2 endpoints (no RNIC or rxe here).  A
 * requester connects to a responder (CM REQ/REP/RTU over RoCEv2, or QPNs
 * given on both sides), streams RC RDMA WRITEs at a rate, and reacts to
 * CNPs; the responder acknowledges and, like an RNIC, may answer
 * CE-marked packets with CNPs.  Events go out as JSON lines.
 */
#ifndef ROCE_EMU_H
#define ROCE_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emu_net.h"
#include "emu_rate.h"

#define EMU_LH_KNOWN_MAX 16

struct emu_cfg {
	bool requester;
	struct emu_net net;
	uint8_t remote[16];
	bool use_cm;
	uint32_t local_qpn;
	uint32_t remote_qpn; /* without CM */
	uint32_t start_psn;
	uint16_t pkey;
	uint8_t dscp;
	uint8_t ecn; /* of data packets, ECT(0) by default */
	unsigned int mtu;
	unsigned int ack_every; /* request an ACK every N packets */
	double duration_s;
	/* Requester: payload octets to send, then stop; 0 = until --duration. */
	uint64_t transfer_bytes;
	unsigned int log_ms;
	struct emu_rate_cfg rate;
	/* Long-haul CNPs (seed 000): off, the RoCEv2 form is a plain CNP. */
	bool long_haul;
	uint8_t lh_icmp6_type;
	uint8_t lh_class_num;
	/* Sources whose Long-haul messages are acted on (the draft: validate). */
	struct emu_prefix lh_known[EMU_LH_KNOWN_MAX];
	size_t n_lh_known;
	/* SCONE rate advice (seed 004): off, such packets are unknown. */
	bool rate_advice;
	uint8_t ra_opcode;
	/* responder */
	bool cnp_on_ce;
	unsigned int cnp_interval_us;
	FILE *log;
	/* Last IPv4 ID sent: never 0, which the kernel would rewrite. */
	uint16_t ip_id;
};

struct pnc_ip_udp;

/* The command line's defaults (doc/roce-emu.md); no addresses, QPNs or role. */
void emu_cfg_defaults(struct emu_cfg *cfg);
uint64_t emu_now_us(void);
/* IP/UDP fields of a packet from us to the peer; UDP source port from our QPN. */
void emu_ip_fill(struct emu_cfg *cfg, struct pnc_ip_udp *ip, uint8_t tos);
void emu_log(const struct emu_cfg *cfg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int emu_run_requester(struct emu_cfg *cfg);
int emu_run_responder(struct emu_cfg *cfg);

/*
 * The two ends' state and their receive paths, apart from the loops that
 * feed them packets, so that tests can drive them (tests/fuzz/fuzz_emu_rx.c).
 */
struct requester {
	struct emu_cfg *cfg;
	uint32_t remote_qpn;
	uint32_t psn;
	uint64_t va;
	uint64_t tx_pkts, tx_bytes, acks, naks, cnps, cnps_invalid;
	/* RDMA WRITE payload sent, and when the first and the last packet left. */
	uint64_t tx_payload, first_tx_us, last_tx_us;
	bool complete;
	struct emu_rate rate;
	struct emu_lh lh;
	/* Messages beyond CNP and ACK: kinds, actions, what was not acted on. */
	uint64_t lh_roce, lh_icmp6, advices;
	uint64_t lh_notify, lh_pause, lh_reduce, lh_resume, advice_zero;
	uint64_t ignored, unknown_src, malformed, unknown;
	uint8_t pkt[9216];
};

struct responder {
	struct emu_cfg *cfg;
	bool have_peer;
	uint32_t remote_qpn;
	uint32_t epsn, msn;
	uint32_t comm_id;
	uint64_t last_cnp_us;
	uint64_t rx_pkts, rx_bytes, ce_pkts, acks_sent, psn_gaps, cnps_sent;
	uint8_t pkt[2048];
};

/* A RoCEv2 packet addressed to us, IP header first. */
void emu_requester_rx(struct requester *rq, const uint8_t *pkt, size_t len);
/* An ICMPv6 message (from its type octet) of the given source. */
void emu_requester_rx_icmp6(struct requester *rq, const uint8_t *msg, size_t len,
			    const uint8_t src[16]);
void emu_responder_rx(struct responder *rs, const uint8_t *pkt, size_t len);

#endif /* ROCE_EMU_H */
