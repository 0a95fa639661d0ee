// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: output of decoded packets, either as one JSON object per
 * line or as indented "name: value" text.  Numbers are JSON numbers;
 * the text form shows identifiers in hex.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "pnc_pkt.h"

#define MAX_DEPTH ((int)(sizeof(((struct emit *)0)->first)))

void emit_begin(struct emit *e, FILE *f, enum emit_fmt fmt)
{
	e->f = f;
	e->fmt = fmt;
	e->depth = 0;
	e->first[0] = true;
	if (fmt == EMIT_JSON)
		fputc('{', f);
}

void emit_end(struct emit *e)
{
	if (e->fmt == EMIT_JSON)
		fputs("}\n", e->f);
	else
		fputc('\n', e->f);
}

/* Key of the next member: separator and name (JSON) or indentation. */
static void key(struct emit *e, const char *name)
{
	if (e->fmt == EMIT_JSON) {
		if (!e->first[e->depth])
			fputc(',', e->f);
		fprintf(e->f, "\"%s\":", name);
	} else {
		fprintf(e->f, "%*s%s:", 2 * e->depth, "", name);
	}
	e->first[e->depth] = false;
}

void emit_obj(struct emit *e, const char *name)
{
	key(e, name);
	if (e->fmt == EMIT_JSON)
		fputc('{', e->f);
	else
		fputc('\n', e->f);
	if (e->depth + 1 < MAX_DEPTH)
		e->depth++;
	e->first[e->depth] = true;
}

void emit_obj_end(struct emit *e)
{
	if (e->depth > 0)
		e->depth--;
	if (e->fmt == EMIT_JSON)
		fputc('}', e->f);
}

void emit_uint(struct emit *e, const char *name, uint64_t v)
{
	key(e, name);
	fprintf(e->f, e->fmt == EMIT_JSON ? "%" PRIu64 : " %" PRIu64 "\n", v);
}

void emit_xint(struct emit *e, const char *name, uint64_t v, int digits)
{
	key(e, name);
	if (e->fmt == EMIT_JSON)
		fprintf(e->f, "%" PRIu64, v);
	else
		fprintf(e->f, " 0x%0*" PRIx64 "\n", digits, v);
}

void emit_bool(struct emit *e, const char *name, bool v)
{
	key(e, name);
	fprintf(e->f, e->fmt == EMIT_JSON ? "%s" : " %s\n", v ? "true" : "false");
}

/* Strings here are our own identifiers: nothing needs escaping. */
void emit_str(struct emit *e, const char *name, const char *v)
{
	key(e, name);
	fprintf(e->f, e->fmt == EMIT_JSON ? "\"%s\"" : " %s\n", v);
}

/* Octets of the UTF-8 character at p (n left), 0 if not one (RFC 3629). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, c = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return len;
}

/*
 * A string read from a packet: the output must stay one valid JSON line
 * (or one text line) whatever the sender put there.
 */
void emit_text(struct emit *e, const char *name, const char *v)
{
	const unsigned char *p = (const unsigned char *)v;
	bool json = e->fmt == EMIT_JSON;
	size_t n = strlen(v), i = 0, l;

	key(e, name);
	fputs(json ? "\"" : " ", e->f);
	while (i < n) {
		l = utf8_len(p + i, n - i);
		if (!l) {
			fputs("\xef\xbf\xbd", e->f); /* U+FFFD */
			l = 1;
		} else if (l == 1 && (p[i] < 0x20 || p[i] == 0x7f ||
				      (json && (p[i] == '"' || p[i] == '\\')))) {
			fprintf(e->f, json ? "\\u%04x" : "\\x%02x", p[i]);
		} else {
			fwrite(p + i, 1, l, e->f);
		}
		i += l;
	}
	fputs(json ? "\"" : "\n", e->f);
}

void emit_hex(struct emit *e, const char *name, const uint8_t *p, size_t len)
{
	size_t i;

	key(e, name);
	fputs(e->fmt == EMIT_JSON ? "\"" : " ", e->f);
	for (i = 0; i < len; i++)
		fprintf(e->f, "%02x", p[i]);
	fputs(e->fmt == EMIT_JSON ? "\"" : "\n", e->f);
}

void emit_addr(struct emit *e, const char *name, uint8_t version, const uint8_t *a)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(version == 4 ? AF_INET : AF_INET6, a, buf, sizeof(buf));
	emit_str(e, name, buf);
}
