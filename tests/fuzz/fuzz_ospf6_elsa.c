// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for ospfd-pnc's OSPFv3 E-LSA prefix TLV codec
 * (ospf6d/ospf6_elsa.c in the FRR tree): the input as the TLV area of an
 * E-LSA.  Properties: the result is a count or one of the documented
 * errors; the count does not depend on the room given; every TLV decoded
 * re-encodes, 32-bit aligned, into a TLV that decodes to the same values.
 */
#include <zebra.h>
#include <string.h>

#include "ospf6d/ospf6_elsa.h"

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The values the encoder writes back. */
static bool same(const struct ospf6_elsa_prefix *a, const struct ospf6_elsa_prefix *b)
{
	bool external = a->tlv_type == OSPF6_ELSA_TLV_EXTERNAL_PREFIX;

	return a->tlv_type == b->tlv_type && a->metric == b->metric &&
	       a->ext_bits == b->ext_bits && a->prefixlen == b->prefixlen &&
	       a->prefix_options == b->prefix_options &&
	       !memcmp(&a->prefix, &b->prefix, sizeof(a->prefix)) && a->ext_flags == b->ext_flags &&
	       a->has_source_rid == b->has_source_rid &&
	       (!a->has_source_rid || a->source_rid.s_addr == b->source_rid.s_addr) &&
	       a->has_source_addr == b->has_source_addr &&
	       (!a->has_source_addr ||
		!memcmp(&a->source_addr, &b->source_addr, sizeof(a->source_addr))) &&
	       a->has_route_tag == (b->has_route_tag && external) &&
	       (!a->has_route_tag || a->route_tag == b->route_tag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ospf6_elsa_prefix ep[8], back[1];
	uint8_t buf[128];
	int n, i;

	n = ospf6_elsa_prefixes_decode(data, size, ep, 8);
	FUZZ_CHECK(n >= 0 || n == OSPF6_ELSA_TRUNCATED || n == OSPF6_ELSA_BAD_TLV ||
		   n == OSPF6_ELSA_BAD_FLAGS_LEN);
	FUZZ_CHECK(ospf6_elsa_prefixes_decode(data, size, NULL, 0) == n);
	for (i = 0; i < n && i < 8; i++) {
		size_t len = ospf6_elsa_prefix_encode(&ep[i], buf, sizeof(buf));

		FUZZ_CHECK(len >= 12 && len <= 88 && len % 4 == 0);
		FUZZ_CHECK(ospf6_elsa_prefixes_decode(buf, len, back, 1) == 1);
		/* a flags sub-TLV without a bit set is not sent */
		FUZZ_CHECK(back[0].has_ext_flags == (ep[i].ext_flags != 0));
		FUZZ_CHECK(same(&ep[i], &back[0]));
	}
	return 0;
}
