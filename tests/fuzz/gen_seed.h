// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the seed generators (gen_corpus.c, gen_corpus_tools.c) share:
 * writing a seed file, and stopping at an encoder's error.
 */
#ifndef _PNC_FUZZ_GEN_SEED_H
#define _PNC_FUZZ_GEN_SEED_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "codec/errors.h"

/* DIR/SUB/NAME, SUB made if needed; exits on failure. */
static inline void seed_write(const char *dir, const char *sub, const char *name, const void *buf,
			      size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* An encoder's result: on an error, say what failed and exit. */
static inline void seed_ok(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "%s: %s\n", what, pnc_codec_strerror(ret));
		exit(1);
	}
}

#endif /* _PNC_FUZZ_GEN_SEED_H */
