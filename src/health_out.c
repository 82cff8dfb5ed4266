/*
 * health_out.c - the outputs of a health verdict (health.h): Nagios plugin
 * text and perfdata, JSON, Prometheus textfile. See health_out.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "config.h"
#include "fmt.h"
#include "health.h"
#include "health_out.h"
#include "pattern.h"
#include "results.h"
#include "sfile.h"
#include "stats.h"
#include "text.h"

#define PERF_LABEL_UNIQUE 19    /* Nagios graphers keep 19 characters */
#define PERF_FIRST_LINE 3000    /* perfdata kept on the status line */
#define DETAIL_CELLS 20         /* cells listed in the details */

static const char *metric_name(int m)
{
	return m == HEALTH_LATENCY ? "latency" : "bandwidth";
}

/* ---------------------------------------------------------------- */
/* Nagios output                                                      */

/* The size the way labels want it: 8B, 64KiB, 1MiB. */
static void label_base(const struct health_verdict *v, const struct health_cell *hc, char *buf, size_t len)
{
	char s[32], hops[32] = "";

	config_format_size(hc->size, s, sizeof(s));
	if (hc->elem != HEALTH_CELL) {   /* a map's element: fab, its host, up_GROUP */
		snprintf(buf, len, "%.2s_%s_%s%.40s", pattern_info(hc->pattern)->abbrev, s,
			 hc->elem == HEALTH_UPLINK ? "up_" : "", hc->elem == HEALTH_FABRIC ? "fab" : hc->elem_name);
		return;
	}
	if (v->nhops > 1)
		snprintf(hops, sizeof(hops), "_h%ld", hc->hops);
	snprintf(buf, len, "%.2s_%s_n%d%s", pattern_info(hc->pattern)->abbrev, s, hc->nodes, hops);
}

/* Perfdata labels so far, to keep the first 19 characters unique. */
struct perf_state {
	char (*seen)[PERF_LABEL_UNIQUE + 1];
	int nseen, cap;
};

static bool label_taken(const struct perf_state *ps, const char *label)
{
	for (int i = 0; i < ps->nseen; i++)
		if (!strncmp(ps->seen[i], label, PERF_LABEL_UNIQUE))
			return true;
	return false;
}

/* Append one item "'label'=value..." to buf (with a space before it when
 * buf is not empty); the label falls back to fallback when its first 19
 * characters are taken. Returns 0, or -1 when it did not fit (buf unchanged). */
static int perf_add(struct perf_state *ps, char *buf, size_t len, const char *label,
		    const char *fallback, const char *rest)
{
	size_t n = strlen(buf);
	const char *l = label;
	int w;

	if (label_taken(ps, l))
		l = fallback;
	if (label_taken(ps, l))
		return 0;   /* cannot happen with cell-numbered fallbacks */
	w = snprintf(buf + n, len - n, "%s'%s'=%s", n ? " " : "", l, rest);
	if (w < 0 || (size_t)w >= len - n) {
		buf[n] = '\0';
		return -1;
	}
	if (ps->nseen < ps->cap)
		snprintf(ps->seen[ps->nseen++], PERF_LABEL_UNIQUE + 1, "%s", l);
	return 0;
}

/* A Nagios number: no exponent, enough digits. */
static void perf_num(double x, char *buf, size_t len)
{
	if (!isfinite(x))
		snprintf(buf, len, "U");
	else if (fabs(x) >= 100)
		snprintf(buf, len, "%.1f", x);
	else if (fabs(x) >= 1)
		snprintf(buf, len, "%.3f", x);
	else
		snprintf(buf, len, "%.6f", x);
}

