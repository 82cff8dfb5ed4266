/*
 * test_health.c - the health verdict on synthetic results folders with
 * planted effects (health_fixture.h): identical runs, a 30% bandwidth
 * drop, small and non-significant changes, a slow host, failed cells,
 * corrupt, missing and mismatched baselines; the Nagios output and exit
 * codes, perfdata against the plugin format, JSON, the Prometheus file,
 * argument parsing and the check lock.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "capture.h"
#include "fixture.h"
#include "commands.h"
#include "health.h"
#include "health_out.h"
#include "judge.h"
#include "report.h"
#include "history.h"
#include "health_fixture.h"

TestSuite(health, .init = fixture_setup, .fini = fixture_teardown);

/* Make a folder under fixture_dir from spec; its path into path. */
static void make(struct fx_spec *s, char *path, size_t len)
{
	char err[512] = "";

	cr_assert_eq(fx_make(fixture_dir, s, path, len, err, sizeof(err)), 0, "fixture: %s", err);
}

static void healthy(struct fx_spec *s, const char *name, uint64_t seed)
{
	fx_defaults(s);
	s->name = name;
	s->noise_seed = seed;
}

/* Judge result against baseline with o (no history), stdout into out. */
static int judge(const char *result, struct judge_opts *o, char *out, size_t len)
{
	struct capture c;
	int code;

	cr_assert_eq(capture_start(&c, false), 0);
	code = judge_dir(result, o, stdout);
	capture_end(&c, out, len);
	return code;
}

static int judge_pair(const char *result, const char *baseline, char *out, size_t len)
{
	struct judge_opts o = { .baseline = baseline, .no_history = true };

	return judge(result, &o, out, len);
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The first line of s into line. */
static void first_line(const char *s, char *line, size_t len)
{
	snprintf(line, len, "%.*s", (int)strcspn(s, "\n"), s);
}

Test(health, identical_runs_are_ok)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS OK - 8 cells within thresholds vs baseline base"), "%s", line);
	cr_assert_not_null(strstr(line, " | "), "perfdata missing: %s", line);
	cr_assert_null(strstr(out, "cannot show a significant change"), "enough repetitions, yet: %s", out);
	/* A run judged against itself: every change is exactly 0. */
	cr_assert_eq(judge_pair(bp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	cr_assert_not_null(strstr(out, "+0.0%"), "%s", out);
}

Test(health, planted_30pct_drop_is_critical)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;   /* bandwidth * 0.7 */
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS CRITICAL - 8 nodes 64KiB stream: bandwidth drop +"), "%s", line);
	/* The estimate is the plant (a 30% drop, positive = worse) within the
	 * noise, and so is its CI. */
	double pct, lo, hi;
	const char *p = strstr(line, "bandwidth drop ");

	cr_assert_eq(sscanf(p, "bandwidth drop %lf%% [%lf,%lf]", &pct, &lo, &hi), 3, "%s", line);
	cr_assert(pct > 28 && pct < 32, "%g", pct);
	cr_assert(lo <= pct && pct <= hi && lo > 25 && hi < 35, "[%g, %g]", lo, hi);
	cr_assert_not_null(strstr(line, "vs baseline"));
	/* The other cells are fine and listed as OK in the details. */
	cr_assert_not_null(strstr(out, "\n  CRITICAL  8 nodes 64KiB stream:"), "%s", out);
	cr_assert_not_null(strstr(out, "\n  OK        8 nodes 8B pingpong:"), "%s", out);
}

/* Against one baseline run the night-to-night spread is unknown: each
 * cell's interval counts the run_to_run SD assumed (5%, twice: tonight
 * and the baseline run), and a cell pages only when that interval
 * excludes 0 and its estimate is over a threshold. A 12% drop is over
 * warn_drop 10% but its interval includes 0: OK, and the words say so; a
 * 30% drop is over crit_drop 25% and its interval excludes 0: CRITICAL;
 * with run_to_run = 20 the same drop is within the spread: OK. */
Test(health, one_baseline_run_needs_the_allowance)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.88;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	cr_assert_not_null(strstr(out, "over the 10% limit, but within the run-to-run spread assumed (run_to_run 5%, "
				  "1 baseline run)"), "%s", out);
	r.name = "now30";
	r.slow_factor = 1 / 0.7;
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	static const char *const wide[] = { "run_to_run=20" };
	struct judge_opts o = { .baseline = bp, .no_history = true, .sets = wide, .nsets = 1 };

	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
}

/* The same drop measured with 100 hops against a window of 64 (under 4
 * windows: below the sample floor) cannot page: the cell is shown with
 * its drop, stays OK, and a note says why. */
Test(health, below_the_floor_cannot_page)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	r.window = b.window = "64";   /* like with like: the baseline's too */
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	cr_assert_not_null(strstr(out, "\n  OK        8 nodes 64KiB stream: bandwidth drop +"), "%s", out);
	cr_assert_not_null(strstr(out, "4 compared cells are below the sample floor"), "%s", out);
	cr_assert_not_null(strstr(out, "they cannot page"), "%s", out);
}

/* A run whose baseline level was 10% slower when measured again (drift
 * control) and whose loaded level dropped 30%: still CRITICAL (a real
 * fault may drift too), but the status line says the run drifted and a
 * note says why; the same run without the drift does not. */
Test(health, drifted_run_says_so)
{
	struct fx_spec b, r;
	char bp[512], rp[512], err[512];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	struct sw_run *br = results_load(bp, err, sizeof(err)), *rr = results_load(rp, err, sizeof(err));

	cr_assert(br && rr, "%s", err);
	rr->cfg.design = CFG_DESIGN_SEQUENTIAL;   /* drift control re-runs the baseline level */
	for (int drift = 0; drift < 2; drift++) {
		struct sw_analysis *a, *ba = analysis_run(br, &br->cfg, err, sizeof(err));
		struct health_verdict *v;

		rr->nagain = 0;
		for (size_t i = 0; i < rr->nsamples; i++) {
			struct sw_sample s = rr->sample[i];

			if (rr->plan->cell[s.cell].level != 0)
				continue;
			s.seconds *= drift ? 1.10 : 1.0;
			cr_assert_eq(run_add_again(rr, &s), 0);
		}
		a = analysis_run(rr, &rr->cfg, err, sizeof(err));
		cr_assert(a && ba, "%s", err);
		cr_assert_eq(a->drifted, drift == 1);
		v = health_judge(rr, a, br, ba);
		cr_assert_not_null(v);
		cr_assert_eq(v->status, SW_NAGIOS_CRITICAL, "%s", v->summary);
		if (drift) {
			cr_assert_not_null(strstr(v->summary, "; run drifted: baseline level "), "%s", v->summary);
			cr_assert_not_null(strstr(v->summary, "pingpong 8B again latency inflation +10.0%"), "%s", v->summary);
			bool noted = false;
			for (int i = 0; i < v->nnotes; i++)
				noted |= strstr(v->notes[i], "may be drift") != NULL;
			cr_assert(noted);
		} else {
			cr_assert_null(strstr(v->summary, "drift"), "%s", v->summary);
		}
		health_verdict_free(v);
		analysis_free(a);
		analysis_free(ba);
	}
	run_free(br);
	run_free(rr);
}

