/*
 * engine.c - runs the cells on MPI; see engine.h for the protocol and
 * engine_int.h for the engine's files. Here: rank 0 drives every cell
 * (leader: rounds, hops = auto, the stopping rule, level ends, drift
 * control, isolation), the other ranks obey it (follower), the clocks are
 * synchronised, and set-up learns the hosts. How a rank waits and how a
 * run ends early: engine_wait.c; what a rank does in a round:
 * engine_pattern.c.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "engine_int.h"
#include "analysis.h"
#include "fmt.h"
#include "stats.h"
#include "pattern.h"
#include "isolate.h"
#include "victims.h"
#include "hostid.h"

#define RECV_SLOT_BYTES (64u << 20)   /* distinct receive slots, at most */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

static double cpu_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

static void note_signal(int sig)
{
	if (!eng_signal)
		eng_signal = sig;
}

/*
 * Clock offset of every rank to rank 0 (local MPI_Wtime minus rank 0's) by
 * ping-pong, keeping the exchange with the smallest round trip. Every rank
 * calls it; rank 0 takes the others in turn, and *off gets this rank's
 * offset. Waits poll (and yield) until deadline: 0, or -1 on timeout.
 */
static int sync_clock(bool yield, int rank, int nranks, double deadline, double *off)
{
	enum { ROUNDS = 16 };
	MPI_Request req[2];
	double t, tr;

	for (int i = 1; i < nranks; i++) {
		if (rank == 0) {
			double best = 1e9, best_off = 0;

			for (int k = 0; k < ROUNDS; k++) {
				double t0 = MPI_Wtime(), t1;

				MPI_Irecv(&tr, 1, MPI_DOUBLE, i, TAG_CLOCK, MPI_COMM_WORLD, &req[1]);
				MPI_Isend(&t0, 1, MPI_DOUBLE, i, TAG_CLOCK, MPI_COMM_WORLD, &req[0]);
				if (eng_wait_reqs(yield, req, 2, deadline, false, NULL))
					return -1;
				t1 = MPI_Wtime();
				if (t1 - t0 < best) {
					best = t1 - t0;
					best_off = tr - (t0 + t1) / 2;
				}
			}
			MPI_Isend(&best_off, 1, MPI_DOUBLE, i, TAG_CLOCK, MPI_COMM_WORLD, &req[0]);
			if (eng_wait_reqs(yield, req, 1, deadline, false, NULL))
				return -1;
		} else if (rank == i) {
			for (int k = 0; k < ROUNDS; k++) {
				MPI_Irecv(&t, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD, &req[0]);
				/* The first message comes when the ranks before this
				 * one are done: wait patiently. The others are timed. */
				if (k == 0 ? eng_wait_patient(yield, req, deadline) : eng_wait_reqs(yield, req, 1, deadline, false, NULL))
					return -1;
				t = MPI_Wtime();
				MPI_Isend(&t, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD, &req[0]);
				if (eng_wait_reqs(yield, req, 1, deadline, false, NULL))
					return -1;
			}
			MPI_Irecv(off, 1, MPI_DOUBLE, 0, TAG_CLOCK, MPI_COMM_WORLD, &req[0]);
			if (eng_wait_reqs(yield, req, 1, deadline, false, NULL))
				return -1;
		}
	}
	if (rank == 0)
		*off = 0.0;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Ranks other than 0: obey rank 0 until CMD_END.                     */

static int follower(struct eng *e)
{
	struct ctrl c;
	struct rusage ru0, ru1;
	MPI_Request req;
	int level = -1;

	getrusage(RUSAGE_SELF, &ru0);
	for (;;) {
		/* Rank 0 says something at least once a round (ROUND or PING). */
		MPI_Irecv(&c, sizeof(c), MPI_BYTE, 0, TAG_CTRL, MPI_COMM_WORLD, &req);
		if (eng_wait_patient(e->env->yield, &req, MPI_Wtime() + e->cfg->timeout + SILENCE_SECONDS)) {
			if (eng_signal) {
				/* take the receive back, so eng_fail_other sees rank 0's HOLD */
				MPI_Status st;
				int cancelled = 0;

				MPI_Cancel(&req);
				MPI_Wait(&req, &st);
				MPI_Test_cancelled(&st, &cancelled);
				if (!cancelled && c.cmd == CMD_HOLD)
					eng_hold();
				eng_fail_other(e, 0);
			}
			eng_die_other(e, "watchdog: no word from rank 0 for %g s; it is stuck or gone",
				  e->cfg->timeout + SILENCE_SECONDS);
		}
		if (c.cmd == CMD_END)
			return 0;
		if (c.cmd == CMD_HOLD)
			eng_hold();
		if (c.cmd == CMD_PING)
			continue;
		if (c.cmd == CMD_LEVEL_END) {
			double cpu[2];

			getrusage(RUSAGE_SELF, &ru1);
			cpu[0] = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&ru0.ru_utime);
			cpu[1] = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&ru0.ru_stime);
			ru0 = ru1;
			MPI_Isend(cpu, 2, MPI_DOUBLE, 0, TAG_CPU, MPI_COMM_WORLD, &req);
			if (eng_wait_reqs(e->env->yield, &req, 1, MPI_Wtime() + e->cfg->timeout, false, NULL))
				eng_fail_other(e, 0);
			/* Clocks drift: measure the offset again for the next level. */
			if (c.record && sync_clock(e->env->yield, e->env->rank, e->env->nranks, MPI_Wtime() + e->cfg->timeout,
						   &e->offset))
				eng_fail_other(e, 0);
			continue;
		}
		e->deadline = MPI_Wtime() + e->cfg->timeout;
		if (c.cell != e->cell || level < 0) {
			e->cell = c.cell;
			level = e->plan->cell[c.cell].level;
			eng_fault_check_stall(e, level);
		}
		struct sample_msg s;
		int peer = -1, rc = eng_do_round(e, &c, &s, &peer);

		if (rc < 0)
			eng_fail_other(e, peer);
		if (rc == 1) {
			MPI_Isend(&s, sizeof(s), MPI_BYTE, 0, TAG_SAMPLE, MPI_COMM_WORLD, &req);
			if (eng_wait_reqs(e->env->yield, &req, 1, e->deadline, false, NULL))
				eng_fail_other(e, 0);
		}
	}
}

