/*
 * main.c - the swstress program: the list of commands (dispatched by
 * cli.c) and the two that run MPI, run and check (check is run plus the
 * lock, the deadline and the verdict of judge.h).
 *
 * run and check are the only commands that start MPI (with the engine).
 * The others (plan, report, plot, compare, judge, history, publish, site,
 * baseline, guard: src/cmd_*.c, commands.h) read configs or saved results,
 * or (guard) run a command, and never call MPI_Init, so they work
 * without mpiexec.
 *
 * Under MPI there is one fatal path: rank 0 decides, broadcasts a status,
 * and every rank leaves together; a failure in the middle of a sweep goes
 * through engine_abort (engine_wait.c).
 */
#include <dlfcn.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "analysis.h"
#include "baseline.h"
#include "cli.h"
#include "commands.h"
#include "config.h"
#include "engine.h"
#include "judge.h"
#include "history.h"
#include "hostid.h"
#include "mapout.h"
#include "plan.h"
#include "report.h"
#include "results.h"

static void join_args(int argc, char **argv, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", argv[i]);
}

/* ---------------------------------------------------------------- */
/* run                                                                */

struct run_ctx {
	char dir[SW_PATH_MAX];     /* the .partial folder */
	const struct judge_opts *check;   /* check: judge after the sweep */
	const char *history;       /* the history database, "" for none */
	int format;
	struct sw_analysis *a;     /* the last analysis, owned */
	char *report;              /* its text, owned */
};

/* The results folder could not be written (a full disk, most often): the
 * run stops there. Its history row says why (the database may be on a
 * healthy disk); a row that cannot be written either is said, never lost
 * in silence. check prints its one status line, UNKNOWN with the reason,
 * and exits 3 (no verdict could be had); run exits 1. */
static _Noreturn void write_failed(struct sw_run *r, const struct run_ctx *ctx, const char *why)
{
	char err[512], line[1200];

	fprintf(stderr, "swstress: %s\n", why);
	snprintf(r->failure, sizeof(r->failure), "results not written: %.480s", why);
	r->complete = false;
	snprintf(line, sizeof(line), "SWSTRESS UNKNOWN - %s", r->failure);
	if (ctx->history[0] &&
	    history_record_run(ctx->history, r, ctx->a, ctx->check ? line : NULL, err, sizeof(err))) {
		fprintf(stderr, "swstress: history: %s: this run's row is lost\n", err);
		sw_appendf(line, sizeof(line), "; its history row is lost too");
	}
	if (ctx->check) {
		printf("%s\n", line);
		fflush(stdout);
	}
	engine_abort(ctx->check ? SW_NAGIOS_UNKNOWN : SW_EXIT_FAIL);
}

/*
 * After each level: write the raw samples and run.json, so a crash loses at
 * most the level in progress. The statistics (bootstraps for every cell so
 * far) wait for the end of the sweep, complete or cut short, while the
 * other ranks would otherwise sit idle; `swstress report` recomputes them
 * from a folder left behind by a crash.
 */
static void level_done(struct sw_run *r, int level, void *vctx)
{
	struct run_ctx *ctx = vctx;
	char err[512];

	(void)level;
	analysis_free(ctx->a);
	free(ctx->report);
	ctx->a = NULL;
	ctx->report = NULL;
	if (r->complete || r->failure[0]) {
		ctx->a = analysis_run(r, &r->cfg, err, sizeof(err));
		if (!ctx->a)
			fprintf(stderr, "swstress: warning: statistics: %s (raw samples are still written)\n", err);
		ctx->report = report_string(r, ctx->a, ctx->format);
	}
	if (results_write(ctx->dir, r, ctx->a, ctx->report, err, sizeof(err)))
		write_failed(r, ctx, err);
	if ((r->complete || r->failure[0]) && r->cfg.schedule == CFG_SCHEDULE_MAP &&
	    mapout_write(ctx->dir, r, err, sizeof(err)))
		fprintf(stderr, "swstress: warning: map files: %s\n", err);
	if (!r->failure[0])
		return;
	/* check, ended early by the watchdog, the deadline or a signal: the
	 * verdict of what is on disk (CRITICAL for the failed cell, at least
	 * UNKNOWN for a run cut short), with its history row; the job ends
	 * with the status it printed. run: its history row. */
	if (ctx->check)
		engine_abort(judge_dir(ctx->dir, ctx->check, stdout));
	if (ctx->history[0] && history_record_run(ctx->history, r, ctx->a, NULL, err, sizeof(err)))
		fprintf(stderr, "swstress: warning: history: %s\n", err);
	fprintf(stderr, "swstress: partial results in %s (swstress report %s: the cells that finished)\n",
		ctx->dir, ctx->dir);
}