Test(health, warning_between_thresholds)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.85;  /* 15% drop: warn 10, crit 25 */
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_WARNING, "%s", out);
	cr_assert(starts(out, "SWSTRESS WARNING - 8 nodes 64KiB stream: bandwidth drop +1"), "%s", out);
}

Test(health, latency_inflation_is_judged_for_pingpong)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_PINGPONG;
	r.slow_size = 8;
	r.slow_factor = 1.6;       /* +60%: crit_inflation 50 */
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	cr_assert(starts(out, "SWSTRESS CRITICAL - 8 nodes 8B pingpong: latency inflation +"), "%s", out);
	/* the plant (+60%) within the noise of the per-repetition medians */
	double pct;

	cr_assert_eq(sscanf(out, "SWSTRESS CRITICAL - 8 nodes 8B pingpong: latency inflation %lf%%", &pct), 1, "%s", out);
	cr_assert(pct > 57 && pct < 63, "%g", pct);
}

Test(health, drop_below_threshold_is_ok)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_factor = 1 / 0.95;  /* 5% drop: significant, below warn_drop 10 */
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	/* It is significant (the details show a tiny p) but small. */
	cr_assert_not_null(strstr(out, "worst: 8 nodes"), "%s", out);
	/* The thresholds come from the judged run: lower warn_drop to 3 and it warns. */
	static const char *const sets[] = { "warn_drop=3" };
	struct judge_opts o = { .baseline = bp, .no_history = true, .sets = sets, .nsets = 1 };

	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_WARNING, "%s", out);
}

Test(health, large_but_not_significant_is_ok)
{
	struct fx_spec b, r;
	char bp[512], rp[512], err[512];
	struct sw_run *rr, *bb;
	struct sw_analysis *ra, *ba;
	struct health_verdict *v;

	/* One pair, 3 repetitions a side: a 40% drop is estimated, but 3
	 * values a side are too few to test it (CHANGE_MIN_REPS). */
	healthy(&b, "base", 1);
	b.nranks = 2;
	b.pairs = "1";
	b.reps = "3";
	b.patterns = "stream";
	r = b;
	r.name = "now";
	r.noise_seed = 2;
	r.slow_pattern = PAT_STREAM;
	r.slow_all_levels = true;
	r.slow_factor = 1 / 0.6;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	rr = results_load(rp, err, sizeof(err));
	bb = results_load(bp, err, sizeof(err));
	cr_assert(rr && bb, "%s", err);
	ra = analysis_run(rr, &rr->cfg, err, sizeof(err));
	ba = analysis_run(bb, &bb->cfg, err, sizeof(err));
	cr_assert(ra && ba, "%s", err);
	v = health_judge(rr, ra, bb, ba);
	cr_assert_not_null(v);
	cr_assert_eq(v->status, SW_NAGIOS_OK, "%s", v->summary);
	cr_assert_eq(v->ncompared, 2);
	for (int i = 0; i < v->ncells; i++) {
		cr_assert(v->cell[i].compared);
		cr_assert(v->cell[i].change > 38 && v->cell[i].change < 42, "%g", v->cell[i].change);
		cr_assert(isnan(v->cell[i].p) && isnan(v->cell[i].lo), "p %g", v->cell[i].p);
	}
	/* ... and the verdict says that this check cannot page (issue 11). */
	bool blind = false;
	for (int i = 0; i < v->nnotes; i++)
		blind |= strstr(v->notes[i], "2 compared cells cannot show a significant change: fewer than 5") != NULL;
	cr_assert(blind, "no blind-check note among %d notes", v->nnotes);
	/* The report of the run says so too. */
	struct sw_analysis *a = analysis_run(rr, &rr->cfg, err, sizeof(err));
	char *text;

	cr_assert_not_null(a, "%s", err);
	text = report_string(rr, a, REPORT_TABLE);
	cr_assert(text && strstr(text, "warning: fewer than 5 repetitions: no change of these cells can be significant"),
		  "%s", text ? text : "(no report)");
	free(text);
	analysis_free(a);
	health_verdict_free(v);
	analysis_free(ra);
	analysis_free(ba);
	run_free(rr);
	run_free(bb);
}

Test(health, slow_host_is_named_as_suspect)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.slow_pair = 3;           /* ranks 6 and 7: node07 and node08 */
	r.slow_pair_factor = 1.5;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert_not_null(strstr(line, "SWSTRESS CRITICAL - "), "%s", line);
	cr_assert_not_null(strstr(line, "suspect ports node07, node08"), "%s", line);
	cr_assert_not_null(strstr(out, "\nsuspect port node07: slower than its peers in"), "%s", out);
	cr_assert_not_null(strstr(out, "(new since the baseline)"), "%s", out);
	cr_assert_null(strstr(out, "node01"), "%s", out);
	cr_assert_not_null(strstr(line, "'suspects'=2;;;0;"), "%s", line);

	/* The same slow pair in the baseline: a known quirk, listed, not raised. */
	b.slow_pair = 3;
	b.slow_pair_factor = 1.5;
	b.name = "base2";
	make(&b, bp, sizeof(bp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	cr_assert_not_null(strstr(out, "suspect port node07: slower than its peers in"), "%s", out);
	cr_assert_not_null(strstr(out, "(flagged in the baseline too)"), "%s", out);
}

Test(health, failed_cell_is_critical)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.fail_last = true;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	cr_assert(starts(out, "SWSTRESS CRITICAL - 8 nodes 64KiB stream: failed: watchdog"), "%s", out);
}

/* Rewrite run.json in folder rp as a run stopped by SIGINT. */
static void stopped_by_sigint(const char *rp)
{
	char path[600];
	json_error_t je;
	json_t *root;

	snprintf(path, sizeof(path), "%s/run.json", rp);
	root = json_load_file(path, 0, &je);
	cr_assert_not_null(root, "%s", je.text);
	json_object_set_new(root, "complete", json_false());
	json_object_set_new(root, "failure", json_string("stopped by signal 2 (Interrupt)"));
	cr_assert_eq(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

/* A run stopped by a signal after every cell had data: not all of it was
 * judged, so not OK (issue #11: it was OK, the signal nowhere). */
Test(health, run_stopped_by_signal_is_unknown)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	stopped_by_sigint(rp);
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS UNKNOWN - "), "%s", out);
	cr_assert(strstr(line, "; run incomplete: stopped by signal 2 (Interrupt) |"), "%s", out);
}

/* Stopped by a signal before any cell had its repetitions: the line leads
 * with that, not with "other patterns, sizes or levels?" (a drill on a
 * loaded machine interrupted the check at its first repetition). */
Test(health, run_stopped_before_any_cell_compared_says_so)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.reps = "1";
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(strstr(line, "can be compared"), "%s", out);
	stopped_by_sigint(rp);
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS UNKNOWN - run incomplete: stopped by signal 2 (Interrupt), before any cell "
			   "could be compared with baseline base"), "%s", out);
}

