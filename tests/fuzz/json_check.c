// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A strict JSON reader for the fuzz targets' properties (json_check.h):
 * recursive descent over RFC 8259's grammar, keeping the dotted path of
 * the member being read so that one member can be picked out.
 */
#include <string.h>

#include "json_check.h"

/*
 * The checker is not what is fuzzed: its branches must not count as
 * coverage (libFuzzer would keep inputs new only to it), nor cost time.
 */
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))

#define JSON_DEPTH_MAX 32
#define JSON_KEYS_MAX  128 /* per object; the tools print far fewer */
#define JSON_PATH_MAX  256

struct jr {
	const char *p, *end;
	int depth;
	const char *want; /* dotted path looked for, or NULL */
	char path[JSON_PATH_MAX];
	size_t plen;
	const char *hit; /* the value at want, as written */
	size_t hit_len;
};

NO_COVERAGE static void ws(struct jr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

NO_COVERAGE static bool eat(struct jr *r, char c)
{
	if (r->p >= r->end || *r->p != c)
		return false;
	r->p++;
	return true;
}

NO_COVERAGE static bool is_digit(const struct jr *r)
{
	return r->p < r->end && *r->p >= '0' && *r->p <= '9';
}

NO_COVERAGE static int hex4(const char *p)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/*
 * One UTF-8 character of more than one octet at p (RFC 3629 section 4):
 * its length, or 0.  The octet after the lead has a range of its own
 * for E0, ED, F0 and F4, which rules out overlong forms, surrogates and
 * code points above U+10FFFF.
 */
NO_COVERAGE static size_t utf8_multi(const unsigned char *p, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		lo = p[0] == 0xe0 ? 0xa0 : lo;
		hi = p[0] == 0xed ? 0x9f : hi;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		lo = p[0] == 0xf0 ? 0x90 : lo;
		hi = p[0] == 0xf4 ? 0x8f : hi;
	} else {
		return 0;
	}
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

/* A \uXXXX escape at p (after the backslash); surrogates only in pairs. */
NO_COVERAGE static bool unicode_escape(struct jr *r)
{
	int u, lo;

	if (r->end - r->p < 5 || (u = hex4(r->p + 1)) < 0)
		return false;
	r->p += 5;
	if (u >= 0xdc00 && u <= 0xdfff)
		return false;
	if (u < 0xd800 || u > 0xdbff)
		return true;
	if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u')
		return false;
	lo = hex4(r->p + 2);
	if (lo < 0xdc00 || lo > 0xdfff)
		return false;
	r->p += 6;
	return true;
}

NO_COVERAGE static bool string(struct jr *r, const char **s, size_t *len)
{
	const unsigned char *c;
	size_t l;

	if (!eat(r, '"'))
		return false;
	*s = r->p;
	while (r->p < r->end && *r->p != '"') {
		c = (const unsigned char *)r->p;
		if (*c < 0x20)
			return false;
		if (*c == '\\') {
			r->p++;
			if (r->p >= r->end)
				return false;
			if (*r->p == 'u') {
				if (!unicode_escape(r))
					return false;
				continue;
			}
			if (!*r->p || !strchr("\"\\/bfnrt", *r->p))
				return false;
			r->p++;
			continue;
		}
		if (*c < 0x80) {
			r->p++;
			continue;
		}
		l = utf8_multi(c, (size_t)(r->end - r->p));
		if (!l)
			return false;
		r->p += l;
	}
	*len = (size_t)(r->p - *s);
	return eat(r, '"');
}

NO_COVERAGE static bool number(struct jr *r)
{
	eat(r, '-');
	if (eat(r, '0')) {
		if (is_digit(r))
			return false; /* no leading zeros */
	} else if (is_digit(r)) {
		while (is_digit(r))
			r->p++;
	} else {
		return false;
	}
	if (eat(r, '.')) {
		if (!is_digit(r))
			return false;
		while (is_digit(r))
			r->p++;
	}
	if (eat(r, 'e') || eat(r, 'E')) {
		if (!eat(r, '+'))
			eat(r, '-');
		if (!is_digit(r))
			return false;
		while (is_digit(r))
			r->p++;
	}
	return true;
}

NO_COVERAGE static bool literal(struct jr *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return false;
	r->p += n;
	return true;
}

static bool value(struct jr *r);

/* Enter member key[0..len) of the current object: the path grows by it. */
NO_COVERAGE static bool path_push(struct jr *r, const char *key, size_t len, size_t *saved)
{
	size_t dot = r->plen ? 1 : 0;

	*saved = r->plen;
	if (r->plen + dot + len >= sizeof(r->path))
		return !r->want; /* too deep to be looked for: only a lookup fails */
	if (dot)
		r->path[r->plen++] = '.';
	memcpy(r->path + r->plen, key, len);
	r->plen += len;
	r->path[r->plen] = '\0';
	return true;
}

NO_COVERAGE static bool member(struct jr *r, const char **keys, size_t *key_lens, size_t nkeys)
{
	const char *key, *start;
	size_t klen, saved;
	bool ok;

	if (!string(r, &key, &klen))
		return false;
	for (size_t i = 0; i < nkeys; i++)
		if (key_lens[i] == klen && !memcmp(keys[i], key, klen))
			return false; /* a member named twice */
	keys[nkeys] = key;
	key_lens[nkeys] = klen;
	ws(r);
	if (!eat(r, ':'))
		return false;
	ws(r);
	if (!path_push(r, key, klen, &saved))
		return false;
	start = r->p;
	ok = value(r);
	if (ok && r->want && !r->hit && !strcmp(r->path, r->want)) {
		r->hit = start;
		r->hit_len = (size_t)(r->p - start);
	}
	r->plen = saved;
	r->path[r->plen] = '\0';
	return ok;
}

NO_COVERAGE static bool object(struct jr *r)
{
	const char *keys[JSON_KEYS_MAX];
	size_t key_lens[JSON_KEYS_MAX];
	size_t n = 0;

	if (!eat(r, '{'))
		return false;
	ws(r);
	if (eat(r, '}'))
		return true;
	do {
		ws(r);
		if (n == JSON_KEYS_MAX || !member(r, keys, key_lens, n))
			return false;
		n++;
		ws(r);
	} while (eat(r, ','));
	return eat(r, '}');
}

NO_COVERAGE static bool array(struct jr *r)
{
	size_t saved = r->plen;

	if (!eat(r, '['))
		return false;
	ws(r);
	if (eat(r, ']'))
		return true;
	/* Elements have no name: nothing inside an array is looked for. */
	if (r->plen + 1 < sizeof(r->path)) {
		r->path[r->plen++] = '[';
		r->path[r->plen] = '\0';
	}
	do {
		ws(r);
		if (!value(r))
			return false;
		ws(r);
	} while (eat(r, ','));
	r->plen = saved;
	r->path[r->plen] = '\0';
	return eat(r, ']');
}

NO_COVERAGE static bool value(struct jr *r)
{
	bool ok;

	if (r->p >= r->end || ++r->depth > JSON_DEPTH_MAX)
		return false;
	switch (*r->p) {
	case '{':
		ok = object(r);
		break;
	case '[':
		ok = array(r);
		break;
	case '"': {
		const char *s;
		size_t len;

		ok = string(r, &s, &len);
		break;
	}
	case 't':
		ok = literal(r, "true");
		break;
	case 'f':
		ok = literal(r, "false");
		break;
	case 'n':
		ok = literal(r, "null");
		break;
	default:
		ok = number(r);
	}
	r->depth--;
	return ok;
}

/* Read the whole object, looking for want on the way. */
NO_COVERAGE static bool read_object(struct jr *r, const char *s, size_t len, const char *want)
{
	memset(r, 0, sizeof(*r));
	r->p = s;
	r->end = s + len;
	r->want = want;
	return len && *s == '{' && value(r) && r->p == r->end;
}

NO_COVERAGE bool json_object_ok(const char *s, size_t len)
{
	struct jr r;

	return read_object(&r, s, len, NULL);
}

NO_COVERAGE bool json_get_uint(const char *s, size_t len, const char *path, uint64_t *v)
{
	struct jr r;
	uint64_t n = 0;

	if (!read_object(&r, s, len, path) || !r.hit)
		return false;
	for (size_t i = 0; i < r.hit_len; i++) {
		unsigned int d = (unsigned char)r.hit[i] - '0';

		if (d > 9 || n > (UINT64_MAX - d) / 10)
			return false;
		n = n * 10 + d;
	}
	*v = n;
	return true;
}

NO_COVERAGE bool json_get_str(const char *s, size_t len, const char *path, char *buf, size_t size)
{
	struct jr r;

	if (!read_object(&r, s, len, path) || !r.hit || r.hit_len < 2 || r.hit[0] != '"' ||
	    r.hit_len - 2 >= size)
		return false;
	memcpy(buf, r.hit + 1, r.hit_len - 2);
	buf[r.hit_len - 2] = '\0';
	return true;
}

NO_COVERAGE bool text_lines_ok(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, l;

	while (i < len) {
		if (p[i] == '\n' || (p[i] >= 0x20 && p[i] < 0x7f)) {
			i++;
			continue;
		}
		l = p[i] < 0x80 ? 0 : utf8_multi(p + i, len - i);
		if (!l)
			return false;
		i += l;
	}
	return !len || p[len - 1] == '\n';
}