static int g_rank;
static volatile sig_atomic_t g_exit_code;

/* MPICH 4.0.2 over UCX/TCP can hang in MPI_Finalize (see README). Once the
 * results are durable, a stuck finalize must not hold a cron job. */
static void finalize_alarm(int sig)
{
	static const char msg[] = "swstress: MPI_Finalize did not return within 5 s; "
				  "results are complete, exiting anyway\n";
	(void)sig;
	if (g_rank == 0)
		(void)!write(2, msg, sizeof(msg) - 1);
	_exit(g_exit_code);
}

static int finalize(int code)
{
	g_exit_code = code;
	signal(SIGALRM, finalize_alarm);
	alarm(5);
	MPI_Finalize();
	alarm(0);
	return code;
}

/*
 * The same hang, cured: finalize_preload.so (src/finalize_preload.c) must
 * be loaded before MPI starts. With an MPICH older than 4.2 on UCX and the
 * library not loaded yet, run and check execute themselves again with it
 * in front of LD_PRELOAD (same process, same PMI descriptor, so mpiexec,
 * srun and Slurm see nothing). The library is looked for beside the
 * program (BUILD/) and in ../lib/swstress/ (make install).
 * SWSTRESS_PRELOAD=0 turns this off; anything failing leaves the run as it
 * was, with the 5 s guard above.
 */
static bool preload_needed(void)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	const char *p;
	int len, major, minor;

	if (MPI_Get_library_version(v, &len) != MPI_SUCCESS || !(p = strstr(v, "MPICH Version:")) ||
	    sscanf(p + 14, "%d.%d", &major, &minor) != 2)
		return false;
	return (major < 4 || (major == 4 && minor < 2)) && (p = strstr(v, "MPICH Device:")) &&
	       strstr(p, "ucx");
}

static void finalize_workaround(char **argv)
{
	static const char *const where[] = { "finalize_preload.so", "../lib/swstress/finalize_preload.so" };
	char exe[SW_PATH_MAX], self[SW_PATH_MAX], lib[2 * SW_PATH_MAX + 64];
	const char *env = getenv("SWSTRESS_PRELOAD"), *pre = getenv("LD_PRELOAD");
	ssize_t n;
	char *slash;

	if ((env && !strcmp(env, "0")) || getenv("SWSTRESS_PRELOAD_TRIED") ||
	    dlsym(RTLD_DEFAULT, "swstress_finalize_preload") || !preload_needed())
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !(slash = memrchr(exe, '/', (size_t)n)))
		return;
	exe[n] = '\0';
	memcpy(self, exe, (size_t)n + 1);   /* exec'ed by name: ps and comm still say swstress */
	slash[1] = '\0';
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(lib, sizeof(lib), "%s%s", exe, where[i]);
		if (access(lib, R_OK))
			continue;
		if (pre && pre[0])
			sw_appendf(lib, sizeof(lib), ":%s", pre);
		setenv("SWSTRESS_PRELOAD_TRIED", "1", 1);   /* once: no loop if it cannot load */
		setenv("LD_PRELOAD", lib, 1);
		execv(self, argv);
		if (pre)   /* exec failed: carry on as we are */
			setenv("LD_PRELOAD", pre, 1);
		else
			unsetenv("LD_PRELOAD");
		return;
	}
}

/* check: a backstop for hangs outside the engine's waits (start-up,
 * clock synchronisation). The engine's own deadline comes first. */
static void check_deadline_alarm(int sig)
{
	static const char msg[] = "SWSTRESS CRITICAL - deadline passed while starting or ending the check\n";
	(void)sig;
	(void)!write(1, msg, sizeof(msg) - 1);
	_exit(SW_NAGIOS_CRITICAL);
}

