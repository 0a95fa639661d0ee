// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * InfiniBand CM MADs on RoCEv2 (doc/wire-formats.md section 4): the MAD
 * common header and the REQ, REP, RTU, REJ, DREQ and DREP messages,
 * alone (256-octet MAD) or in a RoCEv2 UD SEND Only to QP1 (BTH + DETH).
 *
 * Field offsets follow IBTA Vol 1 chapter 12 (Linux ibta_vol1_c12.h).
 * REQ alternate-path fields are not decoded and are sent as zero;
 * nothing in pnc uses them.
 */
#ifndef _CNPPROXY_CODEC_CM_H
#define _CNPPROXY_CODEC_CM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/errors.h"
#include "codec/roce.h"

#define PNC_MAD_LEN	     256
#define PNC_MAD_HDR_LEN	     24
#define PNC_CM_MSG_LEN	     (PNC_MAD_LEN - PNC_MAD_HDR_LEN)
#define PNC_MAD_BASE_VERSION 1
#define PNC_MAD_CLASS_CM     0x07
#define PNC_CM_CLASS_VERSION 2
#define PNC_MAD_METHOD_SEND  0x03
#define PNC_GSI_QKEY	     0x80010000u

/* RoCEv2 packet carrying a CM MAD: IPv4 / IPv6 header + UDP 288. */
#define PNC_CM_PKT_UDP_LEN (PNC_UDP_HLEN + PNC_BTH_LEN + PNC_DETH_LEN + PNC_MAD_LEN + 4)

enum pnc_cm_attr {
	PNC_CM_ATTR_REQ = 0x0010,
	PNC_CM_ATTR_MRA = 0x0011,
	PNC_CM_ATTR_REJ = 0x0012,
	PNC_CM_ATTR_REP = 0x0013,
	PNC_CM_ATTR_RTU = 0x0014,
	PNC_CM_ATTR_DREQ = 0x0015,
	PNC_CM_ATTR_DREP = 0x0016,
	PNC_CM_ATTR_SIDR_REQ = 0x0017,
	PNC_CM_ATTR_SIDR_REP = 0x0018,
	PNC_CM_ATTR_LAP = 0x0019,
	PNC_CM_ATTR_APR = 0x001a,
};

/* MAD common header (section 4.1). */
struct pnc_mad_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method; /* R bit (0x80) and method */
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod; /* Linux may carry ECE here; informational */
};

#define PNC_CM_REQ_PRIV_LEN  92
#define PNC_CM_REP_PRIV_LEN  196
#define PNC_CM_RTU_PRIV_LEN  224
#define PNC_CM_REJ_ARI_LEN   72
#define PNC_CM_REJ_PRIV_LEN  148
#define PNC_CM_DREQ_PRIV_LEN 220

/* REQ (IBTA Table 106); bit widths in comments. */
struct pnc_cm_req {
	uint32_t local_comm_id;
	uint64_t service_id;
	uint64_t local_ca_guid;
	uint32_t local_qkey;
	uint32_t local_qpn; /* 24: the requester's QP */
	uint8_t responder_resources;
	uint32_t local_eecn; /* 24 */
	uint8_t initiator_depth;
	uint32_t remote_eecn;		/* 24 */
	uint8_t remote_cm_resp_timeout; /* 5 */
	uint8_t transport_type;		/* 2: 0 RC, 1 UC, 2 RD */
	bool e2e_flow_ctrl;
	uint32_t starting_psn;	       /* 24: the requester's send PSN */
	uint8_t local_cm_resp_timeout; /* 5 */
	uint8_t retry_count;	       /* 3 */
	uint16_t pkey;
	uint8_t path_mtu; /* 4 */
	bool rdc_exists;
	uint8_t rnr_retry_count; /* 3 */
	uint8_t max_cm_retries;	 /* 4 */
	bool srq;
	uint8_t ext_transport_type; /* 3 */
	uint16_t primary_local_lid;
	uint16_t primary_remote_lid;
	uint8_t primary_local_gid[16]; /* RoCEv2 IPv4: ::ffff:a.b.c.d */
	uint8_t primary_remote_gid[16];
	uint32_t primary_flow_label; /* 20 */
	uint8_t primary_packet_rate; /* 6 */
	uint8_t primary_traffic_class;
	uint8_t primary_hop_limit;
	uint8_t primary_sl; /* 4 */
	bool primary_subnet_local;
	uint8_t primary_local_ack_timeout; /* 5 */
	uint8_t private_data[PNC_CM_REQ_PRIV_LEN];
};