int health_perfdata(const struct health_verdict *v, char *buf, size_t len)
{
	struct perf_state ps = { 0 };
	int rc = 0;
	char label[96], fb[48], rest[128], num[48];

	if (!len)
		return -1;
	buf[0] = '\0';
	ps.cap = 3 * v->ncells + 8;
	ps.seen = calloc((size_t)ps.cap, sizeof(*ps.seen));
	if (!ps.seen)
		return -1;
	for (int i = 0; i < v->ncells && rc == 0; i++) {
		const struct health_cell *hc = &v->cell[i];
		char base[80];
		bool lat = hc->metric == HEALTH_LATENCY;

		if (!hc->compared)
			continue;
		label_base(v, hc, base, sizeof(base));
		snprintf(label, sizeof(label), "pct_%s", base);
		snprintf(fb, sizeof(fb), "pct_cell%d", hc->cell);
		perf_num(hc->change, num, sizeof(num));
		snprintf(rest, sizeof(rest), "%s%%;~:%g;~:%g;;", num, lat ? v->warn_inflation : v->warn_drop,
			 lat ? v->crit_inflation : v->crit_drop);
		rc = perf_add(&ps, buf, len, label, fb, rest);
		if (rc)
			break;
		if (health_cell_ratio(hc)) {   /* a ratio: the change says it */
			continue;
		} else if (lat) {
			snprintf(label, sizeof(label), "us_%s", base);
			snprintf(fb, sizeof(fb), "us_cell%d", hc->cell);
			perf_num(hc->lat.median * 1e6, num, sizeof(num));
			snprintf(rest, sizeof(rest), "%sus;;;0;", num);
		} else {
			snprintf(label, sizeof(label), "MBps_%s", base);
			snprintf(fb, sizeof(fb), "MBps_cell%d", hc->cell);
			perf_num(hc->bw.median / 1e6, num, sizeof(num));
			snprintf(rest, sizeof(rest), "%s;;;0;", num);
		}
		rc = perf_add(&ps, buf, len, label, fb, rest);
		if (rc == 0 && hc->nightly) {   /* how unusual: night-to-night SDs */
			snprintf(label, sizeof(label), "sd_%s", base);
			snprintf(fb, sizeof(fb), "sd_cell%d", hc->cell);
			perf_num(hc->sigma, num, sizeof(num));
			snprintf(rest, sizeof(rest), "%s;;;;", num);
			rc = perf_add(&ps, buf, len, label, fb, rest);
		}
	}
	if (rc == 0) {
		int total = v->ncompared + v->nfailed;

		snprintf(rest, sizeof(rest), "%d;;;0;%d", v->ncritical + v->nfailed, total);
		rc = perf_add(&ps, buf, len, "cells_critical", "cells_critical", rest);
		snprintf(rest, sizeof(rest), "%d;;;0;%d", v->nwarning, total);
		if (rc == 0)
			rc = perf_add(&ps, buf, len, "cells_warning", "cells_warning", rest);
		snprintf(rest, sizeof(rest), "%d;;;0;", v->nsuspects);
		if (rc == 0)
			rc = perf_add(&ps, buf, len, "suspects", "suspects", rest);
	}
	free(ps.seen);
	return rc;
}

/* One status line fit for the first line: no '|' (it starts perfdata)
 * and no newline. */
static void clean_line(char *s)
{
	for (; *s; s++)
		if (*s == '|')
			*s = '/';
		else if (*s == '\n' || *s == '\r')
			*s = ' ';
}

/* A cell's value: s or B/s in their units, a map element's ratio as
 * "0.612x". */
static const char *cell_val(char *buf, size_t len, const struct health_cell *hc, double x)
{
	if (health_cell_ratio(hc)) {
		snprintf(buf, len, "%.3gx", x);
		return buf;
	}
	return fmt_val(buf, len, hc->metric == HEALTH_LATENCY ? FMT_TIME : FMT_BW, x);
}

/* A cell's line goes on under its name, past the status column. */
#define CELL_INDENT "            "