/* Broadcast from rank 0, waiting with naps (20 us doubling to 1 ms) rather
 * than MPICH's spinning MPI_Bcast: with many ranks on few cores, spinning
 * ranks starve rank 0 while it plans or writes (48 ranks on 2 cores: 2.7 s
 * to plan, 3 s to write). Only at start and end, never while timing. */
static void bcast_napping(void *buf, int bytes)
{
	MPI_Request req;
	int done = 0;

	MPI_Ibcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
	for (useconds_t nap = 20;; nap = nap >= 500 ? 1000 : 2 * nap) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		usleep(nap);
	}
}

/* Broadcast rank 0's status; all ranks return it. */
static int agree(int status)
{
	bcast_napping(&status, sizeof(status));
	return status;
}

/* Retention after a run or check (keep_days): a note of what went, a
 * warning when it fails (the run's status stays). */
static void prune(const struct sw_config *c, const struct judge_opts *ho)
{
	char db[SW_PATH_MAX], err[1024];
	int nf, nr;

	if (c->keep_days <= 0)
		return;
	judge_check_history(ho, c->output, db, sizeof(db));
	if (history_prune(db, c->output, time(NULL) - (time_t)c->keep_days * 86400, &nf, &nr, err, sizeof(err)))
		fprintf(stderr, "swstress: warning: retention: %s\n", err);
	else if (nf || nr)
		fprintf(stderr, "swstress: retention (keep_days = %d): %d results folders and %d history runs removed\n",
			c->keep_days, nf, nr);
}

/* check: a baseline set named on the command line must exist before the
 * sweep, not be found missing after it. 0 or -1 with err. */
static int baseline_usable(const struct judge_opts *ho, const struct sw_config *cfg, char *err, size_t errlen)
{
	char db[SW_PATH_MAX], msg[900];
	struct history_member *m;
	size_t n;
	bool is_set;
	int rc;

	judge_check_history(ho, cfg->output, db, sizeof(db));
	rc = baseline_resolve(ho->baseline, db, &m, &n, &is_set, msg, sizeof(msg));
	free(m);
	if (rc)
		snprintf(err, errlen, "baseline unusable: %s", msg);
	return rc;
}

/* What one rank holds through run or check. check adds the health
 * options, the lock, the deadline, Nagios exit codes and the verdict. */
struct sweep {
	bool check;
	int rank, nranks;
	int status;                /* rank 0's: what the ranks agree on */
	int bad, failed;           /* the exit codes of bad input, of a failed measurement */
	struct sw_config cfg;
	struct judge_opts ho;
	struct sw_plan *plan;      /* rank 0: owned by r once r exists */
	struct sw_run *r;          /* rank 0 */
	struct engine_env env;
	struct run_ctx ctx;        /* rank 0: what level_done writes */
	int lock_fd;               /* check: the check lock, -1 for none */
	char shared_msg[256];      /* ranks on one host (hostid.h), "" for none */
	char kernel_msg[512];      /* ranks on one kernel in their own network stacks, "" for none */
	char db[SW_PATH_MAX];      /* the history database, "" for none */
	char err[1024];
};

/* The one failure line before the verdict: the plugin's UNKNOWN status
 * line on stdout for check, "swstress: ..." on stderr for run. */
static void sweep_failed(struct sweep *s, int status)
{
	if (s->check)
		printf("SWSTRESS UNKNOWN - %s\n", s->err);
	else
		fprintf(stderr, "swstress: %s\n", s->err);
	s->status = status;
}

