// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for ospfd-pnc's Extended Prefix TLV codec
 * (ospfd/ospf_ext_prefix.c in the FRR tree): the input as the body of an
 * Extended Prefix Opaque LSA.  Properties: the result is a count or one
 * of the documented errors; the count does not depend on the room given;
 * every TLV decoded re-encodes into a TLV that decodes to the same values.
 */
#include <zebra.h>

#include "ospfd/ospf_ext_prefix.h"

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The values the encoder writes back; route type, prefix and flags pass through. */
static bool same(const struct ospf_ext_prefix *a, const struct ospf_ext_prefix *b)
{
	return a->route_type == b->route_type && a->tlv_flags == b->tlv_flags &&
	       a->prefixlen == b->prefixlen && a->prefix.s_addr == b->prefix.s_addr &&
	       a->ext_flags == b->ext_flags && a->has_source_rid == b->has_source_rid &&
	       (!a->has_source_rid || a->source_rid.s_addr == b->source_rid.s_addr) &&
	       a->has_source_addr == b->has_source_addr &&
	       (!a->has_source_addr || a->source_addr.s_addr == b->source_addr.s_addr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ospf_ext_prefix ep[8], back[1];
	uint8_t buf[64];
	int n, i;

	n = ospf_ext_prefix_decode(data, size, ep, 8);
	FUZZ_CHECK(n >= 0 || n == OSPF_EXT_PREFIX_TRUNCATED || n == OSPF_EXT_PREFIX_BAD_TLV ||
		   n == OSPF_EXT_PREFIX_BAD_FLAGS_LEN);
	FUZZ_CHECK(ospf_ext_prefix_decode(data, size, NULL, 0) == n);
	for (i = 0; i < n && i < 8; i++) {
		size_t len = ospf_ext_prefix_encode(&ep[i], buf, sizeof(buf));

		FUZZ_CHECK(len >= 12 && len <= 36 && len % 4 == 0);
		FUZZ_CHECK(ospf_ext_prefix_decode(buf, len, back, 1) == 1);
		/* a flags sub-TLV without a bit set is not sent */
		FUZZ_CHECK(back[0].has_ext_flags == (ep[i].ext_flags != 0));
		FUZZ_CHECK(same(&ep[i], &back[0]));
	}
	return 0;
}
