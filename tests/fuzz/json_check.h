// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A strict reader of the JSON lines the tools print (pnc-pkt decode,
 * roce-emu's events), for the fuzz targets' properties: RFC 8259 to the
 * letter (no trailing commas, leading zeros, control characters or
 * invalid UTF-8 in strings), and no member named twice in an object;
 * and a check of their text forms.
 */
#ifndef _PNC_FUZZ_JSON_CHECK_H
#define _PNC_FUZZ_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether s[0..len) is exactly one JSON object, with no white space around it. */
extern bool json_object_ok(const char *s, size_t len);

/*
 * The member at a dotted path ("bth.dqpn") of the object s[0..len), which
 * must be well formed: true if it is there and a non-negative integer
 * that fits 64 bits.
 */
extern bool json_get_uint(const char *s, size_t len, const char *path, uint64_t *v);

/*
 * The string at a dotted path, as written (escapes left as they are),
 * NUL-terminated in buf: true if it is there, a string and fits.
 */
extern bool json_get_str(const char *s, size_t len, const char *path, char *buf, size_t size);

/*
 * Whether s[0..len) is lines of printable UTF-8 text, each ended by a
 * newline: no other ASCII control character, no invalid UTF-8.
 */
extern bool text_lines_ok(const char *s, size_t len);

#endif /* _PNC_FUZZ_JSON_CHECK_H */
