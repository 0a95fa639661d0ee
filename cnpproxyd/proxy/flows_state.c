// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's learned flows as a file (format: proxy/flows_state.h).
 */
#include <string.h>

#include "codec/wire.h"
#include "proxy/flows_state.h"
#include "state/frame.h"

static const struct pnc_state_kind kind = {
	.magic = { 'P', 'N', 'C', 'F' },
	.version = PNC_FLOWS_STATE_VERSION,
	.rec_len = PNC_FLOWS_STATE_REC_LEN,
};

size_t pnc_flows_state_size(size_t n)
{
	return pnc_state_size(&kind, n);
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
	for (size_t i = 0; i < n; i++)
		rec_encode(&flows[i], buf + pnc_state_rec_off(&kind, i));
	pnc_state_seal(&kind, buf, n);
}

int pnc_flows_state_decode(const uint8_t *buf, size_t len,
			   void (*cb)(const struct pnc_flow_saved *s, void *arg), void *arg)
{
	struct pnc_flow_saved sv;
	int n = pnc_state_check(&kind, buf, len);

	for (int i = 0; i < n; i++) {
		rec_decode(buf + pnc_state_rec_off(&kind, (size_t)i), &sv);
		cb(&sv, arg);
	}
	return n;
}
