// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Error reasons shared by the packet codecs (icrc, roce, cm, notif).
 *
 * Every decoder returns 0 or one of these negative values, so a caller
 * can count rejections per reason: -err is a dense index below
 * PNC_CODEC_NERR.  The strings of pnc_codec_strerror() are stable
 * identifiers (counter names, debug output); never rename them.
 */
#ifndef _CNPPROXY_CODEC_ERRORS_H
#define _CNPPROXY_CODEC_ERRORS_H

enum pnc_codec_err {
	PNC_OK = 0,

	/* Encoders */
	PNC_E_BUF_TOO_SMALL = -1,
	PNC_E_INVALID_ARG = -2,

	/* IPv4 / IPv6 */
	PNC_E_IP_TRUNCATED = -3,
	PNC_E_IP_VERSION = -4,
	PNC_E_IP_HDR_LEN = -5,
	PNC_E_IP_OPTIONS = -6,
	PNC_E_IP_CHECKSUM = -7,
	PNC_E_IP_TOTAL_LEN = -8,
	PNC_E_IP_FRAGMENT = -9,
	PNC_E_IP_NOT_UDP = -10,

	/* UDP */
	PNC_E_UDP_TRUNCATED = -11,
	PNC_E_UDP_LEN = -12,
	PNC_E_UDP_CHECKSUM = -13,
	PNC_E_UDP_PORT = -14,

	/* BTH, extension headers, ICRC */
	PNC_E_BTH_TRUNCATED = -15,
	PNC_E_BTH_TVER = -16,
	PNC_E_BTH_OPCODE = -17,
	PNC_E_BTH_PAD = -18,
	PNC_E_EXT_TRUNCATED = -19,
	PNC_E_AETH_SYNDROME = -20,
	PNC_E_UNEXPECTED_PAYLOAD = -21,
	PNC_E_ICRC_TRUNCATED = -22,
	PNC_E_ICRC = -23,

	/* CM MADs */
	PNC_E_MAD_TRUNCATED = -24,
	PNC_E_MAD_LEN = -25,
	PNC_E_MAD_BASE_VERSION = -26,
	PNC_E_MAD_CLASS = -27,
	PNC_E_MAD_CLASS_VERSION = -28,
	PNC_E_MAD_METHOD = -29,
	PNC_E_CM_ATTR = -30,
	PNC_E_CM_QP = -31,
	PNC_E_CM_QKEY = -32,

	/* Seed 002 notification (doc/wire-formats.md 6.2) */
	PNC_E_NOTIF_TRUNCATED = -33,
	PNC_E_NOTIF_VERSION = -34,
	PNC_E_NOTIF_AF = -35,
	PNC_E_NOTIF_START = -36,
	PNC_E_NOTIF_INVOKING_MISSING = -37,
	PNC_E_NOTIF_TRAILING = -38,
	PNC_E_NOTIF_TOO_LONG = -39,
	PNC_E_NOTIF_NO_INVOKING = -40,
	PNC_E_MPLS_TRUNCATED = -41,

	/* Seed 001 flow-label FCN (doc/wire-formats.md 6.3) */
	PNC_E_FCN_TRUNCATED = -42,
	PNC_E_FCN_TRAILING = -43,
	PNC_E_FCN_ZERO_LABEL = -44,

	/* Long-haul CNP (doc/wire-formats.md 7.2, 7.3) */
	PNC_E_LH_TRUNCATED = -45,
	PNC_E_LH_NOT_LONG_HAUL = -46,
	PNC_E_LH_CHECKSUM = -47,
	PNC_E_LH_PARAMETER = -48,
	PNC_E_LH_EXT_VERSION = -49,
	PNC_E_LH_EXT_CHECKSUM = -50,
	PNC_E_LH_EXT_OBJECT = -51,

	/* SCONE rate advice (doc/wire-formats.md 7.4) */
	PNC_E_RA_LEN = -52,
	PNC_E_RA_VERSION = -53,
	PNC_E_RA_QP = -54,

	/* The notification's ICMP form (doc/wire-formats.md 6.5) */
	PNC_E_NOTIF_ICMP_TYPE = -55,
	PNC_E_NOTIF_ICMP_CODE = -56,
	PNC_E_NOTIF_ICMP_CHECKSUM = -57,
};

/* Number of reasons including PNC_OK: valid errors are 0 > err > -NERR. */
#define PNC_CODEC_NERR 58

/* Short stable identifier of a reason; "unknown" for anything else. */
extern const char *pnc_codec_strerror(int err);

#endif /* _CNPPROXY_CODEC_ERRORS_H */
