// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Queue monitor: rtnetlink qdisc/class parsers, the dump-based reader and
 * the rates derived from two samples.
 */
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cnpproxy_alloc.h"
#include "bpfutil/nlmsg.h"
#include "cp/qmon.h"

/* --- parsers ------------------------------------------------------------- */

/* One attribute, its payload in bounds. */
struct attr {
	const uint8_t *data;
	size_t len;
	bool present;
};

#define TB_MAX 32 /* above every attribute type looked at here */

/*
 * Index the attributes of [p, p + len) by type (the last one of a type
 * wins, as in the kernel's nla_parse).  err for any length that is below
 * a header or runs past the container.
 */
static int attrs_index(const uint8_t *p, size_t len, struct attr tb[TB_MAX + 1], int err)
{
	memset(tb, 0, sizeof(*tb) * (TB_MAX + 1));
	while (len > 0) {
		struct rtattr rta;
		size_t step;
		uint16_t type;

		if (len < sizeof(rta))
			return err;
		memcpy(&rta, p, sizeof(rta));
		if (rta.rta_len < sizeof(rta) || rta.rta_len > len)
			return err;
		type = rta.rta_type & NLA_TYPE_MASK;
		if (type <= TB_MAX) {
			tb[type].data = p + RTA_LENGTH(0);
			tb[type].len = rta.rta_len - RTA_LENGTH(0);
			tb[type].present = true;
		}
		/* The last attribute may come without its alignment padding. */
		step = RTA_ALIGN(rta.rta_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return 0;
}

/*
 * Copy a fixed struct out of an attribute: it must hold at least need
 * bytes (the fields used); bytes the struct has beyond the payload are 0.
 */
static bool attr_struct(const struct attr *a, void *dst, size_t size, size_t need)
{
	if (a->len < need)
		return false;
	memset(dst, 0, size);
	memcpy(dst, a->data, a->len < size ? a->len : size);
	return true;
}

static bool attr_u64(const struct attr *a, uint64_t *v)
{
	return attr_struct(a, v, sizeof(*v), sizeof(*v));
}

#define NEED(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* The header and attributes of a tc message of the expected type. */
static int parse_msg(const void *nlmsg, size_t len, uint16_t want, struct pnc_qmon_id *id,
		     struct attr tb[TB_MAX + 1])
{
	struct nlmsghdr nh;
	struct tcmsg tcm;
	uint16_t type;
	int rv;

	rv = pnc_qmon_parse_id(nlmsg, len, &type, id);
	if (rv)
		return rv;
	if (type != want)
		return PNC_QMON_E_MSG_TYPE;
	memcpy(&nh, nlmsg, sizeof(nh));
	memcpy(&tcm, NLMSG_DATA(nlmsg), sizeof(tcm));
	return attrs_index((const uint8_t *)nlmsg + NLMSG_SPACE(sizeof(tcm)),
			   nh.nlmsg_len - NLMSG_SPACE(sizeof(tcm)), tb, PNC_QMON_E_ATTR_LEN);
}

int pnc_qmon_parse_id(const void *nlmsg, size_t len, uint16_t *type, struct pnc_qmon_id *id)
{
	struct nlmsghdr nh;
	struct tcmsg tcm;

	if (!nlmsg || !type || !id)
		return PNC_QMON_E_INVALID_ARG;
	if (len < sizeof(nh))
		return PNC_QMON_E_NLMSG_TRUNCATED;
	memcpy(&nh, nlmsg, sizeof(nh));
	if (nh.nlmsg_len < sizeof(nh) || nh.nlmsg_len > len)
		return PNC_QMON_E_NLMSG_LEN;
	*type = nh.nlmsg_type;
	if (nh.nlmsg_type != RTM_NEWQDISC && nh.nlmsg_type != RTM_NEWTCLASS)
		return PNC_QMON_E_MSG_TYPE;
	/* The attributes start after the aligned tcmsg; shorter is malformed. */
	if (nh.nlmsg_len < NLMSG_SPACE(sizeof(tcm)))
		return PNC_QMON_E_TCMSG_TRUNCATED;
	memcpy(&tcm, NLMSG_DATA(nlmsg), sizeof(tcm));
	id->ifindex = tcm.tcm_ifindex;
	id->handle = tcm.tcm_handle;
	id->parent = tcm.tcm_parent;
	return 0;
}

/* TCA_KIND: a NUL-terminated name that fits kind[]. */
static int parse_kind(const struct attr tb[TB_MAX + 1], char kind[PNC_QMON_KIND_LEN])
{
	const struct attr *a = &tb[TCA_KIND];
	const uint8_t *nul;

	if (!a->present)
		return PNC_QMON_E_NO_KIND;
	nul = memchr(a->data, 0, a->len);
	if (!nul || nul == a->data || nul - a->data >= PNC_QMON_KIND_LEN)
		return PNC_QMON_E_KIND_LEN;
	memcpy(kind, a->data, nul - a->data + 1);
	return 0;
}

static int parse_stats2(const struct attr *stats2, struct pnc_qmon_sample *out)
{
	struct attr tb[TB_MAX + 1];
	struct gnet_stats_basic b;
	struct gnet_stats_queue q;
	uint64_t pkt64;
	int rv;

	rv = attrs_index(stats2->data, stats2->len, tb, PNC_QMON_E_STATS2_LEN);
	if (rv)
		return rv;
	if (tb[TCA_STATS_BASIC].present) {
		if (!attr_struct(&tb[TCA_STATS_BASIC], &b, sizeof(b),
				 NEED(struct gnet_stats_basic, packets)))
			return PNC_QMON_E_STATS_BASIC_LEN;
		out->bytes = b.bytes;
		out->packets = b.packets;
	}
	/* The 64-bit packet count, where the kernel has it (5.5+). */
	if (tb[TCA_STATS_PKT64].present) {
		if (!attr_u64(&tb[TCA_STATS_PKT64], &pkt64))
			return PNC_QMON_E_STATS_PKT64_LEN;
		out->packets = pkt64;
	}
	if (tb[TCA_STATS_QUEUE].present) {
		if (!attr_struct(&tb[TCA_STATS_QUEUE], &q, sizeof(q),
				 NEED(struct gnet_stats_queue, overlimits)))
			return PNC_QMON_E_STATS_QUEUE_LEN;
		out->drops = q.drops;
		out->overlimits = q.overlimits;
		out->requeues = q.requeues;
		out->backlog_bytes = q.backlog;
		out->backlog_pkts = q.qlen;
	}
	return 0;
}

/* The pre-2.6.x struct, still sent next to TCA_STATS2; has no requeues. */
static int parse_stats_legacy(const struct attr *a, struct pnc_qmon_sample *out)
{
	struct tc_stats st;

	if (!attr_struct(a, &st, sizeof(st), NEED(struct tc_stats, backlog)))
		return PNC_QMON_E_STATS_LEN;
	out->bytes = st.bytes;
	out->packets = st.packets;
	out->drops = st.drops;
	out->overlimits = st.overlimits;
	out->backlog_bytes = st.backlog;
	out->backlog_pkts = st.qlen;
	return 0;
}

/* TBF's rate in bytes/s: TCA_TBF_PARMS, overridden by TCA_TBF_RATE64. */
static int parse_tbf_rate(const struct attr *opts, uint64_t *rate_Bps)
{
	struct attr tb[TB_MAX + 1];
	struct tc_tbf_qopt qopt;
	uint64_t r64;
	int rv;

	rv = attrs_index(opts->data, opts->len, tb, PNC_QMON_E_OPTIONS_LEN);
	if (rv)
		return rv;
	if (tb[TCA_TBF_PARMS].present) {
		if (!attr_struct(&tb[TCA_TBF_PARMS], &qopt, sizeof(qopt),
				 NEED(struct tc_tbf_qopt, rate)))
			return PNC_QMON_E_TBF_PARMS_LEN;
		*rate_Bps = qopt.rate.rate;
	}
	if (tb[TCA_TBF_RATE64].present) {
		if (!attr_u64(&tb[TCA_TBF_RATE64], &r64))
			return PNC_QMON_E_TBF_RATE64_LEN;
		*rate_Bps = r64;
	}
	return 0;
}

/* HTB's rate and ceil in bytes/s; the 64-bit attributes win. */
static int parse_htb_rates(const struct attr *opts, uint64_t *rate_Bps, uint64_t *ceil_Bps)
{
	struct attr tb[TB_MAX + 1];
	struct tc_htb_opt hopt;
	uint64_t v;
	int rv;

	rv = attrs_index(opts->data, opts->len, tb, PNC_QMON_E_OPTIONS_LEN);
	if (rv)
		return rv;
	if (tb[TCA_HTB_PARMS].present) {
		if (!attr_struct(&tb[TCA_HTB_PARMS], &hopt, sizeof(hopt),
				 NEED(struct tc_htb_opt, ceil)))
			return PNC_QMON_E_HTB_PARMS_LEN;
		*rate_Bps = hopt.rate.rate;
		*ceil_Bps = hopt.ceil.rate;
	}
	if (tb[TCA_HTB_RATE64].present) {
		if (!attr_u64(&tb[TCA_HTB_RATE64], &v))
			return PNC_QMON_E_HTB_RATE64_LEN;
		*rate_Bps = v;
	}
	if (tb[TCA_HTB_CEIL64].present) {
		if (!attr_u64(&tb[TCA_HTB_CEIL64], &v))
			return PNC_QMON_E_HTB_CEIL64_LEN;
		*ceil_Bps = v;
	}
	return 0;
}

int pnc_qmon_parse_qdisc(const void *nlmsg, size_t len, struct pnc_qmon_sample *out)
{
	struct attr tb[TB_MAX + 1];
	struct pnc_qmon_sample s = {};
	struct pnc_qmon_id id;
	uint64_t rate_Bps = 0;
	int rv;

	if (!out)
		return PNC_QMON_E_INVALID_ARG;
	rv = parse_msg(nlmsg, len, RTM_NEWQDISC, &id, tb);
	if (!rv)
		rv = parse_kind(tb, s.kind);
	if (rv)
		return rv;
	s.ifindex = id.ifindex;
	if (!tb[TCA_STATS2].present && !tb[TCA_STATS].present)
		return PNC_QMON_E_NO_STATS;
	/* Legacy first, so that TCA_STATS2 wins whatever the order. */
	if (tb[TCA_STATS].present) {
		rv = parse_stats_legacy(&tb[TCA_STATS], &s);
		if (rv)
			return rv;
	}
	if (tb[TCA_STATS2].present) {
		rv = parse_stats2(&tb[TCA_STATS2], &s);
		if (rv)
			return rv;
	}
	/* TCA_OPTIONS is kind-specific (not even nested for fifos). */
	if (!strcmp(s.kind, "tbf") && tb[TCA_OPTIONS].present) {
		rv = parse_tbf_rate(&tb[TCA_OPTIONS], &rate_Bps);
		if (rv)
			return rv;
	}
	s.rate_bps = rate_Bps > UINT64_MAX / 8 ? UINT64_MAX : rate_Bps * 8;
	*out = s;
	return 0;
}

int pnc_qmon_parse_class(const void *nlmsg, size_t len, struct pnc_qmon_class *out)
{
	struct attr tb[TB_MAX + 1];
	struct pnc_qmon_class c = {};
	uint64_t rate_Bps = 0, ceil_Bps = 0;
	int rv;

	if (!out)
		return PNC_QMON_E_INVALID_ARG;
	rv = parse_msg(nlmsg, len, RTM_NEWTCLASS, &c.id, tb);
	if (!rv)
		rv = parse_kind(tb, c.kind);
	if (rv)
		return rv;
	if (!strcmp(c.kind, "htb") && tb[TCA_OPTIONS].present) {
		rv = parse_htb_rates(&tb[TCA_OPTIONS], &rate_Bps, &ceil_Bps);
		if (rv)
			return rv;
	}
	c.rate_bps = rate_Bps > UINT64_MAX / 8 ? UINT64_MAX : rate_Bps * 8;
	c.ceil_bps = ceil_Bps > UINT64_MAX / 8 ? UINT64_MAX : ceil_Bps * 8;
	*out = c;
	return 0;
}

static const char *const err_names[] = {
	[0] = "ok",
	[-(PNC_QMON_E_INVALID_ARG - PNC_QMON_E_BASE)] = "invalid-arg",
	[-(PNC_QMON_E_NLMSG_TRUNCATED - PNC_QMON_E_BASE)] = "nlmsg-truncated",
	[-(PNC_QMON_E_NLMSG_LEN - PNC_QMON_E_BASE)] = "nlmsg-len",
	[-(PNC_QMON_E_MSG_TYPE - PNC_QMON_E_BASE)] = "msg-type",
	[-(PNC_QMON_E_TCMSG_TRUNCATED - PNC_QMON_E_BASE)] = "tcmsg-truncated",
	[-(PNC_QMON_E_ATTR_LEN - PNC_QMON_E_BASE)] = "attr-len",
	[-(PNC_QMON_E_KIND_LEN - PNC_QMON_E_BASE)] = "kind-len",
	[-(PNC_QMON_E_NO_KIND - PNC_QMON_E_BASE)] = "no-kind",
	[-(PNC_QMON_E_STATS2_LEN - PNC_QMON_E_BASE)] = "stats2-len",
	[-(PNC_QMON_E_STATS_BASIC_LEN - PNC_QMON_E_BASE)] = "stats-basic-len",
	[-(PNC_QMON_E_STATS_QUEUE_LEN - PNC_QMON_E_BASE)] = "stats-queue-len",
	[-(PNC_QMON_E_STATS_PKT64_LEN - PNC_QMON_E_BASE)] = "stats-pkt64-len",
	[-(PNC_QMON_E_STATS_LEN - PNC_QMON_E_BASE)] = "stats-len",
	[-(PNC_QMON_E_NO_STATS - PNC_QMON_E_BASE)] = "no-stats",
	[-(PNC_QMON_E_OPTIONS_LEN - PNC_QMON_E_BASE)] = "options-len",
	[-(PNC_QMON_E_TBF_PARMS_LEN - PNC_QMON_E_BASE)] = "tbf-parms-len",
	[-(PNC_QMON_E_TBF_RATE64_LEN - PNC_QMON_E_BASE)] = "tbf-rate64-len",
	[-(PNC_QMON_E_HTB_PARMS_LEN - PNC_QMON_E_BASE)] = "htb-parms-len",
	[-(PNC_QMON_E_HTB_RATE64_LEN - PNC_QMON_E_BASE)] = "htb-rate64-len",
	[-(PNC_QMON_E_HTB_CEIL64_LEN - PNC_QMON_E_BASE)] = "htb-ceil64-len",
	[-(PNC_QMON_E_NO_ROOT - PNC_QMON_E_BASE)] = "no-root-qdisc",
	[-(PNC_QMON_E_DT_ZERO - PNC_QMON_E_BASE)] = "dt-zero",
	[-(PNC_QMON_E_MISMATCH - PNC_QMON_E_BASE)] = "sample-mismatch",
};

const char *pnc_qmon_strerror(int err)
{
	if (err == 0)
		return err_names[0];
	if (err < PNC_QMON_E_BASE && err >= PNC_QMON_E_LAST)
		return err_names[PNC_QMON_E_BASE - err];
	if (err < 0 && err > PNC_QMON_E_BASE)
		return strerror(-err);
	return "unknown";
}

/* --- derived rates --------------------------------------------------------- */

/*
 * cur - prev of a counter that only goes up.  A counter that was at most
 * 2^32 - 1 and went down wrapped at 32 bits (legacy packets, 32-bit
 * hardware counters): a 64-bit counter cannot wrap from there.
 */
static uint64_t counter_delta(uint64_t prev, uint64_t cur)
{
	if (cur < prev && prev <= UINT32_MAX)
		return (uint32_t)(cur - prev);
	return cur - prev;
}

/* n per dt_us as n per second, saturated. */
static uint64_t per_s(uint64_t n, uint64_t dt_us)
{
	unsigned __int128 v = (unsigned __int128)n * 1000000u / dt_us;

	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

int pnc_qmon_derive(const struct pnc_qmon_sample *prev, const struct pnc_qmon_sample *cur,
		    struct pnc_qmon_rates *out)
{
	struct pnc_qmon_rates r = {};
	int64_t d_backlog;
	uint64_t growth;
	unsigned __int128 v;

	if (!prev || !cur || !out)
		return PNC_QMON_E_INVALID_ARG;
	r.dt_us = cur->ts_us > prev->ts_us ? cur->ts_us - prev->ts_us : 0;
	if (prev->ifindex != cur->ifindex || strncmp(prev->kind, cur->kind, PNC_QMON_KIND_LEN)) {
		*out = r;
		return PNC_QMON_E_MISMATCH;
	}
	if (!r.dt_us) {
		*out = r;
		return PNC_QMON_E_DT_ZERO;
	}
	r.d_bytes = counter_delta(prev->bytes, cur->bytes);
	r.d_packets = counter_delta(prev->packets, cur->packets);
	r.d_drops = cur->drops - prev->drops;
	r.d_overlimits = cur->overlimits - prev->overlimits;
	r.tx_bps = per_s(r.d_bytes > UINT64_MAX / 8 ? UINT64_MAX : r.d_bytes * 8, r.dt_us);
	r.tx_pps = per_s(r.d_packets, r.dt_us);
	r.drop_pps = per_s(r.d_drops, r.dt_us);
	r.overlimit_ps = per_s(r.d_overlimits, r.dt_us);
	/*
	 * |d_backlog| < 2^32, so the product stays far below 2^63; dt_us may
	 * not fit an int64_t: divide the magnitude.
	 */
	d_backlog = (int64_t)cur->backlog_bytes - (int64_t)prev->backlog_bytes;
	growth = (uint64_t)(d_backlog < 0 ? -d_backlog : d_backlog) * 1000000u / r.dt_us;
	r.growth_Bps = d_backlog < 0 ? -(int64_t)growth : (int64_t)growth;
	if (cur->rate_bps) {
		v = (unsigned __int128)cur->backlog_bytes * 8 * 1000000u / cur->rate_bps;
		r.qdelay_us = v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
		v = (unsigned __int128)r.tx_bps * 1000u / cur->rate_bps;
		r.util_permille = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	r.valid = true;
	*out = r;
	return 0;
}

/* --- netlink reader -------------------------------------------------------- */

#define QMON_BUF_SIZE	     (64 * 1024) /* above the kernel's dump skb size */
#define QMON_READ_TIMEOUT_MS 2000	 /* pnc_qmon_read only */

/*
 * A reading is a dump of the qdiscs and, for HTB, one of its classes.
 * The socket is non-blocking; the caller sends, waits for the fd and
 * feeds the replies in, so nothing blocks on the kernel.
 */
enum qmon_stage {
	QMON_IDLE,
	QMON_QDISC, /* RTM_GETQDISC dump outstanding */
	QMON_CLASS, /* RTM_GETTCLASS dump outstanding */
};

struct read_ctx {
	int ifindex;
	bool found;
	int root_err; /* why the root qdisc's message was refused */
	struct pnc_qmon_sample sample;
	uint64_t class_rate_bps;
};

struct pnc_qmon {
	int fd;
	uint32_t seq;
	uint64_t bad_messages;
	enum qmon_stage stage;
	struct read_ctx rc;
	uint8_t buf[QMON_BUF_SIZE];
};

struct pnc_qmon *pnc_qmon_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct pnc_qmon *qm;
	int saved;

	qm = pnc_calloc(PNC_POOL_QMON, 1, sizeof(*qm));
	if (!qm)
		return NULL;
	qm->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	if (qm->fd < 0)
		goto fail;
	if (bind(qm->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	qm->seq = (uint32_t)time(NULL);
	return qm;
fail:
	saved = errno;
	if (qm->fd >= 0)
		close(qm->fd);
	pnc_free(PNC_POOL_QMON, qm);
	errno = saved;
	return NULL;
}

void pnc_qmon_close(struct pnc_qmon *qm)
{
	if (!qm)
		return;
	close(qm->fd);
	pnc_free(PNC_POOL_QMON, qm);
}

int pnc_qmon_fd(const struct pnc_qmon *qm)
{
	return qm->fd;
}

uint64_t pnc_qmon_bad_messages(const struct pnc_qmon *qm)
{
	return qm->bad_messages;
}

static int dump_request(struct pnc_qmon *qm, uint16_t type, int ifindex)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tcm;
	} req = {};
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	ssize_t n;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.tcm));
	req.nh.nlmsg_type = type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = ++qm->seq;
	req.tcm.tcm_family = AF_UNSPEC;
	req.tcm.tcm_ifindex = ifindex;
	do
		n = sendto(qm->fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == (ssize_t)req.nh.nlmsg_len ? 0 : -EIO;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void on_qdisc(struct pnc_qmon *qm, const struct nlmsghdr *nh, struct read_ctx *rc)
{
	struct pnc_qmon_id id;
	uint16_t type;

	if (pnc_qmon_parse_id(nh, nh->nlmsg_len, &type, &id)) {
		qm->bad_messages++;
		return;
	}
	/*
	 * The kernel dumps every interface's qdiscs whatever tcm_ifindex
	 * says; the root is the one whose parent is TC_H_ROOT (ingress and
	 * clsact hang off TC_H_INGRESS).
	 */
	if (id.ifindex != rc->ifindex || id.parent != TC_H_ROOT || rc->found)
		return;
	rc->root_err = pnc_qmon_parse_qdisc(nh, nh->nlmsg_len, &rc->sample);
	if (rc->root_err) {
		qm->bad_messages++;
		return;
	}
	/* When the kernel's snapshot arrived, not after the rest of the dump. */
	rc->sample.ts_us = now_us();
	rc->found = true;
}

static void on_class(struct pnc_qmon *qm, const struct nlmsghdr *nh, struct read_ctx *rc)
{
	struct pnc_qmon_class c;

	if (pnc_qmon_parse_class(nh, nh->nlmsg_len, &c)) {
		qm->bad_messages++;
		return;
	}
	/* Classes right under the root share no parent: their rates add up. */
	if (c.id.ifindex == rc->ifindex && c.id.parent == TC_H_ROOT && !strcmp(c.kind, "htb"))
		rc->class_rate_bps += c.rate_bps;
}

int pnc_qmon_begin(struct pnc_qmon *qm, int ifindex)
{
	int rv;

	if (!qm || ifindex <= 0)
		return PNC_QMON_E_INVALID_ARG;
	/*
	 * The kernel refuses a new dump (EBUSY) on a socket whose last one
	 * was not read to its end: drain what an abandoned reading left.
	 */
	if (qm->stage != QMON_IDLE) {
		ssize_t n;

		do
			n = recv(qm->fd, qm->buf, sizeof(qm->buf), MSG_DONTWAIT);
		while (n > 0 || (n < 0 && errno == EINTR));
	}
	/* Replies to an abandoned reading carry its seq and are skipped. */
	memset(&qm->rc, 0, sizeof(qm->rc));
	qm->rc.ifindex = ifindex;
	rv = dump_request(qm, RTM_GETQDISC, ifindex);
	qm->stage = rv ? QMON_IDLE : QMON_QDISC;
	return rv;
}

/* A dump of this reading ended: on to the next stage, or done. */
static int dump_done(struct pnc_qmon *qm, struct pnc_qmon_sample *out)
{
	struct read_ctx *rc = &qm->rc;
	int rv;

	if (qm->stage == QMON_QDISC) {
		if (!rc->found)
			return rc->root_err ? rc->root_err : PNC_QMON_E_NO_ROOT;
		/*
		 * HTB's root qdisc accounts the backlog of its leaves itself
		 * (checked on 6.18, see tests/emu/test_qmon.py), so only its
		 * rate comes from the classes.
		 */
		if (!strcmp(rc->sample.kind, "htb")) {
			rv = dump_request(qm, RTM_GETTCLASS, rc->ifindex);
			if (rv)
				return rv;
			qm->stage = QMON_CLASS;
			return PNC_QMON_PENDING;
		}
	} else {
		rc->sample.rate_bps = rc->class_rate_bps;
	}
	*out = rc->sample;
	return 0;
}

/* The messages of one datagram: PNC_QMON_PENDING, or the reading's end. */
static int on_datagram(struct pnc_qmon *qm, size_t len, struct pnc_qmon_sample *out)
{
	const struct nlmsghdr *nh;
	size_t left;

	for (nh = pnc_nlmsg_first(qm->buf, len, &left); nh; nh = pnc_nlmsg_next(nh, &left)) {
		if (nh->nlmsg_seq != qm->seq)
			continue;
		if (nh->nlmsg_type == NLMSG_DONE)
			return dump_done(qm, out);
		if (nh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			/* An acknowledgement ends no dump; a positive value is no errno. */
			return e->error < 0 ? e->error : -EBADMSG;
		}
		if (qm->stage == QMON_QDISC)
			on_qdisc(qm, nh, &qm->rc);
		else
			on_class(qm, nh, &qm->rc);
	}
	return PNC_QMON_PENDING;
}

int pnc_qmon_continue(struct pnc_qmon *qm, struct pnc_qmon_sample *out)
{
	int rv = PNC_QMON_PENDING;

	if (!qm || !out || qm->stage == QMON_IDLE)
		return PNC_QMON_E_INVALID_ARG;
	while (rv == PNC_QMON_PENDING) {
		struct sockaddr_nl sa;
		struct iovec iov = { qm->buf, sizeof(qm->buf) };
		struct msghdr mh = { .msg_name = &sa,
				     .msg_namelen = sizeof(sa),
				     .msg_iov = &iov,
				     .msg_iovlen = 1 };
		ssize_t n = recvmsg(qm->fd, &mh, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return PNC_QMON_PENDING;
			rv = -errno;
			break;
		}
		if (mh.msg_flags & MSG_TRUNC) {
			rv = -EMSGSIZE;
			break;
		}
		if (sa.nl_pid != 0)
			continue; /* not from the kernel */
		rv = on_datagram(qm, (size_t)n, out);
	}
	qm->stage = QMON_IDLE;
	return rv;
}

int pnc_qmon_read(struct pnc_qmon *qm, int ifindex, struct pnc_qmon_sample *out)
{
	struct pollfd pfd = { .events = POLLIN };
	int rv;

	if (!out)
		return PNC_QMON_E_INVALID_ARG;
	rv = pnc_qmon_begin(qm, ifindex);
	pfd.fd = qm ? qm->fd : -1;
	while (rv == 0 || rv == PNC_QMON_PENDING) {
		/* A reply never takes long; do not hang the caller if one is lost. */
		rv = poll(&pfd, 1, QMON_READ_TIMEOUT_MS);
		if (rv < 0 && errno == EINTR)
			continue;
		if (rv <= 0) {
			qm->stage = QMON_IDLE;
			return rv < 0 ? -errno : -ETIMEDOUT;
		}
		rv = pnc_qmon_continue(qm, out);
		if (rv != PNC_QMON_PENDING)
			return rv;
	}
	return rv;
}
