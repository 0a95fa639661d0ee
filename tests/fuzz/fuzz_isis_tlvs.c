// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for isisd's TLV code with the patch series
 * (isisd/isis_tlvs.c in the FRR tree, the RFC 7794 sub-TLVs included):
 * the input is the TLV area of an LSP, as isisd reads it off the wire.
 * isis_tlvs.c is compiled with the target's instrumentation; the rest of
 * isisd and libfrr are the objects the FRR build made.
 *
 * Properties, the ones FRR's own test_fuzz_isis_tlv checks on its stored
 * corpus, here on whatever libFuzzer makes:
 *  - what unpacks also formats, as text and as JSON (`show isis database
 *    detail [json]`), and copies;
 *  - the copy packs, and what it packs unpacks to the same text (the
 *    authentication TLV aside: its digest is computed at send time; and
 *    the Router Capability TLV aside: isisd packs only its own, and
 *    drops on packing what it reads in a received one but never sends
 *    that way: a Flex-Algo Definition's unknown sub-TLVs and Exclude
 *    SRLG, an SR Algorithm list without an SRGB; it floods received
 *    LSPs as they came);
 *  - fragmenting it into 550-octet LSPs gives fragments that each pack
 *    within that size and that together format to the same lines.
 *
 * Seeds: tests/fuzz/corpus/isis_tlvs/, the TLV areas of the LSPs of
 * tests/isisd/test_isis_prefix_subtlvs.c and test_isis_tlv_faults.c.
 */
#include <zebra.h>

#include "command.h"
#include "json.h"
#include "memory.h"
#include "privs.h"
#include "sbuf.h"
#include "stream.h"

#include "isisd/isisd.h"
#include "isisd/isis_circuit.h"
#include "isisd/isis_tlvs.h"

#include "fuzz_check.h"

#define FRAGMENT_SIZE 550
/* The largest LSP isisd accepts (ISO_MTU of a jumbo circuit). */
#define TLV_AREA_MAX 9000

/* What libisis.a's objects expect isisd's main to define. */
struct event_loop *master;
struct zebra_privs_t isisd_privs;

int isis_sock_init(struct isis_circuit *circuit)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A formatted TLV area without the Router Capability TLV's block (its
 * header line and the indented lines under it): what packing cannot
 * keep of a received one (see above).
 */
static char *without_router_cap(const char *formatted)
{
	char *text = XSTRDUP(MTYPE_TMP, formatted), *at = text, *end;

	while ((at = strstr(at, "Router Capability:"))) {
		/* Only the TLV's own line: a hostname may hold the words. */
		if (at != text && at[-1] != '\n') {
			at++;
			continue;
		}
		end = strchr(at, '\n');
		while (end && end[1] == ' ')
			end = strchr(end + 1, '\n');
		end = end ? end + 1 : at + strlen(at);
		memmove(at, end, strlen(end) + 1);
	}
	return text;
}

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of a text, sorted: fragments may order TLVs differently. */
static char **sorted_lines(const char *text, size_t *n)
{
	char *copy = XSTRDUP(MTYPE_TMP, text), *save = NULL, *line;
	char **lines = NULL;
	size_t cap = 0;

	*n = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			lines = XREALLOC(MTYPE_TMP, lines, cap * sizeof(*lines));
		}
		lines[(*n)++] = XSTRDUP(MTYPE_TMP, line);
	}
	XFREE(MTYPE_TMP, copy);
	if (lines)
		qsort(lines, *n, sizeof(*lines), strcmp_ptr);
	return lines;
}

static void free_lines(char **lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		XFREE(MTYPE_TMP, lines[i]);
	XFREE(MTYPE_TMP, lines);
}

/* Unpacks a TLV area; NULL if isisd would refuse it. */
static struct isis_tlvs *unpack(const uint8_t *data, size_t size)
{
	struct stream *s = stream_new(size ? size : 1);
	struct isis_tlvs *tlvs = NULL;
	const char *log;
	int rv;

	stream_put(s, data, size);
	rv = isis_unpack_tlvs(size, s, &tlvs, &log);
	stream_free(s);
	if (rv) {
		isis_free_tlvs(tlvs);
		return NULL;
	}
	return tlvs;
}

static void check_json(struct isis_tlvs *tlvs)
{
	struct json_object *json = json_object_new_object();

	FUZZ_CHECK(isis_format_tlvs(tlvs, json) == NULL);
	FUZZ_CHECK(json_object_to_json_string_ext(json, JSON_C_TO_STRING_PRETTY) != NULL);
	json_object_free(json);
}

/* Every fragment packs within FRAGMENT_SIZE; together they say what text said. */
static void check_fragments(struct isis_tlvs *tlvs, const char *text)
{
	struct list *fragments = isis_fragment_tlvs(tlvs, FRAGMENT_SIZE);
	struct stream *s = stream_new(FRAGMENT_SIZE);
	char **want, **got;
	size_t nwant, ngot, i;
	struct listnode *node;
	struct isis_tlvs *frag;
	struct sbuf all;
	char *cut;

	if (!fragments) {
		/* Only a TLV too large for any fragment fails: not our property. */
		stream_free(s);
		return;
	}
	sbuf_init(&all, NULL, 0);
	for (ALL_LIST_ELEMENTS_RO(fragments, node, frag)) {
		stream_reset(s);
		FUZZ_CHECK(isis_pack_tlvs(frag, s, (size_t)-1, false, false) == 0);
		cut = without_router_cap(isis_format_tlvs(frag, NULL));
		sbuf_push(&all, 0, "%s", cut);
		XFREE(MTYPE_TMP, cut);
		isis_free_tlvs(frag);
	}
	list_delete(&fragments);
	stream_free(s);

	want = sorted_lines(text, &nwant);
	got = sorted_lines(sbuf_buf(&all), &ngot);
	FUZZ_CHECK(nwant == ngot);
	for (i = 0; i < nwant; i++)
		FUZZ_CHECK(strcmp(want[i], got[i]) == 0);
	free_lines(want, nwant);
	free_lines(got, ngot);
	sbuf_free(&all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct isis_tlvs *tlvs, *copy, *again;
	struct isis_item *auth;
	struct stream *s;
	char *text, *cut;

	if (size > TLV_AREA_MAX)
		return 0;
	tlvs = unpack(data, size);
	if (!tlvs)
		return 0;
	check_json(tlvs);

	auth = tlvs->isis_auth.head;
	tlvs->isis_auth.head = NULL;
	text = without_router_cap(isis_format_tlvs(tlvs, NULL));
	copy = isis_copy_tlvs(tlvs);
	tlvs->isis_auth.head = auth;
	isis_free_tlvs(tlvs);

	s = stream_new(65536);
	FUZZ_CHECK(isis_pack_tlvs(copy, s, (size_t)-1, false, false) == 0);
	isis_free_tlvs(copy);
	again = unpack(STREAM_DATA(s), stream_get_endp(s));
	stream_free(s);
	FUZZ_CHECK(again != NULL);
	cut = without_router_cap(isis_format_tlvs(again, NULL));
	FUZZ_CHECK(strcmp(text, cut) == 0);
	XFREE(MTYPE_TMP, cut);

	check_fragments(again, text);
	isis_free_tlvs(again);
	XFREE(MTYPE_TMP, text);
	return 0;
}