/* ---------------------------------------------------------------- */
/* Rank 0: drive every cell.                                          */

/* Control messages are tiny; each is sent from its own slot and completed
 * before the slot is used again. */
static void send_ctrl(const struct ctrl *c, int to, MPI_Request *req)
{
	MPI_Isend((void *)c, sizeof(*c), MPI_BYTE, to, TAG_CTRL, MPI_COMM_WORLD, req);
}

/* Timed cells: the lead from ROUND to the common start is twice the
 * longest it took a pair to get ready last round (it shrinks slowly, so
 * one quick round does not make the next start late), 2 ms to 1 s. */
static void adapt_lead(struct eng *e, const struct sample_msg *res, int k, double t_issue)
{
	double late = 0.0;

	for (int i = 0; i < k; i++)
		if (res[i].t_ready - t_issue > late)
			late = res[i].t_ready - t_issue;
	e->lead = fmax(0.8 * e->lead, 2.0 * late);
	e->lead = fmin(1.0, fmax(2e-3, e->lead));
}

/*
 * One round of a cell on every pair of its level; samples into res. The
 * watchdog's deadline is per round (capped by the sweep's deadline), so a
 * long cell (many repetitions) is never mistaken for a stuck one. Ranks the
 * level leaves idle get a PING, so they know rank 0 is alive. req has room
 * for k samples and nranks control messages.
 */
static void leader_round(struct eng *e, struct ctrl *c, struct sample_msg *res, MPI_Request *req,
			 int *missing)
{
	const struct sw_cell *cell = &e->plan->cell[c->cell];
	int k, nr = e->env->nranks, rc, peer = -1, mine;
	MPI_Request *creq;
	struct ctrl ping = { .cmd = CMD_PING };
	struct notice nt;
	bool dummy;

	if (eng_signal)
		eng_fatal_rank0(e, NULL);
	eng_round_pairs(e, c);
	k = e->round_k;
	creq = req + k;
	e->deadline = MPI_Wtime() + e->cfg->timeout;
	if (e->sweep_deadline > 0) {
		if (MPI_Wtime() > e->sweep_deadline)
			eng_fail_rank0(e, NULL, 0, NULL);
		if (e->sweep_deadline < e->deadline)
			e->deadline = e->sweep_deadline;
	}
	double t_issue = MPI_Wtime();

	if (cell->timed) {
		c->t_go = t_issue + e->lead;
		c->t_stop = c->t_go + e->cfg->sample_time;
	}
	for (int i = 0; i < nr; i++)
		creq[i] = MPI_REQUEST_NULL;
	for (int i = 0; i < k; i++) {
		const struct sw_pair *p = &e->round_pair[i];

		req[i] = MPI_REQUEST_NULL;
		if (p->a != 0)
			MPI_Irecv(&res[i], sizeof(res[i]), MPI_BYTE, p->a, TAG_SAMPLE, MPI_COMM_WORLD, &req[i]);
		if (p->a != 0)
			send_ctrl(c, p->a, &creq[p->a]);
		if (p->b != 0 && creq[p->b] == MPI_REQUEST_NULL)   /* incast: one receiver */
			send_ctrl(c, p->b, &creq[p->b]);
	}
	for (int i = 1; i < nr; i++)
		if (creq[i] == MPI_REQUEST_NULL)
			send_ctrl(&ping, i, &creq[i]);
	mine = eng_pair_of_rank(e, 0, &peer, &dummy);
	rc = eng_do_round(e, c, mine >= 0 ? &res[mine] : NULL, &peer);
	if (rc < 0) {
		int stuck = mine;

		eng_fail_rank0(e, &stuck, 1, NULL);
	}
	rc = eng_wait_reqs(e->env->yield, req, k + nr, e->deadline, true, &nt);
	if (rc == 0) {
		if (cell->timed)
			adapt_lead(e, res, k, t_issue);
		return;
	}
	int nmissing = 0;
	for (int i = 0; i < k; i++) {
		int flag = 1;

		if (req[i] != MPI_REQUEST_NULL)
			MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
		if (!flag)
			missing[nmissing++] = i;
	}
	eng_fail_rank0(e, missing, nmissing, rc == -2 ? &nt : NULL);
}

/* Even for pingpong, at least 1 (2 for pingpong). */
static long fix_hops(int pattern, double h)
{
	long v = h < 1.0 ? 1 : (long)(h + 0.5);

	if (pattern_info(pattern)->even_hops) {
		v += v & 1;
		if (v < 2)
			v = 2;
	}
	return v;
}

static double max_seconds(const struct sample_msg *s, int k)
{
	double m = 0;

	for (int i = 0; i < k; i++)
		if (s[i].seconds > m)
			m = s[i].seconds;
	return m;
}

/* hops = auto: grow hops until a round takes a quarter of sample_time,
 * then scale to sample_time; never below the sample floor's time and hops
 * (analysis.h), so a busy host that makes a short round look long cannot
 * leave 2 hops. A first round warms the connections up; each step takes
 * the median of three rounds, so one descheduled round does not fix the
 * hops. Runs unrecorded rounds; returns the hops. */
