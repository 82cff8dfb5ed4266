/*
 * engine_int.h - the engine's private state and the calls between its
 * files; no other file includes it. The engine is three files along its
 * seams:
 *   engine.c          rank 0's drive of every cell (leader), the other
 *                     ranks' obedience (follower), the clocks, set-up
 *   engine_wait.c     waits that watch a deadline, the one fatal path of
 *                     every rank, the guard of blocking waits, fault
 *                     injection
 *   engine_pattern.c  one round of one rank: its pair, the handshake, the
 *                     untimed and timed patterns (the pattern_ops table)
 *   engine_map.c      the fabric map's rounds (plan.h, mapsched.h)
 * MPI: only these files and main.c include mpi.h.
 */
#ifndef ENGINE_INT_H
#define ENGINE_INT_H

#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>
#include "engine.h"

enum {
	TAG_DATA = 101, TAG_ACK, TAG_SYNC, TAG_CTRL, TAG_SAMPLE, TAG_NOTICE, TAG_CPU, TAG_CLOCK,
	TAG_LAST,         /* a timed sample's last message (on the flow communicator) */
};

/* ROUND: run one sample. PING: rank 0 is alive (sent each round to the
 * ranks the level leaves idle). HOLD: rank 0 is ending the run; wait.
 * PROBE: a round of the isolation stage: one pair, a and b of the ctrl. */
enum { CMD_ROUND = 1, CMD_PING, CMD_LEVEL_END, CMD_END, CMD_HOLD, CMD_PROBE };

/* How long past timeout a rank waits for word from rank 0 (which may be
 * writing the results of a level) before it gives up on rank 0. */
#define SILENCE_SECONDS 10.0

/* eng_wait_reqs' batch: one MPI_Testsome over the next WAIT_SLICE requests
 * (the timed patterns' rings are tested the same way). */
#define WAIT_SLICE 16

struct ctrl {
	int cmd, cell, rep;
	int record;       /* 0: warm-up or calibration round */
	long hops;
	double t_go, t_stop;   /* timed cells: start and deadline, rank 0's clock */
	int a, b;              /* CMD_PROBE: the pair */
	int alone;             /* CMD_ROUND with victims: the victims alone */
	int cpu;               /* CMD_ROUND with victims: the CPU control, the
	                        * aggressors busy without sending (victims.h) */
};

struct sample_msg {
	double t_start, t_end, seconds;
	long hops;             /* hops completed (timed cells) */
	double t_ready;        /* the pair's handshake done, common clock */
	double p50, p99;       /* a victim's one-way latencies (s), victims.h */
};

struct notice {
	int rank, peer, cell;   /* peer -N: rank was stopped by signal N */
};

/* Per-rank state of a sweep. */
struct eng {
	const struct sw_config *cfg;
	struct sw_plan *plan;           /* rank 0: hops = auto resolved into it */
	const struct engine_env *env;
	const struct engine_opts *o;
	struct sw_run *run;             /* rank 0 only */
	char *sbuf;                     /* send buffer, max size */
	char *rbuf;                     /* nslots receive slots of max size */
	int nslots;                     /* 1 unless distinct_buffers */
	uint64_t maxsize;
	double deadline;                /* of the current round, local clock */
	double sweep_deadline;          /* rank 0: of the whole sweep, 0 none */
	double offset;                  /* clock offset to rank 0, re-measured
	                                 * at each level end */
	MPI_Comm flow;                  /* timed patterns' data: a wildcard tag
	                                 * there sees only pattern messages */
	MPI_Request *ring;              /* max(2, npairs) * window requests:
	                                 * timed patterns, incast's receiver */
	struct flow_rx *rx;             /* npairs: incast's receiving flows */
	double lead;                    /* rank 0: from sending ROUND to t_go */
	const struct sw_pair *round_pair;  /* the pairs of the current round */
	int round_k;
	int round_aggr;                 /* round pairs from this index on are
	                                 * victims (victims.h) */
	struct sw_pair *mix;            /* aggressors then victims, a round's */
	struct victims_hist *hist;      /* a victim initiator's round trips */
	double aggr_rate;               /* an aggressor initiator's bytes/s in
	                                 * its last loaded round: the CPU
	                                 * control's loopback rate */
	struct sw_pair probe_pair;      /* a PROBE round's one pair */
	int cell;
	int stall_rank, stall_level;    /* fault injection, -1 if off */
	bool stall_in_sample;           /* ...at the level's first message */
	bool stall_now;                 /* that level came: eng_fault_message stalls */
	useconds_t delay_us;            /* of this rank, 0 if none */
	double wander_us, wander_period; /* SWSTRESS_FAULT_WANDER, 0 if none */
	double wander_t0;               /* MPI_Wtime when the sweep began */
};