static void print_cell_line(FILE *f, const struct health_verdict *v, const struct health_cell *hc)
{
	char name[128], ch[256], now[48], was[80], p[16], n[32];
	bool lat = hc->metric == HEALTH_LATENCY;
	const struct health_est *e = lat ? &hc->lat : &hc->bw, *b = lat ? &hc->base_lat : &hc->base_bw;

	health_cell_name(v, hc, name, sizeof(name));
	if (!hc->compared) {
		text_wrapped(f, CELL_INDENT, "  %-8s  %s: %s", hc->status == SW_NAGIOS_CRITICAL ? "CRITICAL" : "-", name,
			     hc->why);
		return;
	}
	health_change_text(v, hc, ch, sizeof(ch));
	cell_val(now, sizeof(now), hc, e->median);
	if (hc->nightly) {
		snprintf(was, sizeof(was), "%s typical of %d baseline runs", cell_val(n, sizeof(n), hc, hc->typical),
			 hc->base_runs);
	} else {
		snprintf(was, sizeof(was), "%s in baseline", cell_val(n, sizeof(n), hc, b->median));
	}
	stats_format_p(p, sizeof(p), hc->p);
	text_wrapped(f, CELL_INDENT, "  %-8s  %s: %s p%s%s, %s now, %s (warn %g%%, crit %g%% %s)",
		health_status_name(hc->status), name, ch, p[0] == '<' ? "<" : "=", p[0] == '<' ? p + 2 : p, now, was,
		lat ? v->warn_inflation : v->warn_drop, lat ? v->crit_inflation : v->crit_drop,
		lat ? "inflation" : "drop");
}

void health_print_nagios(FILE *f, const struct health_verdict *v)
{
	size_t cap = 65536;
	char *perf = malloc(cap), *first, *rest = NULL;
	char summary[sizeof(v->summary)];
	int *order = health_worst_first(v);
	int shown = 0, skipped = 0;

	snprintf(summary, sizeof(summary), "%s", v->summary);
	clean_line(summary);
	if (perf)
		health_perfdata(v, perf, cap);
	/* Keep the first line short: move whole items beyond the limit. */
	first = perf;
	if (perf && strlen(perf) > PERF_FIRST_LINE) {
		char *cut = perf + PERF_FIRST_LINE;

		while (cut > perf && *cut != ' ')
			cut--;
		if (cut > perf) {
			*cut = '\0';
			rest = cut + 1;
		}
	}
	fprintf(f, "SWSTRESS %s - %s", health_status_name(v->status), summary);
	if (first && first[0])
		fprintf(f, " | %s", first);
	fputc('\n', f);
	if (v->ncompared + v->nfailed > 0 && order) {
		const char *unit = v->map ? "elements" : "cells";

		if (v->map)
			text_wrapped(f, "  ", "map elements: the fabric (its median link), each host (its links over "
				     "their group pairs' typical link, x) and each uplink (its crossing links over the "
				     "links within groups, x), one value a block");
		if (v->nspread_unknown)
			text_wrapped(f, "  ", "%s, worst first (change against baseline %s, positive = worse, on "
				     "per-%s medians with the run_to_run SD assumed; intervals and p over the whole "
				     "check, alpha %g):", unit, v->baseline, v->map ? "block" : "repetition", v->alpha);
		if (v->ncompared > v->nspread_unknown)
			text_wrapped(f, "  ", "%s (change against the typical value of baseline %s, %d runs, positive = "
				     "worse; interval of healthy nights, their SD pooled over the %s, plus tonight's "
				     "noise; sd: the change in night-to-night SDs; intervals and p over the whole "
				     "check, alpha %g):", v->nspread_unknown ? (v->map ? "elements with the night-to-night "
				"spread" : "cells with the night-to-night spread") : v->map ? "elements, worst first"
				: "cells, worst first", v->baseline, v->base_runs, unit, v->alpha);
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[order[i]];

			if (!hc->compared && hc->status != SW_NAGIOS_CRITICAL)
				continue;
			if (shown < DETAIL_CELLS || hc->status != SW_NAGIOS_OK) {
				print_cell_line(f, v, hc);
				shown++;
			} else {
				skipped++;
			}
		}
		if (skipped)
			fprintf(f, "  ... and %d more %s%s OK\n", skipped, v->map ? "element" : "cell",
				skipped == 1 ? "" : "s");
	}
	for (int i = 0; i < v->nsuspects; i++) {
		const struct health_suspect *s = &v->suspect[i];
		char host[4 * SW_HOST_MAX];

		if (v->map) {   /* blame's claims of the judged map (blame.h) */
			fprintf(f, "map claim %s: in %d of %d maps%s\n", text_term(host, sizeof(host), s->host),
				s->flagged, s->cells, s->in_baseline ? " (the baseline maps make it too)"
				: " (new since the baseline)");
			continue;
		}
		fprintf(f, "suspect port %s: slower than its peers in %d of %d cells%s\n",
			text_term(host, sizeof(host), s->host), s->flagged,
			s->cells, s->in_baseline ? " (flagged in the baseline too)" : " (new since the baseline)");
	}
	if (v->nmissing) {
		fprintf(f, "not compared (%d %s%s):\n", v->nmissing, v->map ? "element" : "cell",
			v->nmissing == 1 ? "" : "s");
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];
			char name[128];

			if (hc->compared || hc->status == SW_NAGIOS_CRITICAL || !hc->why[0])
				continue;
			health_cell_name(v, hc, name, sizeof(name));
			fprintf(f, "  %s: %s\n", name, hc->why);
		}
	}
	for (int i = 0; i < v->nnotes; i++)
		fprintf(f, "note: %s\n", v->notes[i]);
	if (rest && rest[0])
		fprintf(f, "| %s\n", rest);
	free(order);
	free(perf);
}

