// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared bits of pnc's codec fuzz targets: the property check and a
 * check that a decoder's error is one of the documented reasons.
 */
#ifndef _PNC_FUZZ_UTIL_H
#define _PNC_FUZZ_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/errors.h"
#include "fuzz_check.h"

/* Every decoder error must have a name: no "unknown", no positive value. */
static inline void check_reason(int ret)
{
	FUZZ_CHECK(ret <= 0);
	FUZZ_CHECK(strcmp(pnc_codec_strerror(ret), "unknown") != 0);
}

#endif /* _PNC_FUZZ_UTIL_H */
