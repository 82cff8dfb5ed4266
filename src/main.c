/*
 * main.c - the swstress command: argument parsing and the commands.
 *
 * run is the only command that starts MPI (with the engine). The others
 * (plan, report, plot, compare, judge, history) read configs or saved
 * results and never call MPI_Init, so they work without mpiexec.
 *
 * Under MPI there is one fatal path: rank 0 decides, broadcasts a status,
 * and every rank leaves together; a failure in the middle of a sweep goes
 * through MPI_Abort (engine.c).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "analysis.h"
#include "baseline.h"
#include "commands.h"
#include "config.h"
#include "engine.h"
#include "health.h"
#include "history.h"
#include "plan.h"
#include "plot.h"
#include "report.h"
#include "results.h"

static void usage(FILE *f)
{
	fputs("usage: swstress COMMAND [options] [key=value ...]\n"
	      "\n"
	      "Network switch stress tester: pairs MPI ranks (one per node), loads 1, 2, ...\n"
	      "N/2 pairs at once and reports per-hop latency and bandwidth at each load\n"
	      "level, and how far they fall off from the unloaded switch, with confidence\n"
	      "intervals and significance tests.\n"
	      "\n"
	      "commands:\n"
	      "  run -c FILE [key=value ...]     measure (under mpiexec), write results/LABEL-TIME/\n"
	      "      --label L     same as label=L\n"
	      "      --format F    table (default) or classic (the mailing-list one-liners)\n"
	      "      --progress    progress on stderr even when it is not a terminal\n"
	      "      --no-plot     do not render charts at the end\n"
	      "  plan -c FILE -n RANKS [key=value ...]   print levels, pairs, cells and an\n"
	      "      estimate of the time, without MPI\n"
	      "  report RESULT [key=value ...] [--format F]   recompute every statistic from\n"
	      "      samples.csv (e.g. confidence=0.99 alpha=0.01) and print the report\n"
	      "  plot RESULT [--svg] [--ports-per-size]   render the charts of a results\n"
	      "      folder (degradation map, fall-off, drop, size, ports overview);\n"
	      "      --ports-per-size adds a per-pair map for every message size\n"
	      "      --history FILE  history database (default OUTPUT/history.sqlite); --no-history\n"
	      "  compare RESULT_A RESULT_B [...] [--output DIR] [--no-plot]  switches side by\n"
	      "      side: medians, %worse, Mann-Whitney p; compare.md, compare.json, charts\n"
	      "  judge RESULT --baseline PATH|NAME [key=value ...]  health verdict of saved results\n"
	      "      against a results folder or a named baseline set (typical value and\n"
	      "      night-to-night spread of its runs; drift control chart over the nights)\n"
	      "      (Nagios codes and perfdata); --prom FILE (node_exporter textfile),\n"
	      "      --json, --history FILE, --no-history; thresholds warn_drop, crit_drop,\n"
	      "      warn_inflation, crit_inflation as keys\n"
	      "  check -c FILE --baseline PATH|NAME [run and judge options]   run the sweep (under\n"
	      "      mpiexec), then judge it; bounded by the deadline key; a second check\n"
	      "      while one runs exits UNKNOWN at once\n"
	      "  history [--since DATE] [--format table|csv] [--history FILE]   past runs\n"
	      "  publish RESULT... [--store STORE]   put complete runs (with [switch] model)\n"
	      "      into the catalog store: an SQLite file (default results/catalog.sqlite)\n"
	      "      or postgresql://USER@HOST/DB (shared); a run already there is kept once\n"
	      "  site STORE OUTDIR               write the catalog web site (static HTML, SVG\n"
	      "      charts, CSV/JSON downloads, switch comparisons) from a store\n"
	      "  baseline set|add NAME RESULT... | list [NAME] | remove NAME [RUN...]\n"
	      "      named baseline sets of healthy runs in the history database (--history FILE)\n"
	      "  help, --help, -h                this text;  --version  the version\n"
	      "\n"
	      "example:\n"
	      "  mpiexec -f hosts -n 48 swstress run -c configs/procurement.conf --label switchA\n"
	      "\n"
	      "exit status: 0 success; 1 measurement failed (watchdog, MPI error, I/O);\n"
	      "  2 usage or config error. judge and check: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.\n"
	      "\n"
	      "fault injection (for tests):\n"
	      "  SWSTRESS_FAULT_STALL=RANK[:LEVEL]  rank RANK stops answering at level LEVEL (default 1)\n"
	      "  SWSTRESS_FAULT_DELAY=RANK:USEC     rank RANK waits USEC us before each message it sends\n"
	      "\n"
	      "config keys (INI file or key=value on the command line; bandwidth MB/s = 10^6 bytes/s):\n", f);
	config_print_keys(f);
}

/* ---------------------------------------------------------------- */
/* Options shared by run, plan and report.                            */

