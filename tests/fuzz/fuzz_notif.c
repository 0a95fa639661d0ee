// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd/codec/notif.c: the input as a seed 002
 * notification and as a seed 001 FCN.  Properties: errors are named
 * reasons; a decoded message re-encodes to the input except for the
 * reserved bits; finding the BTH in the invoking packet stays in bounds.
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/notif.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

	ret = pnc_fcn_decode(data, size, &f);
	check_reason(ret);
	if (ret == PNC_OK) {
		FUZZ_CHECK(pnc_fcn_encode(&f, out, sizeof(out), &len) == PNC_OK);
		FUZZ_CHECK(len == 4 && memcmp(out, data, 2) == 0 &&
			   (out[2] & 0xfe) == (data[2] & 0xfe) && out[3] == 0);
	}
	return 0;
}
