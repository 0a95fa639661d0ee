// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for bgpd's path attribute parser with the patch
 * series' Next Hop Dependent Characteristics (draft-ietf-idr-nhc) and
 * its PNC characteristic: bgpd/bgp_attr.c, bgp_nhc.c and bgp_pnc.c are
 * compiled with the target's instrumentation, the rest of bgpd and
 * libfrr are the objects the FRR build made.
 *
 * Input: one octet of session options, then the path attributes of an
 * UPDATE as they follow its Total Path Attribute Length:
 *   bit 0  the peer is eBGP (else iBGP)
 *   bit 1  the UPDATE has NLRI after the attributes
 *   bit 2  the PNC characteristic code is 0xfe00 (else the default 0xff01)
 *
 * Properties:
 *  - parsing ends in one of bgp_attr_parse()'s results, and the attributes
 *    it produced can be dumped and released as bgpd does after an UPDATE;
 *  - an NHC kept on the route re-encodes (bgp_nhc_encode()) to an
 *    attribute that, put in the input's place, parses back to the same
 *    NHC: decode(encode(x)) == x;
 *  - what a speaker that changes the next hop sends on is only its own
 *    BGPID, and PNC only when it is a proxy itself.
 *
 * Seeds: tests/fuzz/corpus/bgp_attr/, the attribute sets of
 * tests/bgpd/test_bgp_nhc.c's cases and of ExaBGP's UPDATEs in
 * topotests/bgp_pnc_exabgp.
 */
#include <zebra.h>

#include "command.h"
#include "memory.h"
#include "privs.h"
#include "qobj.h"
#include "stream.h"
#include "vrf.h"
#include "zlog.h"

#include "bgpd/bgpd.h"
#include "bgpd/bgp_attr.h"
#include "bgpd/bgp_debug.h"
#include "bgpd/bgp_community_alias.h"
#include "bgpd/bgp_label.h"
#include "bgpd/bgp_memory.h"
#include "bgpd/bgp_network.h"
#include "bgpd/bgp_nhc.h"
#include "bgpd/bgp_vty.h"

#include "fuzz_check.h"

#define PNC_CODE_ALT 0xfe00

/* What libbgp.a's objects expect bgpd's main to define. */
struct zebra_privs_t bgpd_privs = {};
struct event_loop *master;

static struct bgp *bgp;
static struct peer *peer;
static struct interface ifp;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	as_t asn = 100;

	/* bgpd logs every malformed attribute: millions of lines, each reading the time zone */
	zlog_aux_init("fuzz: ", ZLOG_DISABLED);
	qobj_init();
	cmd_init(0);
	bgp_vty_init();
	master = event_master_create("fuzz bgp attr");
	bgp_master_init(master, BGP_SOCKET_SNDBUF_SIZE, list_new());
	vrf_init(NULL, NULL, NULL, NULL);
	bgp_option_set(BGP_OPT_NO_LISTEN);
	bgp_attr_init();
	bgp_labels_init();
	bgp_debug_init();
	bgp_community_alias_init();
	if (bgp_get(&bgp, &asn, NULL, BGP_INSTANCE_TYPE_DEFAULT, NULL, ASNOTATION_PLAIN) < 0)
		abort();

	peer = peer_create_accept(bgp, NULL);
	peer->host = (char *)"fuzz";
	peer->local_as = 100;
	peer->connection = bgp_peer_connection_new(peer, NULL, UNKNOWN);
	peer->connection->curr = stream_new(BGP_MAX_PACKET_SIZE);
	peer->nexthop.ifp = &ifp;
	peer->afc[AFI_IP][SAFI_UNICAST] = peer->afc_nego[AFI_IP][SAFI_UNICAST] = 1;
	peer->afc[AFI_IP6][SAFI_UNICAST] = peer->afc_nego[AFI_IP6][SAFI_UNICAST] = 1;
	return 0;
}

