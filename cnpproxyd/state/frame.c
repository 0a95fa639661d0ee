// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The frame of cnpproxyd's state files (state/frame.h).
 */
#include <string.h>

#include "codec/icrc.h"
#include "codec/wire.h"
#include "state/frame.h"

size_t pnc_state_size(const struct pnc_state_kind *k, size_t n)
{
	return PNC_STATE_HDR_LEN + k->meta_len + n * k->rec_len;
}

size_t pnc_state_meta_off(const struct pnc_state_kind *k)
{
	/* Every kind's metadata follows the header; k keeps the API uniform. */
	(void)k;
	return PNC_STATE_HDR_LEN;
}

size_t pnc_state_rec_off(const struct pnc_state_kind *k, size_t i)
{
	return PNC_STATE_HDR_LEN + k->meta_len + i * k->rec_len;
}

void pnc_state_seal(const struct pnc_state_kind *k, uint8_t *buf, size_t n)
{
	size_t body = pnc_state_size(k, n) - PNC_STATE_HDR_LEN;

	memcpy(buf, k->magic, sizeof(k->magic));
	put_be16(buf + 4, k->version);
	put_be16(buf + 6, 0);
	put_be32(buf + 8, (uint32_t)n);
	put_be32(buf + 12, pnc_crc32(0, buf + PNC_STATE_HDR_LEN, body));
}

int pnc_state_check(const struct pnc_state_kind *k, const uint8_t *buf, size_t len)
{
	size_t fixed = PNC_STATE_HDR_LEN + k->meta_len;
	uint32_t n;

	if (len < PNC_STATE_HDR_LEN)
		return PNC_STATE_E_SHORT;
	if (memcmp(buf, k->magic, sizeof(k->magic)))
		return PNC_STATE_E_MAGIC;
	if (get_be16(buf + 4) != k->version)
		return PNC_STATE_E_VERSION;
	n = get_be32(buf + 8);
	/* Divide rather than multiply: a huge count must not wrap. */
	if (len < fixed || (len - fixed) % k->rec_len || (len - fixed) / k->rec_len != n ||
	    n > INT32_MAX)
		return PNC_STATE_E_LENGTH;
	if (pnc_crc32(0, buf + PNC_STATE_HDR_LEN, len - PNC_STATE_HDR_LEN) != get_be32(buf + 12))
		return PNC_STATE_E_CRC;
	return (int)n;
}

const char *pnc_state_strerror(int err)
{
	switch (err) {
	case PNC_STATE_E_SHORT:
		return "shorter than its header";
	case PNC_STATE_E_MAGIC:
		return "not a state file of this kind";
	case PNC_STATE_E_VERSION:
		return "unknown version";
	case PNC_STATE_E_LENGTH:
		return "length does not match the record count";
	case PNC_STATE_E_CRC:
		return "damaged (CRC)";
	}
	return err >= 0 ? "ok" : "?";
}
