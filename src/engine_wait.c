/*
 * engine_wait.c - how every rank waits and how a run ends early; see
 * engine_int.h.
 *
 * Every blocking step is a nonblocking call followed by eng_wait_reqs(),
 * which polls, yields when asked to, and gives up at the cell deadline. A
 * rank that gives up tells rank 0 which peer it was waiting for
 * (TAG_NOTICE); rank 0 names the stuck pair, writes what it has, and
 * aborts the job. If rank 0 itself is the one not answering, the rank that
 * noticed prints and aborts after a grace period. SIGINT, SIGTERM and
 * SIGHUP during the sweep take the same path: the handler only notes the
 * signal, the waits give up at their next clock read, and the run ends
 * with the signal recorded.
 *
 * With blocking_waits, the untimed patterns wait in MPI's blocking calls
 * instead (as OSU does), and so does timed bidir of up to 4 KiB on ranks
 * that do not yield (bidir_halves_blocking); such waits cannot watch a
 * deadline: a watchdog thread
 * (the guard, whose one MPI call is its final MPI_Abort) watches the
 * sample from outside and ends the job when it runs past the deadline.
 */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine_int.h"
#include "pattern.h"

#define GRACE_SECONDS 2.0
/* Polls between two reads of the clock for the deadline: MPI_Wtime costs
 * ~276 ns here, a poll ~50 ns; a deadline is seconds away. Yielding polls
 * take microseconds, so they read it more often. */
#define CLOCK_POLLS 1024
#define CLOCK_POLLS_YIELDING 64        /* both powers of 2 */

/* ---------------------------------------------------------------- */
/* Fault injection (SWSTRESS_FAULT_STALL, SWSTRESS_FAULT_DELAY)       */

_Noreturn void eng_fault_stall(const struct eng *e, int level)
{
	fprintf(stderr, "swstress: rank %d: SWSTRESS_FAULT_STALL: stalling at level %d%s\n", e->env->rank,
		level, e->stall_in_sample ? ", in a sample" : "");
	for (;;)
		sleep(1);
}

void eng_fault_check_stall(struct eng *e, int level)
{
	if (e->env->rank != e->stall_rank || level < e->stall_level)
		return;
	if (!e->stall_in_sample)
		eng_fault_stall(e, level);
	e->stall_now = true;
}

void eng_fault_wander(const struct eng *e)
{
	double us = e->wander_us * (1.0 + sin(6.283185307179586 * (MPI_Wtime() - e->wander_t0) / e->wander_period)) / 2.0;

	if (us >= 1.0)
		usleep((useconds_t)us);
}

void eng_parse_faults(struct eng *e)
{
	const char *s = getenv("SWSTRESS_FAULT_STALL");
	const char *d = getenv("SWSTRESS_FAULT_DELAY"), *w = getenv("SWSTRESS_FAULT_WANDER");
	char where[8] = "";

	e->stall_rank = -1;
	e->stall_level = 1;
	if (s && *s && sscanf(s, "%d:%d:%7s", &e->stall_rank, &e->stall_level, where) < 1)
		e->stall_rank = -1;
	e->stall_in_sample = strcmp(where, "sample") == 0;
	if (e->plan->nlevels < 2 && e->stall_level > 0)
		e->stall_level = 0;
	if (w && *w && (sscanf(w, "%lf:%lf", &e->wander_us, &e->wander_period) != 2 || !(e->wander_us > 0) ||
			!(e->wander_us < 1e7) || !(e->wander_period > 0)))
		e->wander_us = 0;   /* not of the form US:PERIOD: off, as the other faults */
	e->wander_t0 = MPI_Wtime();
	if (d && *d) {
		int rank = -1;
		unsigned us = 0;

		if (sscanf(d, "%d:%u", &rank, &us) == 2 && rank == e->env->rank)
			e->delay_us = us;
	}
}

/* ---------------------------------------------------------------- */
/* Waiting: the watchdog lives here.                                 */

volatile sig_atomic_t eng_signal;

