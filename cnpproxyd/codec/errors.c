// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stable names of the codec error reasons.
 */
#include "errors.h"

/* Indexed by -err; the names become counter names, keep them stable. */
static const char *const err_names[PNC_CODEC_NERR] = {
	[0] = "ok",
	[-PNC_E_BUF_TOO_SMALL] = "buf-too-small",
	[-PNC_E_INVALID_ARG] = "invalid-arg",
	[-PNC_E_IP_TRUNCATED] = "ip-truncated",
	[-PNC_E_IP_VERSION] = "ip-bad-version",
	[-PNC_E_IP_HDR_LEN] = "ip-bad-header-length",
	[-PNC_E_IP_OPTIONS] = "ip-options",
	[-PNC_E_IP_CHECKSUM] = "ip-bad-checksum",
	[-PNC_E_IP_TOTAL_LEN] = "ip-bad-total-length",
	[-PNC_E_IP_FRAGMENT] = "ip-fragment",
	[-PNC_E_IP_NOT_UDP] = "ip-not-udp",
	[-PNC_E_UDP_TRUNCATED] = "udp-truncated",
	[-PNC_E_UDP_LEN] = "udp-bad-length",
	[-PNC_E_UDP_CHECKSUM] = "udp-bad-checksum",
	[-PNC_E_UDP_PORT] = "udp-not-rocev2",
	[-PNC_E_BTH_TRUNCATED] = "bth-truncated",
	[-PNC_E_BTH_TVER] = "bth-bad-tver",
	[-PNC_E_BTH_OPCODE] = "bth-unexpected-opcode",
	[-PNC_E_BTH_PAD] = "bth-bad-padcnt",
	[-PNC_E_EXT_TRUNCATED] = "ext-truncated",
	[-PNC_E_AETH_SYNDROME] = "aeth-bad-syndrome",
	[-PNC_E_UNEXPECTED_PAYLOAD] = "unexpected-payload",
	[-PNC_E_ICRC_TRUNCATED] = "icrc-truncated",
	[-PNC_E_ICRC] = "icrc-mismatch",
	[-PNC_E_MAD_TRUNCATED] = "mad-truncated",
	[-PNC_E_MAD_LEN] = "mad-bad-length",
	[-PNC_E_MAD_BASE_VERSION] = "mad-bad-base-version",
	[-PNC_E_MAD_CLASS] = "mad-not-cm",
	[-PNC_E_MAD_CLASS_VERSION] = "mad-bad-class-version",
	[-PNC_E_MAD_METHOD] = "mad-bad-method",
	[-PNC_E_CM_ATTR] = "cm-unsupported-attr",
	[-PNC_E_CM_QP] = "cm-not-qp1",
	[-PNC_E_CM_QKEY] = "cm-bad-qkey",
	[-PNC_E_NOTIF_TRUNCATED] = "notif-truncated",
	[-PNC_E_NOTIF_VERSION] = "notif-bad-version",
	[-PNC_E_NOTIF_AF] = "notif-bad-af",
	[-PNC_E_NOTIF_START] = "notif-bad-start-type",
	[-PNC_E_NOTIF_INVOKING_MISSING] = "notif-invoking-missing",
	[-PNC_E_NOTIF_TRAILING] = "notif-trailing-data",
	[-PNC_E_NOTIF_TOO_LONG] = "notif-too-long",
	[-PNC_E_NOTIF_NO_INVOKING] = "notif-no-invoking",
	[-PNC_E_MPLS_TRUNCATED] = "mpls-truncated",
	[-PNC_E_FCN_TRUNCATED] = "fcn-truncated",
	[-PNC_E_FCN_TRAILING] = "fcn-trailing-data",
	[-PNC_E_FCN_ZERO_LABEL] = "fcn-zero-label",
	[-PNC_E_LH_TRUNCATED] = "lh-truncated",
	[-PNC_E_LH_NOT_LONG_HAUL] = "lh-not-long-haul",
	[-PNC_E_LH_CHECKSUM] = "lh-bad-checksum",
	[-PNC_E_LH_PARAMETER] = "lh-bad-parameter",
	[-PNC_E_LH_EXT_VERSION] = "lh-ext-bad-version",
	[-PNC_E_LH_EXT_CHECKSUM] = "lh-ext-bad-checksum",
	[-PNC_E_LH_EXT_OBJECT] = "lh-ext-bad-object",
	[-PNC_E_RA_LEN] = "ra-bad-length",
	[-PNC_E_RA_VERSION] = "ra-bad-version",
	[-PNC_E_RA_QP] = "ra-qp-mismatch",
	[-PNC_E_NOTIF_ICMP_TYPE] = "notif-icmp-bad-type",
	[-PNC_E_NOTIF_ICMP_CODE] = "notif-icmp-bad-code",
	[-PNC_E_NOTIF_ICMP_CHECKSUM] = "notif-icmp-bad-checksum",
};

const char *pnc_codec_strerror(int err)
{
	if (err > 0 || err <= -PNC_CODEC_NERR || !err_names[-err])
		return "unknown";
	return err_names[-err];
}
