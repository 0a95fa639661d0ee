// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd/codec/icrc.c: verify and compute on
 * arbitrary input; writing the ICRC then verifying must succeed; the
 * CRC-32 must chain at any split point.
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/icrc.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t copy[70000];
	size_t split = size ? data[0] % (size + 1) : 0;
	uint32_t icrc;
	int ret;

	FUZZ_CHECK(pnc_crc32(pnc_crc32(0, data, split), data + split, size - split) ==
		   pnc_crc32(0, data, size));

	check_reason(pnc_icrc_verify(data, size));
	ret = pnc_icrc_compute(data, size, &icrc);
	check_reason(ret);
	if (size > sizeof(copy) - 4)
		return 0;

	/* Append the computed ICRC: the result must verify. */
	memcpy(copy, data, size);
	ret = pnc_icrc_write(copy, size + 4);
	check_reason(ret);
	if (ret == PNC_OK) {
		FUZZ_CHECK(pnc_icrc_verify(copy, size + 4) == PNC_OK);
		FUZZ_CHECK((uint32_t)(copy[size] | copy[size + 1] << 8 | copy[size + 2] << 16 |
				      (uint32_t)copy[size + 3] << 24) == icrc);
	}
	return 0;
}
