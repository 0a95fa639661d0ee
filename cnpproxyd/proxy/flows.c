// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flow table of the proxy: sender QP <-> receiver QP pairings learned
 * from CM MADs and from RC PSN correlation (doc/wire-formats.md 4.3, 4.4).
 *
 * Three fixed pools share one layout: nodes in an array, a chained hash
 * through node indices, a free list, and an activity list ordered by
 * last activity, oldest first.  Aging pops from the head of the list
 * and a full pending pool evicts its head, so both are O(1) per entry.
 *
 * PSN pairing rule (section 4.4, made strict).  For every forward
 * request stream A->B with DestQP qB we keep the window
 * [oldest unacknowledged PSN, highest PSN seen] (24-bit, half-space
 * 2^23).  An ACK, NAK, atomic ACK or READ response B->A with DestQP qA
 * and PSN x is a match for the window of (A, B) that contains x, and
 * only if exactly one window of (A, B) contains it (ambiguous matches
 * are no evidence).  qA <-> qB is bound after PNC_FLOW_PSN_MATCHES (3)
 * consistent matches, where each counted match
 *   - names the same qA as the previous ones (another qA restarts the
 *     count: a conflict),
 *   - has a PSN after the previous counted one (a repeated ACK or NAK
 *     is not new evidence),
 *   - follows new forward data (the window grew since the previous
 *     counted match), so the ACK stream of an unseen connection cannot
 *     keep matching a stalled window whose PSN range it happens to
 *     cross.
 * A single coincidental match therefore never pairs: random starting
 * PSNs make one overlap unlikely (window/2^24) and three ordered ones
 * interleaved with our own data far less so.  We do not take the 4.4
 * "only one QP pair active" shortcut, which pairs on no evidence.
 * Windows of flows bound by PSN stay alive, so a QPN reused by a new
 * connection re-pairs after the same evidence; CM pairings always win
 * and are never changed by PSN evidence.
 *
 * The AETH is not in struct pnc_roce_view, so ACK and NAK are treated
 * alike: the window's low end moves to x (not x + 1), which is right
 * for a NAK (x is still unacknowledged) and harmless for an ACK.
 */
#include <stdlib.h>
#include <string.h>

#include "cnpproxy_alloc.h"
#include "proxy/flows.h"

#define NIL	 UINT32_MAX
#define PSN_MASK 0xffffffu
#define PSN_HALF 0x800000u
/*
 * Largest window kept.  Far below the half-space so that "before" and
 * "after" stay unambiguous, far above any real number of packets in
 * flight; a jump further than this is a new PSN sequence (QPN reuse).
 */
#define PSN_MAX_WINDOW (1u << 22)
#define MAX_POOL       (1u << 30)

/* Start of every node: hash chain, activity list, bookkeeping. */
struct node_hdr {
	uint32_t hnext; /* hash chain, or free list when unused */
	uint32_t prev, next;
	uint32_t hash;
	uint64_t last_us;
	bool used;
};

struct pool {
	char *mem;
	size_t size; /* of one node */
	uint32_t cap;
	uint32_t count;
	uint32_t free;
	uint32_t *buckets;
	uint32_t mask;
	uint32_t head, tail; /* least and most recently active */
};

struct flow_node {
	struct node_hdr h;
	/* Second index for CM flows: REJ/DREQ/DREP carry only comm IDs. */
	uint32_t cnext;
	uint32_t chash;
	bool cm_linked;
	uint32_t sender_comm, receiver_comm;
	struct pnc_flow f;
};

/* A REQ C->S waiting for its REP. */
struct req_node {
	struct node_hdr h;
	uint8_t ver;
	uint8_t c[16], s[16];
	uint32_t comm_id; /* C's local communication ID */
	uint32_t qpn;	  /* qC */
	uint16_t pkey;
};

/* Request PSNs of the stream A->B with DestQP qB, and pairing evidence. */
struct win_node {
	struct node_hdr h;
	uint8_t ver;
	uint8_t a[16], b[16];
	uint32_t qpn_b;
	uint32_t low, high; /* unacknowledged PSNs; empty when low = high + 1 */
	uint16_t pkey;
	uint16_t sport;
	uint32_t flow_label;
	uint32_t cand_qpn; /* qA the evidence points at */
	unsigned int matches;
	uint32_t last_match; /* PSN of the last counted match */
	uint32_t high_at_match;
};

struct pnc_flow_table {
	struct pool flows, reqs, wins;
	uint32_t *cbuckets; /* CM index of flows, same mask as flows */
	uint64_t timeout;
	uint64_t seed;
	unsigned int psn_matches;
	struct pnc_flow_stats st;
	uint64_t generation; /* bumped when a flow's CNP could differ */
};

/* ---- helpers ----------------------------------------------------------- */

#define QPN_MAX	      0xffffffu /* 24 bits */
#define MIN_U64(a, b) ((a) < (b) ? (a) : (b))

static size_t addr_len(uint8_t ver)
{
	return ver == 4 ? 4 : ver == 6 ? 16 : 0;
}

