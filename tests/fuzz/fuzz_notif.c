// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd/codec/notif.c: the input as a seed 002
 * notification, as the same in ICMPv4 and ICMPv6 form (6.5), and as a
 * seed 001 FCN.  Properties: errors are named reasons; a decoded message
 * re-encodes to the input except for the reserved bits (the ICMP
 * checksum over the reserved octets, recomputed, matches the input's);
 * finding the BTH in the invoking packet stays in bounds.
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/notif.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as an ICMP message of the notification's type.  ICMPv6 is
 * checked with a fixed pseudo header; its checksum then only
 * verifies when the input was made for those addresses.
 */
static void icmp_form(const uint8_t *data, size_t size, uint8_t version)
{
	static const uint8_t s6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	static uint8_t out[1500];
	struct pnc_notif_icmp ic = { .version = version };
	struct pnc_notif n;
	size_t len;
	int ret;

	ic.type = version == 4 ? PNC_NOTIF_ICMP_TYPE : PNC_NOTIF_ICMP6_TYPE;
	if (version == 6) {
		ic.src6 = s6;
		ic.dst6 = d6;
	}
	ret = pnc_notif_icmp_decode(&ic, data, size, &n);
	check_reason(ret);
	if (ret != PNC_OK)
		return;
	FUZZ_CHECK(size >= PNC_NOTIF_ICMP_HLEN && size <= sizeof(out));
	FUZZ_CHECK(pnc_notif_icmp_encode(&ic, &n, out, sizeof(out), &len) == PNC_OK);
	FUZZ_CHECK(len == size);
	/* Type and code as read; the body again, except its reserved bits. */
	FUZZ_CHECK(!memcmp(out, data, 2) && !memcmp(out + 8, data + 8, 2));
	FUZZ_CHECK((out[10] & 0xf0) == (data[10] & 0xf0) &&
		   !memcmp(out + 11, data + 11, size - 11));
	/* The body alone decodes as the UDP form. */
	FUZZ_CHECK(pnc_notif_decode(data + 8, size - 8, &n) == PNC_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[1500], want[1500];
	struct pnc_notif n;
	struct pnc_roce_view v;
	struct pnc_fcn f;
	size_t len, ip_off;
	int ret;

	ret = pnc_notif_decode(data, size, &n);
	check_reason(ret);
	if (ret == PNC_OK) {
		FUZZ_CHECK(size <= sizeof(want));
		/* an IPv6 carrier allows every length the decoder accepts */
		n.carrier_af = 6;
		FUZZ_CHECK(pnc_notif_encode(&n, out, sizeof(out), &len) == PNC_OK);
		memcpy(want, data, size);
		want[2] &= 0xf0; /* reserved bits */
		FUZZ_CHECK(len == size && memcmp(out, want, size) == 0);

		ret = pnc_notif_invoking_roce(&n, &ip_off, &v);
		check_reason(ret);
		if (ret == PNC_OK)
			FUZZ_CHECK(ip_off + v.bth_off + PNC_BTH_LEN <= n.invoking_len);
	}

	icmp_form(data, size, 4);
	icmp_form(data, size, 6);

	ret = pnc_fcn_decode(data, size, &f);
	check_reason(ret);
	if (ret == PNC_OK) {
		FUZZ_CHECK(pnc_fcn_encode(&f, out, sizeof(out), &len) == PNC_OK);
		FUZZ_CHECK(len == 4 && memcmp(out, data, 2) == 0 &&
			   (out[2] & 0xfe) == (data[2] & 0xfe) && out[3] == 0);
	}
	return 0;
}