static long calibrate(struct eng *e, struct ctrl *c,
		      struct sample_msg *res, MPI_Request *req, int *missing)
{
	const struct sw_cell *cell = &e->plan->cell[c->cell];
	int k = e->plan->level_pairs[cell->level] * e->plan->per_node;
	double target = fmax(e->cfg->sample_time, analysis_floor_seconds(e->run->wtick, e->run->round_trip));
	long floor = fix_hops(cell->pattern, (double)analysis_floor_hops(cell->pattern, false, e->cfg->window));
	double t, tr[3];
	long h = fix_hops(cell->pattern, 2);

	c->record = 0;
	c->hops = h;
	leader_round(e, c, res, req, missing);
	for (;;) {
		c->hops = h;
		for (int i = 0; i < 3; i++) {
			leader_round(e, c, res, req, missing);
			tr[i] = max_seconds(res, k);
		}
		t = stats_median(tr, 3);
		if (t >= target / 4 || h >= (1L << 26))
			break;
		double f = t > 0 ? target / 4 / t : 64;
		h = fix_hops(cell->pattern, (double)h * (f < 2 ? 2 : f > 64 ? 64 : f));
	}
	h = fix_hops(cell->pattern, (double)h * target / (t > 0 ? t : target));
	return h > floor ? h : floor;
}

/* Cells done of the sweep (sequential, block < 0) or of block block,
 * the time left from the visits so far (a block design: at least
 * rep_min blocks). */
static void progress_line(const struct eng *e, int block, int done, double t0)
{
	int n = e->plan->ncells, visits = (block > 0 ? block : 0) * n + done;
	int total = block < 0 ? n : n * (block + 1 > e->cfg->rep_min ? block + 1 : e->cfg->rep_min);
	double el = MPI_Wtime() - t0, left = visits ? el / visits * (total - visits) : 0;

	if (block >= 0)
		fprintf(stderr, "\rswstress: block %d, cells %d/%d, %.0f s elapsed, about %.0f s left   ", block,
			done, n, el, left);
	else
		fprintf(stderr, "\rswstress: cells %d/%d, %.0f s elapsed, about %.0f s left   ", done, n, el, left);
	if (visits == total)
		fputc('\n', stderr);
	fflush(stderr);
}

/* The adaptive stopping rule on the unit of every interval: one value per
 * repetition, the median latency over its pairs (analysis_rep_values). */
static bool converged(struct eng *e, int ci)
{
	double *x;
	size_t n;
	bool ok;

	if (analysis_rep_values(e->run, ci, SW_METRIC_LATENCY, &x, &n))
		eng_fatal_rank0(e, "out of memory (repetition values of a cell)");
	ok = analysis_converged(x, n, e->cfg->confidence, e->cfg->ci_target);
	free(x);
	return ok;
}

/*
 * End of a level (of a level's visit in a block): CPU times from every
 * rank, then, with flush (a sequential level's end, a block's end), the
 * clocks synchronised again and the flush. At the last level the other
 * ranks are released (CMD_END) before the flush, which runs the
 * statistics: they need not wait for it.
 */
static void leader_level_end(struct eng *e, struct rusage *ru0, MPI_Request *req, bool last, bool flush)
{
	struct sw_run *r = e->run;
	int nr = e->env->nranks, level = e->plan->cell[e->cell].level;
	bool resync = flush && !last && !e->run->wtime_global;
	struct ctrl end = { .cmd = CMD_LEVEL_END, .cell = e->cell, .record = resync }, done = { .cmd = CMD_END };
	double (*cpu)[2] = calloc((size_t)nr, sizeof(*cpu));
	struct rusage ru1;
	struct notice nt;
	int rc;

	if (!cpu)
		eng_fatal_rank0(e, "out of memory (CPU times)");
	req[0] = req[nr] = MPI_REQUEST_NULL;
	for (int i = 1; i < nr; i++) {
		send_ctrl(&end, i, &req[nr + i]);
		MPI_Irecv(cpu[i], 2, MPI_DOUBLE, i, TAG_CPU, MPI_COMM_WORLD, &req[i]);
	}
	rc = eng_wait_reqs(e->env->yield, req, 2 * nr, MPI_Wtime() + e->cfg->timeout, true, &nt);
	if (rc) {
		char why[256];

		if (rc == -2)
			eng_notice_signal(&nt);
		eng_send_hold(e);
		if (rc == -2)
			snprintf(why, sizeof(why), "watchdog: rank %d timed out waiting for rank %d at the end of "
				 "level %d", nt.rank, nt.peer, level);
		else
			snprintf(why, sizeof(why), "watchdog: not every rank reported its CPU time at the end of "
				 "level %d within %g s", level, e->cfg->timeout);
		free(cpu);
		eng_fatal_rank0(e, why);
	}
	getrusage(RUSAGE_SELF, &ru1);
	cpu[0][0] = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&ru0->ru_utime);
	cpu[0][1] = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&ru0->ru_stime);
	*ru0 = ru1;
	if (resync && sync_clock(e->env->yield, 0, nr, MPI_Wtime() + e->cfg->timeout, &e->offset)) {
		free(cpu);
		eng_send_hold(e);
		eng_fatal_rank0(e, "watchdog: the clock synchronisation at the end of a level did not finish");
	}
	for (int i = 0; i < nr; i++) {
		struct sw_cpu u = { level, i, cpu[i][0], cpu[i][1] };

		if (run_add_cpu(r, &u))
			eng_fatal_rank0(e, "out of memory (CPU times)");
	}
	free(cpu);
	if (last) {
		req[0] = MPI_REQUEST_NULL;
		for (int i = 1; i < nr; i++)
			send_ctrl(&done, i, &req[i]);
		if (eng_wait_reqs(e->env->yield, req, nr, MPI_Wtime() + e->cfg->timeout, false, NULL))
			eng_fatal_rank0(e, "the other ranks did not take the end of the sweep");
		r->complete = true;
	}
	if (flush && e->o->level_done)
		e->o->level_done(r, level, e->o->ctx);
}