/* ---------------------------------------------------------------- */
/* JSON                                                               */

/* A number, or null when it is not finite. */
static json_t *jest(const struct health_est *e, double k)
{
	return json_pack("{s:I, s:o, s:o, s:o}", "n", (json_int_t)e->n, "median", results_json_number(e->median * k),
			 "ci_lo", results_json_number(e->lo * k), "ci_hi", results_json_number(e->hi * k));
}

int health_print_json(FILE *f, const struct health_verdict *v)
{
	json_t *root, *cells, *missing, *sus, *notes;
	char perf[65536];
	int rc = -1;

	health_perfdata(v, perf, sizeof(perf));
	cells = json_array();
	missing = json_array();
	sus = json_array();
	notes = json_array();
	root = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:{s:f, s:f, s:f, s:f, s:f, s:f}, s:i, s:i, s:i, s:i, s:i, s:s}",
			 "status", health_status_name(v->status), "code", v->status, "summary", v->summary,
			 "run", v->run, "baseline", v->baseline, "started", v->started,
			 "thresholds", "warn_drop_pct", v->warn_drop, "crit_drop_pct", v->crit_drop,
			 "warn_inflation_pct", v->warn_inflation, "crit_inflation_pct", v->crit_inflation,
			 "alpha", v->alpha, "confidence", v->confidence,
			 "compared", v->ncompared, "not_compared", v->nmissing, "warning", v->nwarning,
			 "critical", v->ncritical, "failed", v->nfailed, "perfdata", perf);
	if (!root || !cells || !missing || !sus || !notes)
		goto out;
	json_object_set_new(root, "baseline_runs", json_integer(v->base_runs));
	json_object_set_new(root, "baseline_set", json_boolean(v->baseline_set));
	/* the paging family (health_grade): its size, and the level of each
	 * cell's interval and p (Bonferroni over the family) */
	{
		int m = 0;

		for (int i = 0; i < v->ncells; i++)
			m = v->cell[i].family > m ? v->cell[i].family : m;
		json_object_set_new(json_object_get(root, "thresholds"), "family_cells", json_integer(m));
	}
	if (v->caution[0])
		json_object_set_new(root, "caution", json_string(v->caution));
	for (int i = 0; i < v->ncells; i++) {
		const struct health_cell *hc = &v->cell[i];
		json_t *o = json_pack("{s:i, s:i, s:s, s:I, s:i, s:i, s:I, s:s}",
				      "cell", hc->cell, "baseline_cell", hc->base_cell,
				      "pattern", pattern_name(hc->pattern), "size_bytes", (json_int_t)hc->size,
				      "nodes", hc->nodes, "pairs", hc->pairs, "hops", (json_int_t)hc->hops,
				      "metric", metric_name(hc->metric));

		if (!o)
			goto out;
		if (hc->elem != HEALTH_CELL) {
			json_object_set_new(o, "element", json_string(health_elem_name(hc->elem)));
			if (hc->elem_name[0])
				json_object_set_new(o, hc->elem == HEALTH_HOST ? "host" : "group", json_string(hc->elem_name));
		}
		if (hc->compared || hc->status == SW_NAGIOS_CRITICAL) {
			json_object_set_new(o, "status", json_string(health_status_name(hc->status)));
			json_object_set_new(o, "change_pct", results_json_number(hc->change));
			json_object_set_new(o, "change_lo", results_json_number(hc->lo));
			json_object_set_new(o, "change_hi", results_json_number(hc->hi));
			json_object_set_new(o, "change", json_string(health_change_name(hc, true)));
			json_object_set_new(o, "p", results_json_number(hc->p));
			if (health_cell_ratio(hc)) {   /* over its reference, 1 = as it */
				bool lat = hc->metric == HEALTH_LATENCY;

				json_object_set_new(o, "ratio", jest(lat ? &hc->lat : &hc->bw, 1));
				json_object_set_new(o, "baseline_ratio", jest(lat ? &hc->base_lat : &hc->base_bw, 1));
			} else {
				json_object_set_new(o, "latency_us", jest(&hc->lat, 1e6));
				json_object_set_new(o, "bandwidth_MBps", jest(&hc->bw, 1e-6));
				json_object_set_new(o, "baseline_latency_us", jest(&hc->base_lat, 1e6));
				json_object_set_new(o, "baseline_bandwidth_MBps", jest(&hc->base_bw, 1e-6));
			}
			json_object_set_new(o, "baseline_runs", json_integer(hc->base_runs));
			if (hc->cpu_ranks) {
				json_object_set_new(o, "cpu_bound_ranks", json_integer(hc->cpu_ranks));
				json_object_set_new(o, "cpu_shared_cores", json_integer(hc->cpu_cores));
			}
			if (hc->nightly) {
				double k = hc->metric == HEALTH_LATENCY ? 1e6 : 1e-6;

				json_object_set_new(o, "baseline_typical", results_json_number(hc->typical * k));
				json_object_set_new(o, "nightly_spread_pct", results_json_number(hc->spread_pct));
				json_object_set_new(o, "sd_pct", results_json_number(hc->sd_pct));
				json_object_set_new(o, "sigma", results_json_number(hc->sigma));
				json_object_set_new(o, "nightly_df", results_json_number(hc->night_df));
			}
			if (isfinite(hc->ewma)) {
				json_object_set_new(o, "drift_ewma", results_json_number(hc->ewma));
				json_object_set_new(o, "drift_limit", results_json_number(hc->ewma_limit));
				json_object_set_new(o, "drift_nights", json_integer(hc->chart_nights));
				json_object_set_new(o, "drift", json_boolean(hc->drift));
			}
			if (hc->why[0])
				json_object_set_new(o, "reason", json_string(hc->why));
			json_array_append_new(cells, o);
		} else {
			json_object_set_new(o, "reason", json_string(hc->why));
			json_array_append_new(missing, o);
		}
	}
	for (int i = 0; i < v->nsuspects; i++)
		json_array_append_new(sus, json_pack("{s:s, s:i, s:i, s:b}", v->map ? "claim" : "host", v->suspect[i].host,
						     "flagged", v->suspect[i].flagged, "cells", v->suspect[i].cells,
						     "in_baseline", v->suspect[i].in_baseline));
	for (int i = 0; i < v->nnotes; i++)
		json_array_append_new(notes, json_string(v->notes[i]));
	json_object_set(root, "cells", cells);
	json_object_set(root, "not_compared_cells", missing);
	json_object_set(root, "suspects", sus);
	json_object_set(root, "notes", notes);
	rc = json_dumpf(root, f, JSON_COMPACT | JSON_REAL_PRECISION(8));
	fputc('\n', f);