/* Rank 0: the plan of the command line, or NULL with s->err. */
static struct sw_plan *sweep_plan(struct sweep *s, const struct cli_args *a)
{
	if (a->error[0]) {
		snprintf(s->err, sizeof(s->err), "%s%s", s->check ? "bad arguments: " : "", a->error);
		return NULL;
	}
	if (cmd_config(a, &s->cfg, s->err, sizeof(s->err)) ||
	    (s->ctx.format = cmd_report_format(a, s->err, sizeof(s->err))) < 0)
		return NULL;
	judge_opts_from_args(a, &s->ho);
	s->ho.fresh = s->check;
	if (s->check && !s->ho.baseline) {
		snprintf(s->err, sizeof(s->err), "check needs --baseline PATH|NAME (a results folder of a "
			 "healthy run, or a baseline set)");
		return NULL;
	}
	if (s->check && baseline_usable(&s->ho, &s->cfg, s->err, sizeof(s->err)))
		return NULL;
	if (s->nranks == 1) {
		snprintf(s->err, sizeof(s->err), "1 rank (started without mpiexec?): start it as "
			 "mpiexec -n 4 swstress %s ... (2 ranks or more, in pairs)", a->cmd->name);
		return NULL;
	}
	return plan_create(&s->cfg, s->nranks, s->err, sizeof(s->err));
}

/* Rank 0, before MPI is shared: the plan, the history database, check's
 * lock and backstop alarm. A failure is printed and in s->status. */
static void sweep_prepare(struct sweep *s, const struct cli_args *a)
{
	char lockdb[SW_PATH_MAX];

	s->plan = sweep_plan(s, a);
	if (s->plan && !s->ho.no_history)
		judge_check_history(&s->ho, s->cfg.output, s->db, sizeof(s->db));
	judge_check_history(&s->ho, s->cfg.output, lockdb, sizeof(lockdb));
	if (s->plan && s->check && judge_lock(lockdb, &s->lock_fd, s->err, sizeof(s->err))) {
		plan_free(s->plan);
		s->plan = NULL;
	}
	if (!s->plan) {
		sweep_failed(s, s->bad);
		return;
	}
	if (s->check) {
		signal(SIGALRM, check_deadline_alarm);
		alarm((unsigned)s->cfg.deadline + 30);
	}
}