/* ---------------------------------------------------------------- */
/* engine_wait.c: waits, failure, the guard, fault injection.         */

/* SIGINT, SIGTERM or SIGHUP received during the sweep, 0 for none. The
 * handler only notes it (the one thing a handler may do); every wait gives
 * up when it sees it, as at a deadline. */
extern volatile sig_atomic_t eng_signal;

/* SWSTRESS_FAULT_STALL=R:L stops rank R at the start of level L, before
 * its handshake; R:L:sample at its first message of that level, inside a
 * sample (eng_fault_message). SWSTRESS_FAULT_DELAY=R:US sleeps US
 * microseconds before every message of a sample on rank R.
 * SWSTRESS_FAULT_WANDER=US:PERIOD makes every rank's speed wander with
 * time (a fabric whose rates drift): before every message of a sample it
 * sleeps US (1 + sin(2 pi t / PERIOD)) / 2 microseconds, t the seconds
 * since its sweep began (US / 2 at the start, rising fastest there; US at
 * PERIOD / 4). Read from the
 * environment into e. */
void eng_parse_faults(struct eng *e);

/* Level level begins on this rank: a stall at its start stops here. */
void eng_fault_check_stall(struct eng *e, int level);

/* Stop this rank for good (the stall of SWSTRESS_FAULT_STALL). */
_Noreturn void eng_fault_stall(const struct eng *e, int level);

/* The sleep of SWSTRESS_FAULT_WANDER at this moment. */
void eng_fault_wander(const struct eng *e);

/* Before a message of a sample: SWSTRESS_FAULT_DELAY=R:US sleeps US
 * microseconds on rank R, SWSTRESS_FAULT_WANDER its wander; a stall in a
 * sample stops here. */
static inline void eng_fault_message(const struct eng *e)
{
	if (e->stall_now)
		eng_fault_stall(e, e->stall_level);
	if (e->delay_us)
		usleep(e->delay_us);
	if (e->wander_us > 0)
		eng_fault_wander(e);
}

/* One idle poll of a wait loop: yield when asked to (let the other ranks
 * and, on emulated hosts, the kernel's network work run; after a while
 * with nothing done, sleep briefly rather than spin). Every CLOCK_POLLS
 * polls (CLOCK_POLLS_YIELDING when yielding), -1 past deadline (local
 * MPI_Wtime, 0 = none) or once a signal came; else 0. */
int eng_idle_poll(bool yield, unsigned *polls, double deadline);

/* Wait for n requests until deadline (local MPI_Wtime; 0 = none). Returns
 * 0 when all completed, -1 on timeout, -2 (rank 0, watch_notices) when a
 * notice arrived (copied to *nt). */
int eng_wait_reqs(bool yield, MPI_Request *req, int n, double deadline, bool watch_notices,
		  struct notice *nt);

/* Wait for one request that may be long in coming (a rank waiting for its
 * turn or for rank 0's next word). When yielding, nap 20 us, doubling up to
 * 1 ms, so that ranks with nothing to do leave the cores to those at work;
 * otherwise as eng_wait_reqs. Never used inside a timed sample. */
int eng_wait_patient(bool yield, MPI_Request *req, double deadline);