out:
	json_decref(cells);
	json_decref(missing);
	json_decref(sus);
	json_decref(notes);
	json_decref(root);
	return rc ? -1 : 0;
}

/* ---------------------------------------------------------------- */
/* Prometheus textfile                                                */

/* A label value with \, " and newline escaped. */
static void prom_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s=\"", name);
	for (const char *p = value; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void prom_value(FILE *f, double x)
{
	if (isnan(x))
		fputs(" NaN\n", f);
	else if (isinf(x))
		fputs(x > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %.10g\n", x);
}

static void prom_family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* name{pattern=..,size_bytes=..,nodes=..[,hops=..][,extra=..][,extra2=..]} */
static void prom_cell(FILE *f, const struct health_verdict *v, const char *name,
		      const struct health_cell *hc, const char *k1, const char *v1,
		      const char *k2, const char *v2)
{
	char num[32];

	fprintf(f, "%s{", name);
	prom_label(f, "pattern", pattern_name(hc->pattern));
	snprintf(num, sizeof(num), "%llu", (unsigned long long)hc->size);
	fputc(',', f);
	prom_label(f, "size_bytes", num);
	if (hc->elem != HEALTH_CELL) {   /* a map's element, per host and per group */
		fputc(',', f);
		prom_label(f, "element", health_elem_name(hc->elem));
		if (hc->elem_name[0]) {
			fputc(',', f);
			prom_label(f, hc->elem == HEALTH_HOST ? "host" : "group", hc->elem_name);
		}
	} else {
		snprintf(num, sizeof(num), "%d", hc->nodes);
		fputc(',', f);
		prom_label(f, "nodes", num);
	}
	if (hc->elem == HEALTH_CELL && v->nhops > 1) {
		snprintf(num, sizeof(num), "%ld", hc->hops);
		fputc(',', f);
		prom_label(f, "hops", num);
	}
	if (k1) {
		fputc(',', f);
		prom_label(f, k1, v1);
	}
	if (k2) {
		fputc(',', f);
		prom_label(f, k2, v2);
	}
	fputc('}', f);
}

/* The night-to-night families: spread, how unusual tonight is, and the
 * drift chart, for the cells judged against a baseline set. */
static void prom_nightly(FILE *f, const struct health_verdict *v)
{
	static const struct { const char *name, *help; } fam[] = {
		{ "swstress_nightly_spread_percent", "How far a healthy night's median of a cell may fall from the baseline set's typical value: 1 SD, percent." },
		{ "swstress_change_sigma", "Degradation of a cell against the baseline set in night-to-night SDs (> 0 worse)." },
		{ "swstress_drift_ewma", "Drift control chart of a cell: EWMA of the nightly SDs and its control limit." },
		{ "swstress_cell_drift", "1 when the drift control chart of a cell is beyond its limit, else 0." },
	};
	int n = 0;

	for (int i = 0; i < v->ncells; i++)
		n += v->cell[i].nightly;
	if (!n)
		return;
	for (int k = 0; k < 4; k++) {
		bool any = false;

		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];
			const char *m = metric_name(hc->metric);

			if (!hc->nightly || (k >= 2 && !isfinite(hc->ewma)))
				continue;
			if (!any)
				prom_family(f, fam[k].name, fam[k].help);
			any = true;
			if (k == 0 || k == 1) {
				prom_cell(f, v, fam[k].name, hc, "metric", m, NULL, NULL);
				prom_value(f, k == 0 ? hc->sd_pct : hc->sigma);
			} else if (k == 2) {
				prom_cell(f, v, fam[k].name, hc, "metric", m, "stat", "value");
				prom_value(f, hc->ewma);
				prom_cell(f, v, fam[k].name, hc, "metric", m, "stat", "limit");
				prom_value(f, hc->ewma_limit);
			} else {
				prom_cell(f, v, fam[k].name, hc, "metric", m, NULL, NULL);
				fprintf(f, " %d\n", hc->drift);
			}
		}
	}
}