/* Copy an address so that IPv4 keys have zero padding, whatever the caller had there. */
static bool addr_norm(uint8_t ver, const uint8_t *in, uint8_t out[16])
{
	size_t len = addr_len(ver);

	if (!len)
		return false;
	memset(out, 0, 16);
	memcpy(out, in, len);
	return true;
}

static uint64_t mix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

/* Seeded hash of (version, two addresses, a 32-bit value). */
static uint32_t hash_key(uint64_t seed, uint8_t ver, const uint8_t a[16], const uint8_t b[16],
			 uint32_t x)
{
	uint64_t w[4];
	uint64_t h = mix64(seed ^ ((uint64_t)ver << 32 | x));
	int i;

	memcpy(w, a, 16);
	memcpy(w + 2, b, 16);
	for (i = 0; i < 4; i++)
		h = mix64(h ^ w[i]) + (uint64_t)i;
	return (uint32_t)(h ^ (h >> 32));
}

/* a - b on the 24-bit PSN circle, in (-2^23, 2^23]. */
static int32_t psn_diff(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & PSN_MASK;

	return d > PSN_HALF ? (int32_t)d - (int32_t)(PSN_MASK + 1) : (int32_t)d;
}

static bool psn_in(uint32_t x, uint32_t low, uint32_t high)
{
	return psn_diff(x, low) >= 0 && psn_diff(high, x) >= 0;
}

static bool idle(const struct pnc_flow_table *t, uint64_t last, uint64_t now)
{
	return t->timeout && now > last && now - last > t->timeout;
}

/* ---- pools --------------------------------------------------------------- */

static struct node_hdr *hdr(const struct pool *p, uint32_t i)
{
	/* mem is zero-allocated and size is a multiple of the node alignment */
	return (struct node_hdr *)(void *)(p->mem + (size_t)i * p->size);
}

static uint32_t buckets_for(uint32_t cap)
{
	uint32_t n = 1;

	while (n < cap)
		n <<= 1;
	return n;
}

static void pool_reset(struct pool *p)
{
	uint32_t i;

	memset(p->mem, 0, (size_t)p->cap * p->size);
	for (i = 0; i < p->cap; i++)
		hdr(p, i)->hnext = i + 1 < p->cap ? i + 1 : NIL;
	p->free = p->cap ? 0 : NIL;
	for (i = 0; i <= p->mask; i++)
		p->buckets[i] = NIL;
	p->head = p->tail = NIL;
	p->count = 0;
}

static bool pool_init(struct pool *p, size_t cap, size_t size)
{
	uint32_t nb = buckets_for((uint32_t)cap);

	memset(p, 0, sizeof(*p));
	p->mem = pnc_calloc(PNC_POOL_FLOWS, cap, size);
	p->buckets = pnc_calloc(PNC_POOL_FLOW_INDEX, nb, sizeof(*p->buckets));
	if (!p->mem || !p->buckets)
		return false;
	p->size = size;
	p->cap = (uint32_t)cap;
	p->mask = nb - 1;
	pool_reset(p);
	return true;
}

static void pool_fini(struct pool *p)
{
	pnc_free(PNC_POOL_FLOWS, p->mem);
	pnc_free(PNC_POOL_FLOW_INDEX, p->buckets);
}

static void list_unlink(struct pool *p, uint32_t i)
{
	struct node_hdr *h = hdr(p, i);

	if (h->prev != NIL)
		hdr(p, h->prev)->next = h->next;
	else
		p->head = h->next;
	if (h->next != NIL)
		hdr(p, h->next)->prev = h->prev;
	else
		p->tail = h->prev;
}

static void list_append(struct pool *p, uint32_t i)
{
	struct node_hdr *h = hdr(p, i);

	h->prev = p->tail;
	h->next = NIL;
	if (p->tail != NIL)
		hdr(p, p->tail)->next = i;
	else
		p->head = i;
	p->tail = i;
}

/* Mark a node active now: the list stays ordered by last activity. */
static void pool_touch(struct pool *p, uint32_t i, uint64_t now)
{
	list_unlink(p, i);
	list_append(p, i);
	hdr(p, i)->last_us = now;
}

/* A zeroed free node, or NIL when the pool is full. */
static uint32_t pool_alloc(struct pool *p)
{
	uint32_t i = p->free;

	if (i == NIL)
		return NIL;
	p->free = hdr(p, i)->hnext;
	memset(hdr(p, i), 0, p->size);
	return i;
}

static void pool_insert(struct pool *p, uint32_t i, uint32_t hash, uint64_t now)
{
	struct node_hdr *h = hdr(p, i);
	uint32_t b = hash & p->mask;

	h->hash = hash;
	h->hnext = p->buckets[b];
	p->buckets[b] = i;
	h->used = true;
	h->last_us = now;
	list_append(p, i);
	p->count++;
}

static void pool_remove(struct pool *p, uint32_t i)
{
	struct node_hdr *h = hdr(p, i);
	uint32_t *pp = &p->buckets[h->hash & p->mask];

	while (*pp != i)
		pp = &hdr(p, *pp)->hnext;
	*pp = h->hnext;
	list_unlink(p, i);
	h->used = false;
	h->hnext = p->free;
	p->free = i;
	p->count--;
}