/* Offset and length of the first attribute of type code in attrs, if any. */
static bool find_attr(const uint8_t *attrs, size_t len, uint8_t code, size_t *off, size_t *alen)
{
	size_t pos = 0, hdr, vlen;

	while (pos + 3 <= len) {
		bool extended = attrs[pos] & BGP_ATTR_FLAG_EXTLEN;

		hdr = extended ? 4 : 3;
		if (pos + hdr > len)
			return false;
		vlen = extended ? (attrs[pos + 2] << 8 | attrs[pos + 3]) : attrs[pos + 2];
		if (pos + hdr + vlen > len)
			return false;
		if (attrs[pos + 1] == code) {
			*off = pos;
			*alen = hdr + vlen;
			return true;
		}
		pos += hdr + vlen;
	}
	return false;
}

/*
 * What a session error leaves behind (the NOTIFICATION queued, the BGP_Stop
 * event scheduled for it, the UPDATE kept as the reset cause) goes, so that
 * every input starts alike and frees what it allocates.
 */
static void session_reset(void)
{
	event_cancel_event(master, peer->connection);
	stream_fifo_clean(peer->connection->obuf);
	if (peer->last_reset_cause) {
		stream_free(peer->last_reset_cause);
		peer->last_reset_cause = NULL;
	}
	XFREE(MTYPE_BGP_NOTIFICATION, peer->notify.data);
	peer->notify.length = 0;
	peer->connection->status = Established;
}

/* bgp_attr_parse() on attrs, as bgp_update_receive() calls it. */
static enum bgp_attr_parse_ret parse(const uint8_t *attrs, size_t len, bool has_nlri,
				     struct attr *attr)
{
	struct bgp_nlri mp_update = {}, mp_withdraw = {};
	struct stream *s = peer->connection->curr;
	enum bgp_attr_parse_ret ret;

	stream_reset(s);
	stream_write(s, attrs, len);
	memset(attr, 0, sizeof(*attr));
	attr->label_index = BGP_INVALID_LABEL_INDEX;
	attr->label = MPLS_INVALID_LABEL;
	ret = bgp_attr_parse(peer->connection, attr, len, &mp_update, &mp_withdraw, has_nlri);
	session_reset();
	FUZZ_CHECK(ret == BGP_ATTR_PARSE_PROCEED || ret == BGP_ATTR_PARSE_ERROR ||
		   ret == BGP_ATTR_PARSE_WITHDRAW || ret == BGP_ATTR_PARSE_MISSING_MANDATORY ||
		   ret == BGP_ATTR_PARSE_WITHDRAW_IGNORE);
	return ret;
}

static int tlv_cmp(const void *x, const void *y)
{
	const struct bgp_nhc_tlv *a = *(const struct bgp_nhc_tlv *const *)x;
	const struct bgp_nhc_tlv *b = *(const struct bgp_nhc_tlv *const *)y;

	if (a->code != b->code)
		return a->code < b->code ? -1 : 1;
	if (a->length != b->length)
		return a->length < b->length ? -1 : 1;
	return a->length ? memcmp(a->value, b->value, a->length) : 0;
}

/* The characteristics of nhc, sorted: the encoder sends them by code. */
static size_t sorted_tlvs(const struct bgp_nhc *nhc, const struct bgp_nhc_tlv ***out)
{
	const struct bgp_nhc_tlv *tlv;
	size_t n = 0;

	for (tlv = nhc->tlvs; tlv; tlv = tlv->next)
		n++;
	*out = XCALLOC(MTYPE_TMP, (n ? n : 1) * sizeof(**out));
	n = 0;
	for (tlv = nhc->tlvs; tlv; tlv = tlv->next)
		(*out)[n++] = tlv;
	qsort(*out, n, sizeof(**out), tlv_cmp);
	return n;
}

static bool same_nhc(const struct bgp_nhc *a, const struct bgp_nhc *b)
{
	const struct bgp_nhc_tlv **ta, **tb;
	size_t na, nb, i;
	bool same;

	if (a->afi != b->afi || a->safi != b->safi || a->nh_length != b->nh_length ||
	    a->tlvs_length != b->tlvs_length || !IPV4_ADDR_SAME(&a->nh_ipv4, &b->nh_ipv4) ||
	    !IPV6_ADDR_SAME(&a->nh_ipv6, &b->nh_ipv6) ||
	    !IPV6_ADDR_SAME(&a->nh_ipv6_local, &b->nh_ipv6_local))
		return false;
	na = sorted_tlvs(a, &ta);
	nb = sorted_tlvs(b, &tb);
	same = na == nb;
	for (i = 0; same && i < na; i++)
		same = tlv_cmp(&ta[i], &tb[i]) == 0;
	XFREE(MTYPE_TMP, ta);
	XFREE(MTYPE_TMP, tb);
	return same;
}

