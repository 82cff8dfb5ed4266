/*
 * judge.c - the verdict of a results folder against its baseline, as
 * judge and check give it: load both (a baseline folder or a named set),
 * judge (health.c) with the drift chart from the history, record the row
 * (history.c), write --prom, print the verdict on the caller's stream
 * (health_out.c); the check lock. See judge.h. A core module: no argv,
 * nothing on stdout (the command is cmd_judge.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "baseline.h"
#include "config.h"
#include "health.h"
#include "health_out.h"
#include "history.h"
#include "judge.h"
#include "mapjudge.h"
#include "pattern.h"
#include "results.h"
#include "sfile.h"
#include "stats.h"

void judge_check_history(const struct judge_opts *o, const char *output, char *buf, size_t len)
{
	if (o && o->history)
		snprintf(buf, len, "%s", o->history);
	else
		history_default_path(output && output[0] ? output : "results", buf, len);
}

/* ---------------------------------------------------------------- */
/* judge                                                              */

/* A named baseline with baseline_window: an OK night joins it, and only
 * the newest baseline_window nights added this way stay. */
static void roll_baseline(const struct health_verdict *v, const struct sw_run *r, const char *result_dir,
			  const char *db)
{
	struct history_member m = { .rolling = true };
	char err[1024];

	if (!v->baseline_set || v->status != SW_NAGIOS_OK || r->cfg.baseline_window <= 0 || !r->complete)
		return;
	snprintf(m.run, sizeof(m.run), "%s", r->name);
	snprintf(m.started, sizeof(m.started), "%s", r->started);
	if (!realpath(result_dir, m.folder)) {
		fprintf(stderr, "swstress: warning: baseline %s: %s: %s\n", v->baseline, result_dir, strerror(errno));
		return;
	}
	if (history_baseline_put(db, v->baseline, &m, 1, false, err, sizeof(err)) ||
	    history_baseline_trim(db, v->baseline, r->cfg.baseline_window, err, sizeof(err)))
		fprintf(stderr, "swstress: warning: baseline %s: %s\n", v->baseline, err);
	else
		fprintf(stderr, "swstress: %s joins baseline %s (the newest %d OK nights stay: baseline_window)\n",
			r->name, v->baseline, r->cfg.baseline_window);
}

/* A trail the operator relies on is broken (history row lost, --prom not
 * written): at least WARNING, and the status line says why. The switch was
 * judged, so not UNKNOWN; nothing says the fabric is bad, so not CRITICAL. */
static void trail_lost(struct health_verdict *w, const char *what, const char *err)
{
	if (w->status == SW_NAGIOS_OK)
		w->status = SW_NAGIOS_WARNING;
	sw_appendf(w->summary, sizeof(w->summary), "; %s: %s", what, err);
	fprintf(stderr, "swstress: warning: %s: %s\n", what, err);
}

/* Record the history row (when the run was judged, or is fresh, even
 * unreadable: check's night is never missing from the history; a judge
 * that could not read its arguments or baseline says nothing about the
 * run, and must not replace the verdict recorded for it) and write --prom
 * first, so that a failure of either shows in the one status line; then
 * print the verdict. Returns the status printed. */
static int emit(const struct health_verdict *v, const struct judge_opts *o, const struct sw_run *r,
		const struct sw_analysis *a, bool judged, const char *result_dir, FILE *out)
{
	char err[1024], db[SW_PATH_MAX + 32];
	struct health_verdict w = *v;   /* the cells and suspects stay v's */

	if (!o->no_history && r && (judged || o->fresh)) {
		history_result_path(o->history, result_dir, db, sizeof(db));
		if (history_record_check(db, r, a, v, err, sizeof(err)))
			trail_lost(&w, "history row lost", err);
		else
			roll_baseline(v, r, result_dir, db);
	} else if (!o->no_history && !r && o->fresh) {
		/* check's own results unreadable: the night is recorded with why,
		 * under the folder's name (the run's, less .partial) */
		char name[256];
		const char *base = strrchr(result_dir, '/');
		size_t n;

		snprintf(name, sizeof(name), "%s", base ? base + 1 : result_dir);
		n = strlen(name);
		if (n > 8 && !strcmp(name + n - 8, ".partial"))
			name[n - 8] = '\0';
		history_result_path(o->history, result_dir, db, sizeof(db));
		if (history_record_unreadable(db, name, v, err, sizeof(err)))
			trail_lost(&w, "history row lost", err);
	}
	if (o->prom && health_write_prom(o->prom, r, &w, err, sizeof(err)))
		trail_lost(&w, "--prom not written", err);
	if (o->json)
		health_print_json(out, &w);
	else
		health_print_nagios(out, &w);
	fflush(out);
	return w.status;
}

/* Load the baseline runs: o->baseline as a results folder, or as the
 * name of a set in db. Fills base/ba (k of them, oldest first; each
 * analysed at the judged run's confidence, as health_judge_set wants) and
 * the newest hand-marked run's start into after; unreadable set members
 * become notes. 0, or -1 with err. */