/* A free node, the least recently used one if none is free (counted). */
static uint32_t pool_alloc_evict(struct pool *p, uint64_t *evicted)
{
	uint32_t i = pool_alloc(p);

	if (i != NIL)
		return i;
	pool_remove(p, p->head);
	(*evicted)++;
	return pool_alloc(p);
}

static uint32_t pool_chain(const struct pool *p, uint32_t hash)
{
	return p->buckets[hash & p->mask];
}

#define FLOW(t, i) ((struct flow_node *)hdr(&(t)->flows, (i)))
#define REQ(t, i)  ((struct req_node *)hdr(&(t)->reqs, (i)))
#define WIN(t, i)  ((struct win_node *)hdr(&(t)->wins, (i)))

/* ---- flows --------------------------------------------------------------- */

static uint32_t flow_find(const struct pnc_flow_table *t, uint8_t ver, const uint8_t s[16],
			  const uint8_t r[16], uint32_t rqpn)
{
	uint32_t hash = hash_key(t->seed, ver, s, r, rqpn);
	uint32_t i;

	for (i = pool_chain(&t->flows, hash); i != NIL; i = FLOW(t, i)->h.hnext) {
		const struct flow_node *n = FLOW(t, i);

		if (n->h.hash == hash && n->f.ip_version == ver && n->f.receiver_qpn == rqpn &&
		    !memcmp(n->f.sender, s, 16) && !memcmp(n->f.receiver, r, 16))
			return i;
	}
	return NIL;
}

static void cm_unlink(struct pnc_flow_table *t, uint32_t i)
{
	struct flow_node *n = FLOW(t, i);
	uint32_t *pp = &t->cbuckets[n->chash & t->flows.mask];

	if (!n->cm_linked)
		return;
	while (*pp != i)
		pp = &FLOW(t, *pp)->cnext;
	*pp = n->cnext;
	n->cm_linked = false;
}

static void cm_link(struct pnc_flow_table *t, uint32_t i)
{
	struct flow_node *n = FLOW(t, i);
	uint32_t b;

	n->chash = hash_key(t->seed, n->f.ip_version, n->f.sender, n->f.receiver, n->sender_comm);
	b = n->chash & t->flows.mask;
	n->cnext = t->cbuckets[b];
	t->cbuckets[b] = i;
	n->cm_linked = true;
}

/* The CM flow sender->receiver of the connection with these comm IDs. */
static uint32_t cm_find(const struct pnc_flow_table *t, uint8_t ver, const uint8_t s[16],
			const uint8_t r[16], uint32_t s_comm, uint32_t r_comm)
{
	uint32_t hash = hash_key(t->seed, ver, s, r, s_comm);
	uint32_t i;

	for (i = t->cbuckets[hash & t->flows.mask]; i != NIL; i = FLOW(t, i)->cnext) {
		const struct flow_node *n = FLOW(t, i);

		if (n->chash == hash && n->f.ip_version == ver && n->sender_comm == s_comm &&
		    n->receiver_comm == r_comm && !memcmp(n->f.sender, s, 16) &&
		    !memcmp(n->f.receiver, r, 16))
			return i;
	}
	return NIL;
}

static void flow_remove(struct pnc_flow_table *t, uint32_t i)
{
	t->generation++;
	cm_unlink(t, i);
	pool_remove(&t->flows, i);
}

/* What a learning step wants a flow to be. */
struct flow_want {
	uint8_t ver;
	const uint8_t *s, *r; /* normalised */
	uint32_t rqpn, sqpn;
	uint16_t pkey;
	uint16_t sport;
	uint32_t flow_label;
	enum pnc_flow_source source;
	uint32_t s_comm, r_comm; /* CM only */
};

/*
 * Install or update a flow.  Returns PNC_FLOW_LEARNED_* if it was new
 * or its pairing changed, PNC_FLOW_REFRESHED if it was already so, and
 * PNC_FLOW_TABLE_FULL if there was no room.  The caller has already
 * made sure that PSN evidence never overrides a CM pairing.
 */
static int flow_set(struct pnc_flow_table *t, const struct flow_want *w, uint64_t now)
{
	int learned = w->source == PNC_FLOW_CM ? PNC_FLOW_LEARNED_CM : PNC_FLOW_LEARNED_PSN;
	uint32_t i = flow_find(t, w->ver, w->s, w->r, w->rqpn);
	struct flow_node *n;

	if (i != NIL) {
		n = FLOW(t, i);
		pool_touch(&t->flows, i, now);
		n->f.last_seen_us = now;
		if (n->f.sender_qpn == w->sqpn && n->f.source == w->source &&
		    n->f.pkey == w->pkey &&
		    (w->source != PNC_FLOW_CM ||
		     (n->sender_comm == w->s_comm && n->receiver_comm == w->r_comm)))
			return PNC_FLOW_REFRESHED;
	} else {
		i = pool_alloc(&t->flows);
		if (i == NIL) {
			t->st.table_full++;
			return PNC_FLOW_TABLE_FULL;
		}
		n = FLOW(t, i);
		n->f.ip_version = w->ver;
		memcpy(n->f.sender, w->s, 16);
		memcpy(n->f.receiver, w->r, 16);
		n->f.receiver_qpn = w->rqpn;
		n->f.udp_sport = w->sport;
		n->f.flow_label = w->flow_label;
		n->f.last_seen_us = now;
		pool_insert(&t->flows, i, hash_key(t->seed, w->ver, w->s, w->r, w->rqpn), now);
	}

	t->generation++;
	cm_unlink(t, i);
	n->f.sender_qpn = w->sqpn;
	n->f.pkey = w->pkey;
	n->f.source = w->source;
	n->f.learned_us = now;
	n->f.packets = 0;
	if (w->source == PNC_FLOW_CM) {
		n->sender_comm = w->s_comm;
		n->receiver_comm = w->r_comm;
		cm_link(t, i);
		t->st.learned_cm++;
	} else {
		t->st.learned_psn++;
	}
	return learned;
}