/* REP (IBTA Table 110). */
struct pnc_cm_rep {
	uint32_t local_comm_id;
	uint32_t remote_comm_id; /* = the REQ's local_comm_id */
	uint32_t local_qkey;
	uint32_t local_qpn;    /* 24: the responder's QP */
	uint32_t local_eecn;   /* 24 */
	uint32_t starting_psn; /* 24: the responder's send PSN */
	uint32_t vendor_id;    /* 24, in the octets after the three above */
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t target_ack_delay;  /* 5 */
	uint8_t failover_accepted; /* 2 */
	bool e2e_flow_ctrl;
	uint8_t rnr_retry_count; /* 3 */
	bool srq;
	uint64_t local_ca_guid;
	uint8_t private_data[PNC_CM_REP_PRIV_LEN];
};

/* RTU (Table 111) and DREP (Table 113) share this layout. */
struct pnc_cm_rtu {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t private_data[PNC_CM_RTU_PRIV_LEN];
};

/* REJ (Table 108). */
struct pnc_cm_rej {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t msg_rejected;	 /* 2: 0 REQ, 1 REP, 2 other */
	uint8_t reject_info_len; /* 7 */
	uint16_t reason;
	uint8_t ari[PNC_CM_REJ_ARI_LEN];
	uint8_t private_data[PNC_CM_REJ_PRIV_LEN];
};

/* DREQ (Table 112). */
struct pnc_cm_dreq {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t remote_qpn_eecn; /* 24 */
	uint8_t private_data[PNC_CM_DREQ_PRIV_LEN];
};

/* A CM MAD; mad.attr_id selects the member of u. */
struct pnc_cm_msg {
	struct pnc_mad_hdr mad;
	union {
		struct pnc_cm_req req;
		struct pnc_cm_rep rep;
		struct pnc_cm_rtu rtu;
		struct pnc_cm_rej rej;
		struct pnc_cm_dreq dreq;
		struct pnc_cm_rtu drep;
	} u;
};

/* A CM MAD in a RoCEv2 UD SEND Only to QP1. */
struct pnc_cm_packet {
	struct pnc_ip_udp ip;
	struct pnc_bth bth;   /* opcode 0x64, DestQP 1 */
	struct pnc_deth deth; /* Q_Key 0x80010000, source QP 1 */
	struct pnc_cm_msg msg;
};

/* MAD header of a CM Send: versions, class, method, attribute and TID. */
extern void pnc_cm_mad_init(struct pnc_mad_hdr *mad, uint16_t attr_id, uint64_t tid);

/*
 * A zeroed packet with the usual GSI values: IP defaults of
 * pnc_ip_udp_init(), UD SEND Only, P_Key 0xFFFF, QP1, GSI Q_Key, and
 * pnc_cm_mad_init(attr_id, 0).
 */
extern void pnc_cm_packet_init(struct pnc_cm_packet *p, uint8_t ip_version, uint16_t attr_id);

/*
 * 256-octet MAD.  The header is written as given; attributes other than
 * REQ/REP/RTU/REJ/DREQ/DREP, and out-of-range fields, give
 * PNC_E_INVALID_ARG.
 */
extern int pnc_cm_encode(const struct pnc_cm_msg *in, uint8_t *buf, size_t buflen, size_t *outlen);
/*
 * Exactly 256 octets; a CM Send of base version 1, class version 2 and
 * a supported attribute.  Reserved fields are ignored.
 */
extern int pnc_cm_decode(const uint8_t *buf, size_t len, struct pnc_cm_msg *out);

extern int pnc_cm_packet_encode(const struct pnc_cm_packet *in, uint8_t *buf, size_t buflen,
				size_t *outlen);
/*
 * RoCEv2 packet from the IP header (checked as pnc_roce_parse() does,
 * ICRC included), opcode 0x64 to QP1 with the GSI Q_Key and a 256-octet
 * MAD.
 */
extern int pnc_cm_packet_decode(const uint8_t *pkt, size_t len, struct pnc_cm_packet *out);

#endif /* _CNPPROXY_CODEC_CM_H */
