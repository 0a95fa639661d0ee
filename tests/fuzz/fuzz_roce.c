// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd/codec/roce.c.  Each input is given to
 * every decoder.  Properties:
 *  - the view of pnc_roce_parse() stays inside the packet;
 *  - a decoded BTH re-encodes to the same 12 octets;
 *  - decode -> encode is idempotent: encoding the decoded packet again
 *    after a second decode gives the same octets;
 *  - RC data and ACK packets re-encode to the input itself when nothing
 *    the codec drops (pad octets, IPv4 reserved flag) was set;
 *  - the input as an Ethernet frame (AF_XDP's view): the UDP datagram
 *    found in it lies inside it, its payload where its header ends.
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/ipudp.h"
#include "codec/roce.h"
#include "fuzz_util.h"

#define BUF 70000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out1[BUF], out2[BUF];

static void check_view(const uint8_t *data, size_t size, unsigned int flags)
{
	struct pnc_roce_view v;
	size_t pad;
	int ret;

	ret = pnc_roce_parse(data, size, flags, &v);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(v.ip.version == 4 || v.ip.version == 6);
	FUZZ_CHECK(v.bth_off + PNC_BTH_LEN <= size);
	FUZZ_CHECK(v.ext_off == v.bth_off + PNC_BTH_LEN);
	FUZZ_CHECK(v.payload_off >= v.ext_off);
	pad = v.bth.pad;
	FUZZ_CHECK(v.payload_off + v.payload_len + pad + 4 == v.pkt_len);
	FUZZ_CHECK(v.icrc_off + 4 == v.pkt_len);
	if (v.truncated)
		FUZZ_CHECK((flags & PNC_ROCE_F_TRUNCATED) && size < v.pkt_len);
	else
		FUZZ_CHECK(v.pkt_len <= size);
}

/* The IPv4 reserved flag bit is not kept by the codec. */
static int ipv4_evil_bit(const uint8_t *data, size_t size)
{
	return size >= 20 && (data[0] >> 4) == 4 && (data[6] & 0x80);
}

static void fuzz_bth(const uint8_t *data, size_t size)
{
	struct pnc_bth bth;
	uint8_t buf[PNC_BTH_LEN];
	size_t n;

	if (pnc_bth_decode(data, size, &bth))
		return;
	FUZZ_CHECK(pnc_bth_encode(&bth, buf, sizeof(buf), &n) == PNC_OK);
	FUZZ_CHECK(n == PNC_BTH_LEN && memcmp(buf, data, n) == 0);
}

static void fuzz_cnp(const uint8_t *data, size_t size)
{
	struct pnc_cnp c1, c2;
	size_t n1, n2;
	int ret;

	ret = pnc_cnp_decode(data, size, &c1);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_cnp_encode(&c1, out1, BUF, &n1) == PNC_OK);
	FUZZ_CHECK(pnc_cnp_decode(out1, n1, &c2) == PNC_OK);
	FUZZ_CHECK(pnc_cnp_encode(&c2, out2, BUF, &n2) == PNC_OK);
	FUZZ_CHECK(n1 == n2 && memcmp(out1, out2, n1) == 0);
	FUZZ_CHECK(c1.pkey == c2.pkey && c1.dest_qp == c2.dest_qp);
}

static void fuzz_rc_data(const uint8_t *data, size_t size)
{
	struct pnc_rc_data d1, d2;
	size_t n1, n2;
	int ret;

	ret = pnc_rc_data_decode(data, size, &d1);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_rc_data_encode(&d1, out1, BUF, &n1) == PNC_OK);
	FUZZ_CHECK(pnc_rc_data_decode(out1, n1, &d2) == PNC_OK);
	FUZZ_CHECK(d2.payload_len == d1.payload_len &&
		   memcmp(d2.payload, d1.payload, d1.payload_len) == 0);
	FUZZ_CHECK(pnc_rc_data_encode(&d2, out2, BUF, &n2) == PNC_OK);
	FUZZ_CHECK(n1 == n2 && memcmp(out1, out2, n1) == 0);
	if (!ipv4_evil_bit(data, size)) {
		const uint8_t *pad = d1.payload + d1.payload_len;
		size_t i, zero = 1;

		for (i = 0; i < d1.bth.pad; i++)
			zero &= pad[i] == 0;
		if (zero)
			FUZZ_CHECK(n1 <= size && memcmp(out1, data, n1) == 0);
	}
}