Test(health, corrupt_and_missing_baselines_are_unknown)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], path[600], missing[600];
	FILE *f;

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));

	snprintf(missing, sizeof(missing), "%s/no-such-run", fixture_dir);
	cr_assert_eq(judge_pair(rp, missing, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert(starts(out, "SWSTRESS UNKNOWN - baseline unusable: "), "%s", out);
	cr_assert_not_null(strstr(out, "No such file or directory"), "%s", out);
	cr_assert_eq(strchr(out, '\n') - out + 1, (long)strlen(out), "one line: %s", out);

	snprintf(path, sizeof(path), "%s/run.json", bp);
	f = fopen(path, "w");
	fputs("{\"schema_version\": 1, \"ranks\": [", f);
	fclose(f);
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert(starts(out, "SWSTRESS UNKNOWN - baseline unusable: "), "%s", out);
	cr_assert_not_null(strstr(out, "not valid JSON"), "%s", out);
	/* the baseline given as run.json itself */
	cr_assert_eq(judge_pair(rp, path, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);

	/* samples.csv cut off in the middle of a row */
	b.name = "base-cut";
	make(&b, bp, sizeof(bp));
	snprintf(path, sizeof(path), "%s/samples.csv", bp);
	f = fopen(path, "a");
	fputs("3,1,8,4,stream,65536,100,0,", f);
	fclose(f);
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert_not_null(strstr(out, "samples.csv:"), "%s", out);

	/* the judged run itself missing */
	cr_assert_eq(judge_pair(missing, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert(starts(out, "SWSTRESS UNKNOWN - cannot read the results to judge: "), "%s", out);
}

Test(health, mismatched_sizes_are_unknown_but_common_cells_judged)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	b.sizes = "8, 1MiB";
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS UNKNOWN - 8 cells not compared (2 nodes 64KiB pingpong: size 64KiB not in baseline"),
		  "%s", line);
	cr_assert_not_null(strstr(line, "4 compared cells OK"), "%s", line);
	cr_assert_not_null(strstr(out, "\n  2 nodes 1MiB stream: in baseline, not in this run"), "%s", out);
	cr_assert_not_null(strstr(out, "\n  OK        8 nodes 8B pingpong:"), "%s", out);

	/* The comparable cells are still judged: a drop there is CRITICAL. */
	b.sizes = "64KiB, 1MiB";
	b.name = "base2";
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	r.name = "now2";
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	cr_assert_not_null(strstr(out, "size 8B not in baseline"), "%s", out);

	/* Other patterns only: nothing to compare. */
	b.patterns = "bidir";
	b.sizes = "8, 64KiB";
	b.name = "base3";
	make(&b, bp, sizeof(bp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert(starts(out, "SWSTRESS UNKNOWN - no cell of now2 can be compared"), "%s", out);
}

Test(health, other_hosts_are_unknown)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384];

	healthy(&b, "base", 1);
	b.host_prefix = "sw";
	healthy(&r, "now", 2);
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert(starts(out, "SWSTRESS UNKNOWN - baseline taken on other hosts: not in baseline: node01, node02"),
		  "%s", out);
	cr_assert_not_null(strstr(out, "only in baseline: sw01"), "%s", out);
	cr_assert_not_null(strstr(out, "8 compared cells OK"), "%s", out);

	/* Fewer nodes than the baseline: the top level cannot be compared. */
	r.nranks = 6;
	r.pairs = "1, 3";
	r.name = "six";
	b.host_prefix = NULL;
	b.name = "base-node";
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert_not_null(strstr(out, "6 nodes not in baseline"), "%s", out);
	cr_assert_not_null(strstr(out, "only in baseline: node07, node08"), "%s", out);
}

Test(health, bad_arguments_are_unknown)
{
	char out[4096], *argv1[] = { "swstress", "judge", NULL };
	char *argv2[] = { "swstress", "judge", "x", "--bogus", NULL };
	char *argv3[] = { "swstress", "judge", "x", "--baseline", NULL };
	struct capture cap;
	int c1, c2, c3;

	cr_assert_eq(capture_start(&cap, false), 0);
	c1 = cli_run(&judge_command, 2, argv1);
	c2 = cli_run(&judge_command, 4, argv2);
	c3 = cli_run(&judge_command, 4, argv3);
	capture_end(&cap, out, sizeof(out));
	cr_assert_eq(c1, SW_NAGIOS_UNKNOWN);
	cr_assert_eq(c2, SW_NAGIOS_UNKNOWN);
	cr_assert_eq(c3, SW_NAGIOS_UNKNOWN);
	cr_assert_str_eq(out,
			 "SWSTRESS UNKNOWN - bad arguments: judge needs an argument (usage: swstress judge RESULT "
			 "--baseline PATH|NAME [options] [key=value ...])\n"
			 "SWSTRESS UNKNOWN - bad arguments: unknown option '--bogus' (see swstress judge --help)\n"
			 "SWSTRESS UNKNOWN - bad arguments: option --baseline needs a value (PATH|NAME)\n");

	struct fx_spec r;
	char rp[512];
	struct judge_opts o = { .no_history = true };

	healthy(&r, "now", 2);
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_UNKNOWN);
	cr_assert(starts(out, "SWSTRESS UNKNOWN - bad arguments: missing --baseline PATH"), "%s", out);
	o.baseline = rp;
	static const char *const sets[] = { "crit_drop=5" };   /* below warn_drop 10 */

	o.sets = sets;
	o.nsets = 1;
	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_UNKNOWN);
	cr_assert_not_null(strstr(out, "bad arguments: "), "%s", out);
	cr_assert_not_null(strstr(out, "crit_drop"), "%s", out);
}

static struct judge_opts g_opts;
static const char *g_sets[8];

static int options_of(const struct cli_args *a)
{
	judge_opts_from_args(a, &g_opts);
	/* the array of key=value words lives in a, which cli_run frees */
	for (int i = 0; i < g_opts.nsets && i < 8; i++)
		g_sets[i] = g_opts.sets[i];
	g_opts.sets = g_sets;
	return 0;
}

Test(health, options_from_the_command_line)
{
	char *argv[] = { "swstress", "check", "-c", "configs/health.conf", "--label", "nightly", "--baseline",
			 "results/base", "--progress", "--no-plot", "--format", "classic", "reps=5", "--prom=/tmp/x.prom",
			 "--json", "--history", "/tmp/h.sqlite", NULL };
	const struct cli_command check = { .name = "check", .options = ~UINT64_C(0), .max_args = 1, .keys = true,
					   .nagios = true, .fn = options_of };
	struct judge_opts o;

	cr_assert_eq(cli_run(&check, 17, argv), 0);
	o = g_opts;
	cr_assert_null(o.result);
	cr_assert_str_eq(o.baseline, "results/base");
	cr_assert_str_eq(o.prom, "/tmp/x.prom");
	cr_assert_str_eq(o.history, "/tmp/h.sqlite");
	cr_assert(o.json);
	cr_assert_not(o.no_history);
	cr_assert_eq(o.nsets, 1);
	cr_assert_str_eq(o.sets[0], "reps=5");

	char buf[256];

	o.history = NULL;
	judge_check_history(&o, "results", buf, sizeof(buf));
	cr_assert_str_eq(buf, "results/history.sqlite");
	o.history = "/var/lib/h.sqlite";
	judge_check_history(&o, "results", buf, sizeof(buf));
	cr_assert_str_eq(buf, "/var/lib/h.sqlite");
}

/* Every perfdata item against the plugin format:
 * 'label'=value[UOM];[warn];[crit];[min];[max] */
static void check_perfdata(const char *perf, int expect_items)
{
	regex_t re;
	char *copy = strdup(perf), *save = NULL;
	char labels[256][20];
	int n = 0;

	cr_assert_eq(regcomp(&re, "^'([^'=]+)'=(-?[0-9]+(\\.[0-9]+)?)(us|ms|s|%|B|KB|MB|TB|c)?"
			     ";(~?:?-?[0-9.]*)?;(~?:?-?[0-9.]*)?;(-?[0-9.]*)?;(-?[0-9.]*)?$",
			     REG_EXTENDED), 0);
	for (char *item = strtok_r(copy, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
		regmatch_t m[3];

		cr_assert_eq(regexec(&re, item, 3, m, 0), 0, "bad perfdata item '%s'", item);
		cr_assert(m[1].rm_eo - m[1].rm_so > 0);
		cr_assert(n < 256);
		snprintf(labels[n], sizeof(labels[n]), "%.*s", (int)(m[1].rm_eo - m[1].rm_so), item + m[1].rm_so);
		for (int j = 0; j < n; j++)
			cr_assert(strncmp(labels[j], labels[n], 19), "labels %s and %s clash in 19 chars",
				  labels[j], labels[n]);
		n++;
	}
	if (expect_items >= 0)
		cr_assert_eq(n, expect_items, "%d items in %s", n, perf);
	regfree(&re);
	free(copy);
}

Test(health, perfdata_follows_the_plugin_format)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];
	const char *bar;

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	judge_pair(rp, bp, out, sizeof(out));
	first_line(out, line, sizeof(line));
	bar = strstr(line, " | ");
	cr_assert_not_null(bar);
	cr_assert_null(strchr(bar + 3, '|'));
	/* 8 cells x (degradation + median) + 3 counters */
	check_perfdata(bar + 3, 19);
	const char *it = strstr(bar, "'pct_st_64KiB_n8'=");
	double val;

	cr_assert_not_null(it, "%s", bar);
	cr_assert_eq(sscanf(it + 18, "%lf", &val), 1);
	cr_assert(val > 28 && val < 32, "%g", val);
	cr_assert_not_null(strstr(bar, "%;~:10;~:25;; "), "%s", bar);
	cr_assert_not_null(strstr(bar, "'us_pp_8B_n2'=5."), "%s", bar);
	cr_assert_not_null(strstr(bar, "'cells_critical'=1;;;0;8"), "%s", bar);

	/* Long labels: many sizes, levels and hops still give unique 19-char prefixes. */
	struct sw_run *rr, *bb;
	struct sw_analysis *ra;
	struct health_verdict *v;
	char err[512], perf[65536];

	healthy(&b, "long-base", 3);
	b.nranks = 64;
	b.pairs = "1, 2, 31, 32";
	b.sizes = "1000000, 1000001, 1048576, 1048577";
	b.patterns = "pingpong, stream, bidir";
	b.reps = "3";
	make(&b, bp, sizeof(bp));
	rr = results_load(bp, err, sizeof(err));
	cr_assert_not_null(rr, "%s", err);
	rr->cfg.nhops = 2;   /* pretend several hop counts: labels grow _h100 */
	ra = analysis_run(rr, &rr->cfg, err, sizeof(err));
	cr_assert_not_null(ra, "%s", err);
	v = health_judge(rr, ra, rr, ra);
	cr_assert_not_null(v);
	cr_assert_eq(health_perfdata(v, perf, sizeof(perf)), 0);
	check_perfdata(perf, 2 * 48 + 3);
	/* MBps_st_1048577B_n62 and _n64 share 19 characters: one falls back */
	cr_assert_not_null(strstr(perf, "'MBps_cell"), "no fallback label used: %s", perf);
	health_verdict_free(v);
	analysis_free(ra);
	bb = NULL;
	run_free(rr);
	(void)bb;
}

