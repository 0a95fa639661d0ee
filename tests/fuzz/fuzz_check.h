// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The property check every libFuzzer target uses: a broken property
 * aborts, so libFuzzer keeps the input that broke it.  Kept apart from
 * fuzz_util.h because the targets built against the FRR tree do not see
 * pnc's codec headers.
 */
#ifndef _PNC_FUZZ_CHECK_H
#define _PNC_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                                          \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__,       \
				#cond);                                                           \
			abort();                                                                  \
		}                                                                                 \
	} while (0)

#endif /* _PNC_FUZZ_CHECK_H */
