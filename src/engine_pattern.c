/*
 * engine_pattern.c - one round of one rank (engine_int.h): the pairs of
 * the round and this rank's among them, the handshake, the untimed and
 * the time-bounded patterns (the pattern_ops table), incast's receiver,
 * the aggressors' part of the victims' CPU control round.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "engine_int.h"
#include "loopback.h"
#include "pattern.h"
#include "victims.h"

void eng_round_pairs(struct eng *e, const struct ctrl *c)
{
	int k, nv = e->plan->nvictims, per = e->plan->per_node;

	if (c->cmd == CMD_PROBE) {
		e->probe_pair = (struct sw_pair){ c->a, c->b };
		e->round_pair = &e->probe_pair;
		e->round_k = e->round_aggr = 1;
		return;
	}
	k = e->plan->level_pairs[e->plan->cell[c->cell].level];
	e->round_pair = e->plan->pair;
	e->round_k = e->round_aggr = k;
	if (e->plan->map) {
		eng_map_round_pairs(e, c);
		return;
	}
	if (nv || per > 1 || pattern_info(e->plan->cell[c->cell].pattern)->incast) {
		/* a pair's per rank pairs side by side (plan.h) */
		k = c->alone ? 0 : k * per;
		for (int i = 0; i < k; i++) {
			struct sw_pair p = plan_pair(e->plan, c->cell, i / per);

			e->mix[i] = (struct sw_pair){ p.a + i % per, p.b + i % per };
		}
		memcpy(e->mix + k, e->plan->victim, (size_t)nv * sizeof(*e->mix));
		e->round_pair = e->mix;
		e->round_aggr = k;
		e->round_k = k + nv;
	}
}

int eng_pair_of_rank(const struct eng *e, int rank, int *partner, bool *initiator)
{
	for (int i = 0; i < e->round_k; i++) {
		const struct sw_pair *p = &e->round_pair[i];

		if (p->a == rank || p->b == rank) {
			*initiator = p->a == rank;
			*partner = *initiator ? p->b : p->a;
			return i;
		}
	}
	return -1;
}

/* ---------------------------------------------------------------- */
/* Patterns. Each runs one sample of hops; returns 0, or -1 on timeout. */

typedef int (*pattern_fn)(struct eng *e, int peer, bool initiator, uint64_t size, long hops);

/* Post the receives of a window of w messages: all into one buffer, or
 * (distinct_buffers) each into its own slot, cycling when the slots are
 * capped by RECV_SLOT_BYTES. */
static void post_window_recvs(struct eng *e, MPI_Request *req, int w, int cnt, int peer)
{
	int slot = 0;

	for (int i = 0; i < w; i++) {
		MPI_Irecv(e->rbuf + (size_t)slot * e->maxsize, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD,
			  &req[i]);
		if (++slot == e->nslots)
			slot = 0;
	}
}

/* The waits of an untimed sample: polling up to the deadline, or with
 * blocking_waits MPI_Waitall, which the guard watches. */
static int wait_data(struct eng *e, MPI_Request *req, int n)
{
	if (!e->cfg->blocking_waits)
		return eng_wait_reqs(e->env->yield, req, n, e->deadline, false, NULL);
	/* gcc 12 takes MPI_STATUSES_IGNORE for an empty array */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
	MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
	return 0;
}