/* Rank 0, ending the run: tell every rank to wait for the abort rather
 * than give up on rank 0 while it writes the results. */
void eng_send_hold(const struct eng *e);

/* A notice from a rank stopped by a signal: the run stops for it. */
void eng_notice_signal(const struct notice *n);

/* Rank 0's one fatal path: record why (or, once a signal came, whatever
 * failed after it, "stopped by signal N (NAME)"), have the results
 * written, print once, abort the job with the run's code (the failure
 * code, or when a signal stopped it, signal_code: 128 + the signal when
 * 0). why may be NULL once a signal came. */
_Noreturn void eng_fatal_rank0(struct eng *e, const char *why);

/* Rank 0: the watchdog fired (or a notice came) in the current cell. Name
 * the stuck pairs, mark the cell failed, then the fatal path. missing[]
 * lists pair indices whose sample did not arrive (may be empty). */
void eng_fail_rank0(struct eng *e, const int *missing, int nmissing, const struct notice *first);

/* A rank other than 0 gives up: abort the job with the run's code. */
_Noreturn void eng_die_other(struct eng *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Rank 0 said HOLD: it is writing the results and will abort the job. */
_Noreturn void eng_hold(void);

/* A rank other than 0 timed out waiting for peer: tell rank 0. If rank 0
 * answers HOLD, wait for its abort; if it says nothing within the grace
 * period (rank 0 itself may be the one stuck), end the job from here. */
void eng_fail_other(struct eng *e, int peer);

/* The guard, the watchdog of blocking waits (blocking_waits, and timed
 * bidir on ranks that do not yield): a thread that ends the job
 * as the polling watchdog would when the main thread is blocked in a
 * sample past the round's deadline. eng_guard_start starts it with every
 * signal blocked (the handlers are the main thread's): 0, or
 * pthread_create's error; eng_guard_stop ends it and joins it. */
int eng_guard_start(struct eng *e, pthread_t *t);
void eng_guard_stop(pthread_t t);

/* Main thread, before the blocking waits of a sample with peer (t_now:
 * MPI_Wtime). The guard ends the job at the round's deadline. Rank 0 then
 * writes what it has; another rank gives rank 0, which polls for the
 * samples of every other pair, SILENCE_SECONDS to do that first. */
void eng_guard_arm(const struct eng *e, int peer, double t_now);

/* Main thread, after them: once the guard has taken over, the process is
 * its to end. */
void eng_guard_disarm(void);

/* ---------------------------------------------------------------- */
/* engine_pattern.c: one round of one rank.                           */

/* The pairs of round c into e (round_pair, round_k, round_aggr): the
 * first pairs of the plan, as many as the cell's level has, or a PROBE's
 * one pair; incast: its senders with the receiver (plan_pair). With
 * victims: those pairs (none when the round is the victims' alone) and
 * then the victims. */
void eng_round_pairs(struct eng *e, const struct ctrl *c);

/* rank's pair in the current round: its index, or -1 when it has none
 * (*partner, *initiator: its peer and side). */
int eng_pair_of_rank(const struct eng *e, int rank, int *partner, bool *initiator);

/* Run this rank's part of round c: one sample if the rank is in a pair of
 * the level. A timed cell's pair starts at c->t_go (or at once when it is
 * late) and runs to c->t_stop. The initiator fills *out (common clock). 1
 * if this rank initiated, 0 if not, -1 on timeout (*peer_out gets the
 * peer). */
int eng_do_round(struct eng *e, const struct ctrl *c, struct sample_msg *out, int *peer_out);

/* ---------------------------------------------------------------- */
/* engine_map.c: the fabric map (schedule = map).                     */

/* The pairs of a map's round c into e: the step's (the cell's level's)
 * pairs, computed from the schedule, into e->mix. */
void eng_map_round_pairs(struct eng *e, const struct ctrl *c);

/* n receiving sides of timed flows (e->rx), zeroed; NULL when out of
 * memory. free() frees them. */
struct flow_rx *eng_flow_rx_new(int n);

#endif