Test(health, json_output)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[65536];
	struct judge_opts o = { .json = true, .no_history = true };
	json_error_t je;
	json_t *root, *cells;
	bool found = false;

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	o.baseline = bp;
	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_CRITICAL);
	cr_assert_eq(strchr(out, '\n') - out + 1, (long)strlen(out), "one line");
	root = json_loads(out, 0, &je);
	cr_assert_not_null(root, "%s: %s", je.text, out);
	cr_assert_str_eq(json_string_value(json_object_get(root, "status")), "CRITICAL");
	cr_assert_eq(json_integer_value(json_object_get(root, "code")), 2);
	cr_assert_str_eq(json_string_value(json_object_get(root, "baseline")), "base");
	cells = json_object_get(root, "cells");
	cr_assert_eq(json_array_size(cells), 8);
	for (size_t i = 0; i < json_array_size(cells); i++) {
		json_t *c = json_array_get(cells, i);

		if (strcmp(json_string_value(json_object_get(c, "status")), "CRITICAL"))
			continue;
		found = true;
		cr_assert_str_eq(json_string_value(json_object_get(c, "pattern")), "stream");
		cr_assert_eq(json_integer_value(json_object_get(c, "size_bytes")), 65536);
		cr_assert_eq(json_integer_value(json_object_get(c, "nodes")), 8);
		cr_assert(json_real_value(json_object_get(c, "change_pct")) > 28);
	}
	cr_assert(found);
	json_decref(root);
}

