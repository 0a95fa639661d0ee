// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flow-label tunnel's labels as a file (format: tunnel/labels_state.h).
 */
#include <string.h>

#include "codec/wire.h"
#include "tunnel/labels_state.h"
#include "state/frame.h"

static const struct pnc_state_kind kind = {
	.magic = { 'P', 'N', 'C', 'L' },
	.version = PNC_FL_STATE_VERSION,
	.meta_len = 4,
	.rec_len = PNC_FL_STATE_REC_LEN,
};

size_t pnc_labels_state_size(size_t n)
{
	return pnc_state_size(&kind, n);
}

static void rec_encode(const struct pnc_tunnel_flow *s, uint8_t *p)
{
	memset(p, 0, PNC_FL_STATE_REC_LEN);
	p[0] = s->ip_version;
	put_be16(p + 2, s->pkey);
	put_be16(p + 4, s->sport);
	put_be32(p + 8, s->label);
	put_be32(p + 12, s->dest_qp);
	memcpy(p + 16, s->src, 16);
	memcpy(p + 32, s->dst, 16);
}

static void rec_decode(const uint8_t *p, struct pnc_tunnel_flow *s)
{
	memset(s, 0, sizeof(*s));
	s->ip_version = p[0];
	s->pkey = get_be16(p + 2);
	s->sport = get_be16(p + 4);
	s->label = get_be32(p + 8);
	s->dest_qp = get_be32(p + 12);
	memcpy(s->src, p + 16, 16);
	memcpy(s->dst, p + 32, 16);
}

void pnc_labels_state_encode(uint32_t meta, const struct pnc_tunnel_flow *fl, size_t n,
			     uint8_t *buf)
{
	put_be32(buf + pnc_state_meta_off(&kind), meta);
	for (size_t i = 0; i < n; i++)
		rec_encode(&fl[i], buf + pnc_state_rec_off(&kind, i));
	pnc_state_seal(&kind, buf, n);
}

int pnc_labels_state_decode(const uint8_t *buf, size_t len, uint32_t *meta,
			    void (*cb)(const struct pnc_tunnel_flow *s, void *arg), void *arg)
{
	struct pnc_tunnel_flow s;
	int n = pnc_state_check(&kind, buf, len);

	if (n < 0)
		return n;
	*meta = get_be32(buf + pnc_state_meta_off(&kind));
	for (int i = 0; i < n; i++) {
		rec_decode(buf + pnc_state_rec_off(&kind, (size_t)i), &s);
		cb(&s, arg);
	}
	return n;
}
