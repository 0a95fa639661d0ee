// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd/codec/cm.c: the input as a bare MAD
 * and as a RoCEv2 packet.  Properties: errors are named reasons, and
 * decode -> encode is idempotent (a second round gives the same
 * octets; reserved fields are dropped by the first).
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/cm.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pnc_cm_msg m1, m2;
	static struct pnc_cm_packet p1, p2;
	static uint8_t out1[600], out2[600];
	size_t n1, n2;
	int ret;

	ret = pnc_cm_decode(data, size, &m1);
	check_reason(ret);
	if (ret == PNC_OK) {
		FUZZ_CHECK(pnc_cm_encode(&m1, out1, sizeof(out1), &n1) == PNC_OK);
		FUZZ_CHECK(n1 == PNC_MAD_LEN);
		/* the MAD header is kept whole except its 2 reserved octets */
		FUZZ_CHECK(memcmp(out1, data, 18) == 0 && memcmp(out1 + 20, data + 20, 4) == 0);
		FUZZ_CHECK(pnc_cm_decode(out1, n1, &m2) == PNC_OK);
		FUZZ_CHECK(pnc_cm_encode(&m2, out2, sizeof(out2), &n2) == PNC_OK);
		FUZZ_CHECK(n1 == n2 && memcmp(out1, out2, n1) == 0);
	}

	ret = pnc_cm_packet_decode(data, size, &p1);
	check_reason(ret);
	if (ret == PNC_OK) {
		FUZZ_CHECK(p1.bth.opcode == PNC_OP_UD_SEND_ONLY && p1.bth.dest_qp == PNC_GSI_QP);
		FUZZ_CHECK(pnc_cm_packet_encode(&p1, out1, sizeof(out1), &n1) == PNC_OK);
		FUZZ_CHECK(pnc_cm_packet_decode(out1, n1, &p2) == PNC_OK);
		FUZZ_CHECK(pnc_cm_packet_encode(&p2, out2, sizeof(out2), &n2) == PNC_OK);
		FUZZ_CHECK(n1 == n2 && memcmp(out1, out2, n1) == 0);
	}
	return 0;
}