/*
 * The isolation stage (isolate.h), after the last cell: the statistics of
 * the sweep so far name the flagged pairs; each probe pair then runs
 * alone, a warm-up round and ISOLATE_REPS recorded rounds of its cell,
 * into r->probe. The other ranks stay idle (PING) meanwhile.
 */
static void leader_isolate(struct eng *e, struct sample_msg *res, MPI_Request *req, int *missing)
{
	enum { MAX_PROBES = 64 };
	struct sw_probe probe[MAX_PROBES];
	char err[256];
	struct sw_analysis *a = analysis_run(e->run, e->cfg, err, sizeof(err));
	int n = a ? isolate_plan(e->run, a->pair, a->npairstats, probe, MAX_PROBES) : 0;

	analysis_free(a);
	for (int i = 0; i < n; i++) {
		struct ctrl c = { .cmd = CMD_PROBE, .cell = probe[i].cell, .a = probe[i].a, .b = probe[i].b,
				  .hops = e->plan->cell[probe[i].cell].hops };

		e->cell = c.cell;
		leader_round(e, &c, res, req, missing);   /* warm-up */
		c.record = 1;
		for (int rep = 0; rep < ISOLATE_REPS; rep++) {
			struct sw_probe p = probe[i];

			c.rep = rep;
			leader_round(e, &c, res, req, missing);
			p.rep = rep;
			p.t_start = res[0].t_start;
			p.t_end = res[0].t_end;
			p.seconds = res[0].seconds;
			p.hops = res[0].hops;
			if (run_add_probe(e->run, &p))
				eng_fatal_rank0(e, "out of memory (probes)");
		}
	}
}

/* Times a timed round is run again when a pair of it had no time window
 * (it got ready at or after the deadline: a descheduled rank on a busy
 * host); the lead has grown to the late pair's readiness by then
 * (adapt_lead). A sample still without one is recorded missing (run.h). */
#define ROUND_AGAIN 3

/* A recorded round of cell c: run again while a timed pair had no window
 * (ROUND_AGAIN times at most). */
static void leader_round_whole(struct eng *e, struct ctrl *c, struct sample_msg *res, MPI_Request *req,
			       int *missing)
{
	int n = e->plan->level_pairs[e->plan->cell[c->cell].level] * e->plan->per_node;

	for (int again = 0;; again++) {
		bool empty = false;

		leader_round(e, c, res, req, missing);
		for (int i = 0; i < n && e->plan->cell[c->cell].timed; i++)
			empty |= !(res[i].seconds > 0);
		if (!empty || again == ROUND_AGAIN)
			return;
	}
}

/* Pair i's sample of a recorded round of cell ci: with per_node rank
 * pairs (res[i per_node + j], plan.h) their messages summed over the span
 * from the first start to the last end, as osu_mbw_mr counts its pairs. */
static struct sw_sample sample_of(const struct eng *e, const struct sample_msg *res, int ci, int rep, int i)
{
	int per = e->plan->per_node;
	const struct sample_msg *m = res + (size_t)i * per;
	struct sw_sample s = { .cell = ci, .rep = rep, .pair = i, .t_start = m[0].t_start, .t_end = m[0].t_end,
			       .seconds = m[0].seconds, .hops = m[0].hops };

	bool empty = !(m[0].seconds > 0);

	for (int j = 1; j < per; j++) {
		s.t_start = fmin(s.t_start, m[j].t_start);
		s.t_end = fmax(s.t_end, m[j].t_end);
		s.seconds = fmax(s.seconds, m[j].seconds);
		s.hops += m[j].hops;
		empty |= !(m[j].seconds > 0);
	}
	if (s.t_end - s.t_start > s.seconds)
		s.seconds = s.t_end - s.t_start;
	if (empty)   /* a rank pair without a window: the sample is missing (run.h) */
		s.seconds = 0.0;
	return s;
}

/*
 * Drift control (plan_drift_check), after the last cell: every cell of
 * the baseline level once more, its warm-up and as many repetitions as it
 * recorded the first time, into r->again (analysis tests the two).
 */
static void leader_again(struct eng *e, struct sample_msg *res, MPI_Request *req, int *missing)
{
	int k = e->plan->level_pairs[0];

	for (int b = 0; b < e->plan->ncells && e->plan->cell[b].level == 0; b++) {
		struct ctrl c = { .cmd = CMD_ROUND, .cell = b, .hops = e->plan->cell[b].hops };

		e->cell = b;
		for (int w = 0; w < e->cfg->warmup; w++)
			leader_round(e, &c, res, req, missing);
		c.record = 1;
		for (int rep = 0; rep < e->run->cell[b].reps; rep++) {
			c.rep = rep;
			leader_round_whole(e, &c, res, req, missing);
			for (int i = 0; i < k; i++) {
				struct sw_sample s = sample_of(e, res, b, rep, i);

				if (run_add_again(e->run, &s))
					eng_fatal_rank0(e, "out of memory (drift control samples)");
			}
		}
	}
}

