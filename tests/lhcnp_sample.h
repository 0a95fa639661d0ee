// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sample Long-haul message of doc/wire-formats.md 7.2: the unit
 * test checks its octets against the document, and the fuzz corpus
 * starts from it.
 */
#ifndef _PNC_LHCNP_SAMPLE_H
#define _PNC_LHCNP_SAMPLE_H

#include <stdbool.h>
#include <string.h>

#include "codec/lhcnp.h"

/* CL 6 (level 218), Rate Reduce 50 %, 500 KB queued; ext: every object. */
static inline void lhcnp_sample(struct pnc_lh_cnp *m, bool ext)
{
	memset(m, 0, sizeof(*m));
	m->block.level = 218;
	m->block.action = PNC_LH_RATE_REDUCE;
	m->block.parameter = 50;
	m->block.src_qp = 0x0012ab;
	m->block.metric_type = PNC_LH_METRIC_QUEUE_KB;
	m->block.metric = 0x0001f4; /* 500 KB */
	if (!ext)
		return;
	m->ext.present = true;
	m->ext.checksum = true;
	m->ext.class_num = PNC_LH_EXT_CLASS_NUM;
	m->ext.has_timestamp = true;
	m->ext.timestamp = 0xe9f2a6b180000000ull;
	strcpy(m->ext.device_id, "p1.dc2");
	m->ext.path_id_len = 3;
	memcpy(m->ext.path_id, "\xaa\xbb\xcc", 3);
}

#endif /* _PNC_LHCNP_SAMPLE_H */
