// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sampled packets and their notifications (see cp/sample.h).
 */
#include <string.h>

#include "codec/notif.h"
#include "cp/sample.h"

#define IP6_HLEN 40

int pnc_cp_sample_parse(const uint8_t *data, size_t cap_len, size_t inner_off,
			struct pnc_cp_sample_view *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (cap_len < 1)
		return PNC_E_IP_TRUNCATED;
	out->outer_version = data[0] >> 4;
	if (out->outer_version != 4 && out->outer_version != 6)
		return PNC_E_IP_VERSION;
	if (inner_off) {
		/* Only an outer IPv6 header carries a flow label to name the flow. */
		if (out->outer_version != 6 || inner_off < IP6_HLEN || inner_off >= cap_len)
			return PNC_E_INVALID_ARG;
		out->tunnelled = true;
		out->flow_label = ((uint32_t)(data[1] & 0x0f) << 16) | (uint32_t)data[2] << 8 |
				  data[3];
		memcpy(out->outer_src, data + 8, 16);
	} else if (out->outer_version == 4) {
		if (cap_len < 20)
			return PNC_E_IP_TRUNCATED;
		memcpy(out->outer_src, data + 12, 4);
	} else {
		if (cap_len < IP6_HLEN)
			return PNC_E_IP_TRUNCATED;
		out->flow_label = ((uint32_t)(data[1] & 0x0f) << 16) | (uint32_t)data[2] << 8 |
				  data[3];
		memcpy(out->outer_src, data + 8, 16);
	}
	out->ip = data + inner_off;
	out->ip_len = cap_len - inner_off;
	/* Samples are cut short: IP, UDP and BTH are enough. */
	ret = pnc_roce_parse(out->ip, out->ip_len, PNC_ROCE_F_TRUNCATED, &out->roce);
	if (ret < 0)
		return ret;
	/* Never more than the packet itself (Ethernet padding, if any). */
	if (out->ip_len > out->roce.pkt_len)
		out->ip_len = out->roce.pkt_len;
	return PNC_OK;
}

int pnc_cp_notification_build(const struct pnc_cp_sample_view *v, uint8_t level,
			      const struct pnc_notif_icmp *form, uint8_t *buf, size_t buflen,
			      size_t *outlen)
{
	const struct pnc_ip_udp *ip = &v->roce.ip;
	struct pnc_notif n = {
		.af = ip->version,
		.protocol = 17,
		.cl = level,
		.start = PNC_NOTIF_START_INNER_IP,
		.sport = ip->sport,
		.dport = ip->dport,
		.invoking = v->ip,
		.invoking_len = v->ip_len,
		.carrier_af = form->version,
	};

	memcpy(n.src, ip->src, sizeof(n.src));
	memcpy(n.dst, ip->dst, sizeof(n.dst));
	if (form->type)
		return pnc_notif_icmp_encode(form, &n, buf, buflen, outlen);
	return pnc_notif_encode(&n, buf, buflen, outlen);
}
