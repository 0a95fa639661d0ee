// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for cnpproxyd's configuration rules (cnpproxy_config.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cnpproxy_config.h"

static void test_defaults(void **state)
{
	struct pnc_config cfg;

	(void)state;
	memset(&cfg, 0xa5, sizeof(cfg));
	pnc_config_init(&cfg);

	/* The drafts require every feature to be off by default. */
	assert_false(cfg.present);
	for (int r = 0; r < PNC_ROLE_MAX; r++)
		assert_false(cfg.role[r]);
	/*
	 * No value of its own: the defaults are the YANG module's, read by
	 * the northbound (checked by the cnpproxyd_foundation topotest).
	 */
	assert_int_equal(cfg.notification_port, 0);
	assert_int_equal(cfg.flow_label_port, 0);
}

static void test_default_ports_valid(void **state)
{
	char err[128] = "";

	(void)state;
	/* The module's defaults (doc/wire-formats.md section 0). */
	assert_true(pnc_config_ports_valid(61791, 61792, err, sizeof(err)));
	assert_string_equal(err, "");
}

struct port_case {
	uint16_t notif;
	uint16_t flow;
	bool valid;
	const char *reason; /* substring of the message when refused */
};

static const struct port_case port_cases[] = {
	{ 61791, 61792, true, NULL },
	{ 1, 65535, true, NULL },
	{ 4790, 4792, true, NULL },
	{ 0, 61792, false, "notification port 0 is not a valid" },
	{ 61791, 0, false, "flow-label port 0 is not a valid" },
	{ 4791, 61792, false, "notification port 4791 is the RoCEv2 data port" },
	{ 61791, 4791, false, "flow-label port 4791 is the RoCEv2 data port" },
	{ 5000, 5000, false, "must differ (both 5000)" },
	/* the first problem found is the one reported */
	{ 4791, 4791, false, "notification port 4791" },
};

static void test_port_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(port_cases) / sizeof(port_cases[0]); i++) {
		const struct port_case *c = &port_cases[i];
		char err[128] = "";
		bool ok = pnc_config_ports_valid(c->notif, c->flow, err, sizeof(err));

		if (ok != c->valid)
			fail_msg("case %zu (%u, %u): expected %s, got %s (%s)", i, c->notif,
				 c->flow, c->valid ? "valid" : "refused", ok ? "valid" : "refused",
				 err);
		if (!c->valid && !strstr(err, c->reason))
			fail_msg("case %zu: message '%s' lacks '%s'", i, err, c->reason);
	}
}

static void test_message_truncation(void **state)
{
	char err[8];

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_false(pnc_config_ports_valid(5000, 5000, err, sizeof(err)));
	/* never writes past the buffer, always terminates it */
	assert_int_equal(strlen(err), sizeof(err) - 1);
}

/* 6.5: the notification's ICMPv6 form and the Long-haul CNP stay apart. */
static void test_icmp6_types(void **state)
{
	char err[128];

	(void)state;
	assert_true(pnc_config_icmp6_types_valid(201, 200, err, sizeof(err)));
	assert_true(pnc_config_icmp6_types_valid(200, 201, err, sizeof(err)));
	assert_false(pnc_config_icmp6_types_valid(200, 200, err, sizeof(err)));
	assert_non_null(strstr(err, "Long-haul"));
}

static void test_proxy_defaults(void **state)
{
	struct pnc_config cfg;

	(void)state;
	pnc_config_init(&cfg);
	/* Off by default: no CNP source, no accepted notification source. */
	assert_false(cfg.proxy.src4_set);
	assert_false(cfg.proxy.src6_set);
	assert_string_equal(cfg.proxy.accept_plist, "");
	assert_int_equal(cfg.proxy.n_learn_if, 0);
	assert_false(cfg.proxy.tunnel_enabled);
	assert_int_equal(cfg.cp.n_if, 0);
}

static void test_sender_formats(void **state)
{
	static const struct {
		const char *name;
		bool v4, v6;
	} table[] = {
		{ "rocev2-cnp", true, true },
		{ "long-haul-icmpv6", false, true },
		{ "long-haul-rocev2", true, true },
		{ "rate-advice", true, true },
	};
	enum pnc_sender_format fmt;
	char err[160];

	(void)state;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		err[0] = 0;
		assert_true(pnc_sender_format_parse(table[i].name, &fmt));
		assert_string_equal(pnc_sender_format_name(fmt), table[i].name);
		assert_int_equal(pnc_sender_format_valid(fmt, 6, err, sizeof(err)), table[i].v6);
		assert_int_equal(pnc_sender_format_valid(fmt, 4, err, sizeof(err)), table[i].v4);
		/* A refusal always says why. */
		if (!table[i].v4)
			assert_non_null(strstr(err, "IPv6 sender prefix"));
	}
	/* The names refused before the formats existed are gone. */
	assert_false(pnc_sender_format_parse("long-haul-cnp", &fmt));
	assert_false(pnc_sender_format_parse("scone-rate-advice", &fmt));
	assert_false(pnc_sender_format_parse("rocev2", &fmt));
	assert_false(pnc_sender_format_valid(PNC_FMT_MAX, 6, err, sizeof(err)));
}

static void test_role_names(void **state)
{
	(void)state;
	assert_string_equal(pnc_role_name(PNC_ROLE_PROXY), "proxy");
	assert_string_equal(pnc_role_name(PNC_ROLE_CONGESTION_POINT), "congestion-point");
	assert_string_equal(pnc_role_json_key(PNC_ROLE_CONGESTION_POINT), "congestionPoint");
	assert_string_equal(pnc_role_name(PNC_ROLE_MAX), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),       cmocka_unit_test(test_default_ports_valid),
		cmocka_unit_test(test_port_table),     cmocka_unit_test(test_message_truncation),
		cmocka_unit_test(test_role_names),     cmocka_unit_test(test_proxy_defaults),
		cmocka_unit_test(test_sender_formats), cmocka_unit_test(test_icmp6_types),
	};

	return cmocka_run_group_tests_name("cnpproxy_config", tests, NULL, NULL);
}