/* ---- CM ------------------------------------------------------------------ */

static uint32_t req_find(const struct pnc_flow_table *t, uint8_t ver, const uint8_t c[16],
			 const uint8_t s[16], uint32_t comm)
{
	uint32_t hash = hash_key(t->seed, ver, c, s, comm);
	uint32_t i;

	for (i = pool_chain(&t->reqs, hash); i != NIL; i = REQ(t, i)->h.hnext) {
		const struct req_node *n = REQ(t, i);

		if (n->h.hash == hash && n->ver == ver && n->comm_id == comm &&
		    !memcmp(n->c, c, 16) && !memcmp(n->s, s, 16))
			return i;
	}
	return NIL;
}

static int cm_req(struct pnc_flow_table *t, const struct pnc_cm_req *req, uint8_t ver,
		  const uint8_t c[16], const uint8_t s[16], uint64_t now)
{
	uint32_t i;
	struct req_node *n;

	/* RC and UC have a QP pair; RD and XRC do not map onto one. */
	if (req->transport_type > 1 || req->ext_transport_type)
		return PNC_FLOW_IGNORED;

	i = req_find(t, ver, c, s, req->local_comm_id);
	if (i == NIL) {
		/* A REQ that never got its REP is the best one to lose. */
		i = pool_alloc_evict(&t->reqs, &t->st.cm_pending_evicted);
		n = REQ(t, i);
		n->ver = ver;
		memcpy(n->c, c, 16);
		memcpy(n->s, s, 16);
		n->comm_id = req->local_comm_id;
		pool_insert(&t->reqs, i, hash_key(t->seed, ver, c, s, n->comm_id), now);
	} else {
		/* a retransmission (same TID) or a reused comm ID: latest wins */
		n = REQ(t, i);
		pool_touch(&t->reqs, i, now);
	}
	n->qpn = req->local_qpn;
	n->pkey = req->pkey;
	return PNC_FLOW_CM_PENDING;
}

static int cm_rep(struct pnc_flow_table *t, const struct pnc_cm_rep *rep, uint8_t ver,
		  const uint8_t s[16], const uint8_t c[16], uint64_t now)
{
	uint32_t i = req_find(t, ver, c, s, rep->remote_comm_id);
	const struct req_node *q;
	struct flow_want cs, sc;
	uint32_t need;
	int r1, r2;

	if (i == NIL) {
		t->st.cm_rep_unmatched++;
		return PNC_FLOW_IGNORED;
	}
	q = REQ(t, i);

	/* Data C->S carries DestQP qS and must slow down qC; S->C the reverse. */
	cs = (struct flow_want){
		.ver = ver,
		.s = c,
		.r = s,
		.rqpn = rep->local_qpn,
		.sqpn = q->qpn,
		.pkey = q->pkey,
		.source = PNC_FLOW_CM,
		.s_comm = q->comm_id,
		.r_comm = rep->local_comm_id,
	};
	sc = cs;
	sc.s = s;
	sc.r = c;
	sc.rqpn = q->qpn;
	sc.sqpn = rep->local_qpn;
	sc.s_comm = rep->local_comm_id;
	sc.r_comm = q->comm_id;

	/* Both directions or neither, so a full table never leaves half a pair. */
	need = (flow_find(t, ver, c, s, cs.rqpn) == NIL) +
	       (flow_find(t, ver, s, c, sc.rqpn) == NIL);
	if (t->flows.cap - t->flows.count < need) {
		t->st.table_full++;
		return PNC_FLOW_TABLE_FULL; /* the REQ stays: a resent REP may fit later */
	}
	r1 = flow_set(t, &cs, now);
	r2 = flow_set(t, &sc, now);
	pool_remove(&t->reqs, i);
	return (r1 == PNC_FLOW_LEARNED_CM || r2 == PNC_FLOW_LEARNED_CM) ? PNC_FLOW_LEARNED_CM
									: PNC_FLOW_REFRESHED;
}

/*
 * REJ, DREQ or DREP from X to Y: remove the connection whose comm IDs
 * they name (both directions), and for REJ the REQ it answers.
 */
