// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's learned flows as a file (format: cnpproxy_flows_state.h).
 */
#include <string.h>

#include "codec/icrc.h"
#include "codec/wire.h"
#include "cnpproxy_flows_state.h"

static const uint8_t magic[4] = { 'P', 'N', 'C', 'F' };

size_t pnc_flows_state_size(size_t n)
{
	return PNC_FLOWS_STATE_HDR_LEN + n * PNC_FLOWS_STATE_REC_LEN;
}

static void rec_encode(const struct pnc_flow_saved *sv, uint8_t *p)
{
	const struct pnc_flow *f = &sv->f;

	memset(p, 0, PNC_FLOWS_STATE_REC_LEN);
	p[0] = f->ip_version;
	p[1] = f->source == PNC_FLOW_CM ? 0 : 1;
	put_be16(p + 2, f->pkey);
	memcpy(p + 4, f->sender, 16);
	memcpy(p + 20, f->receiver, 16);
	put_be32(p + 36, f->sender_qpn);
	put_be32(p + 40, f->receiver_qpn);
	put_be16(p + 44, f->udp_sport);
	put_be32(p + 48, f->flow_label);
	put_be32(p + 52, sv->sender_comm);
	put_be32(p + 56, sv->receiver_comm);
	put_be64(p + 60, f->learned_us);
	put_be64(p + 68, f->last_seen_us);
	put_be64(p + 76, f->packets);
}

static void rec_decode(const uint8_t *p, struct pnc_flow_saved *sv)
{
	struct pnc_flow *f = &sv->f;

	memset(sv, 0, sizeof(*sv));
	f->ip_version = p[0];
	/* Anything but 0 or 1 is caught by pnc_flow_table_restore(). */
	f->source = p[1] == 0	? PNC_FLOW_CM
		    : p[1] == 1 ? PNC_FLOW_PSN
				: (enum pnc_flow_source)p[1];
	f->pkey = get_be16(p + 2);
	memcpy(f->sender, p + 4, 16);
	memcpy(f->receiver, p + 20, 16);
	f->sender_qpn = get_be32(p + 36);
	f->receiver_qpn = get_be32(p + 40);
	f->udp_sport = get_be16(p + 44);
	f->flow_label = get_be32(p + 48);
	sv->sender_comm = get_be32(p + 52);
	sv->receiver_comm = get_be32(p + 56);
	f->learned_us = get_be64(p + 60);
	f->last_seen_us = get_be64(p + 68);
	f->packets = get_be64(p + 76);
}

void pnc_flows_state_encode(const struct pnc_flow_saved *flows, size_t n, uint8_t *buf)
{
	uint8_t *recs = buf + PNC_FLOWS_STATE_HDR_LEN;

	for (size_t i = 0; i < n; i++)
		rec_encode(&flows[i], recs + i * PNC_FLOWS_STATE_REC_LEN);
	memcpy(buf, magic, sizeof(magic));
	put_be16(buf + 4, PNC_FLOWS_STATE_VERSION);
	put_be16(buf + 6, 0);
	put_be32(buf + 8, (uint32_t)n);
	put_be32(buf + 12, pnc_crc32(0, recs, n * PNC_FLOWS_STATE_REC_LEN));
}

int pnc_flows_state_decode(const uint8_t *buf, size_t len,
			   void (*cb)(const struct pnc_flow_saved *s, void *arg), void *arg)
{
	const uint8_t *recs = buf + PNC_FLOWS_STATE_HDR_LEN;
	struct pnc_flow_saved sv;
	uint32_t n;

	if (len < PNC_FLOWS_STATE_HDR_LEN)
		return PNC_FLOWS_STATE_E_SHORT;
	if (memcmp(buf, magic, sizeof(magic)))
		return PNC_FLOWS_STATE_E_MAGIC;
	if (get_be16(buf + 4) != PNC_FLOWS_STATE_VERSION)
		return PNC_FLOWS_STATE_E_VERSION;
	n = get_be32(buf + 8);
	/* Divide rather than multiply: a huge count must not wrap. */
	if ((len - PNC_FLOWS_STATE_HDR_LEN) % PNC_FLOWS_STATE_REC_LEN ||
	    (len - PNC_FLOWS_STATE_HDR_LEN) / PNC_FLOWS_STATE_REC_LEN != n || n > INT32_MAX)
		return PNC_FLOWS_STATE_E_LENGTH;
	if (pnc_crc32(0, recs, len - PNC_FLOWS_STATE_HDR_LEN) != get_be32(buf + 12))
		return PNC_FLOWS_STATE_E_CRC;
	for (uint32_t i = 0; i < n; i++) {
		rec_decode(recs + (size_t)i * PNC_FLOWS_STATE_REC_LEN, &sv);
		cb(&sv, arg);
	}
	return (int)n;
}

const char *pnc_flows_state_strerror(int err)
{
	switch (err) {
	case PNC_FLOWS_STATE_E_SHORT:
		return "shorter than its header";
	case PNC_FLOWS_STATE_E_MAGIC:
		return "not a flow state file";
	case PNC_FLOWS_STATE_E_VERSION:
		return "unknown version";
	case PNC_FLOWS_STATE_E_LENGTH:
		return "length does not match the record count";
	case PNC_FLOWS_STATE_E_CRC:
		return "records damaged (CRC)";
	}
	return err >= 0 ? "ok" : "?";
}