/* The file's text (static buffer). */
static const char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert_not_null(f, "%s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

Test(health, prometheus_textfile)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], prom[600], line[700];
	struct judge_opts o = { .no_history = true };
	const char *t;
	FILE *f;
	int helps = 0, types = 0, samples = 0;

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	r.slow_pair = 3;
	r.slow_pair_factor = 1.5;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	snprintf(prom, sizeof(prom), "%s/swstress.prom", fixture_dir);
	o.baseline = bp;
	o.prom = prom;
	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_CRITICAL);
	t = slurp(prom);
	cr_assert_not_null(strstr(t, "# TYPE swstress_check_status gauge\nswstress_check_status 2\n"), "%s", t);
	struct tm tm = { .tm_year = 126, .tm_mon = 2, .tm_mday = 3, .tm_hour = 2 };   /* fixture: seed 2 */
	char ts[96];

	snprintf(ts, sizeof(ts), "\nswstress_last_run_timestamp_seconds %lld\n", (long long)timegm(&tm));
	cr_assert_not_null(strstr(t, ts), "%s", t);
	cr_assert_not_null(strstr(t, "\nswstress_latency_seconds{pattern=\"pingpong\",size_bytes=\"8\",nodes=\"2\",stat=\"median\"} 5."), "%s", t);
	cr_assert_not_null(strstr(t, "\nswstress_bandwidth_bytes_per_second{pattern=\"stream\",size_bytes=\"65536\",nodes=\"8\",stat=\"baseline_median\"} "), "%s", t);
	cr_assert_not_null(strstr(t, "\nswstress_cell_status{pattern=\"stream\",size_bytes=\"65536\",nodes=\"8\"} 2\n"), "%s", t);
	cr_assert_not_null(strstr(t, "\nswstress_suspect_port{host=\"node07\"} 1\n"), "%s", t);
	cr_assert_not_null(strstr(t, "\nswstress_suspect_port{host=\"node01\"} 0\n"), "%s", t);
	/* Every sample line: name{labels} value, no timestamp; families declared once. */
	f = fopen(prom, "r");
	while (fgets(line, sizeof(line), f)) {
		if (starts(line, "# HELP ")) {
			helps++;
			continue;
		}
		if (starts(line, "# TYPE ")) {
			types++;
			cr_assert_not_null(strstr(line, " gauge\n"), "%s", line);
			continue;
		}
		char *sp = strrchr(line, '}') ? strrchr(line, '}') + 1 : strchr(line, ' ');
		double x;
		char rest[64];

		cr_assert(starts(line, "swstress_"), "%s", line);
		cr_assert_eq(sscanf(sp, " %lf%63s", &x, rest), 1, "timestamp or junk after value: %s", line);
		samples++;
	}
	fclose(f);
	cr_assert_eq(helps, types);
	cr_assert(helps >= 9 && samples > 30, "%d %d", helps, samples);
	/* No temporary file left next to it. */
	snprintf(line, sizeof(line), "ls -A \"$(dirname '%s')\" | grep -q '\\.tmp$'", prom);
	cr_assert_neq(system(line), 0, "a temporary file was left beside %s", prom);
}