static void fuzz_ack(const uint8_t *data, size_t size)
{
	struct pnc_rc_ack a1, a2;
	size_t n1, n2;
	int ret;

	ret = pnc_rc_ack_decode(data, size, &a1);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_rc_ack_encode(&a1, out1, BUF, &n1) == PNC_OK);
	FUZZ_CHECK(pnc_rc_ack_decode(out1, n1, &a2) == PNC_OK);
	FUZZ_CHECK(pnc_rc_ack_encode(&a2, out2, BUF, &n2) == PNC_OK);
	FUZZ_CHECK(n1 == n2 && memcmp(out1, out2, n1) == 0);
	if (!ipv4_evil_bit(data, size))
		FUZZ_CHECK(n1 <= size && memcmp(out1, data, n1) == 0);
}

static void fuzz_ext(const uint8_t *data, size_t size)
{
	struct pnc_reth reth;
	struct pnc_aeth aeth;
	struct pnc_deth deth;
	uint8_t buf[16];

	if (!pnc_reth_decode(data, size, &reth)) {
		FUZZ_CHECK(pnc_reth_encode(&reth, buf, sizeof(buf), NULL) == PNC_OK);
		FUZZ_CHECK(memcmp(buf, data, PNC_RETH_LEN) == 0);
	}
	if (!pnc_aeth_decode(data, size, &aeth)) {
		FUZZ_CHECK(pnc_aeth_encode(&aeth, buf, sizeof(buf), NULL) == PNC_OK);
		FUZZ_CHECK(memcmp(buf, data, PNC_AETH_LEN) == 0);
	}
	if (!pnc_deth_decode(data, size, &deth)) {
		FUZZ_CHECK(pnc_deth_encode(&deth, buf, sizeof(buf), NULL) == PNC_OK);
		/* octet 4 is reserved and not kept */
		FUZZ_CHECK(memcmp(buf, data, 4) == 0 && memcmp(buf + 5, data + 5, 3) == 0);
	}
}

static void fuzz_frame(const uint8_t *data, size_t size)
{
	struct pnc_udp_view v;
	size_t l3 = 0;
	int ret;

	if (!pnc_eth_l3(data, size, &l3))
		return;
	FUZZ_CHECK(l3 == 14 || l3 == 18);
	for (unsigned int flags = 0; flags <= PNC_IPUDP_F_NO_CSUM; flags++) {
		ret = pnc_ipudp_parse(data + l3, size - l3, flags, &v);
		check_reason(ret);
		if (ret)
			continue;
		FUZZ_CHECK(l3 + v.pkt_len <= size);
		FUZZ_CHECK(v.payload == data + l3 + v.ip_hlen + 8);
		FUZZ_CHECK(v.ip_hlen + v.udp_len == v.pkt_len);
		FUZZ_CHECK(v.payload_len + 8 == v.udp_len);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_view(data, size, 0);
	check_view(data, size, PNC_ROCE_F_NO_ICRC);
	check_view(data, size, PNC_ROCE_F_TRUNCATED);
	check_view(data, size, PNC_ROCE_F_TRUNCATED | PNC_ROCE_F_NO_ICRC);
	fuzz_bth(data, size);
	fuzz_ext(data, size);
	fuzz_cnp(data, size);
	fuzz_rc_data(data, size);
	fuzz_ack(data, size);
	fuzz_frame(data, size);
	return 0;
}