static int write_prom(FILE *f, const struct sw_run *r, const struct health_verdict *v)
{
	static const char *const stat_names[] = { "median", "ci_lo", "ci_hi", "baseline_median" };
	double t = sw_iso_epoch(v->started[0] ? v->started : r ? r->started : NULL);

	prom_family(f, "swstress_check_status", "Verdict of the last swstress check (Nagios: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN).");
	fprintf(f, "swstress_check_status %d\n", v->status);
	if (isfinite(t)) {
		prom_family(f, "swstress_last_run_timestamp_seconds", "Start of the last judged swstress run, Unix time.");
		fprintf(f, "swstress_last_run_timestamp_seconds %.0f\n", t);
	}
	prom_family(f, "swstress_cells", "Cells of the last check by state.");
	fprintf(f, "swstress_cells{state=\"compared\"} %d\n", v->ncompared);
	fprintf(f, "swstress_cells{state=\"not_compared\"} %d\n", v->nmissing);
	fprintf(f, "swstress_cells{state=\"warning\"} %d\n", v->nwarning);
	fprintf(f, "swstress_cells{state=\"critical\"} %d\n", v->ncritical + v->nfailed);

	for (int m = 0; m < 2; m++) {
		const char *name = m ? "swstress_bandwidth_bytes_per_second" : "swstress_latency_seconds";
		bool any = false;

		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];
			const struct health_est *e = m ? &hc->bw : &hc->lat, *b = m ? &hc->base_bw : &hc->base_lat;
			double vals[4] = { e->median, e->lo, e->hi, b->median };

			if (hc->cell < 0 || e->n == 0 || health_cell_ratio(hc))
				continue;
			if (!any)
				prom_family(f, name, m ? "Per-pair bandwidth of a cell in bytes per second (median, its CI, the baseline's median)."
						     : "Per-hop latency of a cell in seconds (median, its CI, the baseline's median).");
			any = true;
			for (int s = 0; s < 4; s++) {
				if (s == 3 && !hc->compared)
					continue;
				prom_cell(f, v, name, hc, "stat", stat_names[s], NULL, NULL);
				prom_value(f, vals[s]);
			}
		}
	}
	for (int i = 0, any = 0; i < v->ncells; i++) {
		const struct health_cell *hc = &v->cell[i];
		const struct health_est *e = hc->metric == HEALTH_LATENCY ? &hc->lat : &hc->bw;
		const struct health_est *b = hc->metric == HEALTH_LATENCY ? &hc->base_lat : &hc->base_bw;

		if (!health_cell_ratio(hc) || e->n == 0)
			continue;
		if (!any++)
			prom_family(f, "swstress_map_ratio", "A map's host or uplink over its reference (1 = as it; the "
				    "metric's ratio: bandwidth lower, latency higher is slower), median and the baseline's.");
		prom_cell(f, v, "swstress_map_ratio", hc, "stat", "median", NULL, NULL);
		prom_value(f, e->median);
		prom_cell(f, v, "swstress_map_ratio", hc, "stat", "baseline_median", NULL, NULL);
		prom_value(f, b->median);
	}
	if (v->ncompared) {
		prom_family(f, "swstress_change_percent", "Latency inflation or bandwidth drop against the baseline in percent, positive = worse (estimate and CI).");
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];
			double vals[3] = { hc->change, hc->lo, hc->hi };
			static const char *const st[] = { "estimate", "ci_lo", "ci_hi" };

			if (!hc->compared)
				continue;
			for (int s = 0; s < 3; s++) {
				prom_cell(f, v, "swstress_change_percent", hc, "metric", health_change_name(hc, true), "stat", st[s]);
				prom_value(f, vals[s]);
			}
		}
		prom_family(f, "swstress_change_p_value", "p-value of the change against the baseline (the test of its CI).");
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];

			if (!hc->compared)
				continue;
			prom_cell(f, v, "swstress_change_p_value", hc, "metric", health_change_name(hc, true), NULL, NULL);
			prom_value(f, hc->p);
		}
	}
	if (v->baseline_set || v->base_runs > 1) {
		prom_family(f, "swstress_baseline_runs", "Runs in the baseline the last check compared with.");
		fprintf(f, "swstress_baseline_runs %d\n", v->base_runs);
	}
	prom_nightly(f, v);
	if (v->ncompared + v->nfailed) {
		prom_family(f, "swstress_cell_status", "Verdict of a cell (Nagios: 0 OK, 1 WARNING, 2 CRITICAL).");
		for (int i = 0; i < v->ncells; i++) {
			const struct health_cell *hc = &v->cell[i];

			if (!hc->compared && hc->status != SW_NAGIOS_CRITICAL)
				continue;
			prom_cell(f, v, "swstress_cell_status", hc, NULL, NULL, NULL, NULL);
			fprintf(f, " %d\n", hc->status);
		}
	}
	if (v->map) {   /* the judged map's claims, by element */
		if (v->nsuspects)
			prom_family(f, "swstress_map_claim", "1 for an element the judged map blames (blame: a host, an "
				    "uplink, a group boundary, a link), 2 when the baseline maps do not.");
		for (int i = 0; i < v->nsuspects; i++) {
			fputs("swstress_map_claim{", f);
			prom_label(f, "claim", v->suspect[i].host);
			fprintf(f, "} %d\n", v->suspect[i].in_baseline ? 1 : 2);
		}
		return ferror(f) ? -1 : 0;
	}
	prom_family(f, "swstress_suspect_port", "1 when the host was slower than its peers (outlier analysis), else 0.");
	for (int i = 0; i < v->nsuspects; i++) {
		fputs("swstress_suspect_port{", f);
		prom_label(f, "host", v->suspect[i].host);
		fputs("} 1\n", f);
	}
	for (int i = 0; r && i < r->nranks; i++) {
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(r->host[i], r->host[j]);
		for (int j = 0; j < v->nsuspects && !seen; j++)
			seen = !strcmp(r->host[i], v->suspect[j].host);
		if (seen)
			continue;
		fputs("swstress_suspect_port{", f);
		prom_label(f, "host", r->host[i]);
		fputs("} 0\n", f);
	}
	return ferror(f) ? -1 : 0;
}

/* write_prom behind sw_write_atomic's single argument. */
struct prom_args {
	const struct sw_run *r;
	const struct health_verdict *v;
};

static int call_write_prom(FILE *f, const void *arg)
{
	const struct prom_args *pa = arg;

	return write_prom(f, pa->r, pa->v);
}

int health_write_prom(const char *path, const struct sw_run *r, const struct health_verdict *v,
		      char *err, size_t errlen)
{
	struct prom_args pa = { r, v };

	/* The temporary name is a dot file: node_exporter reads *.prom only. */
	return sfile_write(path, call_write_prom, &pa, err, errlen);
}