static int cm_remove(struct pnc_flow_table *t, const struct pnc_cm_msg *m, uint8_t ver,
		     const uint8_t x[16], const uint8_t y[16])
{
	uint32_t local, remote, i;
	uint64_t before = t->st.cm_removed;

	switch (m->mad.attr_id) {
	case PNC_CM_ATTR_REJ:
		local = m->u.rej.local_comm_id;
		remote = m->u.rej.remote_comm_id;
		break;
	case PNC_CM_ATTR_DREQ:
		local = m->u.dreq.local_comm_id;
		remote = m->u.dreq.remote_comm_id;
		break;
	default: /* DREP */
		local = m->u.drep.local_comm_id;
		remote = m->u.drep.remote_comm_id;
		break;
	}

	i = cm_find(t, ver, x, y, local, remote);
	if (i != NIL) {
		flow_remove(t, i);
		t->st.cm_removed++;
	}
	i = cm_find(t, ver, y, x, remote, local);
	if (i != NIL) {
		flow_remove(t, i);
		t->st.cm_removed++;
	}

	if (m->mad.attr_id == PNC_CM_ATTR_REJ) {
		/* S rejects C's REQ: remote is C's comm ID. */
		i = req_find(t, ver, y, x, remote);
		if (i != NIL) {
			pool_remove(&t->reqs, i);
			t->st.cm_removed++;
		}
		/* C gives up on its own REQ (timeout); not for a REJ of a REQ,
		 * whose local ID is S's and may be anything. */
		if (m->u.rej.msg_rejected != 0) {
			i = req_find(t, ver, x, y, local);
			if (i != NIL) {
				pool_remove(&t->reqs, i);
				t->st.cm_removed++;
			}
		}
	}
	return t->st.cm_removed != before ? PNC_FLOW_REMOVED : PNC_FLOW_IGNORED;
}

int pnc_flow_learn_cm(struct pnc_flow_table *t, const struct pnc_cm_packet *cm, uint64_t now_us)
{
	uint8_t ver = cm->ip.version;
	uint8_t src[16], dst[16];

	if (!t || !addr_norm(ver, cm->ip.src, src) || !addr_norm(ver, cm->ip.dst, dst))
		return PNC_FLOW_IGNORED;

	switch (cm->msg.mad.attr_id) {
	case PNC_CM_ATTR_REQ:
		return cm_req(t, &cm->msg.u.req, ver, src, dst, now_us);
	case PNC_CM_ATTR_REP:
		return cm_rep(t, &cm->msg.u.rep, ver, src, dst, now_us);
	case PNC_CM_ATTR_REJ:
	case PNC_CM_ATTR_DREQ:
	case PNC_CM_ATTR_DREP:
		return cm_remove(t, &cm->msg, ver, src, dst);
	}
	/* RTU, MRA, LAP, APR, SIDR: nothing to learn (SIDR is UD). */
	return PNC_FLOW_IGNORED;
}

/* ---- PSN correlation ------------------------------------------------------ */

/* RC requests: they carry the requester's PSN sequence. */
static bool rc_is_request(uint8_t op)
{
	return op <= PNC_OP_RC_READ_REQ || op == PNC_OP_RC_CMP_SWAP || op == PNC_OP_RC_FETCH_ADD ||
	       op == PNC_OP_RC_SEND_LAST_INV || op == PNC_OP_RC_SEND_ONLY_INV ||
	       op == PNC_OP_RC_FLUSH || op == PNC_OP_RC_ATOMIC_WRITE;
}

/* RC responses: their PSN echoes one of the requester's PSNs. */
static bool rc_is_response(uint8_t op)
{
	return (op >= PNC_OP_RC_READ_RESP_FIRST && op <= PNC_OP_RC_READ_RESP_ONLY) ||
	       op == PNC_OP_RC_ACK || op == PNC_OP_RC_ATOMIC_ACK;
}

/* Windows are hashed by address pair only, so that an ACK finds all of them. */
static uint32_t win_hash(const struct pnc_flow_table *t, uint8_t ver, const uint8_t a[16],
			 const uint8_t b[16])
{
	return hash_key(t->seed, ver, a, b, 0);
}

static bool win_pair(const struct win_node *w, uint32_t hash, uint8_t ver, const uint8_t a[16],
		     const uint8_t b[16])
{
	return w->h.hash == hash && w->ver == ver && !memcmp(w->a, a, 16) && !memcmp(w->b, b, 16);
}

static void win_restart(struct win_node *w, uint32_t psn)
{
	w->low = w->high = psn;
	w->matches = 0;
	w->cand_qpn = 0;
}