/* Rank 0: the run record (start time, folder name, command line). */
static void sweep_record(struct sweep *s, int argc, char **argv)
{
	time_t now = time(NULL);
	struct tm tm;

	s->r = run_create(&s->cfg, s->plan, s->nranks);
	if (!s->r) {
		fprintf(stderr, "swstress: out of memory (the run of %d ranks)\n", s->nranks);
		engine_abort(s->failed);
	}
	gmtime_r(&now, &tm);
	strftime(s->r->started, sizeof(s->r->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	results_folder_name(s->cfg.label, now, s->r->name, sizeof(s->r->name));
	join_args(argc, argv, s->r->command_line, sizeof(s->r->command_line));
}

/* Rank 0: all ranks on one kernel share its cores (the estimate counts
 * busy ranks beyond them). */
static void estimate_cores(struct sweep *s)
{
	int same = 0;

	for (int i = 0; i < s->nranks; i++)
		same += hostid_same_kernel(&s->r->id[0], &s->r->id[i]);
	if (same == s->nranks)
		plan_set_cores(s->plan, hostid_kernel_cores(s->r->id, s->nranks, 0));
}

/* Rank 0: a name that no other run has in the output folder or in the
 * history database: LABEL-TIME, else LABEL-TIME-2, -3, ... (two runs of
 * one label started in the same second), its .partial folder made and
 * its history row reserved. 0, or -1 with s->err. */
static int sweep_name(struct sweep *s)
{
	char base[sizeof(s->r->name)], why[512];

	snprintf(base, sizeof(base), "%s", s->r->name);
	for (int k = 1; k < 100; k++) {
		int rc;

		if (k > 1 && (size_t)snprintf(s->r->name, sizeof(s->r->name), "%s-%d", base, k) >= sizeof(s->r->name))
			break;
		rc = results_begin(s->r, s->ctx.dir, sizeof(s->ctx.dir), s->err, sizeof(s->err));
		if (rc < 0)
			return -1;
		if (rc > 0)
			continue;
		if (!s->db[0] || (rc = history_reserve(s->db, s->r, why, sizeof(why))) == 0)
			return 0;
		if (rc < 0) {   /* the history fails now: the row is written (or lost, said) at the end */
			fprintf(stderr, "swstress: warning: %s\n", why);
			return 0;
		}
		rmdir(s->ctx.dir);   /* the history has a run of this name */
	}
	snprintf(s->err, sizeof(s->err), "output '%s': 99 runs named %s... already: no free name", s->cfg.output, base);
	return -1;
}

/* Rank 0, once every rank's identity is known: refuse ranks on one host
 * unless allowed, and ranks on one kernel when asked; open the .partial
 * folder. A failure is printed and in s->status. */
static void sweep_open(struct sweep *s)
{
	struct hostid_share hs;

	char split[256];

	hostid_share_nodes(s->r->id, s->r->host, s->nranks, s->plan->per_node, &hs);
	hostid_node_phrase(&hs, s->r->host, s->shared_msg, sizeof(s->shared_msg));
	hostid_kernel_phrase(s->r->id, s->nranks, &hs, s->kernel_msg, sizeof(s->kernel_msg));
	hostid_node_split(s->r->id, s->r->host, s->nranks, s->plan->per_node, split, sizeof(split));
	estimate_cores(s);
	if (split[0]) {
		snprintf(s->err, sizeof(s->err), "%s: %s; place exactly %d ranks a node, in rank order (mpiexec "
			 "-ppn %d)", config_where(&s->cfg, "ranks_per_node"), split, s->plan->per_node,
			 s->plan->per_node);
		sweep_failed(s, s->bad);
	} else if (s->shared_msg[0] && !s->cfg.allow_shared_node) {
		snprintf(s->err, sizeof(s->err), "%s: %s; place %s per node (mpiexec -ppn %d) or set "
			 "allow_shared_node = yes", config_where(&s->cfg, "allow_shared_node"), s->shared_msg,
			 s->plan->per_node > 1 ? "ranks_per_node ranks" : "one rank", s->plan->per_node);
		sweep_failed(s, s->bad);
	} else if (!s->shared_msg[0] && s->kernel_msg[0] && !s->cfg.allow_shared_kernel) {
		snprintf(s->err, sizeof(s->err), "%s: %s: their traffic crosses the switch, but a busy CPU can "
			 "look like a slow switch; set allow_shared_kernel = yes to measure with a caution in "
			 "every table", config_where(&s->cfg, "allow_shared_kernel"), s->kernel_msg);
		sweep_failed(s, s->bad);
	} else if (s->cfg.schedule == CFG_SCHEDULE_MAP && mapout_keep_groups(s->r, s->err, sizeof(s->err))) {
		sweep_failed(s, s->bad);   /* a [topology] that leaves a host out */
	} else if (sweep_name(s)) {
		sweep_failed(s, s->bad);
	}
}

/* Rank 0: what the sweep does and notes about the hosts, on stderr. */
static void sweep_announce(const struct sweep *s)
{
	fprintf(stderr, "swstress: %d ranks, %d levels, %d cells, about %.0f s; writing %s\n", s->nranks,
		s->plan->nlevels, s->plan->ncells, plan_estimate_seconds(s->plan, &s->cfg), s->ctx.dir);
	if (s->shared_msg[0])
		fprintf(stderr, "swstress: note: %s (allow_shared_node = yes): this measures the host, "
			"not a switch\n", s->shared_msg);
	else if (s->kernel_msg[0])
		fprintf(stderr, "swstress: caution: %s: a busy CPU can look like a slow switch; the tables "
			"say where (allow_shared_kernel = no refuses this)\n", s->kernel_msg);
	if (s->r->yield)
		fprintf(stderr, "swstress: note: more ranks than cores on a host: ranks yield the CPU "
			"while waiting%s\n", s->cfg.blocking_waits ? ", but not in untimed samples "
			"(blocking_waits = yes: they spin in MPI's blocking calls)" : "");
}

/* Rank 0 after a run's sweep: the report on stdout, the history row, the
 * charts. */
static void run_done(struct sweep *s, const struct cli_args *a, const char *final)
{
	if (s->ctx.report)
		fputs(s->ctx.report, stdout);
	fflush(stdout);
	fprintf(stderr, "swstress: results in %s\n", final);
	if (s->db[0] && history_record_run(s->db, s->r, s->ctx.a, NULL, s->err, sizeof(s->err)))
		fprintf(stderr, "swstress: warning: history: %s\n", s->err);
	if (!a->opt[CLI_NO_PLOT])
		cmd_charts(final, 0, true);
}

/* Rank 0 after the sweep: the folder made final, then check's verdict
 * (judge.h: prints, records history) or run's report; retention; frees
 * what rank 0 holds. */
static void sweep_finish(struct sweep *s, const struct cli_args *a)
{
	char final[SW_PATH_MAX];

	if (results_finish(s->ctx.dir, final, sizeof(final), s->err, sizeof(s->err))) {
		sweep_failed(s, s->check ? SW_NAGIOS_UNKNOWN : SW_EXIT_FAIL);
		if (s->check)   /* beside the status line, for the log */
			fprintf(stderr, "swstress: %s\n", s->err);
	} else if (s->check) {
		alarm(0);
		fprintf(stderr, "swstress: results in %s\n", final);
		s->status = judge_dir(final, &s->ho, stdout);
	} else {
		run_done(s, a, final);
	}
	fflush(stdout);
	prune(&s->cfg, &s->ho);
	judge_unlock(s->lock_fd);
	analysis_free(s->ctx.a);
	free(s->ctx.report);
	run_free(s->r);
}

/*
 * run and check: the sweep. Rank 0 prepares, every rank agrees on its
 * status, sets up and sweeps, rank 0 finishes; all leave together.
 */
static int sweep(const struct cli_args *a, bool check)
{
	struct sweep s = { .check = check, .lock_fd = -1, .ctx.format = REPORT_TABLE,
			   .bad = check ? SW_NAGIOS_UNKNOWN : SW_EXIT_USAGE,
			   .failed = check ? SW_NAGIOS_CRITICAL : SW_EXIT_FAIL };
	int argc = a->argc, thread_level;
	char **argv = a->argv;

	finalize_workaround(argv);
	/* FUNNELED: blocking_waits' watchdog thread (the guard, engine_wait.c) calls MPI only to abort. */
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &thread_level);
	MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &s.nranks);
	g_rank = s.rank;
	config_defaults(&s.cfg);
	if (s.rank == 0)
		sweep_prepare(&s, a);
	if (agree(s.status))
		return finalize(s.bad);
	bcast_napping(&s.cfg, sizeof(s.cfg));
	if (s.rank != 0 && !(s.plan = plan_create(&s.cfg, s.nranks, s.err, sizeof(s.err)))) {
		fprintf(stderr, "swstress: rank %d: %s\n", s.rank, s.err);   /* cannot happen: rank 0 made it */
		engine_abort(s.failed);
	}
	if (s.rank == 0)
		sweep_record(&s, argc, argv);
	engine_setup(s.r, &s.cfg, &s.env);
	if (s.rank == 0)
		sweep_open(&s);
	if (agree(s.status)) {
		alarm(0);
		judge_unlock(s.lock_fd);
		run_free(s.r);
		if (s.rank != 0)
			plan_free(s.plan);
		return finalize(s.bad);
	}
	if (s.rank == 0)
		sweep_announce(&s);
	s.ctx.check = check ? &s.ho : NULL;
	s.ctx.history = s.db;
	struct engine_opts eo = {
		.progress = a->opt[CLI_PROGRESS] || isatty(2), .level_done = level_done, .ctx = &s.ctx,
		.fail_code = s.failed, .signal_code = check ? SW_NAGIOS_UNKNOWN : 0,
		.deadline = check ? s.cfg.deadline : 0,
		.isolate = s.cfg.schedule != CFG_SCHEDULE_MAP &&
			   (s.cfg.isolate == CFG_YES || (check && s.cfg.isolate == CFG_AUTO)),
		.estimate = plan_estimate_seconds(s.plan, &s.cfg),
	};
	engine_sweep(s.r, &s.cfg, s.plan, &s.env, &eo);
	if (s.rank == 0)
		sweep_finish(&s, a);
	else
		plan_free(s.plan);
	return finalize(agree(s.status));
}