struct opts {
	bool check;                /* set by the caller: accept check's options */
	const char *config;
	const char *history;       /* --history FILE */
	bool no_history;
	int nranks;
	int format;
	bool progress, no_plot, svg, ports_per_size;
	const char *positional[16];
	int npositional;
};

/* Parse argv[first..] into o and c (key=value and --label). 0 or -1 with a
 * message in err. */
static int parse_args(int argc, char **argv, int first, struct opts *o, struct sw_config *c,
		      bool want_config, char *err, size_t errlen)
{
	const char *sets[128];
	int nsets = 0;

	o->format = REPORT_TABLE;
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];

		if ((!strcmp(a, "-c") || !strcmp(a, "--config")) && i + 1 < argc)
			o->config = argv[++i];
		else if (!strcmp(a, "-n") && i + 1 < argc) {
			char *end;

			o->nranks = (int)strtol(argv[++i], &end, 10);
			if (*end || o->nranks < 2)
				return sw_fail(err, errlen, "option -n: '%s' is not a rank count of at least 2", argv[i]);
		} else if (!strcmp(a, "--label") && i + 1 < argc) {
			static char buf[128];

			snprintf(buf, sizeof(buf), "label=%s", argv[++i]);
			if (nsets < 128)
				sets[nsets++] = buf;
		} else if (!strcmp(a, "--format") && i + 1 < argc) {
			o->format = report_format_find(argv[++i]);
			if (o->format < 0)
				return sw_fail(err, errlen, "option --format: '%s' is not table or classic", argv[i]);
		} else if (!strcmp(a, "--history") && i + 1 < argc)
			o->history = argv[++i];
		else if (!strcmp(a, "--no-history"))
			o->no_history = true;
		else if (o->check && (!strcmp(a, "--baseline") || !strcmp(a, "--prom")) && i + 1 < argc)
			i++;       /* health_parse_args reads these */
		else if (o->check && !strcmp(a, "--json"))
			;
		else if (!strcmp(a, "--progress"))
			o->progress = true;
		else if (!strcmp(a, "--no-plot"))
			o->no_plot = true;
		else if (!strcmp(a, "--svg"))
			o->svg = true;
		else if (!strcmp(a, "--ports-per-size"))
			o->ports_per_size = true;
		else if (a[0] == '-')
			return sw_fail(err, errlen, "unknown option '%s' (see swstress --help)", a);
		else if (strchr(a, '=')) {
			if (nsets < 128)
				sets[nsets++] = a;
		} else if (o->npositional < 16)
			o->positional[o->npositional++] = a;
	}
	/* run, plan and check also take the config as their one word. */
	if (want_config && !o->config && o->npositional > 0) {
		o->config = o->positional[0];
		memmove(o->positional, o->positional + 1, (size_t)--o->npositional * sizeof(o->positional[0]));
	}
	if (want_config && o->npositional)
		return sw_fail(err, errlen, "unexpected argument '%s' (key=value sets a key)", o->positional[0]);
	if (want_config && !o->config)
		return sw_fail(err, errlen, "missing -c CONFIG (ready ones are in configs/)");
	if (o->config && config_load_file(c, o->config, err, errlen))
		return -1;
	for (int i = 0; i < nsets; i++)
		if (config_set_arg(c, sets[i], err, errlen))
			return -1;
	return config_validate(c, err, errlen);
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
	const struct health_opts *check;   /* check: judge after the sweep */
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
		MPI_Abort(MPI_COMM_WORLD, ctx->check ? SW_NAGIOS_CRITICAL : SW_EXIT_FAIL);
	}
	/* check, ended early by the watchdog or the deadline: the verdict of
	 * what is on disk (CRITICAL for the failed cell), before the abort. */
	if (ctx->check && r->failure[0]) {
		health_judge_dir(ctx->dir, ctx->check);
		fflush(stdout);
	}
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

/* check: a baseline set named on the command line must exist before the
 * sweep, not be found missing after it. 0 or -1 with err. */