/* A request A->B with DestQP qB: extend its window. */
static void psn_request(struct pnc_flow_table *t, const struct pnc_roce_view *v,
			const uint8_t a[16], const uint8_t b[16], uint64_t now)
{
	uint8_t ver = v->ip.version;
	uint32_t hash = win_hash(t, ver, a, b);
	uint32_t psn = v->bth.psn & PSN_MASK;
	struct win_node *w = NULL;
	uint32_t i;
	int32_t d;

	for (i = pool_chain(&t->wins, hash); i != NIL; i = WIN(t, i)->h.hnext)
		if (win_pair(WIN(t, i), hash, ver, a, b) && WIN(t, i)->qpn_b == v->bth.dest_qp)
			break;

	if (i == NIL) {
		i = pool_alloc_evict(&t->wins, &t->st.psn_evicted);
		w = WIN(t, i);
		w->ver = ver;
		memcpy(w->a, a, 16);
		memcpy(w->b, b, 16);
		w->qpn_b = v->bth.dest_qp;
		win_restart(w, psn);
		pool_insert(&t->wins, i, hash, now);
	} else {
		w = WIN(t, i);
		pool_touch(&t->wins, i, now);
		d = psn_diff(psn, w->high);
		if (d > (int32_t)PSN_MAX_WINDOW || d < -(int32_t)PSN_MAX_WINDOW) {
			/* not this sequence any more: a new connection on the QPN */
			win_restart(w, psn);
		} else if (d > 0) {
			w->high = psn;
			if (psn_diff(w->high, w->low) > (int32_t)PSN_MAX_WINDOW)
				w->low = (w->high - PSN_MAX_WINDOW) & PSN_MASK;
		} else if (psn_diff(psn, w->low) < 0) {
			/* resent after a NAK: it was not acknowledged after all */
			w->low = psn;
		}
	}
	w->pkey = v->bth.pkey;
	w->sport = v->ip.sport;
	w->flow_label = ver == 6 ? v->ip.flow_label : 0;
}

/* A response B->A with DestQP qA: evidence for the window containing its PSN. */
static int psn_response(struct pnc_flow_table *t, const struct pnc_roce_view *v,
			const uint8_t b[16], const uint8_t a[16], uint64_t now)
{
	uint8_t ver = v->ip.version;
	uint32_t hash = win_hash(t, ver, a, b);
	uint32_t x = v->bth.psn & PSN_MASK, qa = v->bth.dest_qp;
	uint32_t i, hit = NIL, fi;
	unsigned int n = 0;
	struct win_node *w;
	struct flow_want fw;

	for (i = pool_chain(&t->wins, hash); i != NIL; i = WIN(t, i)->h.hnext) {
		w = WIN(t, i);
		if (win_pair(w, hash, ver, a, b) && psn_in(x, w->low, w->high)) {
			hit = i;
			n++;
		}
	}
	if (n == 0)
		return PNC_FLOW_IGNORED;
	if (n > 1) {
		t->st.psn_ambiguous++;
		return PNC_FLOW_IGNORED;
	}

	w = WIN(t, hit);
	pool_touch(&t->wins, hit, now);
	if (w->matches && w->cand_qpn == qa) {
		if (psn_diff(x, w->last_match) > 0 && psn_diff(w->high, w->high_at_match) > 0) {
			w->matches++;
			w->last_match = x;
			w->high_at_match = w->high;
		}
	} else {
		if (w->matches)
			t->st.psn_conflicts++;
		w->cand_qpn = qa;
		w->matches = 1;
		w->last_match = x;
		w->high_at_match = w->high;
	}
	if (psn_diff(x, w->low) > 0)
		w->low = x;

	if (w->matches < t->psn_matches)
		return PNC_FLOW_PSN_OBSERVED;

	fi = flow_find(t, ver, a, b, w->qpn_b);
	if (fi != NIL && (FLOW(t, fi)->f.source == PNC_FLOW_CM || FLOW(t, fi)->f.sender_qpn == qa))
		return PNC_FLOW_PSN_OBSERVED; /* CM wins; or nothing new */

	fw = (struct flow_want){
		.ver = ver,
		.s = a,
		.r = b,
		.rqpn = w->qpn_b,
		.sqpn = qa,
		.pkey = w->pkey,
		.sport = w->sport,
		.flow_label = w->flow_label,
		.source = PNC_FLOW_PSN,
	};
	return flow_set(t, &fw, now);
}

int pnc_flow_learn_roce(struct pnc_flow_table *t, const struct pnc_roce_view *v, uint64_t now_us)
{
	uint8_t ver = v->ip.version;
	uint8_t op = v->bth.opcode;
	uint8_t src[16], dst[16];
	int res = PNC_FLOW_IGNORED, r;
	bool cm_flow = false;
	uint32_t fi;

	if (!t || !addr_norm(ver, v->ip.src, src) || !addr_norm(ver, v->ip.dst, dst))
		return PNC_FLOW_IGNORED;
	/* Only RC (0x00-0x1f) and UC (0x20-0x3f) are connected QP pairs. */
	if (op >= 0x40)
		return PNC_FLOW_IGNORED;

	fi = flow_find(t, ver, src, dst, v->bth.dest_qp);
	if (fi != NIL) {
		struct flow_node *n = FLOW(t, fi);

		pool_touch(&t->flows, fi, now_us);
		n->f.last_seen_us = now_us;
		n->f.packets++;
		if (n->f.udp_sport != v->ip.sport)
			t->generation++;
		n->f.udp_sport = v->ip.sport;
		n->f.flow_label = ver == 6 ? v->ip.flow_label : 0;
		cm_flow = n->f.source == PNC_FLOW_CM;
		res = PNC_FLOW_REFRESHED;
	}
	if (op >= 0x20)
		return res; /* UC: no ACKs, so no PSN evidence either */

	if (rc_is_request(op)) {
		/* A CM pairing needs no evidence; keep the window pool for others. */
		if (!cm_flow) {
			psn_request(t, v, src, dst, now_us);
			if (res == PNC_FLOW_IGNORED)
				res = PNC_FLOW_PSN_OBSERVED;
		}
	} else if (rc_is_response(op)) {
		r = psn_response(t, v, src, dst, now_us);
		if (r == PNC_FLOW_LEARNED_PSN || r == PNC_FLOW_TABLE_FULL)
			res = r;
		else if (r == PNC_FLOW_PSN_OBSERVED && res == PNC_FLOW_IGNORED)
			res = r;
	}
	return res;
}