static int cmd_run(const struct cli_args *a)
{
	return sweep(a, false);
}

static int cmd_check(const struct cli_args *a)
{
	return sweep(a, true);
}

static const struct cli_command run_command = {
	.name = "run",
	.synopsis = "[CONFIG] [options] [key=value ...]",
	.summary = "measure (under mpiexec or srun), write results/LABEL-YYYYmmdd-HHMMSS/",
	.description =
		"The sweep: every load level, pattern, message size and hop count of the config\n"
		"(-c FILE or CONFIG; the built-in defaults without one), one rank per node. Prints\n"
		"the report on stdout and writes the results folder, the history and the charts.\n"
		"Run it under mpiexec -ppn 1 or srun --mpi=pmi2, e.g.\n"
		"\n"
		"  mpiexec -f hosts -ppn 1 -n 16 swstress run -c configs/quick.conf --label switchA\n"
		"\n"
		"Exit status: 0 success, 1 the measurement failed, 2 usage or config error.\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_LABEL) | CLI_OPT(CLI_FORMAT) | CLI_OPT(CLI_PROGRESS) |
		   CLI_OPT(CLI_NO_PLOT) | CLI_OPT(CLI_HISTORY) | CLI_OPT(CLI_NO_HISTORY),
	.max_args = 1,
	.keys = true,
	.mpi = true,
	.fn = cmd_run,
};