static int load_baseline(const struct judge_opts *o, double confidence, const char *db, struct sw_run ***base,
			 struct sw_analysis ***ba, int *k, bool *is_set, char *after, size_t afterlen,
			 char (*notes)[256], int *nnotes, char *err, size_t errlen)
{
	struct history_member *m = NULL;
	size_t n = 0;
	int rc = -1;

	*k = 0;
	*nnotes = 0;
	after[0] = '\0';
	if (baseline_resolve(o->baseline, db, &m, &n, is_set, err, errlen))
		return -1;
	*base = calloc(n, sizeof(**base));
	*ba = calloc(n, sizeof(**ba));
	if (!*base || !*ba) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char berr[1024];
		struct sw_run *b = results_load(m[i].folder, berr, sizeof(berr));
		struct sw_analysis *an = NULL;

		if (b && !b->complete) {    /* a baseline cut short is no baseline */
			snprintf(berr, sizeof(berr), "%.300s: run %s did not finish (%s)", m[i].folder, b->name,
				 b->failure[0] ? b->failure : "cut short");
			run_free(b);
			b = NULL;
		}
		if (b) {
			struct sw_config c = b->cfg;

			c.confidence = confidence;
			if (!(an = analysis_run(b, &c, berr, sizeof(berr)))) {
				run_free(b);
				b = NULL;
			}
		}
		if (!b) {
			if (!*is_set) {
				sw_fail(err, errlen, "%s", berr);
				goto out;
			}
			sw_note(notes[0], sizeof(notes[0]), 2, nnotes, "baseline run %.60s unreadable, left out (%.150s)",
				m[i].run, berr);
			continue;
		}
		(*ba)[*k] = an;
		(*base)[(*k)++] = b;
		if (!m[i].rolling && strcmp(m[i].started, after) > 0)
			snprintf(after, afterlen, "%s", m[i].started);
	}
	if (*k == 0) {
		sw_fail(err, errlen, "baseline %s: none of its %zu runs can be read (%s)", o->baseline, n,
			*nnotes ? notes[0] : "");
		goto out;
	}
	rc = 0;
out:
	free(m);
	return rc;
}

/* Where the drift chart's past nights come from: the history database. */
struct nights_ctx {
	const char *db, *baseline, *after;
	const struct sw_run *r;
};

/* health_nights_fn over history_cell_series. */
static int history_nights(const struct health_cell *hc, void *ctx, double **values, size_t *n,
			  char *err, size_t errlen)
{
	const struct nights_ctx *c = ctx;
	struct history_point *pt = NULL;

	*values = NULL;
	if (history_cell_series(c->db, c->baseline, c->after, c->r, pattern_name(hc->pattern),
				(unsigned long long)hc->size, hc->nodes, c->r->cfg.nhops ? hc->hops : -1,
				hc->metric == HEALTH_LATENCY, &pt, n, err, errlen))
		return -1;
	*values = malloc((*n + 1) * sizeof(double));
	if (!*values) {
		free(pt);
		return sw_fail(err, errlen, "out of memory");
	}
	for (size_t t = 0; t < *n; t++)
		(*values)[t] = pt[t].value;
	free(pt);
	return 0;
}

static bool is_map(const struct sw_run *r)
{
	return r->cfg.schedule == CFG_SCHEDULE_MAP;
}

/* A map is judged against maps only, a sweep against sweeps: else one
 * line naming both. 0, or -1 with err. */
static int kind_differs(const struct sw_run *r, const char *dir, struct sw_run *const *b, int k,
			const char *baseline, bool is_set, char *err, size_t errlen)
{
	for (int j = 0; j < k; j++) {
		const char *what = is_map(b[j]) ? "fabric map" : "sweep";

		if (is_map(b[j]) == is_map(r))
			continue;
		if (is_set)
			return sw_fail(err, errlen, "%s is a %s and baseline set %s holds %s, a %s: judge takes a fabric "
				       "map (schedule = map) against maps, a sweep against sweeps", dir,
				       is_map(r) ? "fabric map" : "sweep", baseline, b[j]->name, what);
		return sw_fail(err, errlen, "%s is a %s and baseline %s a %s: judge takes a fabric map (schedule = "
			       "map) against maps, a sweep against sweeps", dir, is_map(r) ? "fabric map" : "sweep",
			       baseline, what);
	}
	return 0;
}