/* ---- table --------------------------------------------------------------- */

struct pnc_flow_table *pnc_flow_table_new_config(const struct pnc_flow_config *cfg)
{
	/* A REQ waits only for one round trip, so a quarter of the flows is plenty. */
	size_t nreq = cfg->max_cm_pending ? cfg->max_cm_pending : cfg->max_flows / 4 + 1;
	size_t nwin = cfg->max_psn_windows ? cfg->max_psn_windows : cfg->max_flows;
	struct pnc_flow_table *t;

	if (!cfg->max_flows || cfg->max_flows > MAX_POOL || nreq > MAX_POOL || nwin > MAX_POOL)
		return NULL;
	t = pnc_calloc(PNC_POOL_FLOW_INDEX, 1, sizeof(*t));
	if (!t)
		return NULL;
	t->timeout = cfg->idle_timeout_us;
	t->seed = cfg->hash_seed;
	t->psn_matches = cfg->psn_matches ? cfg->psn_matches : PNC_FLOW_PSN_MATCHES;
	if (!pool_init(&t->flows, cfg->max_flows, sizeof(struct flow_node)) ||
	    !pool_init(&t->reqs, nreq, sizeof(struct req_node)) ||
	    !pool_init(&t->wins, nwin, sizeof(struct win_node)) ||
	    !(t->cbuckets = pnc_calloc(PNC_POOL_FLOW_INDEX, (size_t)t->flows.mask + 1,
				       sizeof(*t->cbuckets)))) {
		pnc_flow_table_free(t);
		return NULL;
	}
	pnc_flow_table_clear(t);
	return t;
}

struct pnc_flow_table *pnc_flow_table_new(size_t max_flows, uint64_t idle_timeout_us)
{
	struct pnc_flow_config cfg = {
		.max_flows = max_flows,
		.idle_timeout_us = idle_timeout_us,
	};

	return pnc_flow_table_new_config(&cfg);
}

void pnc_flow_table_free(struct pnc_flow_table *t)
{
	if (!t)
		return;
	pool_fini(&t->flows);
	pool_fini(&t->reqs);
	pool_fini(&t->wins);
	pnc_free(PNC_POOL_FLOW_INDEX, t->cbuckets);
	pnc_free(PNC_POOL_FLOW_INDEX, t);
}

const struct pnc_flow *pnc_flow_lookup(struct pnc_flow_table *t, uint8_t ip_version,
				       const uint8_t sender[16], const uint8_t receiver[16],
				       uint32_t receiver_qpn, uint64_t now_us)
{
	uint8_t s[16], r[16];
	uint32_t i;

	if (!t)
		return NULL;
	t->st.lookups++;
	if (!addr_norm(ip_version, sender, s) || !addr_norm(ip_version, receiver, r)) {
		t->st.lookup_misses++;
		return NULL;
	}
	i = flow_find(t, ip_version, s, r, receiver_qpn & 0xffffff);
	if (i == NIL || idle(t, FLOW(t, i)->f.last_seen_us, now_us)) {
		t->st.lookup_misses++;
		return NULL;
	}
	return &FLOW(t, i)->f;
}

void pnc_flow_table_age(struct pnc_flow_table *t, uint64_t now_us)
{
	uint32_t i;

	if (!t || !t->timeout)
		return;
	while ((i = t->flows.head) != NIL && idle(t, hdr(&t->flows, i)->last_us, now_us)) {
		flow_remove(t, i);
		t->st.aged_flows++;
	}
	while ((i = t->reqs.head) != NIL && idle(t, hdr(&t->reqs, i)->last_us, now_us)) {
		pool_remove(&t->reqs, i);
		t->st.aged_cm_pending++;
	}
	while ((i = t->wins.head) != NIL && idle(t, hdr(&t->wins, i)->last_us, now_us)) {
		pool_remove(&t->wins, i);
		t->st.aged_psn_windows++;
	}
}

size_t pnc_flow_table_count(const struct pnc_flow_table *t)
{
	return t ? t->flows.count : 0;
}

size_t pnc_flow_table_capacity(const struct pnc_flow_table *t)
{
	return t ? t->flows.cap : 0;
}

static size_t pool_bytes(const struct pool *p)
{
	return (size_t)p->cap * p->size + ((size_t)p->mask + 1) * sizeof(*p->buckets);
}