/* The victims' samples of a round (res: one per victim pair). */
static void record_victims(struct eng *e, const struct ctrl *c, const struct sample_msg *res)
{
	for (int j = 0; j < e->plan->nvictims; j++) {
		struct sw_victim v = {
			.cell = c->cell, .rep = c->rep, .pair = j, .alone = c->alone, .cpu = c->cpu,
			.t_start = res[j].t_start, .t_end = res[j].t_end, .seconds = res[j].seconds,
			.hops = res[j].hops, .p50 = res[j].p50, .p99 = res[j].p99,
		};

		if (run_add_victim(e->run, &v))
			eng_fatal_rank0(e, "out of memory (victims' samples)");
	}
}

/* A repetition's round of the victims alone, or of the CPU control
 * (victims.h), recorded. */
static void leader_victims_round(struct eng *e, struct ctrl *c, struct sample_msg *res, MPI_Request *req,
				 int *missing, bool cpu)
{
	c->alone = !cpu;
	c->cpu = cpu;
	leader_round(e, c, res, req, missing);
	record_victims(e, c, cpu ? res + e->round_aggr : res);
	c->alone = c->cpu = 0;
}

/* The buffers and facts of rank 0's sweep, for the two designs. */
struct lead {
	struct sample_msg *res;
	MPI_Request *req;
	int *missing;
	long auto_hops[PAT_COUNT][SW_MAX_LIST];
	double t_sweep;
	struct rusage ru0;
	bool cpu_control;
	bool overrun;                   /* the overrun warning was given */
	double t_mark, mark_cost;       /* blocks: the end and the time of the
	                                 * last clock resync and flush */
};

/* Design blocks: a block's end resyncs the clocks and flushes (about 0.1 s
 * on 4 ranks of 2 shared cores) only once the sweep has run this many
 * times as long as the last one took, so that they cost at most 1/this of
 * the sweep, as one per level does in a sequential sweep; the last block
 * always flushes. */
#define ENG_MARK_FACTOR 50.0

/* Once, while cells are left to run: a warning when the sweep has taken
 * ENGINE_OVERRUN x its estimate (and 1 s more). */
static void leader_overrun(struct eng *e, struct lead *l, bool more)
{
	double t = e->run->duration, est = e->o->estimate;
	char so_far[32], about[32];

	if (l->overrun || !more || est <= 0 || t < ENGINE_OVERRUN * est || t < est + 1.0)
		return;
	l->overrun = true;
	fprintf(stderr, "%sswstress: warning: %s so far, more than %gx the estimate of about %s: a slow pair or "
		"port? (the report names a slow pair in a level of %d or more pairs, and the ratio between the "
		"pairs of a smaller level)\n", e->o->progress ? "\n" : "", fmt_val(so_far, sizeof(so_far), FMT_TIME, t),
		ENGINE_OVERRUN, fmt_val(about, sizeof(about), FMT_TIME, est), ANALYSIS_SLOW_PAIR_MIN);
}

/* Resolve cell ci's hops = auto (calibrate once per pattern and size). */
static void leader_hops(struct eng *e, struct lead *l, int ci)
{
	struct sw_cell *cell = &e->plan->cell[ci];
	struct ctrl c = { .cmd = CMD_ROUND, .cell = ci };

	if (cell->hops == 0 && !cell->timed) {
		long *ah = &l->auto_hops[cell->pattern][cell->size_index];

		e->cell = ci;
		if (*ah == 0)
			*ah = calibrate(e, &c, l->res, l->req, l->missing);
		cell->hops = *ah;
	}
}

/* Cell ci's warm-up rounds, unrecorded. */
static void leader_warmup(struct eng *e, struct lead *l, int ci)
{
	struct ctrl c = { .cmd = CMD_ROUND, .cell = ci, .hops = e->plan->cell[ci].hops };

	e->cell = ci;
	for (int w = 0; w < e->cfg->warmup; w++)
		leader_round(e, &c, l->res, l->req, l->missing);
}

/* Repetition rep of cell ci, recorded: the victims alone, the level's
 * round (its samples into the run), the victims' CPU control. */
static void leader_rep(struct eng *e, struct lead *l, int ci, int rep)
{
	struct sw_run *r = e->run;
	int k = e->plan->level_pairs[e->plan->cell[ci].level];
	struct ctrl c = { .cmd = CMD_ROUND, .cell = ci, .hops = e->plan->cell[ci].hops, .rep = rep, .record = 1 };

	e->cell = ci;
	if (e->plan->nvictims)
		leader_victims_round(e, &c, l->res, l->req, l->missing, false);
	leader_round_whole(e, &c, l->res, l->req, l->missing);
	if (e->plan->nvictims)
		record_victims(e, &c, l->res + k);
	for (int i = 0; i < k; i++) {
		struct sw_sample s = sample_of(e, l->res, ci, rep, i);

		if (run_add_sample(r, &s))
			eng_fatal_rank0(e, "out of memory (samples)");
	}
	r->cell[ci].timed += max_seconds(l->res, k * e->plan->per_node);
	/* the CPU control last: the loaded round follows one idle round
	 * (alone), not two, so the aggressors' TCP windows are as in a
	 * repetition without it */
	if (e->plan->nvictims && l->cpu_control)
		leader_victims_round(e, &c, l->res, l->req, l->missing, true);
	r->cell[ci].reps = rep + 1;
}

