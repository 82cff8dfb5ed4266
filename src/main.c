/*
 * main.c - the swstress command: argument parsing and the commands.
 *
 * run is the only command that starts MPI (with the engine). The others
 * (plan, report, plot, compare, judge, history) read configs or saved
 * results and never call MPI_Init, so they work without mpiexec.
 *
 * Under MPI there is one fatal path: rank 0 decides, broadcasts a status,
 * and every rank leaves together; a failure in the middle of a sweep goes
 * through engine_abort (engine.c).
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
#include "plan.h"
#include "plot.h"
#include "report.h"
#include "results.h"

/* The config of run, plan and check: the defaults, then the config file
 * (-c FILE, or the one argument), the key=value words and --label.
 * 0 or -1 with a message in err. */
static int load_config(const struct cli_args *a, struct sw_config *c, char *err, size_t errlen)
{
	const char *file = a->opt[CLI_CONFIG];

	config_defaults(c);
	if (file && a->nargs)
		return sw_fail(err, errlen, "unexpected argument '%s' (the config is -c %s)", a->args[0], file);
	if (!file && a->nargs)
		file = a->args[0];
	if (file && config_load_file(c, file, err, errlen))
		return -1;
	for (int i = 0; i < a->nsets; i++)
		if (config_set_arg(c, a->sets[i], err, errlen))
			return -1;
	if (a->opt[CLI_LABEL] && config_set(c, "label", a->opt[CLI_LABEL], "option --label", err, errlen))
		return -1;
	return config_validate(c, err, errlen);
}