static const struct cli_command map_command = {
	.name = "map",
	.synopsis = "[CONFIG] [options] [key=value ...]",
	.summary = "the fabric map (under mpiexec or srun): every pair of ranks, round by round",
	.description =
		"As run with schedule = map: instead of load levels, the rounds of a round-robin\n"
		"tournament (the circle method: N-1 rounds of N/2 disjoint pairs for N ranks, every\n"
		"pair of ranks exactly once), each round's pairs at once to one deadline\n"
		"(map_concurrency = all; 1 for the unloaded map, one pair at a time; or K), all\n"
		"rounds or map_rounds of them drawn with the seed, the repetitions as blocks that\n"
		"visit every round in a seeded order. plan -n N schedule=map prints the rounds,\n"
		"the time and rank 0's memory. Writes the results folder as run does (samples.csv:\n"
		"one row a pair, its hosts and block; run.json: the map's rounds), e.g.\n"
		"\n"
		"  mpiexec -f hosts -ppn 1 -n 48 swstress map -c configs/map.conf --label fabric\n"
		"\n"
		"Exit status: 0 success, 1 the measurement failed, 2 usage or config error.\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_LABEL) | CLI_OPT(CLI_FORMAT) | CLI_OPT(CLI_PROGRESS) |
		   CLI_OPT(CLI_NO_PLOT) | CLI_OPT(CLI_HISTORY) | CLI_OPT(CLI_NO_HISTORY),
	.max_args = 1,
	.keys = true,
	.mpi = true,
	.preset = "schedule=map",
	.fn = cmd_run,
};

static const struct cli_command check_command = {
	.name = "check",
	.synopsis = "[CONFIG] --baseline PATH|NAME [options] [key=value ...]",
	.summary = "run the sweep (under mpiexec or srun), then judge it: a Nagios plugin",
	.description =
		"The nightly health check: run (as swstress run) and judge the fresh results\n"
		"against the baseline (as swstress judge). Bounded by the deadline key; a second\n"
		"check while one runs exits UNKNOWN at once. The verdict is on stdout, in the\n"
		"plugin format, before MPI ends. With schedule = map the map is judged against\n"
		"baseline maps, element by element (as swstress judge says).\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_LABEL) | CLI_OPT(CLI_FORMAT) | CLI_OPT(CLI_PROGRESS) |
		   CLI_OPT(CLI_NO_PLOT) | CLI_OPT(CLI_BASELINE) | CLI_OPT(CLI_PROM) | CLI_OPT(CLI_JSON) |
		   CLI_OPT(CLI_HISTORY) | CLI_OPT(CLI_NO_HISTORY),
	.max_args = 1,
	.keys = true,
	.nagios = true,
	.mpi = true,
	.fn = cmd_check,
};

/* Every command; each is defined beside its function. */
static const struct cli_command *const commands[] = {
	&run_command, &map_command, &plan_command, &report_command, &plot_command, &compare_command,
	&judge_command, &check_command, &history_command, &publish_command, &site_command,
	&baseline_command, &guard_command,
};

int main(int argc, char **argv)
{
	return cli_main(commands, (int)(sizeof(commands) / sizeof(commands[0])), argc, argv);
}