/* Design sequential: every repetition of a cell, then the next cell. */
static void leader_sequential(struct eng *e, struct lead *l)
{
	struct sw_run *r = e->run;
	const struct sw_config *cfg = e->cfg;

	for (int ci = 0; ci < e->plan->ncells; ci++) {
		struct sw_cell *cell = &e->plan->cell[ci];
		double t_cell = MPI_Wtime();

		e->cell = ci;
		if (ci == 0 || e->plan->cell[ci - 1].level != cell->level)
			eng_fault_check_stall(e, cell->level);
		leader_hops(e, l, ci);
		leader_warmup(e, l, ci);
		for (int rep = 0;; rep++) {
			leader_rep(e, l, ci, rep);
			if (cfg->rep_min == cfg->rep_max) {
				if (rep + 1 >= cfg->rep_max) {
					r->cell[ci].stop = SW_STOP_FIXED;
					break;
				}
				continue;
			}
			if (rep + 1 < cfg->rep_min)
				continue;
			if (converged(e, ci)) {
				r->cell[ci].stop = SW_STOP_CONVERGED;
				break;
			}
			if (rep + 1 >= cfg->rep_max) {
				r->cell[ci].stop = SW_STOP_MAX_REPS;
				break;
			}
			if (MPI_Wtime() - t_cell > cfg->cell_budget) {
				r->cell[ci].stop = SW_STOP_BUDGET;
				break;
			}
		}
		r->cell[ci].wall = MPI_Wtime() - t_cell;
		r->duration = MPI_Wtime() - l->t_sweep;
		if (e->o->progress)
			progress_line(e, -1, ci + 1, l->t_sweep);
		leader_overrun(e, l, ci + 1 < e->plan->ncells);
		if (ci + 1 == e->plan->ncells && plan_drift_check(e->plan, cfg)) {
			leader_again(e, l->res, l->req, l->missing);
			r->duration = MPI_Wtime() - l->t_sweep;
		}
		if (ci + 1 == e->plan->ncells && e->o->isolate)
			leader_isolate(e, l->res, l->req, l->missing);
		if (ci + 1 == e->plan->ncells || e->plan->cell[ci + 1].level != cell->level)
			leader_level_end(e, &l->ru0, l->req, ci + 1 == e->plan->ncells, true);
	}
}

/* Whether a block design stops after block b (every cell has b + 1
 * repetitions), and why: rep_max reached; adaptive, every cell's
 * interval within ci_target; or the sweep's budget, cell_budget for each
 * cell, spent. */
static int blocks_stop(struct eng *e, struct lead *l, int b)
{
	const struct sw_config *cfg = e->cfg;
	bool all = true;

	if (b + 1 >= cfg->rep_max)
		return cfg->rep_min == cfg->rep_max ? SW_STOP_FIXED : SW_STOP_MAX_REPS;
	if (cfg->rep_min == cfg->rep_max || b + 1 < cfg->rep_min)
		return -1;
	for (int ci = 0; ci < e->plan->ncells && all; ci++)
		all = converged(e, ci);
	if (all)
		return SW_STOP_CONVERGED;
	if (MPI_Wtime() - l->t_sweep > cfg->cell_budget * e->plan->ncells)
		return SW_STOP_BUDGET;
	return -1;
}

/*
 * Design blocks (plan.h): hops = auto calibrated at the baseline level
 * before the first block; block b runs repetition b of every cell, the
 * levels in plan_block_order's order, each cell warmed up at its first
 * visit; CPU times at the end of every level's visit (a map's: of the
 * block, recorded under its last step), the clocks and the flush at the
 * end of a block (ENG_MARK_FACTOR: not of every block).
 */
static void leader_blocks(struct eng *e, struct lead *l)
{
	struct sw_run *r = e->run;
	const struct sw_plan *p = e->plan;
	int L = p->nlevels, per = plan_cells_per_level(p), stop = -1;
	int *order = malloc((size_t)L * sizeof(*order));

	if (!order)
		eng_fatal_rank0(e, "out of memory (block order)");
	eng_fault_check_stall(e, 0);
	for (int ci = 0; ci < p->ncells; ci++)
		leader_hops(e, l, ci);   /* level 0's cells first: calibrated there */
	for (int b = 0; stop < 0; b++) {
		plan_block_order(p, e->cfg, b, order);
		for (int i = 0; i < L; i++) {
			int first = plan_level_first_cell(p, order[i]);

			eng_fault_check_stall(e, order[i]);
			for (int ci = first; ci < first + per; ci++) {
				double t_cell = MPI_Wtime();

				if (b == 0)
					leader_warmup(e, l, ci);
				leader_rep(e, l, ci, b);
				r->cell[ci].wall += MPI_Wtime() - t_cell;
				r->duration = MPI_Wtime() - l->t_sweep;
				if (e->o->progress)
					progress_line(e, b, i * per + ci - first + 1, l->t_sweep);
				leader_overrun(e, l, b + 1 < e->cfg->rep_max || i + 1 < L || ci + 1 < first + per);
			}
			run_sort_samples(r);
			if (i + 1 == L) {
				stop = blocks_stop(e, l, b);
				for (int ci = 0; ci < p->ncells && stop >= 0; ci++)
					r->cell[ci].stop = stop;
			}
			if (stop >= 0 && e->o->isolate)
				leader_isolate(e, l->res, l->req, l->missing);
			bool mark = i + 1 == L &&
				    (stop >= 0 || MPI_Wtime() - l->t_mark >= ENG_MARK_FACTOR * l->mark_cost);
			double t0 = MPI_Wtime();

			/* a map's CPU times once a block: its steps are many, and
			 * a round trip to every rank after each would cost more
			 * than the step */
			if (!p->map || i + 1 == L)
				leader_level_end(e, &l->ru0, l->req, stop >= 0, mark);
			if (mark) {
				l->t_mark = MPI_Wtime();
				l->mark_cost = l->t_mark - t0;
			}
		}
	}
	free(order);
}