/* With blocking_waits, MPI_Send and MPI_Recv, as osu_latency. */
static void pingpong_blocking(struct eng *e, int peer, bool initiator, int cnt, long hops)
{
	for (long i = 0; i < hops / 2; i++) {
		if (initiator) {
			eng_fault_message(e);
			MPI_Send(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
			MPI_Recv(e->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(e->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			eng_fault_message(e);
			MPI_Send(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
		}
	}
}

static int run_pingpong(struct eng *e, int peer, bool initiator, uint64_t size, long hops)
{
	MPI_Request req[2];
	int cnt = (int)size;

	if (e->cfg->blocking_waits) {
		pingpong_blocking(e, peer, initiator, cnt, hops);
		return 0;
	}
	for (long i = 0; i < hops / 2; i++) {
		if (initiator) {
			MPI_Irecv(e->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[1]);
			eng_fault_message(e);
			MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[0]);
			if (eng_wait_reqs(e->env->yield, req, 2, e->deadline, false, NULL))
				return -1;
		} else {
			MPI_Irecv(e->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[0]);
			if (eng_wait_reqs(e->env->yield, req, 1, e->deadline, false, NULL))
				return -1;
			eng_fault_message(e);
			MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[0]);
			if (eng_wait_reqs(e->env->yield, req, 1, e->deadline, false, NULL))
				return -1;
		}
	}
	return 0;
}

/* One way, window by window; the receiver acks each window with 4 bytes. */
static int run_stream(struct eng *e, int peer, bool initiator, uint64_t size, long hops)
{
	MPI_Request req[SW_MAX_WINDOW + 1];
	int cnt = (int)size, ack = 0;

	for (long done = 0; done < hops;) {
		int w = (int)(hops - done < e->cfg->window ? hops - done : e->cfg->window);

		if (initiator) {
			MPI_Irecv(&ack, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD, &req[w]);
			eng_fault_message(e);
			for (int i = 0; i < w; i++)
				MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[i]);
			if (wait_data(e, req, w + 1))
				return -1;
		} else {
			post_window_recvs(e, req, w, cnt, peer);
			if (wait_data(e, req, w))
				return -1;
			eng_fault_message(e);
			MPI_Isend(&ack, 1, MPI_INT, peer, TAG_ACK, MPI_COMM_WORLD, &req[0]);
			if (wait_data(e, req, 1))
				return -1;
		}
		done += w;
	}
	return 0;
}

/* Both ways at once, a window each way. */
static int run_bidir(struct eng *e, int peer, bool initiator, uint64_t size, long hops)
{
	MPI_Request req[2 * SW_MAX_WINDOW];
	int cnt = (int)size;

	(void)initiator;
	for (long done = 0; done < hops;) {
		int w = (int)(hops - done < e->cfg->window ? hops - done : e->cfg->window);

		post_window_recvs(e, req, w, cnt, peer);
		eng_fault_message(e);
		for (int i = 0; i < w; i++)
			MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[w + i]);
		if (wait_data(e, req, 2 * w))
			return -1;
		done += w;
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Time-bounded patterns. Each runs from now (the common start) to t_stop
 * (local clock) and fills the initiator's *m: the hops completed and the
 * window they took (t_start, t_end on the common clock, seconds); 0, or
 * -1 on timeout. Data go over e->flow. */

typedef int (*timed_fn)(struct eng *e, int peer, bool initiator, uint64_t size, double t_stop,
			struct sample_msg *m);

/* What a receiver tells its sender, every so many messages and at the
 * end: messages received so far (flow control); at the end, the messages
 * received by the deadline and the window's end (flow_window), and when
 * this rank began sending (bidir; common clock). */
struct flow_ack {
	double received, in_window, t_last, t_start;
	double chunk;      /* the receiver acks every chunk messages from now */
	double last;       /* 1 in the final ack */
};
#define FLOW_ACK_DOUBLES 6

/* Share of a timed sample that the messages in flight may take to drain
 * (enough to keep a link busy while a rank waits for the CPU; not so much
 * that a slow port's drain stretches every round); plan's estimate counts
 * it. */
#define FLOW_DRAIN_SHARE PLAN_DRAIN_SHARE

/* Messages that drain in FLOW_DRAIN_SHARE of span at n messages in
 * elapsed seconds, within lo..hi. */
static long flow_cap(long n, double elapsed, double span, long lo, long hi)
{
	double m = elapsed > 0 ? (double)n / elapsed * span * FLOW_DRAIN_SHARE : 0;

	return m < (double)lo ? lo : m > (double)hi ? hi : (long)m;
}

/* Share of a timed sample between two reads of the clock by a sender or a
 * receiver: MPI_Wtime costs ~276 ns here, more than a small message
 * (osu_bw moves 8 B in ~0.2 us), so it is read every so many messages. */
#define FLOW_CLOCK_SHARE 0.001

/* Messages until the next clock read, at n messages in elapsed seconds:
 * those that pass in FLOW_CLOCK_SHARE of span, within 1..hi. */
static long clock_stride(long n, double elapsed, double span, long hi)
{
	double m = elapsed > 0 ? (double)n / elapsed * span * FLOW_CLOCK_SHARE : 1;

	return m < 1 ? 1 : m > (double)hi ? hi : (long)m;
}

/*
 * Send and/or receive with messages in flight until t_stop; then the
 * sender sends an empty TAG_LAST and the receiver drains what is in
 * flight. In flight: what the receiver's acks have not yet counted (so a
 * hidden queue in MPI or socket buffers cannot grow), at most the window
 * and what drains in FLOW_DRAIN_SHARE of the sample at the rate seen so
 * far, but never below twice the receiver's ack interval (which it
 * announces in each ack: half of the same rule, so at most half the
 * window; so the sender keeps one chunk in flight while the receiver's ack
 * of the other is on its way. An ack every half window, not every
 * quarter, moved 10-16% more 8-B messages a second on shared memory:
 * tests/bench/RESULTS.md §21). The receiver counts what arrived by
 * t_stop (flow_window): bytes that arrive after the deadline load an
 * emptier switch and are not counted. Both sides read the clock every
 * clock_stride() messages, not at each (a read costs more than a small
 * message): the sender may send that many past t_stop, and the receiver's
 * counts go with the time of the same read, so they stay consistent; the
 * sender's flow control (once per ack) reads it afresh, the receiver's ack
 * interval uses its last read. Each receive slot is reposted as it fills,
 * with a wildcard tag; once TAG_LAST arrives, the rest of the ring is
 * cancelled (nothing else can match: the peer sends nothing more on
 * e->flow). *mine: this rank's receiving window (recv), *peer_ack: the
 * peer's final ack (send). 0, or -1 at the round deadline.
 */
/*
 * A receiver's count at the deadline: n1 messages had arrived by t1 <=
 * t_stop, n messages by t_final, the end of the drain. The messages in
 * flight move side by side (MPI over TCP), so they arrive in bursts; the
 * link was busy from t1 to t_final (the sender kept messages in flight
 * until t_stop), so the count at t_stop is n1 plus the share of the
 * n - n1 later messages that time gives, and the window ends at t_stop.
 * When nothing arrived after t_stop, it is n at t_final. Into *w (common
 * clock: minus offset).
 */
static void flow_window(struct flow_ack *w, long n1, double t1, long n, double t_final, double t_stop,
			double offset)
{
	if (t_final > t_stop && t_final > t1 && n > n1) {
		w->in_window = (double)n1 + (double)(n - n1) * (t_stop - t1) / (t_final - t1);
		w->t_last = t_stop - offset;
	} else {
		w->in_window = (double)n;
		w->t_last = t_final - offset;
	}
}

/* The receive buffer of ring slot i (slots share buffers as the
 * windowed patterns' receives do). */
static char *ring_buf(const struct eng *e, int i)
{
	return e->nslots == 1 ? e->rbuf : e->rbuf + (size_t)(i % e->nslots) * e->maxsize;
}

/* The receiving side of one timed flow (timed_flow, incast_receive): a
 * ring of window receives from peer on e->flow, each reposted as it fills,
 * taken in order (slot: the next); the acks to peer (ack: the last one
 * sent, its buffer while ack_out is in flight); the clock reads (read: the
 * count at the last, clock: the count due for the next) and the count at
 * the deadline (n1 by t1, flow_window). */
struct flow_rx {
	int peer;
	MPI_Request *ring;
	MPI_Request ack_out;
	struct flow_ack ack;
	long done, acked, chunk, n1, clock, read;
	int slot, last_slot;  /* the next ring slot; the one TAG_LAST filled, or -1 */
	double t1, t_final;
	bool last;          /* the peer's TAG_LAST arrived */
};

struct flow_rx *eng_flow_rx_new(int n)
{
	return calloc((size_t)n, sizeof(struct flow_rx));
}

/* A receiving side for a flow that started at t0 (ring: window requests).
 * With post false, none: the side is done at once (a pure sender keeps
 * only ack.t_start, its start on the common clock). */
static void flow_rx_start(struct eng *e, struct flow_rx *rx, int peer, MPI_Request *ring, bool post,
			  int cnt, double t0)
{
	*rx = (struct flow_rx){ .peer = peer, .ring = ring, .ack_out = MPI_REQUEST_NULL, .chunk = 1,
				.clock = 1, .last_slot = -1, .t1 = t0, .t_final = t0, .last = !post };
	rx->ack.chunk = 1;
	rx->ack.t_start = t0 - e->offset;
	for (int i = 0; i < e->cfg->window; i++) {
		ring[i] = MPI_REQUEST_NULL;
		if (post)
			MPI_Irecv(ring_buf(e, i), cnt, MPI_BYTE, peer, MPI_ANY_TAG, e->flow, &ring[i]);
	}
}

/* The peer's last message arrived and the final ack is on its way. */
static bool flow_rx_done(const struct flow_rx *rx)
{
	return rx->last && rx->ack_out == MPI_REQUEST_NULL;
}

/* Take the next message of a receiving side, which has arrived (see
 * flow_rx_poll). */
static void flow_rx_take(struct eng *e, struct flow_rx *rx, int cnt, double t0, double span, double t_stop)
{
	int w = e->cfg->window, slot = rx->slot;

	rx->last = slot == rx->last_slot;
	if (!rx->last) {
		rx->done++;
		rx->slot = slot + 1 == w ? 0 : slot + 1;
		MPI_Irecv(ring_buf(e, slot), cnt, MPI_BYTE, rx->peer, MPI_ANY_TAG, e->flow, &rx->ring[slot]);
	}
	if (rx->last ? rx->read < rx->done : rx->done >= rx->clock) {
		rx->t_final = MPI_Wtime();
		rx->read = rx->done;
		if (rx->t_final <= t_stop) {
			rx->n1 = rx->done;
			rx->t1 = rx->t_final;
		}
		rx->clock = rx->done + clock_stride(rx->done, rx->t_final - t0, span, w);
	}
	if (rx->last)
		flow_window(&rx->ack, rx->n1, rx->t1, rx->done, rx->t_final, t_stop, e->offset);
	if (rx->last || rx->done - rx->acked >= rx->chunk) {
		long chunk = flow_cap(rx->read, rx->t_final - t0, span, 1, w) / 2;

		rx->chunk = chunk > 1 ? chunk : 1;
		rx->ack.received = (double)rx->done;
		rx->ack.chunk = (double)rx->chunk;
		rx->ack.last = rx->last;
		rx->acked = rx->done;
		MPI_Isend(&rx->ack, FLOW_ACK_DOUBLES, MPI_DOUBLE, rx->peer, TAG_ACK, MPI_COMM_WORLD, &rx->ack_out);
	}
}

/* One poll of a receiving side (a flow from t0 over span to t_stop, local
 * clock): take every message that has arrived, in order, until an ack is
 * due (one MPI_Testsome tests the next WAIT_SLICE slots, as eng_wait_reqs
 * does): repost each slot, read the clock every clock_stride() messages,
 * ack every chunk messages (never two acks in flight), and at TAG_LAST
 * the count at the deadline. True when a message was taken. */
static bool flow_rx_poll(struct eng *e, struct flow_rx *rx, int cnt, double t0, double span, double t_stop)
{
	int w = e->cfg->window, flag, n, idx[WAIT_SLICE];
	MPI_Status st[WAIT_SLICE];
	bool busy = false;

	if (rx->ack_out != MPI_REQUEST_NULL)
		MPI_Test(&rx->ack_out, &flag, MPI_STATUS_IGNORE);
	while (!rx->last && rx->ack_out == MPI_REQUEST_NULL) {
		int slot = rx->slot;

		if (rx->ring[slot] != MPI_REQUEST_NULL) {
			MPI_Testsome(w - slot < WAIT_SLICE ? w - slot : WAIT_SLICE, &rx->ring[slot], &n, idx, st);
			for (int i = 0; i < n; i++)
				if (st[i].MPI_TAG == TAG_LAST)
					rx->last_slot = slot + idx[i];
			if (rx->ring[slot] != MPI_REQUEST_NULL)
				break;
		}
		flow_rx_take(e, rx, cnt, t0, span, t_stop);
		busy = true;
	}
	return busy;
}

/* Cancel the n receives left in q (nothing else can match them: their
 * peer sends nothing more on e->flow). */
static void cancel_recvs(MPI_Request *q, int n)
{
	for (int i = 0; i < n; i++)
		if (q[i] != MPI_REQUEST_NULL) {
			MPI_Cancel(&q[i]);
			MPI_Wait(&q[i], MPI_STATUS_IGNORE);
		}
}

/* Cancel what is left of a receiving side's ring. */
static void flow_rx_cancel(const struct eng *e, struct flow_rx *rx)
{
	cancel_recvs(rx->ring, e->cfg->window);
}

static int timed_flow(struct eng *e, int peer, bool send, bool recv, uint64_t size, double t_stop,
		      struct flow_ack *mine, struct flow_ack *peer_ack)
{
	int w = e->cfg->window, cnt = (int)size, flag, rc = 0, n, idx[WAIT_SLICE];
	int s_slot = 0, d_slot = 0;   /* ring slots of the next send to post, to complete */
	MPI_Request *sr = e->ring, ack_in = MPI_REQUEST_NULL;
	MPI_Status st[WAIT_SLICE];
	long s_post = 0, s_done = 0, cap = 2;
	long s_clock = 1;   /* the count at the next clock read */
	bool s_last = !send, peer_done = !send;
	double t0 = MPI_Wtime(), span = t_stop - t0, now;
	unsigned polls = 0;
	struct flow_rx rx;

	memset(peer_ack, 0, sizeof(*peer_ack));
	peer_ack->chunk = 1;
	flow_rx_start(e, &rx, peer, e->ring + w, recv, cnt, t0);
	for (int i = 0; i < w; i++)
		sr[i] = MPI_REQUEST_NULL;
	if (send)
		MPI_Irecv(peer_ack, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack_in);
	while (!s_last || s_done < s_post || !peer_done || !flow_rx_done(&rx)) {
		bool busy = false;

		while (!s_last && s_post - (long)peer_ack->received < cap && s_post - s_done < w) {
			if (s_post >= s_clock) {    /* one data message at least */
				now = MPI_Wtime();
				s_last = now >= t_stop;
				s_clock = s_post + clock_stride(s_post, now - t0, span, w);
			}
			if (!s_last && s_slot == 0)
				eng_fault_message(e);
			MPI_Isend(e->sbuf, s_last ? 0 : cnt, MPI_BYTE, peer, s_last ? TAG_LAST : TAG_DATA, e->flow,
				  &sr[s_slot]);
			s_slot = s_slot + 1 == w ? 0 : s_slot + 1;
			s_post++;
			busy = true;
		}
		while (s_done < s_post) {
			MPI_Testsome(w - d_slot < WAIT_SLICE ? w - d_slot : WAIT_SLICE, &sr[d_slot], &n, idx, st);
			if (sr[d_slot] != MPI_REQUEST_NULL)
				break;
			while (s_done < s_post && sr[d_slot] == MPI_REQUEST_NULL) {
				d_slot = d_slot + 1 == w ? 0 : d_slot + 1;
				s_done++;
			}
			busy = true;
		}
		if (!peer_done) {
			MPI_Test(&ack_in, &flag, MPI_STATUS_IGNORE);
			if (flag) {
				busy = true;
				peer_done = peer_ack->last > 0;
				cap = flow_cap((long)peer_ack->received, MPI_Wtime() - t0, span,
					       2 * (long)peer_ack->chunk, w);
				if (!peer_done)
					MPI_Irecv(peer_ack, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack_in);
			}
		}
		busy |= flow_rx_poll(e, &rx, cnt, t0, span, t_stop);
		if (busy)
			polls = 0;
		else if (eng_idle_poll(e->env->yield, &polls, e->deadline)) {
			rc = -1;
			break;
		}
	}
	flow_rx_cancel(e, &rx);
	*mine = rx.ack;
	return rc;
}

/*
 * Incast's receiver: a receiving side per sender (k rings of window
 * receives in e->ring), polled in turn until every sender's TAG_LAST has
 * arrived and its final ack, with its own count at the deadline, is sent.
 * The senders run timed_stream's sending side, so each sender's sample is
 * its own bytes by the deadline, and their sum the receiver's aggregate.
 * 0, or -1 at the round deadline with *stuck a sender not done.
 */
static int incast_receive(struct eng *e, int k, uint64_t size, double t_stop, int *stuck)
{
	int w = e->cfg->window, cnt = (int)size, left = k, rc = 0;
	double t0 = MPI_Wtime(), span = t_stop - t0;
	unsigned polls = 0;

	for (int i = 0; i < k; i++)
		flow_rx_start(e, &e->rx[i], e->round_pair[i].a, e->ring + (size_t)i * w, true, cnt, t0);
	while (left > 0) {
		bool busy = false;

		left = 0;
		for (int i = 0; i < k; i++) {
			busy |= flow_rx_poll(e, &e->rx[i], cnt, t0, span, t_stop);
			left += !flow_rx_done(&e->rx[i]);
		}
		if (busy)
			polls = 0;
		else if (left > 0 && eng_idle_poll(e->env->yield, &polls, e->deadline)) {
			rc = -1;
			break;
		}
	}
	for (int i = k - 1; i >= 0; i--) {
		if (!flow_rx_done(&e->rx[i]))
			*stuck = e->rx[i].peer;
		flow_rx_cancel(e, &e->rx[i]);
	}
	return rc;
}

/* A sample's window from a sender's start to the arrival of the last
 * counted message (common clock). 0 when it is empty: the sender began at
 * or after the deadline (descheduled on a busy host), or the receiver did,
 * so that nothing it counted can be placed in the window (count below 0,
 * flow_window): a missing sample (run.h), never a count over a clamped
 * time. */
static double window_seconds(double t_start, double t_last, double count)
{
	return t_last > t_start && count >= 0 ? t_last - t_start : 0.0;
}

/* A window's count as hops: rounded, at least 1. */
static long window_hops(double n)
{
	return lround(n) > 1 ? lround(n) : 1;
}

/* One way: the window runs from the sender's (initiator's) start (mine)
 * to the receiver's end of window (theirs, flow_window); hops: its count,
 * rounded (at least 1). */
static void stream_sample(struct sample_msg *m, const struct flow_ack *mine, const struct flow_ack *theirs)
{
	m->hops = window_hops(theirs->in_window);
	m->t_start = mine->t_start;
	m->seconds = window_seconds(mine->t_start, theirs->t_last, theirs->in_window);
	m->t_end = m->seconds > 0 ? m->t_start + m->seconds : theirs->t_last;
}

static int timed_stream(struct eng *e, int peer, bool initiator, uint64_t size, double t_stop,
			struct sample_msg *m)
{
	struct flow_ack mine, theirs;

	if (timed_flow(e, peer, initiator, !initiator, size, t_stop, &mine, &theirs))
		return -1;
	stream_sample(m, &mine, &theirs);
	return 0;
}

/* Timed bidir and stream go a half window at a time (bidir_halves,
 * stream_halves_*) for messages of at most this many bytes, where that
 * moved more than the ring flow on shared memory (bidir 8 B: 1.43 x, 64 B:
 * 1.31 x, 256 B: 0.975 x, 1 KiB: 0.75 x; stream 8 B and 64 B: 1.17 x;
 * tests/bench/RESULTS.md §21). A window of them is at most 64 KiB
 * (window <= 1024), whose drain takes 26 ms at 20 Mbit/s; larger
 * messages take the ring flow, whose acks hold in flight only what drains
 * in FLOW_DRAIN_SHARE of the sample. */
#define HALVES_MAX_SIZE 64

/* Does a timed flow of this size go a half window at a time? */
static bool halves_apply(const struct eng *e, uint64_t size)
{
	return e->cfg->window >= 2 && size <= HALVES_MAX_SIZE;
}

/* A rank that does not yield takes timed bidir of messages up to this
 * many bytes a half at a time in MPI's blocking waits
 * (bidir_halves_blocking), a half of at most BLOCKING_HALF_BYTES (so at
 * most twice that in flight each way, as the polled halves' 64 KiB). On
 * shared memory, paired against osu_bibw (tests/bench/RESULTS.md §22):
 * 8 B 0.92 x against the polled halves' 0.89, 256 B 1.11 x against the
 * ring's 0.77, 1 KiB 1.06 x (ring 0.74), 4 KiB 1.08 x (ring 0.95); at
 * 16 KiB a half of 2 messages read 0.91 x and the ring 0.94 x, so larger
 * messages take the ring. */
#define BLOCKING_MAX_SIZE 4096
#define BLOCKING_HALF_BYTES 32768

static bool blocking_halves_apply(const struct eng *e, uint64_t size)
{
	return !e->env->yield && e->cfg->window >= 2 && size <= BLOCKING_MAX_SIZE;
}

/* Post the receives (any tag: the peer's TAG_LAST may fill one; into ring
 * slots first.., as the ring flow's) or the sends of one half of
 * bidir_halves: h requests into q. */
static void halves_post(struct eng *e, MPI_Request *q, int first, int h, int cnt, int peer, bool send)
{
	for (int i = 0; i < h; i++)
		if (send)
			MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, e->flow, &q[i]);
		else
			MPI_Irecv(ring_buf(e, first + i), cnt, MPI_BYTE, peer, MPI_ANY_TAG, e->flow, &q[i]);
}

/* A receiving side's count for the halves flows: got messages so far, the
 * clock read every clock_stride() of them (due at clock), n1 of them by t1,
 * the last read at t_final, of a flow from t0 over span. */
struct halves_count {
	long got, n1, clock;
	double t0, span, t1, t_final;
};

static struct halves_count halves_count_start(double t_stop)
{
	double t0 = MPI_Wtime();

	return (struct halves_count){ .clock = 1, .t0 = t0, .span = t_stop - t0, .t1 = t0, .t_final = t0 };
}

/* Read the clock when a read is due, or at the peer's TAG_LAST (last). */
static void halves_count_read(struct halves_count *c, bool last, double t_stop, long hi)
{
	if (c->got < c->clock && !last)
		return;
	c->t_final = MPI_Wtime();
	if (c->t_final <= t_stop) {
		c->n1 = c->got;
		c->t1 = c->t_final;
	}
	c->clock = c->got + clock_stride(c->got, c->t_final - c->t0, c->span, hi);
}

/* The count at the deadline into *w, as the ring flow takes it. */
static void halves_count_window(const struct halves_count *c, struct flow_ack *w, double t_stop, double offset)
{
	flow_window(w, c->n1, c->t1, c->got, c->t_final, t_stop, offset);
	w->received = (double)c->got;
}

/* One MPI_Testsome over a slot of nreq requests, its first h receives and
 * the rest sends: counts the data received into c (and off *rl), the sends
 * done off *sl, and the peer's TAG_LAST into *last, reading the clock when
 * a read is due. True when something completed. */
static bool halves_poll(MPI_Request *slot, int nreq, int h, int *rl, int *sl, struct halves_count *c, bool *last,
			double t_stop, long hi)
{
	int n, idx[SW_MAX_WINDOW];
	MPI_Status st[SW_MAX_WINDOW];

	MPI_Testsome(nreq, slot, &n, idx, st);
	if (n == MPI_UNDEFINED || n == 0)
		return false;
	for (int i = 0; i < n; i++)
		if (idx[i] >= h)
			--*sl;
		else if (st[i].MPI_TAG == TAG_LAST)
			*last = true;
		else {
			--*rl;
			c->got++;
		}
	halves_count_read(c, *last, t_stop, hi);
	return true;
}

/* The start of both bidir halves flows: the receive of the peer's final
 * counts into *ack_in, then two slots of h receives and h sends (q: slot
 * k at q + 2hk, its receives first). */
static void bidir_halves_start(struct eng *e, MPI_Request *q, int h, int cnt, int peer, struct flow_ack *peer_ack,
			       MPI_Request *ack_in)
{
	MPI_Irecv(peer_ack, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, ack_in);
	for (int k = 0; k < 2; k++)
		halves_post(e, q + k * 2 * h, k * h, h, cnt, peer, false);
	for (int k = 0; k < 2; k++) {
		eng_fault_message(e);
		halves_post(e, q + k * 2 * h + h, 0, h, cnt, peer, true);
	}
}

/*
 * Bidir to a deadline, a half window (h = window / 2 messages each way) at
 * a time, as osu_bibw goes a window at a time, but with two halves in
 * flight, so no link idles between them, and without acks: the peer's data
 * are the clock. A half's h receives and h sends are one slot of 2h
 * requests, polled with one MPI_Testsome; once both are done, the slot is
 * posted again for the half after next (so each way holds at most a window
 * in flight, and the peer's next half may wait unexpected for a moment).
 * Before posting its sends the rank reads the clock, and at t_stop, or
 * once the peer's TAG_LAST has come, sends an empty TAG_LAST instead; it
 * reposts receives until the peer's TAG_LAST. Received messages are
 * counted as MPI_Testsome hands them over, the clock read every
 * clock_stride() messages, and the count at the deadline taken as the ring
 * flow takes it (flow_window); at the end the two ranks swap counts
 * (struct flow_ack, as the ring flow's final ack). Against the ring flow
 * with its acks: 1.43 x the messages a second at 8 B on shared memory
 * (tests/bench/RESULTS.md §21). 0, or -1 at the round deadline.
 */
static int bidir_halves(struct eng *e, int peer, uint64_t size, double t_stop, struct flow_ack *mine,
			struct flow_ack *peer_ack)
{
	int w = e->cfg->window, h = w / 2, cnt = (int)size, rc = 0, b = 0;
	int rl[2] = { h, h }, sl[2] = { h, h };   /* each slot's receives, sends not yet done */
	MPI_Request *q = e->ring, ack[3] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	struct halves_count c = halves_count_start(t_stop);
	bool stop = false, peer_last = false;
	unsigned polls = 0;

	*mine = (struct flow_ack){ .t_start = c.t0 - e->offset, .chunk = 1, .last = 1 };
	bidir_halves_start(e, q, h, cnt, peer, peer_ack, &ack[1]);
	while (!stop || !peer_last || sl[0] || sl[1]) {
		MPI_Request *slot = q + b * 2 * h;
		bool busy = halves_poll(slot, 2 * h, h, &rl[b], &sl[b], &c, &peer_last, t_stop, w);
		if (peer_last && !stop) {
			stop = true;
			MPI_Isend(e->sbuf, 0, MPI_BYTE, peer, TAG_LAST, e->flow, &ack[2]);
		}
		if (sl[b] == 0 && (rl[b] == 0 || peer_last)) {   /* the half is done */
			busy = true;
			if (!peer_last) {
				halves_post(e, slot, b * h, h, cnt, peer, false);
				rl[b] = h;
			}
			if (!stop && MPI_Wtime() >= t_stop) {
				stop = true;
				MPI_Isend(e->sbuf, 0, MPI_BYTE, peer, TAG_LAST, e->flow, &ack[2]);
			} else if (!stop) {
				eng_fault_message(e);
				halves_post(e, slot + h, 0, h, cnt, peer, true);
				sl[b] = h;
			}
			b ^= 1;
		}
		if (busy)
			polls = 0;
		else if (eng_idle_poll(e->env->yield, &polls, e->deadline)) {
			rc = -1;
			break;
		}
	}
	if (!rc) {
		halves_count_window(&c, mine, t_stop, e->offset);
		MPI_Isend(mine, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack[0]);
		rc = eng_wait_reqs(e->env->yield, ack, 3, e->deadline, false, NULL);
	}
	cancel_recvs(q, h);   /* each slot's receives */
	cancel_recvs(q + 2 * h, h);
	return rc;
}

/*
 * Bidir to a deadline a half window at a time in MPI's blocking waits (as
 * osu_bibw waits), for ranks that do not yield: MPI_Waitall on one slot's
 * h receives and h sends at a time, under the guard (the watchdog of
 * blocking waits) for the round's deadline. On shared memory a polled
 * slot (MPI_Testall or MPI_Testsome in a loop) moved half the 256-B
 * messages a second that MPI_Waitall moves (tests/bench/RESULTS.md §22).
 * The stop needs no poll: after each half the rank reads the clock, and at
 * t_stop, or once the peer's last half has come, sends as its last half h
 * empty TAG_LAST messages, which fill a slot of the peer's receives as a
 * half of data would; each rank reposts receives until the peer's last
 * half, and cancels the half it then has posted. Halves are matched in
 * order, so no wait is for a half that will not come. The count is read
 * at each half of data received (halves_count_read) and taken at the
 * deadline as the ring flow takes it; the two
 * ranks swap counts at the end. 0 (a stuck peer ends the job by the
 * guard).
 */
static int bidir_halves_blocking(struct eng *e, int peer, uint64_t size, double t_stop, struct flow_ack *mine,
				 struct flow_ack *peer_ack)
{
	int h = e->cfg->window / 2, cnt = (int)size, b = 0;
	MPI_Request *q = e->ring, ack[2];
	MPI_Status st[SW_MAX_WINDOW];
	struct halves_count c = halves_count_start(t_stop);
	bool stop = false, peer_last = false;

	if ((uint64_t)h * size > BLOCKING_HALF_BYTES)   /* size <= BLOCKING_MAX_SIZE: h >= 8 */
		h = (int)(BLOCKING_HALF_BYTES / size);
	*mine = (struct flow_ack){ .t_start = c.t0 - e->offset, .chunk = 1, .last = 1 };
	eng_guard_arm(e, peer, c.t0);
	bidir_halves_start(e, q, h, cnt, peer, peer_ack, &ack[1]);
	while (!peer_last) {
		MPI_Request *slot = q + b * 2 * h;

		MPI_Waitall(2 * h, slot, st);
		if (st[0].MPI_TAG == TAG_LAST)
			peer_last = true;
		else {
			c.got += h;
			halves_count_read(&c, true, t_stop, h);   /* at every half */
			halves_post(e, slot, b * h, h, cnt, peer, false);
		}
		if (!stop && (peer_last || c.t_final >= t_stop)) {
			stop = true;
			for (int i = 0; i < h; i++)
				MPI_Isend(e->sbuf, 0, MPI_BYTE, peer, TAG_LAST, e->flow, &slot[h + i]);
		} else if (!stop) {
			eng_fault_message(e);
			halves_post(e, slot + h, 0, h, cnt, peer, true);
		}
		b ^= 1;
	}
	cancel_recvs(q + b * 2 * h, h);   /* the half after the peer's last */
	halves_count_window(&c, mine, t_stop, e->offset);
	MPI_Isend(mine, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack[0]);
	/* gcc 12 takes MPI_STATUSES_IGNORE for an empty array */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
	for (int k = 0; k < 2; k++)
		MPI_Waitall(h, q + k * 2 * h + h, MPI_STATUSES_IGNORE);   /* the last sends */
	MPI_Waitall(2, ack, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
	eng_guard_disarm();
	return 0;
}

/*
 * Stream to a deadline a half window at a time, for messages of at most
 * HALVES_MAX_SIZE (stream_halves_send, stream_halves_recv): the sender
 * keeps two halves of h = window / 2 sends in flight and posts half k once
 * half k - 2's sends are done and the receiver's ack says half k - 2 has
 * arrived; the receiver posts two halves of receives, reposts a half as it
 * fills and acks it with its count (two ack buffers, one a half). The
 * sender reads the clock before each half and sends an empty TAG_LAST at
 * t_stop; the receiver counts as MPI_Testsome hands messages over, takes
 * the count at the deadline as the ring flow does (flow_window) and sends
 * it in the final ack. 0, or -1 at the round deadline.
 */
static int stream_halves_send(struct eng *e, int peer, uint64_t size, double t_stop, struct flow_ack *mine,
			      struct flow_ack *peer_ack)
{
	int w = e->cfg->window, h = w / 2, cnt = (int)size, rc = 0, n, b = 0, idx[SW_MAX_WINDOW];
	int sl[2] = { h, h };   /* each slot's sends not yet done */
	MPI_Request *q = e->ring, ack_in = MPI_REQUEST_NULL, last_out = MPI_REQUEST_NULL;
	MPI_Status st[SW_MAX_WINDOW];
	long next = 2;   /* the half to post next */
	bool stop = false, peer_done = false;
	double t0 = MPI_Wtime();
	unsigned polls = 0;

	*mine = (struct flow_ack){ .t_start = t0 - e->offset };
	memset(peer_ack, 0, sizeof(*peer_ack));
	MPI_Irecv(peer_ack, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack_in);
	for (int k = 0; k < 2; k++) {
		eng_fault_message(e);
		halves_post(e, q + k * h, 0, h, cnt, peer, true);
	}
	while (!peer_done || sl[0] || sl[1]) {
		bool busy = false;
		int flag;

		if (sl[b]) {
			MPI_Testsome(h, q + b * h, &n, idx, st);
			if (n > 0 && n != MPI_UNDEFINED) {
				sl[b] -= n;
				busy = true;
			}
		}
		if (!peer_done) {
			MPI_Test(&ack_in, &flag, MPI_STATUS_IGNORE);
			if (flag) {
				busy = true;
				peer_done = peer_ack->last > 0;
				if (!peer_done)
					MPI_Irecv(peer_ack, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack_in);
			}
		}
		if (!stop && sl[b] == 0 && (long)peer_ack->received >= (next - 1) * h) {
			busy = true;
			if (MPI_Wtime() >= t_stop) {
				stop = true;
				MPI_Isend(e->sbuf, 0, MPI_BYTE, peer, TAG_LAST, e->flow, &last_out);
			} else {
				eng_fault_message(e);
				halves_post(e, q + b * h, 0, h, cnt, peer, true);
				sl[b] = h;
				next++;
				b ^= 1;
			}
		} else if (stop && sl[b] == 0)
			b ^= 1;
		if (busy)
			polls = 0;
		else if (eng_idle_poll(e->env->yield, &polls, e->deadline)) {
			rc = -1;
			break;
		}
	}
	if (!rc)
		rc = eng_wait_reqs(e->env->yield, &last_out, 1, e->deadline, false, NULL);
	return rc;
}

static int stream_halves_recv(struct eng *e, int peer, uint64_t size, double t_stop, struct flow_ack *mine)
{
	int w = e->cfg->window, h = w / 2, cnt = (int)size, rc = 0, b = 0;
	int rl[2] = { h, h };   /* each slot's receives not yet done */
	MPI_Request *q = e->ring + w, ack_out[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	struct flow_ack ack[2];
	struct halves_count c = halves_count_start(t_stop);
	bool last = false;
	unsigned polls = 0;

	memset(ack, 0, sizeof(ack));
	for (int k = 0; k < 2; k++)
		halves_post(e, q + k * h, k * h, h, cnt, peer, false);
	while (!last) {
		int none = 0;   /* no sends in a slot */
		bool busy = halves_poll(q + b * h, h, h, &rl[b], &none, &c, &last, t_stop, w);
		if (!last && rl[b] == 0) {   /* a half came: post it again, ack it */
			halves_post(e, q + b * h, b * h, h, cnt, peer, false);
			rl[b] = h;
			if (eng_wait_reqs(e->env->yield, &ack_out[b], 1, e->deadline, false, NULL)) {
				rc = -1;
				break;
			}
			ack[b].received = (double)c.got;
			MPI_Isend(&ack[b], FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack_out[b]);
			b ^= 1;
		}
		if (busy)
			polls = 0;
		else if (eng_idle_poll(e->env->yield, &polls, e->deadline)) {
			rc = -1;
			break;
		}
	}
	if (!rc && !eng_wait_reqs(e->env->yield, ack_out, 2, e->deadline, false, NULL)) {
		*mine = (struct flow_ack){ .t_start = c.t0 - e->offset, .last = 1 };
		halves_count_window(&c, mine, t_stop, e->offset);
		MPI_Isend(mine, FLOW_ACK_DOUBLES, MPI_DOUBLE, peer, TAG_ACK, MPI_COMM_WORLD, &ack_out[0]);
		rc = eng_wait_reqs(e->env->yield, ack_out, 1, e->deadline, false, NULL);
	} else
		rc = -1;
	cancel_recvs(q, 2 * h);
	return rc;
}

/* A stream of small messages goes a half window at a time (up to
 * HALVES_MAX_SIZE; incast's senders take the ring flow: its receiver is
 * incast_receive); hops and window as timed_stream's. */
static int timed_stream_small(struct eng *e, int peer, bool initiator, uint64_t size, double t_stop,
			      struct sample_msg *m)
{
	struct flow_ack mine, theirs;

	if (!halves_apply(e, size))
		return timed_stream(e, peer, initiator, size, t_stop, m);
	if (initiator ? stream_halves_send(e, peer, size, t_stop, &mine, &theirs)
		      : stream_halves_recv(e, peer, size, t_stop, &mine))
		return -1;
	if (initiator)
		stream_sample(m, &mine, &theirs);
	return 0;
}

/* Both ways, a window per direction: hops and seconds are the means of
 * the two (bytes = 2 * size * hops); the sample spans both windows. */
static int timed_bidir(struct eng *e, int peer, bool initiator, uint64_t size, double t_stop,
		       struct sample_msg *m)
{
	struct flow_ack mine, theirs;

	(void)initiator;
	if (blocking_halves_apply(e, size)
		    ? bidir_halves_blocking(e, peer, size, t_stop, &mine, &theirs)
		    : halves_apply(e, size)
		    ? bidir_halves(e, peer, size, t_stop, &mine, &theirs)
		    : timed_flow(e, peer, true, true, size, t_stop, &mine, &theirs))
		return -1;
	double there = window_seconds(mine.t_start, theirs.t_last, theirs.in_window),
	       back = window_seconds(theirs.t_start, mine.t_last, mine.in_window);

	m->hops = window_hops((mine.in_window + theirs.in_window) / 2);
	m->seconds = there > 0 && back > 0 ? (there + back) / 2 : 0.0;   /* either way empty: missing */
	m->t_start = fmin(mine.t_start, theirs.t_start);
	/* never before t_start where the clocks' offsets disagree (the reader
	 * refuses such a sample: seen under valgrind) */
	m->t_end = fmax(m->t_start + m->seconds, fmax(mine.t_last, theirs.t_last));
	return 0;
}

/* Round trips until t_stop; the initiator's last ping is tagged TAG_LAST
 * and still echoed, so the sample ends at most one round trip late. With
 * hist, the initiator adds each round trip / 2 to it (the time between
 * its clock reads) and puts the median and p99 into *m. */
static int pingpong_until(struct eng *e, int peer, bool initiator, uint64_t size, double t_stop,
			  struct sample_msg *m, struct victims_hist *hist)
{
	MPI_Request req[2];
	MPI_Status st;
	int cnt = (int)size;
	long rounds = 0;
	double t0 = MPI_Wtime(), t_prev = t0, now;
	bool last = false;

	if (hist)
		victims_hist_clear(hist);
	while (!last) {
		if (initiator) {
			now = MPI_Wtime();
			last = now >= t_stop;
			if (hist && rounds)
				victims_hist_add(hist, (now - t_prev) / 2);
			t_prev = now;
			MPI_Irecv(e->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, e->flow, &req[1]);
			eng_fault_message(e);
			MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, last ? TAG_LAST : TAG_DATA, e->flow, &req[0]);
			if (eng_wait_reqs(e->env->yield, req, 2, e->deadline, false, NULL))
				return -1;
		} else {
			unsigned polls = 0;
			int flag = 0;

			MPI_Irecv(e->rbuf, cnt, MPI_BYTE, peer, MPI_ANY_TAG, e->flow, &req[0]);
			while (MPI_Test(&req[0], &flag, &st), !flag)
				if (eng_idle_poll(e->env->yield, &polls, e->deadline))
					return -1;
			last = st.MPI_TAG == TAG_LAST;
			eng_fault_message(e);
			MPI_Isend(e->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, e->flow, &req[0]);
			if (eng_wait_reqs(e->env->yield, req, 1, e->deadline, false, NULL))
				return -1;
		}
		rounds++;
	}
	now = MPI_Wtime();
	m->hops = 2 * rounds;
	m->t_start = t0 - e->offset;
	m->t_end = m->t_start + (now - t0);
	/* begun at or after the deadline: no window on a loaded switch, a
	 * missing sample (run.h) */
	m->seconds = initiator && t0 >= t_stop ? 0.0 : now - t0;
	if (hist) {
		victims_hist_add(hist, (now - t_prev) / 2);
		m->p50 = victims_hist_quantile(hist, 0.5);
		m->p99 = victims_hist_quantile(hist, 0.99);
	}
	return 0;
}

static int timed_pingpong(struct eng *e, int peer, bool initiator, uint64_t size, double t_stop,
			  struct sample_msg *m)
{
	return pingpong_until(e, peer, initiator, size, t_stop, m, NULL);
}

/* The pattern table: a fixed hop count, and time-bounded. Incast is
 * always timed; its senders stream (the receiver: incast_round). */
static const struct pattern_ops {
	pattern_fn fixed;
	timed_fn timed;
} pattern_ops[PAT_COUNT] = {
	[PAT_PINGPONG] = { run_pingpong, timed_pingpong },
	[PAT_STREAM] = { run_stream, timed_stream_small },
	[PAT_BIDIR] = { run_bidir, timed_bidir },
	[PAT_INCAST] = { NULL, timed_stream },
};

/* ---------------------------------------------------------------- */

/* Until local time t: sleep while it is far, then poll (yielding when
 * asked to). */
static void wait_until(bool yield, double t)
{
	double left;

	while ((left = t - MPI_Wtime()) > 0) {
		if (left > 1e-3)
			usleep((useconds_t)((left - 5e-4) * 1e6));
		else if (yield)
			sched_yield();
	}
}

/* The receiver's part of an incast round (the aggressors of round_pair:
 * every sender with this rank): the handshake with each sender in turn, then
 * incast_receive from the common start. 0, or -1 on timeout (*peer_out:
 * a sender it waited for). */
static int incast_round(struct eng *e, const struct ctrl *c, int *peer_out)
{
	MPI_Request *req = e->ring;   /* free until the flows start */
	char z = 0, zz;
	int k = e->round_aggr;

	for (int i = 0; i < k; i++) {
		*peer_out = e->round_pair[i].a;
		MPI_Irecv(&zz, 1, MPI_BYTE, *peer_out, TAG_SYNC, MPI_COMM_WORLD, &req[0]);
		if (eng_wait_reqs(e->env->yield, req, 1, e->deadline, false, NULL))
			return -1;
	}
	for (int i = 0; i < k; i++)
		MPI_Isend(&z, 1, MPI_BYTE, e->round_pair[i].a, TAG_SYNC, MPI_COMM_WORLD, &req[i]);
	if (eng_wait_reqs(e->env->yield, req, k, e->deadline, false, NULL))
		return -1;
	wait_until(e->env->yield, c->t_go + e->offset);
	return incast_receive(e, k, e->plan->cell[c->cell].size, c->t_stop + e->offset, peer_out);
}

/* An aggressor's part of the CPU control round: from t_go to t_stop, the
 * initiator streams messages of the cell's size through a TCP connection
 * to itself (loopback.h) at the rate it reached in the loaded round
 * (aggr_rate), reading them back, and both poll the clock between as a
 * waiting sender does (yielding when it yields); nothing crosses the
 * switch. Without a rate or a connection: the polling only (a warning,
 * once). The
 * initiator's sample (no hops) goes to rank 0 like any. */
static int cpu_round(struct eng *e, const struct ctrl *c, bool init, struct sample_msg *out)
{
	struct sample_msg m = { .p50 = NAN, .p99 = NAN, .t_ready = MPI_Wtime() - e->offset };
	double t0, now, stop = c->t_stop + e->offset;
	size_t size = (size_t)e->plan->cell[c->cell].size;
	struct loopback lb;
	static bool warned;
	char why[160];
	bool pump = init && e->aggr_rate > 0;
	uint64_t sent = 0;

	if (pump && loopback_open(&lb, why, sizeof(why))) {
		pump = false;
		if (!warned)
			fprintf(stderr, "swstress: rank %d: warning: %s: this aggressor only polls in the CPU control round\n",
				e->env->rank, why);
		warned = true;
	}

	wait_until(e->env->yield, c->t_go + e->offset);
	t0 = MPI_Wtime();
	while ((now = MPI_Wtime()) < stop) {
		long k = 0;

		if (pump && (double)sent < e->aggr_rate * (now - t0)) {
			k = loopback_send(&lb, e->sbuf, size - sent % size);
			sent += k > 0 ? (uint64_t)k : 0;
		}
		if (pump && (k < 0 || loopback_drain(&lb, e->rbuf, size) < 0)) {
			loopback_close(&lb);
			pump = false;
		}
		if (k <= 0 && e->env->yield)
			sched_yield();
	}
	if (pump)
		loopback_close(&lb);
	m.t_start = t0 - e->offset;
	m.t_end = MPI_Wtime() - e->offset;
	m.seconds = m.t_end - m.t_start;
	if (!init)
		return 0;
	*out = m;
	return 1;
}

int eng_do_round(struct eng *e, const struct ctrl *c, struct sample_msg *out, int *peer_out)
{
	const struct sw_cell *cell = &e->plan->cell[c->cell];
	int peer, idx;
	bool init;
	double t0, t1;
	struct sample_msg m = { .p50 = NAN, .p99 = NAN };

	eng_round_pairs(e, c);
	idx = eng_pair_of_rank(e, e->env->rank, &peer, &init);
	if (idx < 0)
		return 0;
	*peer_out = peer;
	if (c->cpu && idx < e->round_aggr)
		return cpu_round(e, c, init, out);
	if (pattern_info(cell->pattern)->incast && !init && idx < e->round_aggr)
		return incast_round(e, c, peer_out);
	/* Handshake first, so the sample does not include the time the
	 * partner took to get its ROUND message. */
	MPI_Request req[2];
	char z = 0, zz;
	MPI_Irecv(&zz, 1, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD, &req[0]);
	if (init) {
		MPI_Isend(&z, 1, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD, &req[1]);
		if (eng_wait_reqs(e->env->yield, req, 2, e->deadline, false, NULL))
			return -1;
	} else {
		if (eng_wait_reqs(e->env->yield, req, 1, e->deadline, false, NULL))
			return -1;
		MPI_Isend(&z, 1, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD, &req[1]);
		if (eng_wait_reqs(e->env->yield, &req[1], 1, e->deadline, false, NULL))
			return -1;
	}
	t0 = MPI_Wtime();
	m.t_ready = t0 - e->offset;
	m.hops = c->hops;
	if (idx >= e->round_aggr) {   /* a victim: timed pingpong (cells with victims are timed) */
		wait_until(e->env->yield, c->t_go + e->offset);
		if (pingpong_until(e, peer, init, e->cfg->victim_size, c->t_stop + e->offset, &m,
				   init ? e->hist : NULL))
			return -1;
	} else if (cell->timed) {
		wait_until(e->env->yield, c->t_go + e->offset);
		if (pattern_ops[cell->pattern].timed(e, peer, init, cell->size, c->t_stop + e->offset, &m))
			return -1;
		if (init && idx < e->round_aggr)
			e->aggr_rate = pattern_bandwidth(cell->pattern, cell->size, m.hops, m.seconds);
	} else {
		if (e->cfg->blocking_waits)
			eng_guard_arm(e, peer, t0);
		if (pattern_ops[cell->pattern].fixed(e, peer, init, cell->size, c->hops))
			return -1;
		t1 = MPI_Wtime();
		if (e->cfg->blocking_waits)
			eng_guard_disarm();
		m.t_start = t0 - e->offset;
		m.t_end = t1 - e->offset;
		m.seconds = t1 - t0;
	}
	if (!init)
		return 0;
	*out = m;
	return 1;
}