Test(health, prometheus_label_escaping)
{
	struct health_verdict *v = health_verdict_unknown(NULL, NULL, "test");
	char prom[600], err[256];

	cr_assert_not_null(v);
	v->suspect = calloc(1, sizeof(*v->suspect));
	v->nsuspects = 1;
	snprintf(v->suspect[0].host, SW_HOST_MAX, "a\"b\\c\nd");
	snprintf(prom, sizeof(prom), "%s/esc.prom", fixture_dir);
	cr_assert_eq(health_write_prom(prom, NULL, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(strstr(slurp(prom), "swstress_suspect_port{host=\"a\\\"b\\\\c\\nd\"} 1\n"), "%s", slurp(prom));
	cr_assert_not_null(strstr(slurp(prom), "swstress_check_status 3\n"));
	health_verdict_free(v);
	/* an unwritable folder is an error naming the file */
	cr_assert_eq(health_write_prom("/nonexistent-dir/x.prom", NULL, v = health_verdict_unknown(NULL, NULL, "x"),
				       err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "/nonexistent-dir/x.prom"), "%s", err);
	health_verdict_free(v);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

Test(health, second_check_lock_fails_at_once_with_pid)
{
	char db[600], err[256], expect[128], c;
	int fd = -1, pipe_ready[2], pipe_go[2];
	pid_t child;
	double t0;

	snprintf(db, sizeof(db), "%s/results/history.sqlite", fixture_dir);
	cr_assert_eq(pipe(pipe_ready), 0);
	cr_assert_eq(pipe(pipe_go), 0);
	child = fork();
	cr_assert(child >= 0);
	if (child == 0) {
		int cfd;

		if (judge_lock(db, &cfd, err, sizeof(err)))
			_exit(1);
		(void)!write(pipe_ready[1], "x", 1);
		(void)!read(pipe_go[0], &c, 1);   /* hold the lock until told */
		judge_unlock(cfd);
		_exit(0);
	}
	cr_assert_eq(read(pipe_ready[0], &c, 1), 1, "child could not take the lock");
	t0 = now_s();
	cr_assert_eq(judge_lock(db, &fd, err, sizeof(err)), -1);
	cr_assert(now_s() - t0 < 0.5, "waited %g s", now_s() - t0);
	snprintf(expect, sizeof(expect), "previous check still running (pid %ld)", (long)child);
	cr_assert_str_eq(err, expect);
	cr_assert_eq(fd, -1);
	(void)!write(pipe_go[1], "x", 1);
	int st;

	waitpid(child, &st, 0);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* released: now it is ours, and the file names us */
	cr_assert_eq(judge_lock(db, &fd, err, sizeof(err)), 0, "%s", err);
	char lp[700];

	snprintf(lp, sizeof(lp), "%s.lock", db);
	cr_assert_eq(atol(slurp(lp)), (long)getpid());
	judge_unlock(fd);
}

/* ---------------------------------------------------------------- */
/* Baseline sets: the night-to-night spread                           */

/* Five baseline runs base1..base5 whose pingpong cells vary from night to
 * night by the planted factors (a fabric whose latency moves +-20%), and
 * a set "nightly" of them in db. */
static void make_set(char *db, size_t dblen, const double *night_factor, int k)
{
	struct history_member m[8];
	char path[512], err[512], name[16];
	struct fx_spec s;

	cr_assert(k <= 8);
	snprintf(db, dblen, "%s/history.sqlite", fixture_dir);
	for (int j = 0; j < k; j++) {
		snprintf(name, sizeof(name), "base%d", j + 1);
		healthy(&s, name, (uint64_t)j + 1);
		s.slow_pattern = PAT_PINGPONG;
		s.slow_all_levels = true;
		s.slow_factor = night_factor[j];
		make(&s, path, sizeof(path));
		memset(&m[j], 0, sizeof(m[j]));
		snprintf(m[j].run, sizeof(m[j].run), "%s", name);
		snprintf(m[j].folder, sizeof(m[j].folder), "%s", path);
		snprintf(m[j].started, sizeof(m[j].started), "2026-03-%02dT02:00:00Z", j + 2);
	}
	cr_assert_eq(history_baseline_put(db, "nightly", m, (size_t)k, true, err, sizeof(err)), 0, "%s", err);
}

static int judge_set(const char *result, const char *db, char *out, size_t len, const char *set1)
{
	const char *sets[1] = { set1 };
	struct judge_opts o = { .baseline = "nightly", .history = db, .sets = sets, .nsets = set1 ? 1 : 0 };

	return judge(result, &o, out, len);
}

/*
 * The case: latency that moves +-20% between healthy nights.
 * Against one baseline run with the default run_to_run (5%) tonight's
 * +25% clears the allowance (13.9%) and is over warn_inflation 20%:
 * WARNING, the status line saying the spread is unknown; told what the
 * nights really do (run_to_run = 20) it is OK. A set of five that spans
 * the same moves calls it ordinary (its interval includes 0): OK.
 */
Test(health, ordinary_night_to_night_change_is_ok_against_a_set)
{
	static const double f[5] = { 1.0, 1.2, 0.85, 1.15, 0.95 };
	char db[600], rp[512], out[32768], line[4096];
	struct fx_spec r;

	make_set(db, sizeof(db), f, 5);
	healthy(&r, "tonight", 9);
	r.slow_pattern = PAT_PINGPONG;
	r.slow_all_levels = true;
	r.slow_factor = 1.25;
	make(&r, rp, sizeof(rp));
	char b1[600];

	snprintf(b1, sizeof(b1), "%s/base1", fixture_dir);
	cr_assert_eq(judge_pair(rp, b1, out, sizeof(out)), SW_NAGIOS_WARNING, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert_not_null(strstr(line, "night-to-night spread unknown (1 baseline run)"), "%s", line);
	static const char *const wide[] = { "run_to_run=20" };
	struct judge_opts o = { .baseline = b1, .no_history = true, .sets = wide, .nsets = 1 };

	cr_assert_eq(judge(rp, &o, out, sizeof(out)), SW_NAGIOS_OK, "%s", out);
	cr_assert_eq(judge_set(rp, db, out, sizeof(out), NULL), SW_NAGIOS_OK, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS OK - 8 cells within thresholds vs baseline nightly"), "%s", line);
	cr_assert_null(strstr(out, "spread unknown"), "%s", out);
	/* the perfdata carries how unusual each cell is: the pingpong cells
	 * score 0.5..2 night-to-night SDs (planted: ln 1.25 - mean ln f over
	 * their SD, about 1.1) */
	double sd;
	const char *p = strstr(line, "'sd_pp_8B_n2'=");

	cr_assert_not_null(p, "%s", line);
	cr_assert_eq(sscanf(p, "'sd_pp_8B_n2'=%lf;;;;", &sd), 1, "%s", p);
	cr_assert(sd > 0.5 && sd < 2.0, "sd %g", sd);
}

/* A 40% bandwidth drop against the same set: CRITICAL, and the rule says
 * both the size of the change and how unusual it is. */
Test(health, planted_drop_against_a_set_is_critical_with_sigma)
{
	static const double f[5] = { 1.0, 1.02, 0.99, 1.01, 0.98 };
	char db[600], rp[512], out[32768], line[4096];
	struct fx_spec r;
	double pct, lo, hi, sd, spread;

	make_set(db, sizeof(db), f, 5);
	healthy(&r, "tonight", 9);
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.6;
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_set(rp, db, out, sizeof(out), NULL), SW_NAGIOS_CRITICAL, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS CRITICAL - 8 nodes 64KiB stream: bandwidth drop +"), "%s", line);
	const char *p = strstr(line, "bandwidth drop ");

	cr_assert_eq(sscanf(p, "bandwidth drop %lf%% [%lf,%lf], %lf sd of %lf%%", &pct, &lo, &hi, &sd, &spread), 5,
		     "%s", p);
	cr_assert(pct > 38 && pct < 42, "planted 40%% drop: %g", pct);
	cr_assert(lo < pct && pct < hi, "%g [%g, %g]", pct, lo, hi);
	cr_assert(sd >= 3, "sd %g", sd);
	/* recomputable: the score is -ln(1 - drop) over ln(1 + the SD shown) */
	cr_assert(fabs(-log1p(-pct / 100) / log1p(spread / 100) - sd) < 0.15 * sd, "%g %g %g", pct, spread, sd);
	cr_assert_not_null(strstr(out, "(warn 10%, crit 25% drop)"), "%s", out);
	/* one rule: the interval excludes a healthy night (lo > 0) and the
	 * estimate is over crit_drop; the p printed is below alpha */
	cr_assert(lo > 0 && pct > 25, "%g [%g, %g]", pct, lo, hi);
	cr_assert_not_null(strstr(out, "intervals and p are simultaneous over the 8 cells"), "%s", out);
	/* with crit_drop 45% the same drop warns */
	cr_assert_eq(judge_set(rp, db, out, sizeof(out), "crit_drop=45"), SW_NAGIOS_WARNING, "%s", out);
}

/* check adds OK nights to a named set when baseline_window is set, and
 * keeps only the newest N of them (the marked runs stay). */
Test(health, rolling_window_keeps_the_newest_ok_nights)
{
	static const double f[3] = { 1.0, 1.01, 0.99 };
	char db[600], rp[512], out[32768], err[512], name[16];
	struct history_member *m;
	size_t n;
	int rolling = 0;

	make_set(db, sizeof(db), f, 3);
	for (int i = 0; i < 3; i++) {
		struct fx_spec r;

		snprintf(name, sizeof(name), "ok%d", i + 1);
		healthy(&r, name, (uint64_t)i + 10);
		make(&r, rp, sizeof(rp));
		cr_assert_eq(judge_set(rp, db, out, sizeof(out), "baseline_window=2"), SW_NAGIOS_OK, "%s", out);
	}
	cr_assert_eq(history_baseline_members(db, "nightly", &m, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 5, "3 marked + 2 rolling, got %zu", n);
	for (size_t i = 0; i < n; i++) {
		rolling += m[i].rolling;
		cr_assert(strcmp(m[i].run, "ok1"), "the oldest OK night left the window");
	}
	cr_assert_eq(rolling, 2);
	free(m);
	/* a night that is not OK does not join */
	struct fx_spec r;

	healthy(&r, "bad", 20);
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 2.0;
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_set(rp, db, out, sizeof(out), "baseline_window=2"), SW_NAGIOS_CRITICAL, "%s", out);
	cr_assert_eq(history_baseline_members(db, "nightly", &m, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 5);
	free(m);
}

/* A set member whose folder is gone: left out, said, UNKNOWN at least. */
Test(health, missing_set_member_is_named)
{
	static const double f[4] = { 1.0, 1.01, 0.99, 1.0 };
	char db[600], rp[512], out[32768], gone[600];
	struct fx_spec r;

	make_set(db, sizeof(db), f, 4);
	snprintf(gone, sizeof(gone), "%s/base2/run.json", fixture_dir);
	cr_assert_eq(unlink(gone), 0);
	healthy(&r, "tonight", 9);
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_set(rp, db, out, sizeof(out), NULL), SW_NAGIOS_UNKNOWN, "%s", out);
	cr_assert_not_null(strstr(out, "note: baseline run base2 unreadable, left out"), "%s", out);
	/* the three others still give the spread */
	cr_assert_null(strstr(out, "spread unknown"), "%s", out);
}

/* Issue #28: a latency cell whose busy ranks outnumber the cores of the
 * kernel they share pages only with "CPU-bound" in the same line (status
 * line and the cell's line), and JSON says so; a bandwidth cell and a
 * run whose ranks have their own machines do not. */
Test(health, cpu_bound_latency_cell_says_so_in_the_line)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[2048];
	struct judge_opts o = { .no_history = true, .json = true };

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	b.shared_cores = r.shared_cores = 2;
	r.slow_pattern = PAT_PINGPONG;
	r.slow_size = 8;
	r.slow_factor = 1.6;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS CRITICAL - 8 nodes 8B pingpong: latency inflation +"), "%s", line);
	cr_assert(strstr(line, "CPU-bound: 8 busy ranks on 2 shared cores"), "%s", line);
	/* every CPU-bound mention is on a latency (pingpong) line (a cell's
	 * line wraps at 80 columns: its continuations are indented 12) */
	for (const char *p = strstr(out, "CPU-bound"); p; p = strstr(p + 1, "CPU-bound")) {
		const char *bol = p;

		for (;;) {
			while (bol > out && bol[-1] != '\n')
				bol--;
			if (bol == out || strncmp(bol, "            ", 12) != 0)
				break;
			bol--;
		}
		cr_assert(strstr(bol, "pingpong") && strstr(bol, "pingpong") < p, "%.*s", (int)(p - bol) + 9, bol);
	}
	o.baseline = bp;
	judge(rp, &o, out, sizeof(out));
	cr_assert(strstr(out, "\"cpu_bound_ranks\": 8") || strstr(out, "\"cpu_bound_ranks\":8"), "%s", out);
	/* the same runs without identities: no CPU-bound anywhere */
	healthy(&b, "base2", 1);
	healthy(&r, "now2", 2);
	r.run_to_run = "0";   /* the thresholds alone, no run-to-run allowance */
	r.slow_pattern = PAT_PINGPONG;
	r.slow_size = 8;
	r.slow_factor = 1.6;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_CRITICAL, "%s", out);
	cr_assert_null(strstr(out, "CPU-bound"), "%s", out);
}

/* The report's Hockney fit over two sizes: a line through two points,
 * said to be exact, not given an R^2 of 1.0000 as if it fit well. */
Test(health, report_two_size_fit_is_exact_not_r2)
{
	struct fx_spec s;
	char path[512], err[512], out[1 << 16];
	struct sw_run *r;
	struct sw_analysis *a;
	FILE *f;

	healthy(&s, "fit-20260301-020000", 1);
	make(&s, path, sizeof(path));
	r = results_load(path, err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert(a->nfits > 0 && a->fit[0].npoints == 2, "the fixture has two sizes");
	f = fmemopen(out, sizeof(out), "w");
	report_print(f, r, a, report_format_find("table"));
	fclose(f);
	cr_assert_not_null(strstr(out, "exact by construction (2 sizes)"), "%s", out);
	cr_assert_null(strstr(out, "R^2 1.0000"), "%s", out);
	analysis_free(a);
	run_free(r);
}

/* ---------------------------------------------------------------- */
/* The paging rule against a baseline set, by simulation               */

/*
 * Nights simulated with a known truth and judged by the library's rule
 * (health_cell_nightly, then health_grade: the pooled night-to-night
 * spread and the one paging criterion). 12 cells shaped like
 * configs/health.conf (2 levels x 3 sizes x pingpong and stream), 3
 * baseline runs and tonight, 10 repetitions each, each repetition's value
 * t0 exp(N + E) for latency and b0 exp(-(N + E)) for bandwidth: E ~ N(0,
 * 2%) within the run, N the night's shift, either shared by every cell of
 * the run (one N a run) or differing by cell (one N a cell and run), SD
 * 2% or 5%. A planted slowdown divides tonight's bandwidth by f. Counted:
 * verdicts WARNING or CRITICAL, and CRITICAL. The targets of the rule
 * (results/README.md, "Baseline sets"): healthy nights page at most 5%,
 * CRITICAL at most 1%; every stream cell 20% slower pages at least 80%;
 * every stream cell 35% slower is CRITICAL at least 80% (2% spread); one
 * stream cell 20% slower pages at least 80% (2%).
 */
#define SIM_CELLS 12
#define SIM_REPS 10
#define SIM_K 3

static uint64_t sim_state;

static double sim_uniform(void)
{
	sim_state ^= sim_state << 13;
	sim_state ^= sim_state >> 7;
	sim_state ^= sim_state << 17;
	return ((double)(sim_state >> 11) + 0.5) / 9007199254740992.0;
}

static double sim_normal(double sd)
{
	return sd * sqrt(-2.0 * log(sim_uniform())) * cos(2.0 * M_PI * sim_uniform());
}

/* One night: the status of the verdict. slow: cells whose bandwidth is
 * divided by f tonight (-1: every stream cell, else that cell index). */
static int sim_night(const struct sw_config *cfg, double sd, bool shared, int slow, double f)
{
	double y[SIM_K][SIM_REPS], x[SIM_REPS], shift[SIM_K + 1];
	double *yp[SIM_K] = { y[0], y[1], y[2] };
	size_t ny[SIM_K] = { SIM_REPS, SIM_REPS, SIM_REPS };
	struct health_verdict *v = health_verdict_new(NULL, SIM_CELLS);
	int status;

	cr_assert_not_null(v);
	v->warn_drop = cfg->warn_drop;
	v->crit_drop = cfg->crit_drop;
	v->warn_inflation = cfg->warn_inflation;
	v->crit_inflation = cfg->crit_inflation;
	v->alpha = cfg->alpha;
	v->confidence = cfg->confidence;
	for (int j = 0; j <= SIM_K; j++)
		shift[j] = sim_normal(sd);
	for (int c = 0; c < SIM_CELLS; c++) {
		struct health_cell *hc = &v->cell[v->ncells++];
		bool stream = c % 2, lat = !stream;
		double g = stream && (slow < 0 || slow == c) ? log(f) : 0.0;

		health_cell_blank(hc);
		hc->cell = hc->base_cell = c;
		hc->pattern = stream;
		hc->metric = lat ? HEALTH_LATENCY : HEALTH_BANDWIDTH;
		for (int j = 0; j <= SIM_K; j++) {
			double N = shared ? shift[j] : sim_normal(sd), *val = j < SIM_K ? y[j] : x;

			for (int i = 0; i < SIM_REPS; i++) {
				double e = N + sim_normal(0.02) + (j == SIM_K ? g : 0.0);

				val[i] = lat ? 5e-6 * exp(e) : 1e9 * exp(-e);
			}
		}
		health_cell_nightly(hc, cfg, x, SIM_REPS, yp, ny, SIM_K, 0.0);
		cr_assert(hc->compared && hc->pageable);
	}
	cr_assert_eq(health_grade(v), 0);
	/* the verdict agrees with the numbers printed beside it */
	for (int c = 0; c < v->ncells; c++) {
		const struct health_cell *hc = &v->cell[c];

		cr_assert_eq(hc->status != SW_NAGIOS_OK, hc->p < cfg->alpha && hc->change > (c % 2 ? cfg->warn_drop :
			     cfg->warn_inflation), "cell %d: %g%% [%g, %g] p %g", c, hc->change, hc->lo, hc->hi, hc->p);
		cr_assert_eq(hc->lo > 0, hc->p < cfg->alpha, "cell %d: [%g, %g] p %g", c, hc->lo, hc->hi, hc->p);
		if (hc->lo > (c % 2 ? cfg->warn_drop : cfg->warn_inflation))
			cr_assert_neq(hc->status, SW_NAGIOS_OK, "cell %d: [%g, %g] beyond the limit", c, hc->lo, hc->hi);
	}
	status = v->status;
	health_verdict_free(v);
	return status;
}

/* Nights of one scenario: how many paged (WARNING or CRITICAL) and how
 * many were CRITICAL, printed for the record. */
static void sim_nights(int n, double sd, bool shared, int slow, double f, int *paged, int *crit)
{
	struct sw_config cfg;

	config_defaults(&cfg);
	*paged = *crit = 0;
	for (int i = 0; i < n; i++) {
		int s = sim_night(&cfg, sd, shared, slow, f);

		*paged += s == SW_NAGIOS_WARNING || s == SW_NAGIOS_CRITICAL;
		*crit += s == SW_NAGIOS_CRITICAL;
	}
	fprintf(stderr, "health sim: %d nights, %s spread %.0f%%, %s x%.2f: paged %.1f%%, CRITICAL %.1f%%\n", n,
		shared ? "shared" : "by-cell", sd * 100, slow == -1 ? "every stream cell" : slow == -2 ? "none" :
		"one stream cell", f, 100.0 * *paged / n, 100.0 * *crit / n);
}

#define SIM_N 400

Test(health, set_of_3_healthy_nights_rarely_page)
{
	int paged, crit;

	sim_state = 0x9e3779b97f4a7c15ULL;
	for (int m = 0; m < 2; m++)
		for (int s = 0; s < 2; s++) {
			sim_nights(SIM_N, s ? 0.05 : 0.02, m == 0, -2, 1.0, &paged, &crit);
			cr_assert(paged <= 0.05 * SIM_N, "healthy nights paged %d of %d", paged, SIM_N);
			cr_assert(crit <= 0.01 * SIM_N, "healthy nights CRITICAL %d of %d", crit, SIM_N);
		}
}

Test(health, set_of_3_pages_when_every_stream_cell_is_20pct_slower)
{
	int paged, crit;

	sim_state = 0x2545f4914f6cdd1dULL;
	for (int m = 0; m < 2; m++)
		for (int s = 0; s < 2; s++) {
			sim_nights(SIM_N, s ? 0.05 : 0.02, m == 0, -1, 1 / 0.8, &paged, &crit);
			cr_assert(paged >= 0.8 * SIM_N, "20%% slower paged %d of %d", paged, SIM_N);
		}
}

Test(health, set_of_3_is_critical_when_every_stream_cell_is_35pct_slower)
{
	int paged, crit;

	sim_state = 0x5851f42d4c957f2dULL;
	for (int m = 0; m < 2; m++) {
		sim_nights(SIM_N, 0.02, m == 0, -1, 1 / 0.65, &paged, &crit);
		cr_assert(crit >= 0.8 * SIM_N, "35%% slower CRITICAL %d of %d", crit, SIM_N);
	}
}

Test(health, set_of_3_pages_when_one_stream_cell_is_20pct_slower)
{
	int paged, crit;

	sim_state = 0x14057b7ef767814fULL;
	for (int m = 0; m < 2; m++) {
		sim_nights(SIM_N, 0.02, m == 0, 3, 1 / 0.8, &paged, &crit);
		cr_assert(paged >= 0.8 * SIM_N, "one cell 20%% slower paged %d of %d", paged, SIM_N);
	}
}

/* ---------------------------------------------------------------- */
/* Like with like                                                     */

/* A run with window 16 against a baseline with the fixtures' window 25:
 * the cells measured another way, so nothing is judged: UNKNOWN (exit
 * 3) naming the key with the baseline's value first, though tonight is
 * 30% slower. */
Test(health, baseline_with_another_window_is_unknown_naming_it)
{
	struct fx_spec b, r;
	char bp[512], rp[512], out[16384], line[4096];

	healthy(&b, "base", 1);
	healthy(&r, "now", 2);
	r.window = "16";
	r.slow_pattern = PAT_STREAM;
	r.slow_size = 65536;
	r.slow_factor = 1 / 0.7;
	make(&b, bp, sizeof(bp));
	make(&r, rp, sizeof(rp));
	cr_assert_eq(judge_pair(rp, bp, out, sizeof(out)), SW_NAGIOS_UNKNOWN, "%s", out);
	first_line(out, line, sizeof(line));
	cr_assert(starts(line, "SWSTRESS UNKNOWN - baseline differs: window 25 vs 16 "), "%s", line);
	cr_assert_null(strstr(out, "bandwidth drop"), "%s", out);
}

/* The keys: those that change what a cell measures must match, those
 * people change on purpose give a caution; each key named once, with the
 * baseline's value first, whatever the number of baseline runs. */
Test(health, config_keys_split_into_must_match_and_caution)
{
	struct sw_run r = { 0 }, b1 = { 0 }, b2 = { 0 };
	const struct sw_run *base[2] = { &b1, &b2 };
	char must[200], caution[200], err[256];

	config_defaults(&r.cfg);
	config_defaults(&b1.cfg);
	config_defaults(&b2.cfg);
	health_config_check(&r, base, 2, must, sizeof(must), caution, sizeof(caution));
	cr_assert_str_empty(must);
	cr_assert_str_empty(caution);
	cr_assert_eq(config_set(&r.cfg, "distinct_buffers", "yes", "t", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set(&r.cfg, "sample_time", "5ms", "t", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set(&b2.cfg, "pairing", "halves", "t", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set(&r.cfg, "pairing", "halves", "t", err, sizeof(err)), 0, "%s", err);
	health_config_check(&r, base, 2, must, sizeof(must), caution, sizeof(caution));
	cr_assert_not_null(strstr(must, "distinct_buffers no vs yes"), "%s", must);
	cr_assert_not_null(strstr(must, "pairing "), "%s", must);   /* b1's pairing differs */
	cr_assert_null(strstr(strstr(must, "distinct_buffers") + 1, "distinct_buffers"), "named twice: %s", must);
	cr_assert_str_eq(caution, "sample_time 20ms vs 5ms");
	/* precision is not what is measured: repetitions may differ freely */
	config_defaults(&r.cfg);
	cr_assert_eq(config_set(&r.cfg, "repetitions", "3..7", "t", err, sizeof(err)), 0, "%s", err);
	health_config_check(&r, base, 1, must, sizeof(must), caution, sizeof(caution));
	cr_assert_str_empty(must);
	cr_assert_str_empty(caution);
}