static int leader(struct eng *e)
{
	struct sw_run *r = e->run;
	const struct sw_config *cfg = e->cfg;
	int maxk = e->plan->npairs * e->plan->per_node + e->plan->nvictims, nr = e->env->nranks;
	struct lead l = { .res = calloc((size_t)maxk, sizeof(*l.res)),
			  .req = calloc((size_t)(maxk + 2 * nr), sizeof(*l.req)),
			  .missing = calloc((size_t)maxk, sizeof(*l.missing)), .t_sweep = MPI_Wtime() };
	struct hostid_share hs;

	if (!l.res || !l.req || !l.missing)
		eng_fatal_rank0(e, "out of memory (round buffers)");
	hostid_share(r->id, r->host, r->nranks, &hs);
	l.cpu_control = cfg->cpu_control == CFG_YES || (cfg->cpu_control == CFG_AUTO && hs.kernels > 0);
	if (e->o->deadline > 0)
		e->sweep_deadline = l.t_sweep + e->o->deadline;
	getrusage(RUSAGE_SELF, &l.ru0);
	if (cfg->design == CFG_DESIGN_BLOCKS && e->plan->nlevels > 1)
		leader_blocks(e, &l);
	else
		leader_sequential(e, &l);
	free(l.res);
	free(l.req);
	free(l.missing);
	return 0;
}

/* Message buffers start on a page, as OSU's do: malloc's large blocks
 * start 16 bytes into one, so every message over shared memory (UCX copies
 * pages across processes) touched a page more and copied unaligned. */
static void *page_alloc(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return aligned_alloc(page, (n + page - 1) / page * page);
}

int engine_sweep(struct sw_run *r, const struct sw_config *c, struct sw_plan *p,
		 const struct engine_env *env, const struct engine_opts *o)
{
	struct sigaction on_stop = { .sa_handler = note_signal, .sa_flags = SA_RESTART }, was[NSTOP_SIGNALS];
	struct eng e = { .cfg = c, .plan = p, .env = env, .o = o, .run = r, .cell = -1,
			 .offset = env->clock_offset, .lead = 0.01 + 0.002 * env->nranks };
	pthread_t guard;
	bool guarded = c->blocking_waits || !env->yield;   /* may wait in MPI's blocking calls */
	int rc;

	if (c->window < 1 || c->window > SW_MAX_WINDOW) {
		fprintf(stderr, "swstress: rank %d: window %d outside 1..%d\n", env->rank, c->window, SW_MAX_WINDOW);
		engine_abort(SW_EXIT_USAGE);
	}
	eng_parse_faults(&e);
	for (int i = 0; i < c->nsizes; i++)
		if (c->sizes[i] > e.maxsize)
			e.maxsize = c->sizes[i];
	if (p->nvictims && c->victim_size > e.maxsize)
		e.maxsize = c->victim_size;
	if (e.maxsize == 0)
		e.maxsize = 1;
	e.nslots = c->distinct_buffers ? c->window : 1;
	if ((uint64_t)e.nslots * e.maxsize > RECV_SLOT_BYTES)
		e.nslots = (int)(RECV_SLOT_BYTES / e.maxsize) > 0 ? (int)(RECV_SLOT_BYTES / e.maxsize) : 1;
	e.sbuf = page_alloc(e.maxsize);
	e.rbuf = page_alloc((size_t)e.nslots * e.maxsize);
	e.ring = calloc((size_t)(p->npairs > 2 ? p->npairs : 2) * (size_t)c->window, sizeof(*e.ring));
	e.rx = eng_flow_rx_new(p->npairs);
	e.mix = calloc((size_t)(p->npairs * p->per_node + p->nvictims), sizeof(*e.mix));
	e.hist = p->nvictims ? malloc(sizeof(*e.hist)) : NULL;
	if (!e.sbuf || !e.rbuf || !e.ring || !e.rx || !e.mix || (p->nvictims && !e.hist)) {
		fprintf(stderr, "swstress: rank %d: cannot allocate %llu bytes of message buffers\n",
			env->rank, (unsigned long long)((size_t)(e.nslots + 1) * e.maxsize));
		engine_abort(SW_EXIT_FAIL);
	}
	/* Touch every page now, not inside a timed sample. */
	memset(e.sbuf, 0xa5, e.maxsize);
	memset(e.rbuf, 0, (size_t)e.nslots * e.maxsize);
	MPI_Comm_dup(MPI_COMM_WORLD, &e.flow);
	sigemptyset(&on_stop.sa_mask);
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &on_stop, &was[i]);
	if (guarded && eng_guard_start(&e, &guard)) {
		fprintf(stderr, "swstress: rank %d: cannot start the watchdog thread of blocking waits\n", env->rank);
		engine_abort(SW_EXIT_FAIL);
	}
	rc = env->rank == 0 ? leader(&e) : follower(&e);
	if (guarded)
		eng_guard_stop(guard);
	for (size_t i = 0; i < NSTOP_SIGNALS; i++)
		sigaction(stop_signals[i], &was[i], NULL);
	if (eng_signal)   /* after the sweep's last wait: as if it came a moment later */
		raise(eng_signal);
	MPI_Comm_free(&e.flow);
	free(e.mix);
	free(e.hist);
	free(e.ring);
	free(e.rx);
	free(e.sbuf);
	free(e.rbuf);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Setup                                                              */

/* Whether rank i yields: yield = yes, or auto with more ranks on its
 * kernel (or MPI node) than cores: ranks in network namespaces share
 * them too. */
static bool rank_yields(const struct sw_config *c, const struct hostid *id, int nranks, int i)
{
	int peers = 0;

	for (int j = 0; j < nranks; j++)
		peers += j == i || hostid_same_kernel(&id[i], &id[j]) ||
			 (id[i].mpi_node >= 0 && id[i].mpi_node == id[j].mpi_node);
	return c->yield == CFG_YIELD_YES ||
	       (c->yield == CFG_YIELD_AUTO && peers > hostid_kernel_cores(id, nranks, i));
}