int judge_dir(const char *result_dir, const struct judge_opts *o, FILE *out)
{
	struct sw_run *r = NULL, **b = NULL;
	struct sw_analysis *a = NULL, **ba = NULL;
	struct health_verdict *v = NULL;
	char err[1024] = "", berr[1024] = "", db[SW_PATH_MAX + 32], after[32], notes[2][256];
	int status = SW_NAGIOS_UNKNOWN, k = 0, nnotes = 0;
	bool is_set = false, judged = false;

	stats_init();
	r = results_load(result_dir, err, sizeof(err));
	if (!r) {
		v = health_verdict_unknown(NULL, NULL, "cannot read the results to judge: %s", err);
		goto out_emit;
	}
	if (!config_set_args(&r->cfg, o->sets, o->nsets, err, sizeof(err)))
		config_validate(&r->cfg, err, sizeof(err));
	if (err[0]) {
		v = health_verdict_unknown(NULL, NULL, "bad arguments: %s", err);
		goto out_emit;
	}
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	if (!a) {
		v = health_verdict_unknown(r, NULL, "cannot analyse the results to judge: %s", err);
		goto out_emit;
	}
	if (!o->baseline) {
		v = health_verdict_unknown(r, a, "bad arguments: missing --baseline PATH (a results folder "
					   "or run.json of a healthy run)");
		goto out_emit;
	}
	history_result_path(o->history, result_dir, db, sizeof(db));
	if (load_baseline(o, r->cfg.confidence, db, &b, &ba, &k, &is_set, after, sizeof(after), notes, &nnotes,
			  berr, sizeof(berr))) {
		v = health_verdict_unknown(r, a, "baseline unusable: %s", berr);
		goto out_emit;
	}
	if (kind_differs(r, result_dir, b, k, o->baseline, is_set, berr, sizeof(berr))) {
		v = health_verdict_unknown(NULL, NULL, "baseline unusable: %s", berr);
		goto out_emit;
	}
	if (is_map(r)) {
		v = mapjudge_verdict(r, (const struct sw_run *const *)b, k, is_set ? o->baseline : NULL, berr,
				     sizeof(berr));
		if (!v) {
			v = health_verdict_unknown(NULL, NULL, "cannot judge the map: %s", berr);
			goto out_emit;
		}
	} else
		v = health_judge_set(r, a, (const struct sw_run *const *)b, (const struct sw_analysis *const *)ba, k,
				     is_set ? o->baseline : NULL);
	if (!v)
		goto out_emit;
	judged = true;
	snprintf(v->baseline_path, sizeof(v->baseline_path), "%s", o->baseline);
	if (is_set) {
		struct nights_ctx nc = { db, v->baseline, after, r };

		for (int i = 0; i < nnotes; i++) {
			health_add_note(v, "%s", notes[i]);
			if (v->status == SW_NAGIOS_OK)   /* UNKNOWN outranks OK only */
				v->status = SW_NAGIOS_UNKNOWN;
		}
		if (!o->no_history && !is_map(r) && health_add_chart(v, r, history_nights, &nc, err, sizeof(err)))
			fprintf(stderr, "swstress: warning: drift chart: %s\n", err);
	}
out_emit:
	if (!v) {
		fprintf(out, "SWSTRESS UNKNOWN - out of memory\n");
		status = SW_NAGIOS_UNKNOWN;
	} else {
		snprintf(v->run_path, sizeof(v->run_path), "%s", result_dir);
		status = emit(v, o, r, a, judged, result_dir, out);
	}
	health_verdict_free(v);
	for (int j = 0; j < k; j++) {
		analysis_free(ba[j]);
		run_free(b[j]);
	}
	free(ba);
	free(b);
	analysis_free(a);
	run_free(r);
	return status;
}

/* ---------------------------------------------------------------- */
/* The check lock                                                     */

int judge_lock(const char *history_db, int *fd, char *err, size_t errlen)
{
	char path[SW_PATH_MAX + 16], dir[SW_PATH_MAX], buf[32];
	const char *slash;
	ssize_t n;
	int f;

	*fd = -1;
	snprintf(path, sizeof(path), "%s.lock", history_db);
	slash = strrchr(history_db, '/');
	if (slash && slash != history_db) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - history_db), history_db);
		if (mkdir(dir, 0755) && errno != EEXIST)
			return sw_fail(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
	}
	f = sfile_open_own(path, O_RDWR, err, errlen);
	if (f < 0)
		return -1;
	if (flock(f, LOCK_EX | LOCK_NB)) {
		int e = errno;

		if (e == EWOULDBLOCK) {
			long pid = 0;

			n = pread(f, buf, sizeof(buf) - 1, 0);
			if (n > 0) {
				buf[n] = '\0';
				pid = strtol(buf, NULL, 10);
			}
			close(f);
			if (pid > 0)
				return sw_fail(err, errlen, "previous check still running (pid %ld)", pid);
			return sw_fail(err, errlen, "previous check still running (pid unknown, lock %s)", path);
		}
		close(f);
		return sw_fail(err, errlen, "%s: cannot lock: %s", path, strerror(e));
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(f, 0) || pwrite(f, buf, (size_t)n, 0) != n) {
		int e = errno;

		close(f);
		return sw_fail(err, errlen, "%s: cannot write pid: %s", path, strerror(e));
	}
	*fd = f;
	return 0;
}

void judge_unlock(int fd)
{
	if (fd < 0)
		return;
	if (ftruncate(fd, 0))
		(void)0;   /* the pid left behind is harmless: the lock is the flock */
	close(fd);
}