/* --format: table (default) or classic; -1 with a message in err. */
static int report_format(const struct cli_args *a, char *err, size_t errlen)
{
	const char *f = a->opt[CLI_FORMAT];
	int format = f ? report_format_find(f) : REPORT_TABLE;

	if (format < 0)
		return sw_fail(err, errlen, "option --format: '%s' is not table or classic", f);
	return format;
}

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
	const char *history;       /* run: the history database, "" for none */
	int format;
	struct sw_analysis *a;     /* the last analysis, owned */
	char *report;              /* its text, owned */
};

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
	if (results_write(ctx->dir, r, ctx->a, ctx->report, err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		engine_abort(ctx->check ? SW_NAGIOS_CRITICAL : SW_EXIT_FAIL);
	}
	if (!r->failure[0])
		return;
	/* check, ended early by the watchdog, the deadline or a signal: the
	 * verdict of what is on disk (CRITICAL for the failed cell, at least
	 * UNKNOWN for a run cut short), with its history row; the job ends
	 * with the status it printed. run: its history row. */
	if (ctx->check)
		engine_abort(judge_dir(ctx->dir, ctx->check));
	if (ctx->history[0] && history_record_run(ctx->history, r, ctx->a, NULL, err, sizeof(err)))
		fprintf(stderr, "swstress: warning: history: %s\n", err);
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

static int render_charts(const char *dir, unsigned flags, bool after_run);

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

/*
 * run and check: the sweep. check adds the health options, the lock, the
 * deadline, Nagios exit codes, and the verdict at the end.
 */
static int sweep(const struct cli_args *a, bool check)
{
	struct sw_config cfg;
	struct judge_opts ho = { 0 };
	struct sw_plan *plan = NULL;
	struct sw_run *r = NULL;
	struct engine_env env;
	struct run_ctx ctx = { 0 };
	char err[1024] = "", shared_msg[256] = "", kernel_msg[512] = "", db[SW_PATH_MAX] = "";
	struct hostid_share hs;
	int argc = a->argc, rank, nranks, status = SW_EXIT_OK, lock_fd = -1, format = REPORT_TABLE;
	char **argv = a->argv;
	int bad = check ? SW_NAGIOS_UNKNOWN : SW_EXIT_USAGE;
	int failed = check ? SW_NAGIOS_CRITICAL : SW_EXIT_FAIL;

	finalize_workaround(argv);
	int thread_level;
	/* FUNNELED: blocking_waits' watchdog thread (engine.c) calls MPI only to abort. */
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &thread_level);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	g_rank = rank;
	config_defaults(&cfg);
	if (rank == 0) {
		if (a->error[0])
			snprintf(err, sizeof(err), "%s%s", check ? "bad arguments: " : "", a->error);
		else if (load_config(a, &cfg, err, sizeof(err)) == 0 &&
			 (format = report_format(a, err, sizeof(err))) >= 0) {
			judge_opts_from_args(a, &ho);
			if (check && !ho.baseline)
				snprintf(err, sizeof(err), "check needs --baseline PATH|NAME (a results folder of a "
					 "healthy run, or a baseline set)");
			else if (!check || baseline_usable(&ho, &cfg, err, sizeof(err)) == 0)
				plan = plan_create(&cfg, nranks, err, sizeof(err));
		}
		if (plan && !ho.no_history)
			judge_check_history(&ho, cfg.output, db, sizeof(db));
		char lockdb[SW_PATH_MAX];

		judge_check_history(&ho, cfg.output, lockdb, sizeof(lockdb));
		if (plan && check && judge_lock(lockdb, &lock_fd, err, sizeof(err))) {
			plan_free(plan);
			plan = NULL;
		}
		if (!plan) {
			if (check)
				printf("SWSTRESS UNKNOWN - %s\n", err);
			else
				fprintf(stderr, "swstress: %s\n", err);
			status = bad;
		}
		if (check && plan) {
			signal(SIGALRM, check_deadline_alarm);
			alarm((unsigned)cfg.deadline + 30);
		}
	}
	if (agree(status))
		return finalize(bad);
	bcast_napping(&cfg, sizeof(cfg));
	if (rank != 0 && !(plan = plan_create(&cfg, nranks, err, sizeof(err)))) {
		fprintf(stderr, "swstress: rank %d: %s\n", rank, err);   /* cannot happen: rank 0 made it */
		engine_abort(failed);
	}
	if (rank == 0) {
		time_t now = time(NULL);
		struct tm tm;

		r = run_create(&cfg, plan, nranks);
		if (!r) {
			fprintf(stderr, "swstress: out of memory (the run of %d ranks)\n", nranks);
			engine_abort(failed);
		}
		gmtime_r(&now, &tm);
		strftime(r->started, sizeof(r->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
		results_folder_name(cfg.label, now, r->name, sizeof(r->name));
		join_args(argc, argv, r->command_line, sizeof(r->command_line));
	}
	engine_setup(r, &cfg, &env);
	if (rank == 0) {
		hostid_share(r->id, r->host, nranks, &hs);
		hostid_node_phrase(&hs, r->host, shared_msg, sizeof(shared_msg));
		hostid_kernel_phrase(r->id, nranks, &hs, kernel_msg, sizeof(kernel_msg));
		if (shared_msg[0] && !cfg.allow_shared_node) {
			snprintf(err, sizeof(err), "%s: %s; place one rank per node (mpiexec -ppn 1) or set "
				 "allow_shared_node = yes", config_where(&cfg, "allow_shared_node"), shared_msg);
			status = bad;
		} else if (!shared_msg[0] && kernel_msg[0] && !cfg.allow_shared_kernel) {
			snprintf(err, sizeof(err), "%s: %s: their traffic crosses the switch, but a busy CPU can look "
				 "like a slow switch; set allow_shared_kernel = yes to measure with a caution in every "
				 "table", config_where(&cfg, "allow_shared_kernel"), kernel_msg);
			status = bad;
		} else if (results_begin(r, ctx.dir, sizeof(ctx.dir), err, sizeof(err)))
			status = bad;
		if (status && check)
			printf("SWSTRESS UNKNOWN - %s\n", err);
		else if (status)
			fprintf(stderr, "swstress: %s\n", err);
	}
	if (agree(status)) {
		alarm(0);
		judge_unlock(lock_fd);
		run_free(r);
		if (rank != 0)
			plan_free(plan);
		return finalize(bad);
	}
	if (rank == 0) {
		fprintf(stderr, "swstress: %d ranks, %d levels, %d cells, about %.0f s; writing %s\n", nranks,
			plan->nlevels, plan->ncells, plan_estimate_seconds(plan, &cfg), ctx.dir);
		if (shared_msg[0])
			fprintf(stderr, "swstress: note: %s (allow_shared_node = yes): this measures the host, "
				"not a switch\n", shared_msg);
		else if (kernel_msg[0])
			fprintf(stderr, "swstress: caution: %s: a busy CPU can look like a slow switch; the tables "
				"say where (allow_shared_kernel = no refuses this)\n", kernel_msg);
		if (r->yield)
			fprintf(stderr, "swstress: note: more ranks than cores on a host: ranks yield the CPU "
				"while waiting%s\n", cfg.blocking_waits ? ", but not in untimed samples "
				"(blocking_waits = yes: they spin in MPI's blocking calls)" : "");
	}
	ctx.format = format;
	ctx.check = check ? &ho : NULL;
	ctx.history = db;
	struct engine_opts eo = {
		.progress = a->opt[CLI_PROGRESS] || isatty(2), .level_done = level_done, .ctx = &ctx,
		.fail_code = failed, .signal_code = check ? SW_NAGIOS_UNKNOWN : 0,
		.deadline = check ? cfg.deadline : 0,
		.isolate = cfg.isolate == CFG_YES || (check && cfg.isolate == CFG_AUTO),
	};
	engine_sweep(r, &cfg, plan, &env, &eo);
	if (rank == 0) {
		char final[SW_PATH_MAX];

		if (results_finish(ctx.dir, final, sizeof(final), err, sizeof(err))) {
			if (check)
				printf("SWSTRESS UNKNOWN - %s\n", err);
			fprintf(stderr, "swstress: %s\n", err);
			status = check ? SW_NAGIOS_UNKNOWN : SW_EXIT_FAIL;
		} else if (check) {
			alarm(0);
			fprintf(stderr, "swstress: results in %s\n", final);
			status = judge_dir(final, &ho);    /* prints, records history */
		} else {
			if (ctx.report)
				fputs(ctx.report, stdout);
			fflush(stdout);
			fprintf(stderr, "swstress: results in %s\n", final);
			if (db[0] && history_record_run(db, r, ctx.a, NULL, err, sizeof(err)))
				fprintf(stderr, "swstress: warning: history: %s\n", err);
			if (!a->opt[CLI_NO_PLOT])
				render_charts(final, 0, true);
		}
		fflush(stdout);
		prune(&cfg, &ho);
		judge_unlock(lock_fd);
		analysis_free(ctx.a);
		free(ctx.report);
		run_free(r);
	} else {
		plan_free(plan);
	}
	return finalize(agree(status));
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

static const struct cli_command check_command = {
	.name = "check",
	.synopsis = "[CONFIG] --baseline PATH|NAME [options] [key=value ...]",
	.summary = "run the sweep (under mpiexec or srun), then judge it: a Nagios plugin",
	.description =
		"The nightly health check: run (as swstress run) and judge the fresh results\n"
		"against the baseline (as swstress judge). Bounded by the deadline key; a second\n"
		"check while one runs exits UNKNOWN at once. The verdict is on stdout, in the\n"
		"plugin format, before MPI ends.\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_LABEL) | CLI_OPT(CLI_FORMAT) | CLI_OPT(CLI_PROGRESS) |
		   CLI_OPT(CLI_NO_PLOT) | CLI_OPT(CLI_BASELINE) | CLI_OPT(CLI_PROM) | CLI_OPT(CLI_JSON) |
		   CLI_OPT(CLI_HISTORY) | CLI_OPT(CLI_NO_HISTORY),
	.max_args = 1,
	.keys = true,
	.nagios = true,
	.mpi = true,
	.fn = cmd_check,
};

/* ---------------------------------------------------------------- */
/* plan and report: no MPI                                            */

static int cmd_plan(const struct cli_args *a)
{
	struct sw_config cfg;
	struct sw_plan *p;
	char err[1024];
	long n;

	if (!a->opt[CLI_RANKS])
		return cli_usage_error(a, "plan needs -n RANKS");
	if (sw_parse_long(a->opt[CLI_RANKS], 2, SW_MAX_RANKS, &n))
		return cli_usage_error(a, "option --ranks: '%s' is not a rank count from 2 to %d", a->opt[CLI_RANKS],
				       SW_MAX_RANKS);
	if (load_config(a, &cfg, err, sizeof(err)))
		return cli_usage_error(a, "%s", err);
	p = plan_create(&cfg, (int)n, err, sizeof(err));
	if (!p)
		return cli_usage_error(a, "%s", err);
	plan_print(stdout, p, &cfg);
	plan_free(p);
	return SW_EXIT_OK;
}

static const struct cli_command plan_command = {
	.name = "plan",
	.synopsis = "[CONFIG] -n RANKS [key=value ...]",
	.summary = "levels, pairs, cells and an estimate of the time, without MPI",
	.description = "What a run of the config (the defaults without one) on RANKS ranks will do:\n"
		       "the load levels, the rank pairs of each level, the cells, and how long it takes.\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_RANKS),
	.max_args = 1,
	.keys = true,
	.fn = cmd_plan,
};

static int cmd_report(const struct cli_args *a)
{
	struct sw_config cfg;
	struct sw_run *r;
	struct sw_analysis *an;
	char err[1024];
	int format = report_format(a, err, sizeof(err)), rc = SW_EXIT_FAIL;

	if (format < 0)
		return cli_usage_error(a, "%s", err);
	r = results_load(a->args[0], err, sizeof(err));
	if (!r) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	cfg = r->cfg;   /* the run's own config, the overrides on top */
	for (int i = 0; i < a->nsets; i++)
		if (config_set_arg(&cfg, a->sets[i], err, sizeof(err))) {
			rc = cli_usage_error(a, "%s", err);
			goto out;
		}
	if (config_validate(&cfg, err, sizeof(err))) {
		rc = cli_usage_error(a, "%s", err);
		goto out;
	}
	an = analysis_run(r, &cfg, err, sizeof(err));
	if (!an) {
		fprintf(stderr, "swstress: %s: %s\n", a->args[0], err);
		goto out;
	}
	r->cfg = cfg;
	report_print(stdout, r, an, format);
	analysis_free(an);
	rc = SW_EXIT_OK;
out:
	run_free(r);
	return rc;
}

static const struct cli_command report_command = {
	.name = "report",
	.synopsis = "RESULT [--format F] [key=value ...]",
	.summary = "recompute every statistic from samples.csv and print the report",
	.description = "RESULT is a results folder or its run.json. key=value words change the\n"
		       "statistics on top of the run's config, e.g. confidence=0.99 alpha=0.01.\n",
	.options = CLI_OPT(CLI_FORMAT),
	.min_args = 1,
	.max_args = 1,
	.keys = true,
	.fn = cmd_report,
};

/* Render the charts of dir; prints where they are. after_run: a missing
 * gnuplot is a note, not a failure. Returns an exit status. */
static int render_charts(const char *dir, unsigned flags, bool after_run)
{
	struct plot_charts charts = { 0 };
	char err[1024];
	int n;

	if (!plot_available()) {
		fprintf(stderr, "swstress: %sgnuplot is not installed (apt-get install gnuplot-nox), no charts%s\n",
			after_run ? "note: " : "", after_run ? "; later: swstress plot FOLDER" : "");
		return after_run ? SW_EXIT_OK : SW_EXIT_FAIL;
	}
	n = plot_render(dir, NULL, flags, &charts, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "swstress: %s%s\n", after_run ? "warning: charts: " : "", err);
		return after_run ? SW_EXIT_OK : SW_EXIT_FAIL;
	}
	bool victims = false, incast = false;
	for (size_t i = 0; i < charts.n; i++) {
		victims |= strcmp(charts.chart[i].kind, "victims") == 0;
		incast |= strcmp(charts.chart[i].kind, "incast") == 0;
	}
	fprintf(stderr, "swstress: %d charts in %s/ (map-*, falloff-*, drop-*, size-*, ports-*%s%s)\n", n, dir,
		victims ? ", victims-*" : "", incast ? ", incast-*" : "");
	plot_charts_free(&charts);
	return SW_EXIT_OK;
}

static int cmd_plot(const struct cli_args *a)
{
	return render_charts(a->args[0], (a->opt[CLI_SVG] ? PLOT_SVG : 0) |
			     (a->opt[CLI_PORTS_PER_SIZE] ? PLOT_PORTS_PER_SIZE : 0), false);
}

static const struct cli_command plot_command = {
	.name = "plot",
	.synopsis = "RESULT [--svg] [--ports-per-size]",
	.summary = "render the charts of a results folder (gnuplot)",
	.description = "Charts into the results folder: degradation map, fall-off, drop, size,\n"
		       "ports overview.\n",
	.options = CLI_OPT(CLI_SVG) | CLI_OPT(CLI_PORTS_PER_SIZE),
	.min_args = 1,
	.max_args = 1,
	.fn = cmd_plot,
};

/* Every command; each is defined beside its function. */
static const struct cli_command *const commands[] = {
	&run_command, &plan_command, &report_command, &plot_command, &compare_command,
	&judge_command, &check_command, &history_command, &publish_command, &site_command,
	&baseline_command, &guard_command,
};

int main(int argc, char **argv)
{
	return cli_main(commands, (int)(sizeof(commands) / sizeof(commands[0])), argc, argv);
}