size_t pnc_flow_table_bytes(const struct pnc_flow_table *t)
{
	if (!t)
		return 0;
	return sizeof(*t) + pool_bytes(&t->flows) + pool_bytes(&t->reqs) + pool_bytes(&t->wins) +
	       ((size_t)t->flows.mask + 1) * sizeof(*t->cbuckets);
}

void pnc_flow_table_walk(const struct pnc_flow_table *t,
			 void (*cb)(const struct pnc_flow *f, void *arg), void *arg)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->flows.cap; i++)
		if (FLOW(t, i)->h.used)
			cb(&FLOW(t, i)->f, arg);
}

const struct pnc_flow *pnc_flow_table_next(const struct pnc_flow_table *t, uint32_t *slot)
{
	if (!t)
		return NULL;
	for (uint32_t i = *slot; i < t->flows.cap; i++)
		if (FLOW(t, i)->h.used) {
			*slot = i;
			return &FLOW(t, i)->f;
		}
	return NULL;
}

bool pnc_flow_table_slot(const struct pnc_flow_table *t, uint8_t ip_version,
			 const uint8_t sender[16], const uint8_t receiver[16],
			 uint32_t receiver_qpn, uint32_t *slot)
{
	uint8_t s[16], r[16];
	uint32_t i;

	if (!t || !addr_norm(ip_version, sender, s) || !addr_norm(ip_version, receiver, r))
		return false;
	i = flow_find(t, ip_version, s, r, receiver_qpn & 0xffffff);
	if (i == NIL)
		return false;
	*slot = i;
	return true;
}

void pnc_flow_table_walk_saved(const struct pnc_flow_table *t,
			       void (*cb)(const struct pnc_flow_saved *s, void *arg), void *arg)
{
	struct pnc_flow_saved sv;
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->flows.cap; i++) {
		const struct flow_node *n = FLOW(t, i);

		if (!n->h.used)
			continue;
		sv.f = n->f;
		sv.sender_comm = n->f.source == PNC_FLOW_CM ? n->sender_comm : 0;
		sv.receiver_comm = n->f.source == PNC_FLOW_CM ? n->receiver_comm : 0;
		cb(&sv, arg);
	}
}

int pnc_flow_table_restore(struct pnc_flow_table *t, const struct pnc_flow_saved *sv,
			   uint64_t now_us)
{
	const struct pnc_flow *f = &sv->f;
	uint8_t s[16], r[16];
	struct flow_want w;
	uint32_t i;
	int rv;

	if (!t || (f->source != PNC_FLOW_CM && f->source != PNC_FLOW_PSN) ||
	    f->sender_qpn > QPN_MAX || f->receiver_qpn > QPN_MAX ||
	    !addr_norm(f->ip_version, f->sender, s) || !addr_norm(f->ip_version, f->receiver, r))
		return PNC_FLOW_IGNORED;
	w = (struct flow_want){
		.ver = f->ip_version,
		.s = s,
		.r = r,
		.rqpn = f->receiver_qpn,
		.sqpn = f->sender_qpn,
		.pkey = f->pkey,
		.sport = f->udp_sport,
		.flow_label = f->flow_label,
		.source = f->source,
		.s_comm = sv->sender_comm,
		.r_comm = sv->receiver_comm,
	};
	rv = flow_set(t, &w, MIN_U64(f->last_seen_us, now_us));
	if (rv == PNC_FLOW_TABLE_FULL)
		return rv;
	i = flow_find(t, w.ver, s, r, w.rqpn);
	FLOW(t, i)->f.learned_us = MIN_U64(f->learned_us, now_us);
	FLOW(t, i)->f.packets = f->packets;
	return rv;
}

void pnc_flow_table_clear(struct pnc_flow_table *t)
{
	uint32_t i;

	if (!t)
		return;
	t->generation++;
	pool_reset(&t->flows);
	pool_reset(&t->reqs);
	pool_reset(&t->wins);
	for (i = 0; i <= t->flows.mask; i++)
		t->cbuckets[i] = NIL;
}

uint64_t pnc_flow_table_generation(const struct pnc_flow_table *t)
{
	return t ? t->generation : 0;
}

void pnc_flow_table_stats(const struct pnc_flow_table *t, struct pnc_flow_stats *out)
{
	if (!t) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = t->st;
	out->flows = t->flows.count;
	out->cm_pending = t->reqs.count;
	out->psn_windows = t->wins.count;
}

const char *pnc_flow_result_str(int result)
{
	switch (result) {
	case PNC_FLOW_IGNORED:
		return "ignored";
	case PNC_FLOW_CM_PENDING:
		return "cm-pending";
	case PNC_FLOW_LEARNED_CM:
		return "learned-cm";
	case PNC_FLOW_REMOVED:
		return "removed";
	case PNC_FLOW_PSN_OBSERVED:
		return "psn-observed";
	case PNC_FLOW_LEARNED_PSN:
		return "learned-psn";
	case PNC_FLOW_REFRESHED:
		return "refreshed";
	case PNC_FLOW_TABLE_FULL:
		return "table-full";
	}
	return "unknown";
}