int eng_idle_poll(bool yield, unsigned *polls, double deadline)
{
	unsigned mask = (yield ? CLOCK_POLLS_YIELDING : CLOCK_POLLS) - 1;

	if (yield) {
		if (*polls > 2048)
			usleep(20);
		else
			sched_yield();
	}
	if ((++*polls & mask) == 0 && (eng_signal || (deadline > 0 && MPI_Wtime() > deadline)))
		return -1;
	return 0;
}

/* Rank 0 only: a notice from a rank that timed out. */
static bool notice_pending(struct notice *n)
{
	int flag = 0;
	MPI_Status st;

	MPI_Iprobe(MPI_ANY_SOURCE, TAG_NOTICE, MPI_COMM_WORLD, &flag, &st);
	if (!flag)
		return false;
	MPI_Recv(n, sizeof(*n), MPI_BYTE, st.MPI_SOURCE, TAG_NOTICE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return true;
}

/*
 * eng_wait_reqs: each poll tests the next WAIT_SLICE unfinished requests
 * with one MPI_Testsome, so a poll costs the same for a window of 16 or
 * 1024 (they mostly complete in order) and completes them in batches:
 * 0.95 x MPI_Waitall (which cannot watch a deadline) for 8-byte messages,
 * where one MPI_Test per request gave 0.76 (tests/bench/waits.c). The clock is read
 * every CLOCK_POLLS polls (CLOCK_POLLS_YIELDING when yielding), and so are
 * notices.
 */
int eng_wait_reqs(bool yield, MPI_Request *req, int n, double deadline, bool watch_notices,
		  struct notice *nt)
{
	unsigned polls = 0, mask = (yield ? CLOCK_POLLS_YIELDING : CLOCK_POLLS) - 1;
	int done, idx[WAIT_SLICE], i = 0;
	MPI_Status st[WAIT_SLICE];     /* not MPI_STATUSES_IGNORE: gcc 12 misreads it */

	for (;;) {
		while (i < n && req[i] == MPI_REQUEST_NULL)
			i++;
		if (i == n)
			return 0;
		if (n - i == 1)
			MPI_Test(&req[i], &done, st);
		else
			MPI_Testsome(n - i < WAIT_SLICE ? n - i : WAIT_SLICE, &req[i], &done, idx, st);
		if (done > 0 && req[i] == MPI_REQUEST_NULL)
			continue;
		if (eng_idle_poll(yield, &polls, deadline))
			return -1;
		if ((polls & mask) == 0 && watch_notices && notice_pending(nt))
			return -2;
	}
}

int eng_wait_patient(bool yield, MPI_Request *req, double deadline)
{
	int flag;

	if (!yield)
		return eng_wait_reqs(false, req, 1, deadline, false, NULL);
	for (useconds_t nap = 20;; nap = nap >= 500 ? 1000 : 2 * nap) {
		MPI_Test(req, &flag, MPI_STATUS_IGNORE);
		if (flag)
			return 0;
		if (eng_signal || (deadline > 0 && MPI_Wtime() > deadline))
			return -1;
		usleep(nap);
	}
}

void eng_send_hold(const struct eng *e)
{
	static const struct ctrl hold = { .cmd = CMD_HOLD };

	for (int i = 1; i < e->env->nranks; i++) {
		MPI_Request req;

		MPI_Isend((void *)&hold, sizeof(hold), MPI_BYTE, i, TAG_CTRL, MPI_COMM_WORLD, &req);
		MPI_Request_free(&req);
	}
}

/* The exit status of a run that ends early: the failure code, or when a
 * signal stopped it, signal_code (128 + the signal when 0). */
static int stop_code(const struct eng *e)
{
	if (!eng_signal)
		return e->o->fail_code;
	return e->o->signal_code ? e->o->signal_code : 128 + eng_signal;
}

void eng_notice_signal(const struct notice *n)
{
	if (n && n->peer < 0 && !eng_signal)
		eng_signal = -n->peer;
}

/* Rank 0's one fatal path: record why (or, once a signal came, whatever
 * failed after it, "stopped by signal N (NAME)"), have the results
 * written (a block design's begun cells marked failed, but for a
 * signal), print once,
 * abort the job with stop_code. why may be NULL
 * once a signal came. No MPI but the abort: the guard takes it too. */
static _Noreturn void end_rank0(struct eng *e, const char *why)
{
	struct sw_run *r = e->run;

	if (eng_signal)
		snprintf(r->failure, sizeof(r->failure), "stopped by signal %d (%s)", (int)eng_signal,
			 strsignal(eng_signal));
	else
		snprintf(r->failure, sizeof(r->failure), "%s", why);
	r->complete = false;
	fprintf(stderr, "swstress: %s\n", r->failure);
	/* a block design cut short by a failure: every cell begun is
	 * unfinished (by a signal: not failed, as a sequential run's cell
	 * cut by one; the run says it is incomplete); the samples of the
	 * block in progress go back into cell order */
	for (int c = 0; c < e->plan->ncells && e->cfg->design == CFG_DESIGN_BLOCKS && !eng_signal; c++)
		if (r->cell[c].reps > 0 && r->cell[c].stop == SW_STOP_NOT_RUN)
			r->cell[c].stop = SW_STOP_FAILED;
	run_sort_samples(r);
	if (e->o->level_done)
		e->o->level_done(r, e->cell >= 0 ? e->plan->cell[e->cell].level : 0, e->o->ctx);
	engine_abort(stop_code(e));
}

_Noreturn void eng_fatal_rank0(struct eng *e, const char *why)
{
	if (eng_signal)
		eng_send_hold(e);
	end_rank0(e, why);
}

/* The start of a stuck round's failure: who (the stuck pairs, or "")
 * first, so that a status line cut short keeps it, then which deadline
 * passed in which cell. Its length. */
static int stuck_cell(const struct eng *e, bool past_deadline, const char *who, char *msg, size_t len)
{
	const struct sw_cell *cell = &e->plan->cell[e->cell];
	char sz[32];

	config_format_size(cell->size, sz, sizeof(sz));
	if (past_deadline)
		return snprintf(msg, len, "deadline: %s%sthe sweep passed its deadline of %g s in cell %d (%d nodes, %s %s):",
				who, *who ? " still running when " : "", e->o->deadline, e->cell,
				plan_nodes(e->plan, e->cell), pattern_name(cell->pattern), sz);
	if (*who)
		return snprintf(msg, len, "watchdog: %s did not finish a round of cell %d (%d nodes, %s %s) within %g s:",
				who, e->cell, plan_nodes(e->plan, e->cell), pattern_name(cell->pattern), sz,
				e->cfg->timeout);
	return snprintf(msg, len, "watchdog: a round of cell %d (%d nodes, %s %s) did not finish within %g s:",
			e->cell, plan_nodes(e->plan, e->cell), pattern_name(cell->pattern), sz, e->cfg->timeout);
}

/* What the waits say, after them: a rank that others waited on and that
 * waited on none of them is the slow one (its host or port); two ranks
 * that waited on each other have a slow or lost message between them.
 * Either way a slow port, not a deadlock of the program. */
static int stuck_reading(const struct eng *e, const struct notice *n, int nn, char *msg, size_t len)
{
	for (int i = 0; i < nn; i++) {
		bool mutual = false;
		char h[SW_HOST_MAX], hp[SW_HOST_MAX];

		for (int j = 0; j < nn; j++)
			mutual |= n[j].rank == n[i].peer && n[j].peer == n[i].rank;
		run_host_name(e->run, n[i].peer, hp);
		run_host_name(e->run, n[i].rank, h);
		if (!mutual)
			return snprintf(msg, len, " rank %d (host %s) is slow or stuck, not deadlocked: rank %d was waiting "
					"on it; look at that host and its switch port;", n[i].peer, hp, n[i].rank);
		if (n[i].rank < n[i].peer)
			return snprintf(msg, len, " ranks %d and %d waited on each other: a message between them is slow or "
					"lost, not a deadlock; look at the ports of %s and %s;", n[i].rank, n[i].peer, h, hp);
	}
	return 0;
}

void eng_fail_rank0(struct eng *e, const int *missing, int nmissing, const struct notice *first)
{
	char msg[sizeof(e->run->failure)], who[512];
	int len;
	struct notice nt, notes[16];
	int nnotes = 0;
	double until = MPI_Wtime() + GRACE_SECONDS;
	bool past_deadline = e->sweep_deadline > 0 && MPI_Wtime() >= e->sweep_deadline;

	eng_notice_signal(first);
	if (eng_signal)   /* not a stuck pair: no cell failed */
		eng_fatal_rank0(e, NULL);
	eng_send_hold(e);
	if (first)
		notes[nnotes++] = *first;
	/* Give the ranks that also timed out a moment to say whom they wait for. */
	while (MPI_Wtime() < until && nnotes < 16) {
		if (!notice_pending(&nt))
			usleep(1000);
		else if (nt.peer >= 0)   /* not a rank stopped by a signal meanwhile */
			notes[nnotes++] = nt;
	}
	who[0] = '\0';
	for (int i = 0; i < nmissing; i++) {
		const struct sw_pair *pp = &e->round_pair[missing[i]];
		char ha[SW_HOST_MAX], hb[SW_HOST_MAX];

		run_host_name(e->run, pp->a, ha);
		run_host_name(e->run, pp->b, hb);
		sw_appendf(who, sizeof(who), "%spair %d (ranks %d-%d, hosts %s, %s)", i ? ", " : "", missing[i], pp->a,
			   pp->b, ha, hb);
	}
	len = stuck_cell(e, past_deadline, who, msg, sizeof(msg));
	for (int i = 0; i < nnotes && len < (int)sizeof(msg); i++) {
		char h[SW_HOST_MAX];

		run_host_name(e->run, notes[i].peer, h);
		len += snprintf(msg + len, sizeof(msg) - (size_t)len, " rank %d waited for rank %d (host %s);",
				notes[i].rank, notes[i].peer, h);
	}
	if (len < (int)sizeof(msg))
		len += stuck_reading(e, notes, nnotes, msg + len, sizeof(msg) - (size_t)len);
	if (len > 0 && len < (int)sizeof(msg) && msg[len - 1] == ';')
		msg[len - 1] = '\0';
	e->run->cell[e->cell].stop = SW_STOP_FAILED;
	eng_fatal_rank0(e, msg);
}

_Noreturn void eng_die_other(struct eng *e, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "swstress: rank %d: ", e->env->rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	engine_abort(stop_code(e));
}

_Noreturn void eng_hold(void)
{
	for (;;)
		sleep(1);
}

void eng_fail_other(struct eng *e, int peer)
{
	struct notice n = { e->env->rank, eng_signal ? -eng_signal : peer, e->cell };
	MPI_Request req;
	double until = MPI_Wtime() + 3 * GRACE_SECONDS;

	MPI_Isend(&n, sizeof(n), MPI_BYTE, 0, TAG_NOTICE, MPI_COMM_WORLD, &req);
	MPI_Request_free(&req);
	while (MPI_Wtime() < until) {
		int flag = 0;
		struct ctrl c;

		MPI_Iprobe(0, TAG_CTRL, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		if (flag) {
			MPI_Recv(&c, sizeof(c), MPI_BYTE, 0, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (c.cmd == CMD_HOLD)
				eng_hold();
		}
		usleep(1000);
	}
	if (eng_signal)
		eng_die_other(e, "stopped by signal %d (%s), and rank 0 did not end the run", (int)eng_signal,
			  strsignal(eng_signal));
	eng_die_other(e, "watchdog: waited more than %g s for rank %d in cell %d, and rank 0 did not end "
		  "the run", e->cfg->timeout, peer, e->cell);
}

/* ---------------------------------------------------------------- */
/* The guard: the watchdog of blocking waits (blocking_waits, and the */
/* default timed bidir of ranks that do not yield).                  */

/* The main thread's state as the guard sees it: odd while it is in the
 * blocking waits of a sample, even while it is not, GUARD_TAKEN once the
 * guard has taken over. Every sample moves it on by 2, so the guard takes
 * over only the sample whose deadline it read. */
#define GUARD_TAKEN (ULONG_MAX - 1)
static _Atomic unsigned long g_guard;
static unsigned long g_guard_seq;         /* the main thread's copy */
static _Atomic double g_guard_until;      /* CLOCK_MONOTONIC s */
static _Atomic int g_guard_peer;
static atomic_bool g_guard_quit;
static _Thread_local bool t_is_guard;     /* this thread is the guard */

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void eng_guard_arm(const struct eng *e, int peer, double t_now)
{
	atomic_store(&g_guard_until, mono_now() + (e->deadline - t_now) + (e->env->rank ? SILENCE_SECONDS : 0));
	atomic_store(&g_guard_peer, peer);
	atomic_store(&g_guard, ++g_guard_seq);
}

void eng_guard_disarm(void)
{
	if (atomic_exchange(&g_guard, ++g_guard_seq) == GUARD_TAKEN)
		eng_hold();
}

/* The guard took over: end the job as the polling watchdog would, with
 * no MPI call but the final MPI_Abort. Rank 0 names the peer it waited
 * for and writes what it has; another rank prints and aborts. */
static _Noreturn void guard_end(struct eng *e)
{
	int peer = atomic_load(&g_guard_peer);
	char msg[sizeof(e->run->failure)], h[SW_HOST_MAX];

	if (e->env->rank != 0) {
		if (eng_signal)
			eng_die_other(e, "stopped by signal %d (%s) in a blocking wait, and rank 0 did not end the run",
				  (int)eng_signal, strsignal(eng_signal));
		eng_die_other(e, "watchdog: waited more than %g s for rank %d in cell %d in a blocking wait, and rank 0 "
			  "did not end the run", e->cfg->timeout, peer, e->cell);
	}
	if (!eng_signal) {
		int len = stuck_cell(e, e->sweep_deadline > 0 && e->deadline >= e->sweep_deadline, "", msg, sizeof(msg));

		run_host_name(e->run, peer, h);
		snprintf(msg + len, sizeof(msg) - (size_t)len, " rank 0 waited for rank %d (host %s) in a blocking wait",
			 peer, h);
		e->run->cell[e->cell].stop = SW_STOP_FAILED;
	}
	end_rank0(e, msg);
}

/* The guard's thread: every 20 ms, is the main thread blocked past its
 * deadline? On rank 0, a signal that the main thread has not taken within
 * GRACE_SECONDS counts as the deadline. */
static void *guard_main(void *arg)
{
	struct eng *e = arg;
	const struct timespec nap = { 0, 20 * 1000 * 1000 };
	double signal_seen = 0;

	t_is_guard = true;
	while (!atomic_load(&g_guard_quit)) {
		unsigned long v = atomic_load(&g_guard);
		double now = mono_now();

		if (eng_signal && signal_seen == 0)
			signal_seen = now;
		if ((v & 1) && (now > atomic_load(&g_guard_until) ||
				(e->env->rank == 0 && signal_seen > 0 && now > signal_seen + GRACE_SECONDS)) &&
		    atomic_compare_exchange_strong(&g_guard, &v, GUARD_TAKEN))
			guard_end(e);
		nanosleep(&nap, NULL);
	}
	return NULL;
}

int eng_guard_start(struct eng *e, pthread_t *t)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, NULL, guard_main, e);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

void eng_guard_stop(pthread_t t)
{
	atomic_store(&g_guard_quit, true);
	pthread_join(t, NULL);
}

_Noreturn void engine_abort(int code)
{
	fflush(stdout);
	fflush(stderr);
	/* The guard's thread calls MPI_Abort outside FUNNELED's rule: MPICH
	 * sends it to the process manager without the progress engine that
	 * the main thread is blocked in. Should it not end the job, SIGALRM's
	 * default action does. */
	if (t_is_guard)
		alarm(10);
	usleep(300000);
	MPI_Abort(MPI_COMM_WORLD, code);
	_exit(code);
}