/* The round overhead of the sample floor: the median of ROUND_TRIPS
 * one-byte round trips of ranks 0 and 1 (rank 0 gets it; NaN elsewhere).
 * -1 when an exchange did not finish by deadline. */
static int round_trip(bool yield, int rank, int nranks, double deadline, double *rtt)
{
	enum { ROUND_TRIPS = 21 };
	double t[ROUND_TRIPS];
	char out = 0, in;
	MPI_Request req[2];

	*rtt = NAN;
	if (rank > 1 || nranks < 2)
		return 0;
	for (int k = 0; k < ROUND_TRIPS; k++) {
		double t0 = MPI_Wtime();

		MPI_Irecv(&in, 1, MPI_BYTE, 1 - rank, TAG_SYNC, MPI_COMM_WORLD, &req[0]);
		if (rank == 0) {
			MPI_Isend(&out, 1, MPI_BYTE, 1, TAG_SYNC, MPI_COMM_WORLD, &req[1]);
			if (eng_wait_reqs(yield, req, 2, deadline, false, NULL))
				return -1;
		} else {
			if (eng_wait_reqs(yield, req, 1, deadline, false, NULL))
				return -1;
			MPI_Isend(&out, 1, MPI_BYTE, 0, TAG_SYNC, MPI_COMM_WORLD, &req[1]);
			if (eng_wait_reqs(yield, &req[1], 1, deadline, false, NULL))
				return -1;
		}
		t[k] = MPI_Wtime() - t0;
	}
	if (rank == 0)
		*rtt = stats_median(t, ROUND_TRIPS);
	return 0;
}

void engine_setup(struct sw_run *r, const struct sw_config *c, struct engine_env *env)
{
	char name[MPI_MAX_PROCESSOR_NAME] = { 0 }, (*all)[SW_HOST_MAX] = NULL;
	int len = 0, flag = 0, *is_global = NULL, first = 0;
	struct hostid mine_f, *facts;
	MPI_Request req[2];
	MPI_Comm node;
	MPI_Group world, local;

	MPI_Comm_rank(MPI_COMM_WORLD, &env->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &env->nranks);
	MPI_Get_processor_name(name, &len);
	hostid_read(&mine_f);
	/* the MPI node: its lowest rank (rank 0 of node, in world's numbers) */
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Comm_group(node, &local);
	MPI_Group_translate_ranks(local, 1, &first, world, &mine_f.mpi_node);
	MPI_Group_free(&local);
	MPI_Group_free(&world);
	MPI_Comm_free(&node);

	/* One all-gather of the identities and one gather of the host names,
	 * both nonblocking and waited for yielding (unless yield = no):
	 * blocking collectives spin, and with many ranks on few cores each
	 * took ~1 s. */
	char mine[SW_HOST_MAX] = { 0 };
	snprintf(mine, sizeof(mine), "%s", name);
	facts = calloc((size_t)env->nranks, sizeof(*facts));
	all = calloc(env->rank == 0 ? (size_t)env->nranks : 1, sizeof(*all));
	if (!facts || !all) {
		fprintf(stderr, "swstress: rank %d: out of memory (host facts of %d ranks)\n", env->rank, env->nranks);
		engine_abort(SW_EXIT_FAIL);
	}
	MPI_Iallgather(&mine_f, sizeof(mine_f), MPI_BYTE, facts, sizeof(mine_f), MPI_BYTE, MPI_COMM_WORLD, &req[0]);
	MPI_Igather(mine, SW_HOST_MAX, MPI_CHAR, all, SW_HOST_MAX, MPI_CHAR, 0, MPI_COMM_WORLD, &req[1]);
	if (eng_wait_reqs(c->yield != CFG_YIELD_NO, req, 2, MPI_Wtime() + 120.0, false, NULL)) {
		fprintf(stderr, "swstress: rank %d: the exchange of host facts at start-up did not finish in 120 s\n",
			env->rank);
		engine_abort(SW_EXIT_FAIL);
	}
	env->yield = rank_yields(c, facts, env->nranks, env->rank);
	bool any_yield = false;
	for (int i = 0; i < env->nranks; i++)
		any_yield = any_yield || rank_yields(c, facts, env->nranks, i);
	if (env->rank == 0 && r)
		memcpy(r->id, facts, (size_t)env->nranks * sizeof(*facts));
	free(facts);
	env->clock_offset = 0.0;
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &is_global, &flag);
	bool global = flag && is_global && *is_global;
	if (!global && sync_clock(env->yield, env->rank, env->nranks, MPI_Wtime() + 120.0, &env->clock_offset)) {
		fprintf(stderr, "swstress: rank %d: the clock synchronisation at start-up did not finish in 120 s\n",
			env->rank);
		engine_abort(SW_EXIT_FAIL);
	}
	double rtt;
	if (round_trip(env->yield, env->rank, env->nranks, MPI_Wtime() + 120.0, &rtt)) {
		fprintf(stderr, "swstress: rank %d: the round trips of ranks 0 and 1 at start-up did not finish in 120 s\n",
			env->rank);
		engine_abort(SW_EXIT_FAIL);
	}
	if (env->rank == 0 && r) {
		int vlen = 0;

		r->round_trip = rtt;
		char ver[MPI_MAX_LIBRARY_VERSION_STRING];

		for (int i = 0; i < env->nranks; i++)
			snprintf(r->host[i], SW_HOST_MAX, "%s", all[i]);
		MPI_Get_library_version(ver, &vlen);
		ver[strcspn(ver, "\n")] = '\0';
		snprintf(r->mpi_version, sizeof(r->mpi_version), "%.255s", ver);
		r->wtick = MPI_Wtick();
		r->wtime_global = global;
		r->yield = any_yield;
	}
	free(all);
}

