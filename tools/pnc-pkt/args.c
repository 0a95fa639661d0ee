// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: parsers for the values of field=value arguments (numbers,
 * booleans, addresses, hex strings) and the pseudo-random generator of
 * --random.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pnc_pkt.h"

/* Decimal, 0x hex, 0o/0 octal or 0b binary; refuses anything above max. */
int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int base = 0;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		s += 2;
		base = 2;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || end == s || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on", NULL };
	static const char *const no[] = { "0", "no", "false", "off", NULL };
	int i;

	for (i = 0; yes[i]; i++)
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
	for (i = 0; no[i]; i++)
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	return -1;
}

/* IPv4 into addr[0..4) or IPv6 into addr[0..16); *version says which. */
int parse_addr(const char *s, uint8_t *addr, uint8_t *version)
{
	uint8_t tmp[16];

	if (inet_pton(AF_INET, s, tmp) == 1) {
		memset(addr, 0, 16);
		memcpy(addr, tmp, 4);
		*version = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, tmp) == 1) {
		memcpy(addr, tmp, 16);
		*version = 6;
		return 0;
	}
	return -1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Hex digits, optionally with a 0x prefix; spaces, ':' and '-' between
 * octets are ignored.  An empty string is zero octets.
 */
int parse_hex(const char *s, uint8_t *buf, size_t max, size_t *len)
{
	size_t n = 0;
	int hi = -1, v;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		if (isspace((unsigned char)*s) || *s == ':' || *s == '-') {
			if (hi >= 0)
				return -1;
			continue;
		}
		v = hexval((unsigned char)*s);
		if (v < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n >= max)
			return -1;
		buf[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	if (hi >= 0)
		return -1;
	*len = n;
	return 0;
}

/* splitmix64: small, fast and the same on every platform. */
uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