/* The input with its NHC attribute replaced by nhc encoded, parsed again. */
static void check_round_trip(const uint8_t *attrs, size_t len, bool has_nlri,
			     const struct bgp_nhc *nhc)
{
	/* What was received, a 4-octet attribute header and its own room. */
	struct stream *enc = stream_new(len + 4 + BGP_NHC_MIN_IPV6_LEN);
	size_t off, alen, elen;
	struct attr again;
	uint8_t *buf;

	FUZZ_CHECK(find_attr(attrs, len, BGP_ATTR_NHC, &off, &alen));
	bgp_nhc_encode(enc, nhc);
	elen = stream_get_endp(enc);
	buf = XMALLOC(MTYPE_TMP, len - alen + elen);
	memcpy(buf, attrs, off);
	memcpy(buf + off, STREAM_DATA(enc), elen);
	memcpy(buf + off + elen, attrs + off + alen, len - off - alen);
	stream_free(enc);

	parse(buf, len - alen + elen, has_nlri, &again);
	FUZZ_CHECK(bgp_attr_get_nhc(&again) != NULL);
	FUZZ_CHECK(same_nhc(nhc, bgp_attr_get_nhc(&again)));
	bgp_attr_unintern_sub(&again);
	bgp_attr_flush(&again);
	XFREE(MTYPE_TMP, buf);
}

/* A speaker that puts itself as next hop keeps only what it can say of itself. */
static void check_new_nexthop(const struct bgp_nhc *nhc)
{
	struct in_addr ours = { .s_addr = htonl(0x0aff0002) };
	const struct bgp_nhc_tlv *tlv;
	struct bgp_nhc *sent;
	int proxy;

	for (proxy = 0; proxy <= 1; proxy++) {
		sent = bgp_nhc_for_new_nexthop(nhc, ours,
					       proxy ? bgp->pnc_nhc_code : BGP_NHC_CODE_NONE,
					       AFI_IP, SAFI_UNICAST);
		for (tlv = sent ? sent->tlvs : NULL; tlv; tlv = tlv->next) {
			if (tlv->code == BGP_ATTR_NHC_TLV_BGPID)
				FUZZ_CHECK(tlv->length == 4 && !memcmp(tlv->value, &ours, 4));
			else
				FUZZ_CHECK(proxy && tlv->code == bgp->pnc_nhc_code &&
					   tlv->length == 0);
		}
		bgp_nhc_free(sent);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dump[BUFSIZ];
	struct attr attr;
	bool has_nlri;

	if (size < 1 || size - 1 > BGP_MAX_PACKET_SIZE - BGP_HEADER_SIZE)
		return 0;

	/* bgpd derives the sort from the AS numbers whenever it needs it */
	peer->as = (data[0] & 1) ? 200 : 100;
	peer->sort = peer_sort(peer);
	FUZZ_CHECK(peer->sort == ((data[0] & 1) ? BGP_PEER_EBGP : BGP_PEER_IBGP));
	has_nlri = data[0] & 2;
	bgp->pnc_nhc_code = (data[0] & 4) ? PNC_CODE_ALT : 0xff01;

	parse(data + 1, size - 1, has_nlri, &attr);
	bgp_dump_attr(&attr, dump, sizeof(dump));
	if (bgp_attr_get_nhc(&attr)) {
		check_round_trip(data + 1, size - 1, has_nlri, bgp_attr_get_nhc(&attr));
		check_new_nexthop(bgp_attr_get_nhc(&attr));
	}
	bgp_attr_unintern_sub(&attr);
	bgp_attr_flush(&attr);
	return 0;
}