static int baseline_usable(const struct health_opts *ho, const struct sw_config *cfg, char *err, size_t errlen)
{
	char db[SW_PATH_MAX], msg[900];
	struct history_member *m;
	size_t n;
	bool is_set;
	int rc;

	health_history_path(ho, cfg->output, db, sizeof(db));
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
static int sweep(int argc, char **argv, bool check)
{
	struct sw_config cfg;
	struct opts o = { .check = check };
	struct health_opts ho = { 0 };
	struct sw_plan *plan = NULL;
	struct sw_run *r = NULL;
	struct engine_env env;
	struct run_ctx ctx = { 0 };
	char err[1024] = "", shared_msg[256] = "", db[SW_PATH_MAX] = "";
	int rank, nranks, status = SW_EXIT_OK, lock_fd = -1;
	int bad = check ? SW_NAGIOS_UNKNOWN : SW_EXIT_USAGE;
	int failed = check ? SW_NAGIOS_CRITICAL : SW_EXIT_FAIL;
	bool shared = false;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	g_rank = rank;
	config_defaults(&cfg);
	if (rank == 0) {
		if (parse_args(argc, argv, 2, &o, &cfg, true, err, sizeof(err)) == 0 &&
		    (!check || health_parse_args(argc, argv, 2, &ho, err, sizeof(err)) == 0)) {
			if (check && !ho.baseline)
				snprintf(err, sizeof(err), "check needs --baseline PATH|NAME (a results folder of a "
					 "healthy run, or a baseline set)");
			else if (!check || baseline_usable(&ho, &cfg, err, sizeof(err)) == 0)
				plan = plan_create(&cfg, nranks, err, sizeof(err));
		}
		if (plan && !o.no_history) {
			if (o.history)
				snprintf(db, sizeof(db), "%s", o.history);
			else
				history_default_path(cfg.output, db, sizeof(db));
		}
		char lockdb[SW_PATH_MAX];

		if (db[0])
			snprintf(lockdb, sizeof(lockdb), "%s", db);
		else
			history_default_path(cfg.output, lockdb, sizeof(lockdb));
		if (plan && check && health_lock(lockdb, &lock_fd, err, sizeof(err))) {
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
	if (rank != 0 && !(plan = plan_create(&cfg, nranks, err, sizeof(err))))
		MPI_Abort(MPI_COMM_WORLD, failed);   /* cannot happen: rank 0 made it */
	if (rank == 0) {
		time_t now = time(NULL);
		struct tm tm;

		r = run_create(&cfg, plan, nranks);
		if (!r)
			MPI_Abort(MPI_COMM_WORLD, failed);
		gmtime_r(&now, &tm);
		strftime(r->started, sizeof(r->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
		results_folder_name(cfg.label, now, r->name, sizeof(r->name));
		join_args(argc, argv, r->command_line, sizeof(r->command_line));
	}
	engine_setup(r, &cfg, &env, &shared, shared_msg, sizeof(shared_msg));
	if (rank == 0) {
		if (shared && !cfg.allow_shared_node) {
			snprintf(err, sizeof(err), "%s: %s; place one rank per node (mpiexec -ppn 1) or set "
				 "allow_shared_node = yes", config_where(&cfg, "allow_shared_node"), shared_msg);
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
		health_unlock(lock_fd);
		run_free(r);
		if (rank != 0)
			plan_free(plan);
		return finalize(bad);
	}
	if (rank == 0) {
		fprintf(stderr, "swstress: %d ranks, %d levels, %d cells, about %.0f s; writing %s\n", nranks,
			plan->nlevels, plan->ncells, plan_estimate_seconds(plan, &cfg), ctx.dir);
		if (shared)
			fprintf(stderr, "swstress: note: %s (allow_shared_node = yes): this measures the host, "
				"not a switch\n", shared_msg);
		if (r->yield)
			fprintf(stderr, "swstress: note: more ranks than cores on a host: ranks yield the CPU "
				"while waiting\n");
	}
	ctx.format = o.format;
	ctx.check = check ? &ho : NULL;
	struct engine_opts eo = {
		.progress = o.progress || isatty(2), .level_done = level_done, .ctx = &ctx,
		.fail_code = failed, .deadline = check ? cfg.deadline : 0,
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
			status = health_judge_dir(final, &ho);    /* prints, records history */
		} else {
			if (ctx.report)
				fputs(ctx.report, stdout);
			fflush(stdout);
			fprintf(stderr, "swstress: results in %s\n", final);
			if (db[0] && history_record_run(db, r, ctx.a, NULL, err, sizeof(err)))
				fprintf(stderr, "swstress: warning: history: %s\n", err);
			if (!o.no_plot)
				render_charts(final, 0, true);
		}
		fflush(stdout);
		health_unlock(lock_fd);
		analysis_free(ctx.a);
		free(ctx.report);
		run_free(r);
	} else {
		plan_free(plan);
	}
	return finalize(agree(status));
}

static int cmd_run(int argc, char **argv)
{
	return sweep(argc, argv, false);
}

static int cmd_check(int argc, char **argv)
{
	return sweep(argc, argv, true);
}

/* ---------------------------------------------------------------- */
/* plan and report: no MPI                                            */

static int cmd_plan(int argc, char **argv)
{
	struct sw_config cfg;
	struct opts o = { 0 };
	struct sw_plan *p;
	char err[1024];

	config_defaults(&cfg);
	if (parse_args(argc, argv, 2, &o, &cfg, true, err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_USAGE;
	}
	if (o.nranks < 2) {
		fprintf(stderr, "swstress: plan needs -n RANKS\n");
		return SW_EXIT_USAGE;
	}
	p = plan_create(&cfg, o.nranks, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_USAGE;
	}
	plan_print(stdout, p, &cfg);
	plan_free(p);
	return SW_EXIT_OK;
}

static int cmd_report(int argc, char **argv)
{
	struct sw_config cfg;
	struct opts o = { 0 };
	struct sw_run *r;
	struct sw_analysis *a;
	char err[1024];

	/* Parse once to find the folder, then apply the overrides on top of
	 * the run's own config. */
	config_defaults(&cfg);
	if (parse_args(argc, argv, 2, &o, &cfg, false, err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_USAGE;
	}
	if (o.npositional != 1) {
		fprintf(stderr, "swstress: report needs one results folder (or its run.json)\n");
		return SW_EXIT_USAGE;
	}
	r = results_load(o.positional[0], err, sizeof(err));
	if (!r) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	cfg = r->cfg;
	for (int i = 2; i < argc; i++)
		if (strchr(argv[i], '=') && argv[i][0] != '-' && config_set_arg(&cfg, argv[i], err, sizeof(err))) {
			fprintf(stderr, "swstress: %s\n", err);
			run_free(r);
			return SW_EXIT_USAGE;
		}
	if (config_validate(&cfg, err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		run_free(r);
		return SW_EXIT_USAGE;
	}
	a = analysis_run(r, &cfg, err, sizeof(err));
	if (!a) {
		fprintf(stderr, "swstress: %s: %s\n", o.positional[0], err);
		run_free(r);
		return SW_EXIT_FAIL;
	}
	r->cfg = cfg;
	report_print(stdout, r, a, o.format);
	analysis_free(a);
	run_free(r);
	return SW_EXIT_OK;
}

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
	fprintf(stderr, "swstress: %d charts in %s/ (map-*, falloff-*, drop-*, size-*, ports-*)\n", n, dir);
	plot_charts_free(&charts);
	return SW_EXIT_OK;
}

static int cmd_plot(int argc, char **argv)
{
	struct opts o = { 0 };
	struct sw_config cfg;
	char err[1024];

	config_defaults(&cfg);
	if (parse_args(argc, argv, 2, &o, &cfg, false, err, sizeof(err)) || o.npositional != 1) {
		fprintf(stderr, "swstress: %s\n", o.npositional != 1 ? "plot needs one results folder" : err);
		return SW_EXIT_USAGE;
	}
	return render_charts(o.positional[0], (o.svg ? PLOT_SVG : 0) |
			     (o.ports_per_size ? PLOT_PORTS_PER_SIZE : 0), false);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
		{ "run", cmd_run }, { "plan", cmd_plan }, { "report", cmd_report }, { "plot", cmd_plot },
		{ "compare", compare_main }, { "judge", judge_main }, { "check", cmd_check },
		{ "history", history_main }, { "publish", publish_main }, { "site", site_main },
		{ "baseline", baseline_main },
	};
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd || !strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(cmd ? stdout : stderr);
		return cmd ? SW_EXIT_OK : SW_EXIT_USAGE;
	}
	if (!strcmp(cmd, "--version")) {
		printf("swstress %s\n", SW_VERSION);
		return SW_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmd, cmds[i].name))
			return cmds[i].fn(argc, argv);
	fprintf(stderr, "swstress: unknown command '%s' (see swstress --help)\n", cmd);
	return SW_EXIT_USAGE;
}
