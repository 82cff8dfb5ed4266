/*
 * results.c - write a run's folder atomically and read it back; see
 * results.h for the files and their columns.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "results.h"
#include "sfile.h"
#include "text.h"
#include "isolate.h"
#include "victims.h"
#include "hostid.h"
#include "pattern.h"
#include "mapsched.h"

/* Caps on what the reader accepts (issue #11: nothing read back unchecked). */
#define RESULTS_MAX_CSV (4LL << 30)         /* samples.csv bytes */
#define RESULTS_MAX_CELLS (1 << 22)
#define RESULTS_MIN_SECONDS 1e-9            /* a sample: 1 ns .. */
#define RESULTS_MAX_SECONDS 1e6             /* .. 11 days */
#define RESULTS_MIN_HOP 1e-9                /* no hop (message there) is faster */

#define MBPS(x) ((x) / 1e6)
#define US(x) ((x) * 1e6)

void results_folder_name(const char *label, time_t t, char *buf, size_t len)
{
	struct tm tm;
	char stamp[32];

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "%s-%s", label, stamp);
}

int results_begin(const struct sw_run *r, char *path, size_t pathlen, char *err, size_t errlen)
{
	const char *out = r->cfg.output;
	struct stat st;

	if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode))
		return sw_fail(err, errlen, "output '%s': not a directory", out);
	if (sw_mkdir_p(out))
		return sw_fail(err, errlen, "output '%s': cannot create: %s", out, strerror(errno));
	if (access(out, W_OK | X_OK))
		return sw_fail(err, errlen, "output '%s': not writable: %s", out, strerror(errno));
	if ((size_t)snprintf(path, pathlen, "%s/%s", out, r->name) + 8 >= pathlen)
		return sw_fail(err, errlen, "output '%s': path too long for the results folder", out);
	if (lstat(path, &st) == 0)
		return 1;   /* a finished run of this name */
	strcat(path, ".partial");
	if (mkdir(path, 0755))
		return errno == EEXIST ? 1 : sw_fail(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

int results_finish(const char *partial, char *out, size_t outlen, char *err, size_t errlen)
{
	size_t n = strlen(partial);
	char final[SW_PATH_MAX];

	if (n < 8 || strcmp(partial + n - 8, ".partial") != 0)
		return sw_fail(err, errlen, "%s: not a partial results folder", partial);
	snprintf(final, sizeof(final), "%.*s", (int)(n - 8), partial);
	for (int i = 2; access(final, F_OK) == 0 && i < 100; i++)
		snprintf(final, sizeof(final), "%.*s-%d", (int)(n - 8), partial, i);
	if (rename(partial, final))
		return sw_fail(err, errlen, "%s: cannot rename to %s: %s", partial, final, strerror(errno));
	snprintf(out, outlen, "%s", final);
	return 0;
}

json_t *results_json_number(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* ---------------------------------------------------------------- */
/* Writing                                                            */

typedef int (*writer_fn)(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg);

/* What one writer needs, behind sw_write_atomic's single argument. */
struct writer {
	writer_fn fn;
	const struct sw_run *r;
	const struct sw_analysis *a;
	const void *arg;
};

static int call_writer(FILE *f, const void *w)
{
	const struct writer *wr = w;

	return wr->fn(f, wr->r, wr->a, wr->arg);
}

static void csv_comment(FILE *f, const struct sw_run *r)
{
	fprintf(f, "# swstress %s, run %s, started %s, MB/s = 10^6 bytes/s\n", r->tool_version,
		r->name, r->started);
}

/* A number for CSV: NaN when not finite. */
static void csv_num(FILE *f, double x, const char *fmt)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	else
		fputs("NaN", f);
}

/* The cell's key columns; hops is the cell's, or a sample's own count. */
static void cell_keys(FILE *f, const struct sw_run *r, int ci, long hops)
{
	const struct sw_cell *c = &r->plan->cell[ci];
	int k = r->plan->level_pairs[c->level];

	fprintf(f, "%d,%d,%d,%d,%s,%llu,%ld", ci, c->level, plan_nodes(r->plan, ci), k, pattern_name(c->pattern),
		(unsigned long long)c->size, hops);
}

static int write_samples(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg)
{
	(void)a;
	(void)arg;
	csv_comment(f, r);
	fputs("cell,level,nodes,pairs,pattern,size_bytes,hops,rep,block,pair,rank_a,rank_b,host_a,host_b,"
	      "t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps,missing\n", f);
	for (size_t i = 0; i < r->nsamples; i++) {
		const struct sw_sample *s = &r->sample[i];
		struct sw_pair p = plan_pair(r->plan, s->cell, s->pair);

		cell_keys(f, r, s->cell, s->hops);
		fprintf(f, ",%d,%d,%d,%d,%d,%s,%s,%.17g,%.17g,", s->rep, run_sample_block(r, s), s->pair, p.a, p.b,
			r->host[p.a], r->host[p.b], s->t_start, s->t_end);
		if (s->missing)   /* no usable window: no seconds, no values (run.h) */
			fprintf(f, ",,,%s\n", run_missing_name(s->missing));
		else
			fprintf(f, "%.17g,%.6f,%.6f,\n", s->seconds, US(run_sample_latency(r, s)),
				MBPS(run_sample_bandwidth(r, s)));
	}
	return 0;
}

/* median, lo, hi (and for full: mean, its CI and sd for latency) of the
 * per-repetition values s; min, max (and p1, p99 for latency) of the
 * single samples sp (spread). */
static void csv_estimate(FILE *f, const struct stats_summary *s, const struct stats_summary *sp,
			 bool lat, bool full)
{
	double k = lat ? 1e6 : 1e-6;

	fputc(',', f); csv_num(f, s->median * k, "%.6g");
	fputc(',', f); csv_num(f, s->med_lo * k, "%.6g");
	fputc(',', f); csv_num(f, s->med_hi * k, "%.6g");
	if (!full)
		return;
	fputc(',', f); csv_num(f, s->mean * k, "%.6g");
	if (lat) {
		fputc(',', f); csv_num(f, s->mean_lo * k, "%.6g");
		fputc(',', f); csv_num(f, s->mean_hi * k, "%.6g");
		fputc(',', f); csv_num(f, s->sd * k, "%.6g");
	}
	fputc(',', f); csv_num(f, sp->min * k, "%.6g");
	fputc(',', f); csv_num(f, sp->max * k, "%.6g");
	if (lat) {
		fputc(',', f); csv_num(f, sp->p1 * k, "%.6g");
		fputc(',', f); csv_num(f, sp->p99 * k, "%.6g");
	}
}

/* The message rate (10^6 messages/s) of bandwidth s at size: median and
 * CI; NaN for a latency pattern. */
static void csv_rate(FILE *f, const struct stats_summary *s, int pattern, uint64_t size)
{
	double k = pattern_latency_metric(pattern) ? NAN : pattern_msgrate(size, 1.0) / 1e6;

	fputc(',', f); csv_num(f, s->median * k, "%.6g");
	fputc(',', f); csv_num(f, s->med_lo * k, "%.6g");
	fputc(',', f); csv_num(f, s->med_hi * k, "%.6g");
}

static void csv_change(FILE *f, const struct sw_change *c)
{
	double nan = NAN;

	fputc(',', f); csv_num(f, c->valid ? c->pct : nan, "%.4g");
	fputc(',', f); csv_num(f, c->valid ? c->lo : nan, "%.4g");
	fputc(',', f); csv_num(f, c->valid ? c->hi : nan, "%.4g");
	fputc(',', f); csv_num(f, c->valid ? c->p : nan, "%.4g");
	fprintf(f, ",%d", c->valid && c->significant);
}

/* run.json ranks[i]: the host, and the identity when the run has one
 * (hostid.h; absent in older runs). */
static json_t *json_rank(const struct sw_run *r, int i)
{
	const struct hostid *h = &r->id[i];
	json_t *o = json_pack("{s:i,s:s}", "rank", i, "host", r->host[i]);
	char cpus[4 * HOSTID_CPUS];

	if (!h->boot_id[0] && !h->machine_id[0])
		return o;
	hostid_format_cpus(h->cpu, cpus, sizeof(cpus));
	json_object_set_new(o, "boot_id", json_string(h->boot_id));
	json_object_set_new(o, "machine_id", json_string(h->machine_id));
	json_object_set_new(o, "netns", json_integer((json_int_t)h->netns));
	json_object_set_new(o, "cores", json_integer(h->cores));
	json_object_set_new(o, "cpus", json_string(cpus));
	json_object_set_new(o, "mpi_node", json_integer(h->mpi_node));
	return o;
}

/* The victims' columns of a cell: latencies (us) loaded and alone, then
 * the change; NaN and 0 for a run without victims. */
static void csv_victims(FILE *f, const struct sw_victim_stats *vs)
{
	struct sw_change none = { .valid = false };

	for (int tail = 0; tail < 2; tail++) {
		const struct sw_change *c = vs ? (tail ? &vs->p99 : &vs->p50) : &none;

		fputc(',', f); csv_num(f, c->valid ? c->level * 1e6 : NAN, "%.6g");
		fputc(',', f); csv_num(f, c->valid ? c->base * 1e6 : NAN, "%.6g");
		csv_change(f, c);
	}
}

static int write_summary(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg)
{
	(void)arg;
	csv_comment(f, r);
	fputs("cell,level,nodes,pairs,pattern,size_bytes,hops,reps,n,stop,overlap,"
	      "lat_median_us,lat_lo_us,lat_hi_us,lat_mean_us,lat_mean_lo_us,lat_mean_hi_us,lat_sd_us,"
	      "lat_min_us,lat_max_us,lat_p1_us,lat_p99_us,"
	      "bw_median_MBps,bw_lo_MBps,bw_hi_MBps,bw_mean_MBps,bw_min_MBps,bw_max_MBps,"
	      "agg_median_MBps,agg_lo_MBps,agg_hi_MBps,ideal_agg_MBps,"
	      "lat_infl_pct,lat_infl_lo,lat_infl_hi,lat_infl_p,lat_infl_sig,"
	      "bw_drop_pct,bw_drop_lo,bw_drop_hi,bw_drop_p,bw_drop_sig,n_short,below_floor,"
	      "victim_p50_us,victim_alone_p50_us,victim_infl_pct,victim_infl_lo,victim_infl_hi,victim_infl_p,"
	      "victim_infl_sig,victim_p99_us,victim_alone_p99_us,victim_p99_infl_pct,victim_p99_infl_lo,"
	      "victim_p99_infl_hi,victim_p99_infl_p,victim_p99_infl_sig,"
	      "receiver_drop_pct,receiver_drop_lo,receiver_drop_hi,receiver_drop_p,receiver_drop_sig,"
	      "rate_median_Mmsgps,rate_lo_Mmsgps,rate_hi_Mmsgps,"
	      "agg_rate_median_Mmsgps,agg_rate_lo_Mmsgps,agg_rate_hi_Mmsgps,drifted\n", f);
	for (int ci = 0; a && ci < a->ncells; ci++) {
		const struct sw_cell_stats *cs = &a->cell[ci];
		double ideal = NAN;

		if (cs->lat.n == 0)
			continue;
		if (cs->baseline >= 0 && pattern_info(r->plan->cell[ci].pattern)->incast)
			ideal = a->cell[cs->baseline].agg.n ? a->cell[cs->baseline].agg.median : NAN;
		else if (cs->baseline >= 0 && a->cell[cs->baseline].bw.n)
			ideal = a->cell[cs->baseline].bw.median * cs->pairs
				/ (double)a->cell[cs->baseline].pairs;
		cell_keys(f, r, ci, r->plan->cell[ci].hops);
		fprintf(f, ",%d,%zu,%s,", r->cell[ci].reps, cs->lat_spread.n, run_stop_name(r->cell[ci].stop));
		csv_num(f, cs->overlap, "%.4f");
		csv_estimate(f, &cs->lat, &cs->lat_spread, true, true);
		csv_estimate(f, &cs->bw, &cs->bw_spread, false, true);
		csv_estimate(f, &cs->agg, &cs->agg, false, false);
		fputc(',', f);
		csv_num(f, MBPS(ideal), "%.6g");
		csv_change(f, &cs->inflation);
		csv_change(f, &cs->drop);
		fprintf(f, ",%zu,%d", cs->nshort, cs->below_floor);
		csv_victims(f, a->victim ? &a->victim[ci] : NULL);
		csv_change(f, &cs->receiver_drop);
		csv_rate(f, &cs->bw, r->plan->cell[ci].pattern, r->plan->cell[ci].size);
		csv_rate(f, &cs->agg, r->plan->cell[ci].pattern, r->plan->cell[ci].size);
		fprintf(f, ",%d\n", cs->drifted);   /* last, so positional readers of older files survive */
	}
	return 0;
}

static int write_pairs(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg)
{
	(void)arg;
	csv_comment(f, r);
	fputs("cell,level,nodes,pairs,pattern,size_bytes,hops,pair,rank_a,rank_b,host_a,host_b,"
	      "lat_median_us,bw_median_MBps,lat_rel,bw_rel,z,flagged\n", f);
	for (size_t i = 0; a && i < a->npairstats; i++) {
		const struct sw_pair_stats *ps = &a->pair[i];
		const struct sw_cell_stats *cs = &a->cell[ps->cell];
		struct sw_pair p = plan_pair(r->plan, ps->cell, ps->pair);

		cell_keys(f, r, ps->cell, r->plan->cell[ps->cell].hops);
		fprintf(f, ",%d,%d,%d,%s,%s,", ps->pair, p.a, p.b, r->host[p.a], r->host[p.b]);
		csv_num(f, US(ps->lat_median), "%.6g");
		fputc(',', f);
		csv_num(f, MBPS(ps->bw_median), "%.6g");
		fputc(',', f);
		csv_num(f, ps->lat_median / cs->lat.median, "%.4f");
		fputc(',', f);
		csv_num(f, ps->bw_median / cs->bw.median, "%.4f");
		fputc(',', f);
		csv_num(f, ps->z, "%.3f");
		fprintf(f, ",%d\n", ps->flagged);
	}
	return 0;
}

static int write_fits(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg)
{
	(void)arg;
	csv_comment(f, r);
	fputs("level,nodes,pairs,pattern,size_lo,size_hi,npoints,alpha_us,beta_MBps,n_half_bytes,r2\n", f);
	for (int i = 0; a && i < a->nfits; i++) {
		const struct sw_fit *ft = &a->fit[i];
		int k = r->plan->level_pairs[ft->level];

		fprintf(f, "%d,%d,%d,%s,%llu,%llu,%d,", ft->level, 2 * k, k, pattern_name(ft->pattern),
			(unsigned long long)ft->size_lo, (unsigned long long)ft->size_hi, ft->npoints);
		csv_num(f, US(ft->alpha), "%.6g");
		fputc(',', f);
		csv_num(f, MBPS(ft->beta), "%.6g");
		fputc(',', f);
		csv_num(f, ft->n_half, "%.6g");
		fputc(',', f);
		csv_num(f, ft->r2, "%.6f");
		fputc('\n', f);
	}
	return 0;
}

static int write_text(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg)
{
	(void)r;
	(void)a;
	return fputs(arg ? (const char *)arg : "the sweep is still running or was cut short: "
		     "swstress report FOLDER computes the statistics from samples.csv\n", f) < 0 ? -1 : 0;
}

static json_t *json_estimate(const struct stats_summary *s)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b}",
			 "n", (json_int_t)s->n, "mean", results_json_number(s->mean), "sd", results_json_number(s->sd),
			 "median", results_json_number(s->median), "min", results_json_number(s->min), "max", results_json_number(s->max),
			 "p1", results_json_number(s->p1), "p99", results_json_number(s->p99), "mean_lo", results_json_number(s->mean_lo),
			 "mean_hi", results_json_number(s->mean_hi), "median_lo", results_json_number(s->med_lo),
			 "median_hi", results_json_number(s->med_hi), "median_ci_ok", s->med_ci_ok);
}

/* The message rate (messages/s) of bandwidth s at size: median and CI. */
static json_t *json_rate(const struct stats_summary *s, uint64_t size)
{
	return json_pack("{s:o,s:o,s:o}", "median", results_json_number(pattern_msgrate(size, s->median)),
			 "median_lo", results_json_number(pattern_msgrate(size, s->med_lo)),
			 "median_hi", results_json_number(pattern_msgrate(size, s->med_hi)));
}

json_t *results_json_change(const struct sw_change *c)
{
	if (!c->valid)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:b}", "pct", results_json_number(c->pct),
			 "lo", results_json_number(c->lo), "hi", results_json_number(c->hi),
			 "level_median", results_json_number(c->level), "baseline_median", results_json_number(c->base),
			 "p", results_json_number(c->p), "significant", c->significant);
}

/* The map's design for run.json (schedule = map). */
/* The map's groups: "inferred", or the [topology] groups the run found,
 * each with its ranks. */
static json_t *json_map_groups(const struct sw_run *r)
{
	json_t *groups;

	if (!r->ngroup)
		return json_string("inferred");
	groups = json_array();
	for (int g = 0; g < r->ngroup; g++) {
		json_t *ranks = json_array();

		for (int i = 0; i < r->nranks; i++)
			if (r->group[i] == g)
				json_array_append_new(ranks, json_integer(i));
		json_array_append_new(groups, json_pack("{s:s,s:o}", "name", r->group_name[g], "ranks", ranks));
	}
	return groups;
}

static json_t *json_map(const struct sw_run *r)
{
	const struct mapsched *m = r->plan->map;
	json_t *rounds = json_array();

	for (int i = 0; i < m->nrounds; i++)
		json_array_append_new(rounds, json_integer(m->round[i]));
	return json_pack("{s:s,s:i,s:i,s:o,s:i,s:i,s:o,s:o}", "method", "circle", "pass", m->pass, "per_round",
			 m->per_round, "rounds", rounds, "concurrency", m->conc, "steps_per_round", m->steps_per_round,
			 "cover", results_json_number(mapsched_cover(m)), "groups", json_map_groups(r));
}

/* The levels of each block in the order they ran ([] when sequential). */
static json_t *json_block_order(const struct sw_run *r)
{
	json_t *blocks = json_array();
	int nb = 0, *order = malloc((size_t)r->plan->nlevels * sizeof(*order));

	for (int c = 0; c < r->plan->ncells; c++)
		if (r->cell[c].reps > nb)
			nb = r->cell[c].reps;
	for (int b = 0; order && r->cfg.design == CFG_DESIGN_BLOCKS && b < nb; b++) {
		json_t *lv = json_array();

		plan_block_order(r->plan, &r->cfg, b, order);
		for (int i = 0; i < r->plan->nlevels; i++)
			json_array_append_new(lv, json_integer(order[i]));
		json_array_append_new(blocks, lv);
	}
	free(order);
	return blocks;
}

static json_t *run_to_json(const struct sw_run *r, const struct sw_analysis *a)
{
	const struct sw_plan *p = r->plan;
	json_t *root = json_object(), *ranks = json_array(), *pairs = json_array();
	json_t *levels = json_array(), *cells = json_array(), *cpu = json_array();

	json_object_set_new(root, "schema_version", json_integer(SW_SCHEMA_VERSION));
	json_object_set_new(root, "tool_version", json_string(r->tool_version));
	json_object_set_new(root, "name", json_string(r->name));
	json_object_set_new(root, "started", json_string(r->started));
	json_object_set_new(root, "command_line", json_string(r->command_line));
	json_object_set_new(root, "mpi_version", json_string(r->mpi_version));
	json_object_set_new(root, "wtick", results_json_number(r->wtick));
	json_object_set_new(root, "round_trip_s", results_json_number(r->round_trip));
	json_object_set_new(root, "sample_floor", json_pack("{s:i,s:i,s:i,s:i,s:o}", "messages", ANALYSIS_FLOOR_MSGS,
		"windows", ANALYSIS_FLOOR_WINDOWS, "ticks", ANALYSIS_FLOOR_TICKS, "round_trips", ANALYSIS_FLOOR_TRIPS,
		"seconds", results_json_number(analysis_floor_seconds(r->wtick, r->round_trip))));
	json_object_set_new(root, "wtime_global", json_boolean(r->wtime_global));
	json_object_set_new(root, "yield", json_boolean(r->yield));
	json_object_set_new(root, "duration_s", results_json_number(r->duration));
	json_object_set_new(root, "complete", json_boolean(r->complete));
	json_object_set_new(root, "failure", json_string(r->failure));
	json_object_set_new(root, "config", config_to_json(&r->cfg));
	json_object_set_new(root, "design", json_string(r->cfg.design == CFG_DESIGN_BLOCKS ? "blocks" : "sequential"));
	json_object_set_new(root, "block_order", json_block_order(r));
	for (int i = 0; i < r->nranks; i++)
		json_array_append_new(ranks, json_rank(r, i));
	json_object_set_new(root, "ranks", ranks);
	for (int i = 0; i < p->npairs; i++)
		json_array_append_new(pairs, json_pack("[i,i]", p->pair[i].a, p->pair[i].b));
	json_object_set_new(root, "pairs", pairs);
	json_t *vpairs = json_array(), *vs = json_array();
	for (int i = 0; i < p->nvictims; i++)
		json_array_append_new(vpairs, json_pack("[i,i]", p->victim[i].a, p->victim[i].b));
	json_object_set_new(root, "victim_pairs", vpairs);
	for (size_t i = 0; i < r->nvictims; i++) {
		const struct sw_victim *v = &r->victim[i];

		json_array_append_new(vs, json_pack("{s:i,s:i,s:i,s:b,s:o,s:o,s:o,s:I,s:o,s:o}", "cell", v->cell,
			"rep", v->rep, "pair", v->pair, "alone", v->alone, "t_start_s", results_json_number(v->t_start),
			"t_end_s", results_json_number(v->t_end), "seconds", results_json_number(v->seconds),
			"hops", (json_int_t)v->hops, "p50_s", results_json_number(v->p50),
			"p99_s", results_json_number(v->p99)));
		if (v->cpu)   /* the CPU control round; absent: not (older runs) */
			json_object_set_new(json_array_get(vs, i), "cpu", json_true());
	}
	json_object_set_new(root, "victim_samples", vs);
	for (int l = 0; l < p->nlevels; l++) {
		json_array_append_new(levels, json_pack("{s:i,s:i}", "pairs", p->level_pairs[l],
							"nodes", 2 * p->level_pairs[l]));
		if (p->map)
			json_object_set_new(json_array_get(levels, (size_t)l), "round",
					    json_integer(mapsched_step_round(p->map, l)));
	}
	json_object_set_new(root, "levels", levels);
	if (p->map)
		json_object_set_new(root, "map", json_map(r));
	for (int ci = 0; ci < p->ncells; ci++) {
		const struct sw_cell *c = &p->cell[ci];
		json_t *o = json_pack("{s:i,s:i,s:i,s:i,s:s,s:I,s:I,s:b,s:b,s:i,s:s,s:o,s:o}",
				      "cell", ci, "level", c->level, "nodes", plan_nodes(p, ci),
				      "pairs", p->level_pairs[c->level], "pattern", pattern_name(c->pattern),
				      "size_bytes", (json_int_t)c->size, "hops", (json_int_t)c->hops,
				      "hops_auto", r->cfg.nhops == 0, "timed", c->timed, "reps", r->cell[ci].reps,
				      "stop", run_stop_name(r->cell[ci].stop), "wall_s", results_json_number(r->cell[ci].wall),
				      "timed_s", results_json_number(r->cell[ci].timed));

		if (pattern_info(c->pattern)->incast)
			json_object_set_new(o, "receiver", json_integer(plan_pair(p, ci, 0).b));
		if (a && ci < a->ncells && a->cell[ci].lat.n) {
			const struct sw_cell_stats *cs = &a->cell[ci];

			json_object_set_new(o, "summary", json_pack(
				"{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:i,s:I,s:b,s:b}",
				"latency_s", json_estimate(&cs->lat), "bandwidth_Bps", json_estimate(&cs->bw),
				"latency_samples_s", json_estimate(&cs->lat_spread),
				"bandwidth_samples_Bps", json_estimate(&cs->bw_spread),
				"aggregate_Bps", json_estimate(&cs->agg), "latency_inflation", results_json_change(&cs->inflation),
				"bandwidth_drop", results_json_change(&cs->drop), "aggregate_drop", results_json_change(&cs->agg_drop),
				"receiver_drop", results_json_change(&cs->receiver_drop),
				"overlap", results_json_number(cs->overlap), "converged", cs->converged, "baseline_cell", cs->baseline,
				"short_samples", (json_int_t)cs->nshort, "below_floor", cs->below_floor,
				"drifted", cs->drifted));
			if (!pattern_latency_metric(c->pattern)) {
				json_object_set_new(json_object_get(o, "summary"), "message_rate_per_s",
						    json_rate(&cs->bw, c->size));
				json_object_set_new(json_object_get(o, "summary"), "aggregate_message_rate_per_s",
						    json_rate(&cs->agg, c->size));
			}
			if (a->victim)
				json_object_set_new(json_object_get(o, "summary"), "victims", json_pack(
					"{s:I,s:I,s:o,s:o}", "loaded_reps", (json_int_t)a->victim[ci].nloaded,
					"alone_reps", (json_int_t)a->victim[ci].nalone,
					"latency_inflation", results_json_change(&a->victim[ci].p50),
					"p99_inflation", results_json_change(&a->victim[ci].p99)));
			if (a->victim && a->victim[ci].ncpu) {
				json_t *vo = json_object_get(json_object_get(o, "summary"), "victims");

				json_object_set_new(vo, "cpu_control_reps", json_integer((json_int_t)a->victim[ci].ncpu));
				json_object_set_new(vo, "cpu_inflation", results_json_change(&a->victim[ci].cpu));
				json_object_set_new(vo, "network_inflation", results_json_change(&a->victim[ci].net));
			}
		}
		json_array_append_new(cells, o);
	}
	json_object_set_new(root, "cells", cells);
	for (size_t i = 0; i < r->ncpu; i++)
		json_array_append_new(cpu, json_pack("{s:i,s:i,s:o,s:o}", "level", r->cpu[i].level,
						     "rank", r->cpu[i].rank, "user_s", results_json_number(r->cpu[i].user),
						     "sys_s", results_json_number(r->cpu[i].sys)));
	json_object_set_new(root, "cpu", cpu);
	json_t *probes = json_array();
	for (size_t i = 0; i < r->nprobes; i++) {
		const struct sw_probe *q = &r->probe[i];

		json_array_append_new(probes, json_pack("{s:i,s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:I}", "rank_a", q->a,
			"rank_b", q->b, "host_rank", q->host, "cell", q->cell, "rep", q->rep,
			"t_start_s", results_json_number(q->t_start), "t_end_s", results_json_number(q->t_end),
			"seconds", results_json_number(q->seconds), "hops", (json_int_t)q->hops));
	}
	json_object_set_new(root, "probes", probes);
	json_t *again = json_array();
	for (size_t i = 0; i < r->nagain; i++) {
		const struct sw_sample *s = &r->again[i];

		json_t *o = json_pack("{s:i,s:i,s:i,s:o,s:o,s:o,s:I}", "cell", s->cell, "rep", s->rep, "pair", s->pair,
				      "t_start_s", results_json_number(s->t_start), "t_end_s",
				      results_json_number(s->t_end), "seconds", results_json_number(s->seconds),
				      "hops", (json_int_t)s->hops);

		if (s->missing)
			json_object_set_new(o, "missing", json_string(run_missing_name(s->missing)));
		json_array_append_new(again, o);
	}
	json_object_set_new(root, "baseline_again", again);
	if (a) {
		json_t *sus = json_array(), *out = json_array(), *fits = json_array(), *iso = json_array();

		for (int i = 0; i < a->nisolated; i++) {
			const struct sw_isolated *x = &a->isolated[i];
			json_t *parts = json_array();
			char ev[512];

			for (int k = 0; k < x->tested; k++)
				json_array_append_new(parts, json_pack("{s:s,s:o}", "host", x->partner[k],
								       "value", results_json_number(x->value[k])));
			isolate_evidence(x, ev, sizeof(ev));
			json_array_append_new(iso, json_pack("{s:s,s:s,s:s,s:I,s:b,s:i,s:i,s:o,s:o,s:s}", "host", x->host,
				"verdict", isolate_verdict_name(x->verdict), "pattern", pattern_name(x->pattern),
				"size_bytes", (json_int_t)x->size, "bandwidth", !pattern_latency_metric(x->pattern),
				"slow", x->slow, "tested", x->tested, "partners", parts,
				"control", results_json_number(x->control), "evidence", ev));
		}
		json_object_set_new(root, "isolation", iso);

		for (int i = 0; i < a->nsuspects; i++)
			json_array_append_new(sus, json_pack("{s:s,s:i,s:i}", "host", a->suspect[i].host,
							     "flagged", a->suspect[i].flagged, "cells", a->suspect[i].cells));
		for (size_t i = 0; i < a->npairstats; i++) {
			const struct sw_pair_stats *ps = &a->pair[i];

			if (!ps->flagged)
				continue;
			struct sw_pair q = plan_level_pair(p, p->cell[ps->cell].level, ps->pair);

			json_array_append_new(out, json_pack("{s:i,s:i,s:s,s:s,s:o,s:o}", "cell", ps->cell, "pair", ps->pair,
							     "host_a", r->host[q.a], "host_b", r->host[q.b],
							     "slower_pct", results_json_number(ps->effect),
							     "z", results_json_number(ps->z)));
		}
		for (int i = 0; i < a->nfits; i++) {
			const struct sw_fit *f = &a->fit[i];

			json_array_append_new(fits, json_pack("{s:i,s:s,s:I,s:I,s:i,s:o,s:o,s:o,s:o}",
				"level", f->level, "pattern", pattern_name(f->pattern), "size_lo", (json_int_t)f->size_lo,
				"size_hi", (json_int_t)f->size_hi, "npoints", f->npoints, "alpha_s", results_json_number(f->alpha),
				"beta_Bps", results_json_number(f->beta), "n_half_bytes", results_json_number(f->n_half), "r2", results_json_number(f->r2)));
		}
		json_t *drift = json_array();
		for (int i = 0; i < a->ndrift; i++) {
			const struct sw_drift *d = &a->drift[i];
			json_t *o = results_json_change(&d->change);

			if (!json_is_object(o))
				o = json_object();
			json_object_set_new(o, "cell", json_integer(d->cell));
			json_object_set_new(o, "metric", json_string(change_name(d->metric, true)));
			json_array_append_new(drift, o);
		}
		json_object_set_new(root, "drift", json_pack("{s:b,s:o,s:o}", "drifted", a->drifted, "alpha",
			results_json_number(a->drift_alpha), "cells", drift));
		json_object_set_new(root, "suspects", sus);
		json_object_set_new(root, "outliers", out);
		json_object_set_new(root, "fits", fits);
		json_object_set_new(root, "method", json_string(a->method));
	}
	return root;
}

static int write_json(FILE *f, const struct sw_run *r, const struct sw_analysis *a, const void *arg)
{
	json_t *root = run_to_json(r, a);
	int rc;

	(void)arg;
	if (!root)
		return -1;
	rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return rc;
}

int results_write(const char *dir, const struct sw_run *r, const struct sw_analysis *a,
		  const char *report_text, char *err, size_t errlen)
{
	static const struct { const char *name; writer_fn fn; } files[] = {
		{ "samples.csv", write_samples }, { "summary.csv", write_summary },
		{ "pairs.csv", write_pairs }, { "fits.csv", write_fits },
		{ "report.txt", write_text },
		{ "run.json", write_json },   /* last: it says what the others hold */
	};

	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	char path[NFILES][SW_PATH_MAX + 32], tmp[NFILES][SW_PATH_MAX + 96];
	size_t done = 0;

	/* Every file to its temporary name first, so that a full disk leaves
	 * the folder as it was rather than half old and half new. */
	for (; done < NFILES; done++) {
		struct writer w = { files[done].fn, r, a, report_text };

		snprintf(path[done], sizeof(path[done]), "%s/%s", dir, files[done].name);
		if (sw_write_temp(path[done], call_writer, &w, tmp[done], sizeof(tmp[done]), err, errlen))
			goto out_unlink;
	}
	for (size_t i = 0; i < NFILES; i++)
		if (sw_commit_temp(tmp[i], path[i], err, errlen))
			return -1;
	return 0;

out_unlink:
	while (done-- > 0)
		unlink(tmp[done]);
	return -1;
}

/* The text writer fn gives for r and a (malloc'd), or NULL on ENOMEM. */
static char *derived_text(writer_fn fn, const struct sw_run *r, const struct sw_analysis *a)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		return NULL;
	fn(f, r, a, NULL);
	if (fclose(f) || !text) {
		free(text);
		return NULL;
	}
	return text;
}

char *results_summary_text(const struct sw_run *r, const struct sw_analysis *a)
{
	return derived_text(write_summary, r, a);
}

/* True when have is want with every row cut after the fields of have's
 * header: a summary.csv that an older swstress wrote, before columns were
 * added at the end (comment lines are compared whole). */
static bool summary_older(const char *want, const char *have)
{
	long n = -1;   /* the commas of have's header */

	while (*want && *have) {
		size_t wl = strcspn(want, "\n"), hl = strcspn(have, "\n");

		if (*have != '#') {
			long c = 0;

			if (n < 0) {
				n = 0;
				for (size_t i = 0; i < hl; i++)
					n += have[i] == ',';
			}
			for (size_t i = 0; i < wl; i++)
				if (want[i] == ',' && c++ == n) {
					wl = i;
					break;
				}
		}
		if (wl != hl || memcmp(want, have, hl))
			return false;
		want += strcspn(want, "\n");
		want += *want == '\n';
		have += hl;
		have += *have == '\n';
	}
	return !*want && !*have;
}

/* The files of a results folder that run.json and samples.csv determine,
 * each with its writer; older: an older swstress's copy (fewer columns
 * at the end of each row) is the run's too. */
static const struct {
	const char *name;
	writer_fn fn;
	bool older;
} derived[] = {
	{ "summary.csv", write_summary, true },
	{ "fits.csv", write_fits, false },
};

int results_derived_check(const struct sw_run *r, const struct sw_analysis *a, const char *name, const char *text,
			  const char *shown, char *err, size_t errlen)
{
	size_t k = 0, i = 0;
	long line = 1;
	char *want;

	while (k < sizeof(derived) / sizeof(derived[0]) && strcmp(derived[k].name, name))
		k++;
	if (k == sizeof(derived) / sizeof(derived[0]))
		return sw_fail(err, errlen, "%s: not a file derived from run.json", shown);
	if (!(want = derived_text(derived[k].fn, r, a)))
		return sw_fail(err, errlen, "%s: out of memory", shown);
	while (want[i] && want[i] == text[i])
		if (want[i++] == '\n')
			line++;
	if ((!want[i] && !text[i]) || (derived[k].older && summary_older(want, text))) {
		free(want);
		return 0;
	}
	if (!text[i] && (i == 0 || text[i - 1] == '\n'))
		sw_fail(err, errlen, "%s:%ld: ends here, but run.json and samples.csv give more rows (the file was cut)",
			shown, line);
	else
		sw_fail(err, errlen, "%s:%ld: not what run.json and samples.csv give (rows cut or values changed)", shown,
			line);
	free(want);
	return -1;
}

int results_summary_check(const struct sw_run *r, const struct sw_analysis *a, const char *text, const char *shown,
			  char *err, size_t errlen)
{
	return results_derived_check(r, a, "summary.csv", text, shown, err, errlen);
}

int results_verify(const char *dir, const struct sw_run *r, const struct sw_analysis *a, char *err, size_t errlen)
{
	int dfd = sfile_dir(dir, err, errlen), rc = 0;

	if (dfd < 0)
		return -1;
	for (size_t k = 0; !rc && k < sizeof(derived) / sizeof(derived[0]); k++) {
		char shown[SW_PATH_MAX + 16], *text;

		if (sfile_path(shown, sizeof(shown), err, errlen, "%s/%s", dir, derived[k].name)) {
			rc = -1;
			break;
		}
		text = sfile_slurp_at(dfd, derived[k].name, RESULTS_MAX_JSON, NULL, shown, err, errlen);
		if (!text) {
			rc = errno == ENOENT ? 0 : -1;
			continue;
		}
		rc = results_derived_check(r, a, derived[k].name, text, shown, err, errlen);
		free(text);
	}
	close(dfd);
	return rc;
}

int results_verify_folder(const char *dir, char *err, size_t errlen)
{
	struct sw_run *r = results_load(dir, err, errlen);
	struct sw_analysis *a;
	char msg[512];
	int rc;

	if (!r)
		return -1;
	a = analysis_run(r, &r->cfg, msg, sizeof(msg));
	if (!a) {
		run_free(r);
		return sw_fail(err, errlen, "%s: %s", dir, msg);
	}
	rc = results_verify(dir, r, a, err, errlen);
	analysis_free(a);
	run_free(r);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Reading                                                            */

/* An integer member key of o within [lo, hi] into *out, or an error
 * "PATH: WHEREKEY: what is wrong" (where: "cells[3]." or ""). */
static int jint(json_t *o, const char *key, long long lo, long long hi, long long *out, const char *path,
		const char *where, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		return sw_fail(err, errlen, "%s: %s%s: %s", path, where, key, v ? "not an integer" : "missing");
	*out = json_integer_value(v);
	if (*out < lo || *out > hi)
		return sw_fail(err, errlen, "%s: %s%s: %lld is outside %lld..%lld", path, where, key, *out, lo, hi);
	return 0;
}

/* A number member within [lo, hi], or null / missing (NaN: not known). */
static int jnum(json_t *o, const char *key, double lo, double hi, double *out, const char *path,
		const char *where, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return sw_fail(err, errlen, "%s: %s%s: not a number", path, where, key);
	*out = json_number_value(v);
	if (!(*out >= lo && *out <= hi))
		return sw_fail(err, errlen, "%s: %s%s: %g is outside %g..%g", path, where, key, *out, lo, hi);
	return 0;
}

/* Whether a sample's seconds agree with its window from t_start to t_end
 * on the common clock: never longer than it, and where exact (one
 * direction: the engine takes one from the other) the same, to the 10
 * digits run.json keeps of each. A time not known (NaN) agrees. */
static bool times_agree(double t_start, double t_end, double seconds, bool exact)
{
	double span = t_end - t_start, tol = 1e-9 * (1 + fabs(t_start) + fabs(t_end) + seconds);

	if (isnan(t_start) || isnan(t_end))
		return true;
	return seconds <= span + tol && (!exact || seconds >= span - tol);
}

/* A sample's times: t_start_s and t_end_s (null allowed) and seconds
 * (required), each within its range, seconds within the window. */
static int jtimes(json_t *o, double *t_start, double *t_end, double *seconds, const char *path,
		  const char *where, char *err, size_t errlen)
{
	if (jnum(o, "t_start_s", -RESULTS_MAX_SECONDS, RESULTS_MAX_SECONDS, t_start, path, where, err, errlen) ||
	    jnum(o, "t_end_s", -RESULTS_MAX_SECONDS, RESULTS_MAX_SECONDS, t_end, path, where, err, errlen) ||
	    jnum(o, "seconds", RESULTS_MIN_SECONDS, RESULTS_MAX_SECONDS, seconds, path, where, err, errlen))
		return -1;
	if (isnan(*seconds))
		return sw_fail(err, errlen, "%s: %sseconds: missing", path, where);
	if (!times_agree(*t_start, *t_end, *seconds, false))
		return sw_fail(err, errlen, "%s: %sseconds: %.9g, longer than t_start_s..t_end_s", path, where,
			       *seconds);
	return 0;
}

static int get_str(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_string(v))
		return -1;
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

/* A text of run.json that reports and status lines print: one line of
 * text (text.h), or with lines several (newlines and tabs allowed, as in
 * an MPI library's version). 0, or -1 with the field named. */
static int check_text(const char *s, bool lines, const char *path, const char *field, char *err, size_t errlen)
{
	char one[1024];
	const char *why;

	snprintf(one, sizeof(one), "%s", s);
	for (char *p = one; lines && *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	why = text_check(one);
	return why ? sw_fail(err, errlen, "%s: %s: %s", path, field, why) : 0;
}

/* Every (repetition, pair) of a cell at most once, and all of them where
 * run.json says the cell ran to the end: a truncated samples.csv is found
 * here, not taken for a shorter run. */
static int check_samples(const struct sw_run *r, const char *path, char *err, size_t errlen)
{
	for (int c = 0; c < r->plan->ncells; c++) {
		size_t first, n = run_cell_samples(r, c, &first);
		size_t pairs = (size_t)run_cell_pairs(r, c), want = (size_t)r->cell[c].reps * pairs;
		bool whole = r->cell[c].stop != SW_STOP_FAILED && r->cell[c].stop != SW_STOP_NOT_RUN;
		char *seen;

		if (n > want || (whole && n != want))
			return sw_fail(err, errlen, "%s: cell %d has %zu samples, run.json says %d repetitions x %zu pairs",
				       path, c, n, r->cell[c].reps, pairs);
		seen = calloc(want ? want : 1, 1);
		if (!seen)
			return sw_fail(err, errlen, "%s: out of memory", path);
		for (size_t i = first; i < first + n; i++) {
			size_t k = (size_t)r->sample[i].rep * pairs + (size_t)r->sample[i].pair;

			if (seen[k]++) {
				free(seen);
				return sw_fail(err, errlen, "%s: cell %d: repetition %d of pair %d twice", path, c,
					       r->sample[i].rep, r->sample[i].pair);
			}
		}
		free(seen);
	}
	return 0;
}

/* The columns of samples.csv the reader uses, in parse_sample's order;
 * the last, missing, is absent before schema 4 (load_samples: col -1). */
static const char *const sample_cols[] = { "cell", "rep", "pair", "t_start_s", "t_end_s", "seconds", "hops",
					   "missing" };
#define NSAMPLE_COLS 8
#define SAMPLE_COL_MISSING 7

/* One sample row of samples.csv (col: where each of sample_cols is):
 * every field numeric and in range, or an error naming the line and the
 * field. */
static int parse_sample(const struct sw_run *r, char **fld, const int *col, struct sw_sample *s,
			const char *path, int lineno, char *err, size_t errlen)
{
	static const char *const why[] = {
		"not a cell of run.json", "not a repetition the cell ran", "not a pair of the cell's level",
		"not a finite number", "before t_start_s, or not a finite number",
		"must be finite, from 1 ns to 1e6 s (empty in a missing sample)", "not the cell's hop count, or below 1",
		"not a reason for a missing sample (late, short, fast)",
	};
	const struct sw_plan *p = r->plan;
	long v[3] = { 0 }, hops = 0, h;
	int bad = -1, miss = col[SAMPLE_COL_MISSING] < 0 ? 0 : run_missing_parse(fld[col[SAMPLE_COL_MISSING]]);

	/* a missing sample (run.h): its window as measured, no seconds */
	if (miss < 0)
		bad = SAMPLE_COL_MISSING;
	else if (sw_parse_long(fld[col[0]], 0, p->ncells - 1, &v[0]))
		bad = 0;
	else if (sw_parse_long(fld[col[1]], 0, r->cell[v[0]].reps - 1, &v[1]))
		bad = 1;
	else if (sw_parse_long(fld[col[2]], 0, p->level_pairs[p->cell[v[0]].level] - 1, &v[2]))
		bad = 2;
	else if (sw_parse_double(fld[col[3]], -RESULTS_MAX_SECONDS, RESULTS_MAX_SECONDS, &s->t_start))
		bad = 3;
	else if (sw_parse_double(fld[col[4]], miss ? -RESULTS_MAX_SECONDS : s->t_start, RESULTS_MAX_SECONDS, &s->t_end))
		bad = 4;
	else if (miss ? fld[col[5]][0] != '\0'
		      : sw_parse_double(fld[col[5]], RESULTS_MIN_SECONDS, RESULTS_MAX_SECONDS, &s->seconds))
		bad = 5;
	else if (h = miss ? 0 : p->cell[v[0]].hops * p->per_node,
		 sw_parse_long(fld[col[6]], h ? h : miss ? 0 : 1, h ? h : LONG_MAX, &hops))
		bad = 6;
	if (bad >= 0)
		return sw_fail(err, errlen, "%s:%d: %s: '%.40s' %s", path, lineno, sample_cols[bad], fld[col[bad]],
			       why[bad]);
	if (r->nsamples && r->sample[r->nsamples - 1].cell > v[0])
		return sw_fail(err, errlen, "%s:%d: cell: %ld comes after cell %d (rows are in cell order)", path,
			       lineno, v[0], r->sample[r->nsamples - 1].cell);
	if (!miss && !times_agree(s->t_start, s->t_end, s->seconds, pattern_info(p->cell[v[0]].pattern)->directions == 1))
		return sw_fail(err, errlen, "%s:%d: seconds: %.9g, but t_start_s..t_end_s is %.9g", path, lineno,
			       s->seconds, s->t_end - s->t_start);
	/* run_sample_check, the writer's rule: a row it would have written
	 * missing is refused unmarked (a changed file), but in a folder from
	 * before the missing column a window of one tick or less (the engine
	 * clamped empty windows to 1 ns) becomes a missing sample in
	 * run_add_sample, as the writer now records it */
	if (!miss) {
		struct sw_sample t = { .t_start = s->t_start, .t_end = s->t_end, .seconds = s->seconds, .hops = hops };
		int m = run_sample_check(&t, r->wtick);

		if (m && (col[SAMPLE_COL_MISSING] >= 0 || m == SW_MISSING_FAST))
			return sw_fail(err, errlen, "%s:%d: hops: %ld in %.9g s: %s, not marked missing", path, lineno,
				       hops, s->seconds, run_missing_why(m));
	}
	s->missing = miss;
	if (miss)
		s->seconds = NAN;
	s->cell = (int)v[0];
	s->rep = (int)v[1];
	s->pair = (int)v[2];
	s->hops = hops;
	return 0;
}

static int load_samples(struct sw_run *r, const char *path, char *err, size_t errlen)
{
	FILE *f = sfile_read(path, RESULTS_MAX_CSV, 0, err, errlen);
	char line[4096], *fld[32];
	int lineno = 0, rc = -1, col[NSAMPLE_COLS], ncol = 0, bcol = -1;
	long block;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n')) {
			sw_fail(err, errlen, "%s:%d: %s", path, lineno,
				feof(f) ? "last line cut short (no newline, or a NUL byte)"
					: "line longer than 4095 bytes, or a NUL byte in it");
			goto out;
		}
		if (line[0] == '#' || line[0] == '\n')
			continue;
		int n = sw_csv_split(line, fld, 32);

		if (n > 32) {
			sw_fail(err, errlen, "%s:%d: %d fields, more than a samples.csv has", path, lineno, n);
			goto out;
		}

		if (ncol == 0) {
			for (int k = 0; k < NSAMPLE_COLS; k++) {
				col[k] = -1;
				for (int i = 0; i < n; i++)
					if (!strcmp(fld[i], sample_cols[k]))
						col[k] = i;
				if (col[k] < 0 && k != SAMPLE_COL_MISSING) {
					sw_fail(err, errlen, "%s:%d: header lacks column '%s'", path, lineno, sample_cols[k]);
					goto out;
				}
			}
			for (int i = 0; i < n; i++)
				if (!strcmp(fld[i], "block"))
					bcol = i;   /* absent before schema 3 */
			ncol = n;
			continue;
		}
		if (n != ncol) {
			sw_fail(err, errlen, "%s:%d: %d fields, expected %d", path, lineno, n, ncol);
			goto out;
		}
		struct sw_sample s = { 0 };

		if (parse_sample(r, fld, col, &s, path, lineno, err, errlen))
			goto out;
		if (bcol >= 0 && (sw_parse_long(fld[bcol], -1, INT_MAX, &block) || block != run_sample_block(r, &s))) {
			sw_fail(err, errlen, "%s:%d: block: '%.40s' is not %d (the design's block of repetition %d)",
				path, lineno, fld[bcol], run_sample_block(r, &s), s.rep);
			goto out;
		}
		if (run_add_sample(r, &s)) {
			sw_fail(err, errlen, "%s: out of memory", path);
			goto out;
		}
	}
	if (ferror(f)) {
		sw_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
		goto out;
	}
	if (ncol == 0) {
		sw_fail(err, errlen, "%s: empty (no header line)", path);
		goto out;
	}
	rc = check_samples(r, path, err, errlen);
out:
	fclose(f);
	return rc;
}

/* run.json probes (absent in older runs): every field checked, in range
 * before it is narrowed to an int. */
static int load_probes(struct sw_run *r, json_t *arr, const char *path, char *err, size_t errlen)
{
	if (arr && !json_is_array(arr))
		return sw_fail(err, errlen, "%s: probes: not an array", path);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		long long a, b, host, cell, rep, hops;
		struct sw_probe q;
		char where[32];

		snprintf(where, sizeof(where), "probes[%zu].", i);
		if (jint(o, "rank_a", 0, r->nranks - 1, &a, path, where, err, errlen) ||
		    jint(o, "rank_b", 0, r->nranks - 1, &b, path, where, err, errlen) ||
		    jint(o, "host_rank", -1, r->nranks - 1, &host, path, where, err, errlen) ||
		    jint(o, "cell", 0, r->plan->ncells - 1, &cell, path, where, err, errlen) ||
		    jint(o, "rep", 0, INT_MAX, &rep, path, where, err, errlen) ||
		    jint(o, "hops", 1, LONG_MAX, &hops, path, where, err, errlen) ||
		    jtimes(o, &q.t_start, &q.t_end, &q.seconds, path, where, err, errlen))
			return -1;
		if (a == b)
			return sw_fail(err, errlen, "%s: %srank_b: %lld, the same rank as rank_a", path, where, b);
		q.a = (int)a;
		q.b = (int)b;
		q.host = (int)host;
		q.cell = (int)cell;
		q.rep = (int)rep;
		q.hops = (long)hops;
		if (run_add_probe(r, &q))
			return sw_fail(err, errlen, "%s: out of memory", path);
	}
	return 0;
}

/* run.json baseline_again (drift control; absent in older runs): every
 * field checked, cells of the baseline level only. */
static int load_again(struct sw_run *r, json_t *arr, const char *path, char *err, size_t errlen)
{
	if (arr && !json_is_array(arr))
		return sw_fail(err, errlen, "%s: baseline_again: not an array", path);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);
		long long cell, rep, pair, hops;
		struct sw_sample s = { 0 };
		char where[40];
		json_t *m = json_object_get(o, "missing");
		int miss = 0;

		snprintf(where, sizeof(where), "baseline_again[%zu].", i);
		if (m && (!json_is_string(m) || (miss = run_missing_parse(json_string_value(m))) <= 0))
			return sw_fail(err, errlen, "%s: %smissing: not a reason for a missing sample (late, short, fast)",
				       path, where);
		if (jint(o, "cell", 0, plan_cells_per_level(r->plan) - 1, &cell, path, where, err, errlen) ||
		    jint(o, "rep", 0, INT_MAX, &rep, path, where, err, errlen) ||
		    jint(o, "pair", 0, r->plan->level_pairs[0] - 1, &pair, path, where, err, errlen) ||
		    jint(o, "hops", miss ? 0 : 1, LONG_MAX, &hops, path, where, err, errlen) ||
		    (miss ? jnum(o, "t_start_s", -RESULTS_MAX_SECONDS, RESULTS_MAX_SECONDS, &s.t_start, path, where, err,
				 errlen) ||
				    jnum(o, "t_end_s", -RESULTS_MAX_SECONDS, RESULTS_MAX_SECONDS, &s.t_end, path, where, err,
					 errlen)
			  : jtimes(o, &s.t_start, &s.t_end, &s.seconds, path, where, err, errlen)))
			return -1;
		s.missing = miss;
		s.seconds = miss ? NAN : s.seconds;
		s.cell = (int)cell;
		s.rep = (int)rep;
		s.pair = (int)pair;
		s.hops = (long)hops;
		if (run_add_again(r, &s))
			return sw_fail(err, errlen, "%s: out of memory", path);
	}
	return 0;
}

/* run.json victim_pairs (absent in older runs): as many as the config's
 * victims, two ranks each that no other pair uses (used[] marks them). */
static int load_victim_pairs(struct sw_plan *p, const struct sw_config *cfg, const json_t *arr, char *used,
			     const char *path, char *err, size_t errlen)
{
	struct sw_pair v[SW_MAX_RANKS / 2];
	size_t n = json_array_size(arr);

	if ((arr && !json_is_array(arr)) || n != (size_t)cfg->victims || n > (size_t)(p->nranks / 2 - p->npairs))
		return sw_fail(err, errlen, "%s: victim_pairs: %zu pairs, but the config says victims = %d", path, n,
			       cfg->victims);
	for (size_t i = 0; i < n; i++) {
		json_t *pr = json_array_get(arr, i), *a = json_array_get(pr, 0), *b = json_array_get(pr, 1);
		long long x = json_integer_value(a), y = json_integer_value(b);

		if (!json_is_array(pr) || json_array_size(pr) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
		    x < 0 || x >= p->nranks || y < 0 || y >= p->nranks || x == y || used[x] || used[y])
			return sw_fail(err, errlen, "%s: victim_pairs[%zu]: not two distinct ranks of 0..%d, each in one "
				       "pair only", path, i, p->nranks - 1);
		used[x] = used[y] = 1;
		v[i] = (struct sw_pair){ (int)x, (int)y };
	}
	if (plan_set_victims(p, v, (int)n))
		return sw_fail(err, errlen, "%s: out of memory", path);
	return 0;
}

/* run.json victim_samples (absent in older runs): every field checked,
 * each (cell, repetition, victim pair, alone) at most once. */
/* A victim sample's key (cell, repetition, pair, alone), then its index. */
static int cmp_victim(const void *pa, const void *pb)
{
	const struct sw_victim *const *a = pa, *const *b = pb;
	const struct sw_victim *x = *a, *y = *b;
	int d[] = { x->cell - y->cell, x->rep - y->rep, x->pair - y->pair,
		    victims_round_of(x) - victims_round_of(y) };

	for (int i = 0; i < 4; i++)
		if (d[i])
			return d[i] < 0 ? -1 : 1;
	return (x > y) - (x < y);
}

/* Each (cell, repetition, victim pair, round) once: sorted, so that 240 000
 * samples cost a sort, not their square. */
static int victims_once(const struct sw_run *r, const char *path, char *err, size_t errlen)
{
	static const char *const round[] = { "loaded", "alone", "CPU control" };
	const struct sw_victim **v = malloc((r->nvictims ? r->nvictims : 1) * sizeof(*v));
	int rc = 0;

	if (!v)
		return sw_fail(err, errlen, "%s: out of memory", path);
	for (size_t i = 0; i < r->nvictims; i++)
		v[i] = &r->victim[i];
	qsort(v, r->nvictims, sizeof(*v), cmp_victim);
	for (size_t i = 1; i < r->nvictims && !rc; i++)
		if (v[i - 1]->cell == v[i]->cell && v[i - 1]->rep == v[i]->rep &&
		    v[i - 1]->pair == v[i]->pair && victims_round_of(v[i - 1]) == victims_round_of(v[i]))
			rc = sw_fail(err, errlen, "%s: victim_samples[%zu]: cell %d, repetition %d, victim pair %d (%s) "
				     "twice", path, (size_t)(v[i] - r->victim), v[i]->cell, v[i]->rep, v[i]->pair,
				     round[victims_round_of(v[i])]);
	free(v);
	return rc;
}

static int load_victims(struct sw_run *r, const json_t *arr, const char *path, char *err, size_t errlen)
{
	char where[64];
	long long x[4];
	int nv = r->plan->nvictims;

	if (arr && !json_is_array(arr))
		return sw_fail(err, errlen, "%s: victim_samples: not an array", path);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i), *alone = json_object_get(o, "alone"), *cpu = json_object_get(o, "cpu");
		struct sw_victim v;

		snprintf(where, sizeof(where), "victim_samples[%zu].", i);
		if (jint(o, "cell", 0, r->plan->ncells - 1, &x[0], path, where, err, errlen) ||
		    jint(o, "rep", 0, r->cell[x[0]].reps - 1, &x[1], path, where, err, errlen) ||
		    jint(o, "pair", 0, nv - 1, &x[2], path, where, err, errlen) ||
		    jint(o, "hops", 2, LLONG_MAX, &x[3], path, where, err, errlen) ||
		    jnum(o, "t_start_s", -RESULTS_MAX_SECONDS, RESULTS_MAX_SECONDS, &v.t_start, path, where, err, errlen) ||
		    jnum(o, "t_end_s", v.t_start, RESULTS_MAX_SECONDS, &v.t_end, path, where, err, errlen) ||
		    jnum(o, "seconds", RESULTS_MIN_SECONDS, RESULTS_MAX_SECONDS, &v.seconds, path, where, err, errlen) ||
		    jnum(o, "p50_s", RESULTS_MIN_SECONDS, RESULTS_MAX_SECONDS, &v.p50, path, where, err, errlen) ||
		    jnum(o, "p99_s", v.p50, RESULTS_MAX_SECONDS, &v.p99, path, where, err, errlen))
			return -1;
		if (!json_is_boolean(alone))
			return sw_fail(err, errlen, "%s: %salone: missing or not true/false", path, where);
		if (cpu && (!json_is_boolean(cpu) || (json_is_true(cpu) && json_is_true(alone))))
			return sw_fail(err, errlen, "%s: %scpu: not true/false, or true in a round of the victims alone",
				       path, where);
		if (!isfinite(v.t_start) || !isfinite(v.t_end) || !isfinite(v.seconds) || !isfinite(v.p50) ||
		    !isfinite(v.p99))
			return sw_fail(err, errlen, "%s: victim_samples[%zu]: a time or latency is missing (null)", path, i);
		if (!times_agree(v.t_start, v.t_end, v.seconds, false) ||
		    (double)x[3] * RESULTS_MIN_HOP > v.seconds * (1 + 1e-9))
			return sw_fail(err, errlen, "%s: %sseconds: %.9g, longer than t_start_s..t_end_s or shorter than "
				       "its hops", path, where, v.seconds);
		v.cell = (int)x[0];
		v.rep = (int)x[1];
		v.pair = (int)x[2];
		v.hops = (long)x[3];
		v.alone = json_is_true(alone);
		v.cpu = json_is_true(cpu);
		if (run_add_victim(r, &v))
			return sw_fail(err, errlen, "%s: out of memory", path);
	}
	return victims_once(r, path, err, errlen);
}

/* run.json ranks[i]'s identity (absent in older runs: all unknown).
 * With a boot_id or machine_id, every field is checked. */
static int load_rank_id(struct sw_run *r, json_t *o, int i, const char *path, char *err, size_t errlen)
{
	struct hostid *h = &r->id[i];
	json_t *boot = json_object_get(o, "boot_id"), *mach = json_object_get(o, "machine_id");
	char where[48], cpus[4 * HOSTID_CPUS];
	long long x;
	int n;

	if (!boot && !mach)
		return 0;
	snprintf(where, sizeof(where), "ranks[%d].", i);
	if (get_str(o, "boot_id", h->boot_id, sizeof(h->boot_id)) || strlen(json_string_value(boot)) >= HOSTID_ID_MAX ||
	    get_str(o, "machine_id", h->machine_id, sizeof(h->machine_id)) ||
	    strlen(json_string_value(mach)) >= HOSTID_ID_MAX)
		return sw_fail(err, errlen, "%s: %sboot_id, machine_id: not both strings of at most %d bytes", path,
			       where, HOSTID_ID_MAX - 1);
	if (jint(o, "netns", 0, LLONG_MAX, &x, path, where, err, errlen))
		return -1;
	h->netns = (uint64_t)x;
	if (jint(o, "cores", 0, HOSTID_CPUS, &x, path, where, err, errlen))
		return -1;
	h->cores = (int)x;
	if (jint(o, "mpi_node", -1, r->nranks - 1, &x, path, where, err, errlen))
		return -1;
	h->mpi_node = (int)x;
	if (get_str(o, "cpus", cpus, sizeof(cpus)) || hostid_parse_cpus(cpus, h->cpu, &n))
		return sw_fail(err, errlen, "%s: %scpus: missing or not a CPU list of 0..%d (\"0-3,8\")", path, where,
			       HOSTID_CPUS - 1);
	return 0;
}

/* The folder of a results path (a folder, or its run.json) and the paths
 * of its run.json and samples.csv: 0, or -1 with the path named (a path
 * that does not fit is an error, never its prefix). */
static int load_paths(const char *path, char *jpath, size_t jlen, char *spath, size_t slen, char *err,
		      size_t errlen)
{
	char dir[SW_PATH_MAX];
	struct stat st;
	size_t n = strlen(path);

	if (stat(path, &st))
		return sw_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (n >= sizeof(dir))
		return sfile_path(dir, sizeof(dir), err, errlen, "%s", path);
	if (S_ISDIR(st.st_mode)) {
		snprintf(dir, sizeof(dir), "%s", path);
		while (n > 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
	} else {
		const char *slash = strrchr(path, '/');

		if (slash)
			snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		else
			snprintf(dir, sizeof(dir), ".");
	}
	snprintf(jpath, jlen, S_ISDIR(st.st_mode) ? "%s/run.json" : "%s", S_ISDIR(st.st_mode) ? dir : path);
	snprintf(spath, slen, "%s/samples.csv", dir);
	return 0;
}

/* pairs: two distinct ranks each, every rank in one pair at most (used). */
static int load_pairs(struct sw_plan *p, const json_t *pairs, int nranks, char *used, const char *jpath,
		      char *err, size_t errlen)
{
	long long x, y;

	for (int i = 0; i < p->npairs; i++) {
		json_t *pr = json_array_get(pairs, (size_t)i), *a = json_array_get(pr, 0), *b = json_array_get(pr, 1);

		if (!json_is_array(pr) || json_array_size(pr) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
		    (x = json_integer_value(a)) < 0 || x >= nranks || (y = json_integer_value(b)) < 0 || y >= nranks ||
		    x == y || used[x] || used[y])
			return sw_fail(err, errlen, "%s: pairs[%d]: not two distinct ranks of 0..%d, each in one pair only",
				       jpath, i, nranks - 1);
		used[x] = used[y] = 1;
		p->pair[i] = (struct sw_pair){ (int)x, (int)y };
	}
	return 0;
}

/* levels[].pairs, rising; cells[]: pattern, level, size, hops, receiver. */
static int load_plan_cells(struct sw_plan *p, const struct sw_config *cfg, json_t *levels, json_t *cells,
			   int nranks, const char *jpath, char *err, size_t errlen)
{
	char where[48];
	long long x, y;

	for (int l = 0; l < p->nlevels; l++) {
		/* a map's steps are its plan's (rebuilt from the config), any size */
		int lo = p->map ? p->level_pairs[l] : l ? p->level_pairs[l - 1] + 1 : 1;

		snprintf(where, sizeof(where), "levels[%d].", l);
		if (jint(json_array_get(levels, (size_t)l), "pairs", lo, p->map ? lo : p->npairs, &x,
			 jpath, where, err, errlen))
			return -1;
		p->level_pairs[l] = (int)x;
	}
	for (int ci = 0; ci < p->ncells; ci++) {
		json_t *c = json_array_get(cells, (size_t)ci);
		const char *pat = json_string_value(json_object_get(c, "pattern"));
		int s;

		snprintf(where, sizeof(where), "cells[%d].", ci);
		if (!pat || pattern_find(pat) < 0)
			return sw_fail(err, errlen, "%s: %spattern: not one of pingpong, stream, bidir, incast", jpath,
				       where);
		if (jint(c, "level", 0, p->nlevels - 1, &x, jpath, where, err, errlen) ||
		    jint(c, "size_bytes", 1, INT64_MAX, &y, jpath, where, err, errlen))
			return -1;
		for (s = 0; s < cfg->nsizes && cfg->sizes[s] != (uint64_t)y; s++)
			;
		if (s == cfg->nsizes)
			return sw_fail(err, errlen, "%s: %ssize_bytes: %lld is not one of the config's sizes", jpath,
				       where, y);
		p->cell[ci] = (struct sw_cell){
			.level = (int)x, .pattern = pattern_find(pat), .size = (uint64_t)y, .size_index = s,
			.timed = config_pattern_timed(cfg, pattern_find(pat)),
		};
		/* hops 0: a timed cell (each sample counts its own), or auto hops never resolved */
		if (jint(c, "hops", p->cell[ci].timed ? 0 : cfg->nhops ? 1 : 0, p->cell[ci].timed ? 0 : LONG_MAX, &x,
			 jpath, where, err, errlen))
			return -1;
		p->cell[ci].hops = (long)x;
		/* incast: the receiver is pair 0's partner (plan.h), never a sender */
		if (pattern_info(p->cell[ci].pattern)->incast &&
		    (jint(c, "receiver", 0, nranks - 1, &x, jpath, where, err, errlen) ||
		     (x != p->pair[0].b && sw_fail(err, errlen, "%s: %sreceiver: rank %lld, but the plan's receiver "
						   "is rank %d (pairs[0]'s second rank)", jpath, where, x, p->pair[0].b))))
			return -1;
	}
	return 0;
}

/* A map's plan: rebuilt from its config (schedule, map_rounds,
 * map_concurrency, seed), its levels and cells checked against run.json's
 * and the cells' hops read. */
static struct sw_plan *load_map_plan(const struct sw_config *cfg, int nranks, json_t *levels, json_t *cells,
				     const char *jpath, char *err, size_t errlen)
{
	char why[256];
	struct sw_plan *p = plan_create(cfg, nranks, why, sizeof(why));

	if (!p) {
		sw_fail(err, errlen, "%s: the map's plan of %d ranks: %s", jpath, nranks, why);
		return NULL;
	}
	if (json_array_size(levels) != (size_t)p->nlevels || json_array_size(cells) != (size_t)p->ncells) {
		sw_fail(err, errlen, "%s: %zu levels and %zu cells, but the map's config makes %d steps and %d cells",
			jpath, json_array_size(levels), json_array_size(cells), p->nlevels, p->ncells);
		goto fail;
	}
	if (load_plan_cells(p, cfg, levels, cells, nranks, jpath, err, errlen))
		goto fail;
	return p;
fail:
	plan_free(p);
	return NULL;
}

/* The plan of run.json: pairs, victim pairs, levels, cells; NULL with the
 * field named. */
static struct sw_plan *load_plan(json_t *root, const struct sw_config *cfg, const char *jpath, char *err,
				 size_t errlen)
{
	json_t *ranks = json_object_get(root, "ranks"), *pairs = json_object_get(root, "pairs");
	json_t *levels = json_object_get(root, "levels"), *cells = json_object_get(root, "cells");
	struct sw_plan *p = NULL;
	char *used = NULL;  /* ranks already in a pair */
	int nranks;

	if (!json_is_array(ranks) || !json_is_array(pairs) || !json_is_array(levels) || !json_is_array(cells) ||
	    json_array_size(ranks) < 2 || json_array_size(levels) < 1) {
		sw_fail(err, errlen, "%s: missing ranks, pairs, levels or cells", jpath);
		return NULL;
	}
	if (json_array_size(ranks) > SW_MAX_RANKS || json_array_size(cells) > RESULTS_MAX_CELLS ||
	    json_array_size(pairs) > json_array_size(ranks) / 2 ||
	    (cfg->schedule != CFG_SCHEDULE_MAP && json_array_size(levels) > json_array_size(pairs))) {
		sw_fail(err, errlen, "%s: %zu ranks, %zu pairs, %zu levels, %zu cells: more than a run can have", jpath,
			json_array_size(ranks), json_array_size(pairs), json_array_size(levels), json_array_size(cells));
		return NULL;
	}
	nranks = (int)json_array_size(ranks);
	if (cfg->schedule == CFG_SCHEDULE_MAP)
		return load_map_plan(cfg, nranks, levels, cells, jpath, err, errlen);
	p = plan_alloc(nranks, (int)json_array_size(pairs), (int)json_array_size(levels), (int)json_array_size(cells));
	used = calloc((size_t)nranks, 1);
	if (!p || !used) {
		sw_fail(err, errlen, "%s: out of memory", jpath);
		goto fail;
	}
	p->per_node = cfg->ranks_per_node > 1 ? cfg->ranks_per_node : 1;
	if (load_pairs(p, pairs, nranks, used, jpath, err, errlen) ||
	    load_victim_pairs(p, cfg, json_object_get(root, "victim_pairs"), used, jpath, err, errlen) ||
	    load_plan_cells(p, cfg, levels, cells, nranks, jpath, err, errlen))
		goto fail;
	free(used);
	return p;
fail:
	free(used);
	plan_free(p);
	return NULL;
}

/* ranks[]: each one's host (one line of text) and identity. */
static int load_ranks(struct sw_run *r, json_t *ranks, const char *jpath, char *err, size_t errlen)
{
	char where[48];

	for (int i = 0; i < r->nranks; i++) {
		const char *h = json_string_value(json_object_get(json_array_get(ranks, (size_t)i), "host"));

		if (!h || !*h || strlen(h) >= SW_HOST_MAX)
			return sw_fail(err, errlen, "%s: ranks[%d].host: missing, empty or longer than %d bytes", jpath,
				       i, SW_HOST_MAX - 1);
		snprintf(where, sizeof(where), "ranks[%d].host", i);
		if (check_text(h, false, jpath, where, err, errlen))
			return -1;
		snprintf(r->host[i], SW_HOST_MAX, "%s", h);
		if (load_rank_id(r, json_array_get(ranks, (size_t)i), i, jpath, err, errlen))
			return -1;
	}
	return 0;
}

/* map.groups of a map run: "inferred" (or absent, in older runs: the
 * groups are inferred), or the [topology] groups, every rank in exactly
 * one. */
static int load_map_groups(struct sw_run *r, json_t *map, const char *jpath, char *err, size_t errlen)
{
	json_t *groups = json_object_get(map, "groups");
	char where[48];
	size_t ng;

	if (!r->plan->map || !groups || (json_is_string(groups) && !strcmp(json_string_value(groups), "inferred")))
		return 0;
	ng = json_array_size(groups);
	if (!json_is_array(groups) || ng < 1 || ng > (size_t)r->nranks)
		return sw_fail(err, errlen, "%s: map.groups: not \"inferred\" nor a list of 1 to %d groups", jpath,
			       r->nranks);
	r->group_name = calloc(ng, sizeof(*r->group_name));
	r->group = malloc((size_t)r->nranks * sizeof(*r->group));
	if (!r->group_name || !r->group)
		return sw_fail(err, errlen, "%s: out of memory", jpath);
	for (int i = 0; i < r->nranks; i++)
		r->group[i] = -1;
	r->ngroup = (int)ng;
	for (size_t g = 0; g < ng; g++) {
		json_t *o = json_array_get(groups, g), *ranks = json_object_get(o, "ranks"), *x;
		const char *name = json_string_value(json_object_get(o, "name"));
		size_t k;

		snprintf(where, sizeof(where), "map.groups[%zu].name", g);
		if (!name || !*name || strlen(name) >= SW_HOST_MAX)
			return sw_fail(err, errlen, "%s: %s: missing, empty or longer than %d bytes", jpath, where,
				       SW_HOST_MAX - 1);
		if (check_text(name, false, jpath, where, err, errlen))
			return -1;
		snprintf(r->group_name[g], SW_HOST_MAX, "%s", name);
		if (!json_is_array(ranks))
			return sw_fail(err, errlen, "%s: map.groups[%zu].ranks: missing", jpath, g);
		json_array_foreach(ranks, k, x) {
			json_int_t i = json_integer_value(x);

			if (!json_is_integer(x) || i < 0 || i >= r->nranks || r->group[i] >= 0)
				return sw_fail(err, errlen, "%s: map.groups[%zu].ranks[%zu]: not a rank, or one "
					       "already in a group", jpath, g, k);
			r->group[i] = (int)g;
		}
	}
	for (int i = 0; i < r->nranks; i++)
		if (r->group[i] < 0)
			return sw_fail(err, errlen, "%s: map.groups: rank %d is in no group", jpath, i);
	return 0;
}

/* cells[]: how each ran (repetitions, why it stopped, its times). */
static int load_cell_runs(struct sw_run *r, json_t *cells, const char *jpath, char *err, size_t errlen)
{
	char where[48];
	long long x;

	for (int ci = 0; ci < r->plan->ncells; ci++) {
		json_t *c = json_array_get(cells, (size_t)ci);
		const char *stop = json_string_value(json_object_get(c, "stop"));

		snprintf(where, sizeof(where), "cells[%d].", ci);
		if (jint(c, "reps", 0, r->cfg.rep_max, &x, jpath, where, err, errlen))
			return -1;
		if (!stop || run_stop_find(stop) < 0)
			return sw_fail(err, errlen, "%s: %sstop: not a known reason to stop", jpath, where);
		if (r->plan->cell[ci].hops == 0 && !r->plan->cell[ci].timed && x > 0)
			return sw_fail(err, errlen, "%s: %shops: 0, but the cell ran %lld repetitions", jpath, where, x);
		r->cell[ci].reps = (int)x;
		r->cell[ci].stop = run_stop_find(stop);
		if (jnum(c, "wall_s", 0, RESULTS_MAX_SECONDS, &r->cell[ci].wall, jpath, where, err, errlen) ||
		    jnum(c, "timed_s", 0, RESULTS_MAX_SECONDS, &r->cell[ci].timed, jpath, where, err, errlen))
			return -1;
	}
	return 0;
}

/* cpu[]: each rank's CPU time at each level. */
static int load_cpu(struct sw_run *r, json_t *cpu, const char *jpath, char *err, size_t errlen)
{
	char where[48];
	long long x, y;

	for (size_t i = 0; i < json_array_size(cpu); i++) {
		json_t *o = json_array_get(cpu, i);
		struct sw_cpu u;

		snprintf(where, sizeof(where), "cpu[%zu].", i);
		if (jint(o, "level", 0, r->plan->nlevels - 1, &x, jpath, where, err, errlen) ||
		    jint(o, "rank", 0, r->nranks - 1, &y, jpath, where, err, errlen) ||
		    jnum(o, "user_s", 0, RESULTS_MAX_SECONDS, &u.user, jpath, where, err, errlen) ||
		    jnum(o, "sys_s", 0, RESULTS_MAX_SECONDS, &u.sys, jpath, where, err, errlen))
			return -1;
		u.level = (int)x;
		u.rank = (int)y;
		if (run_add_cpu(r, &u))
			return sw_fail(err, errlen, "%s: out of memory", jpath);
	}
	return 0;
}

/* The run's texts (each one line of text; mpi_version several), its
 * clock, its duration and whether it completed (then with no failure and
 * every cell run). */
static int load_about(struct sw_run *r, json_t *root, const char *jpath, char *err, size_t errlen)
{
	get_str(root, "tool_version", r->tool_version, sizeof(r->tool_version));
	get_str(root, "mpi_version", r->mpi_version, sizeof(r->mpi_version));
	get_str(root, "started", r->started, sizeof(r->started));
	get_str(root, "command_line", r->command_line, sizeof(r->command_line));
	get_str(root, "name", r->name, sizeof(r->name));
	get_str(root, "failure", r->failure, sizeof(r->failure));
	if (check_text(r->tool_version, false, jpath, "tool_version", err, errlen) ||
	    check_text(r->mpi_version, true, jpath, "mpi_version", err, errlen) ||
	    check_text(r->started, false, jpath, "started", err, errlen) ||
	    check_text(r->command_line, false, jpath, "command_line", err, errlen) ||
	    check_text(r->name, false, jpath, "name", err, errlen) ||
	    check_text(r->failure, false, jpath, "failure", err, errlen))
		return -1;
	if (jnum(root, "wtick", 0, 1, &r->wtick, jpath, "", err, errlen) ||
	    jnum(root, "round_trip_s", 0, RESULTS_MAX_SECONDS, &r->round_trip, jpath, "", err, errlen) ||
	    jnum(root, "duration_s", 0, RESULTS_MAX_SECONDS, &r->duration, jpath, "", err, errlen))
		return -1;
	r->wtime_global = json_is_true(json_object_get(root, "wtime_global"));
	r->yield = json_is_true(json_object_get(root, "yield"));
	if (!json_is_boolean(json_object_get(root, "complete")))
		return sw_fail(err, errlen, "%s: complete: missing or not true/false", jpath);
	r->complete = json_is_true(json_object_get(root, "complete"));
	if (r->complete && *r->failure)
		return sw_fail(err, errlen, "%s: complete: true, but failure says '%s'", jpath, r->failure);
	for (int ci = 0; r->complete && ci < r->plan->ncells; ci++)
		if (r->cell[ci].stop == SW_STOP_FAILED || r->cell[ci].stop == SW_STOP_NOT_RUN)
			return sw_fail(err, errlen, "%s: complete: true, but cells[%d].stop is %s", jpath, ci,
				       run_stop_name(r->cell[ci].stop));
	return 0;
}

struct sw_run *results_load(const char *path, char *err, size_t errlen)
{
	char jpath[SW_PATH_MAX + 16], spath[SW_PATH_MAX + 16], msg[512];
	json_error_t je;
	json_t *root = NULL;
	struct sw_run *r = NULL;
	struct sw_plan *p;
	struct sw_config cfg;
	FILE *jf;
	long long x;

	if (load_paths(path, jpath, sizeof(jpath), spath, sizeof(spath), err, errlen))
		return NULL;
	jf = sfile_read(jpath, RESULTS_MAX_JSON, 0, err, errlen);
	if (!jf)
		return NULL;
	root = json_loadf(jf, JSON_REJECT_DUPLICATES, &je);
	fclose(jf);
	if (!root) {
		sw_fail(err, errlen, "%s:%d: not valid JSON: %s", jpath, je.line, je.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		sw_fail(err, errlen, "%s: not a JSON object", jpath);
		goto fail;
	}
	if (jint(root, "schema_version", 1, SW_SCHEMA_VERSION, &x, jpath, "", err, errlen))
		goto fail;
	config_defaults(&cfg);
	if (config_from_json(&cfg, json_object_get(root, "config"), msg, sizeof(msg))) {
		sw_fail(err, errlen, "%s: config: %s", jpath, msg);
		goto fail;
	}
	if (x < 3)
		cfg.design = CFG_DESIGN_SEQUENTIAL;   /* the engine ran no blocks before schema 3 */
	p = load_plan(root, &cfg, jpath, err, errlen);
	if (!p)
		goto fail;
	r = run_create(&cfg, p, p->nranks);
	if (!r) {
		plan_free(p);
		sw_fail(err, errlen, "%s: out of memory", jpath);
		goto fail;
	}
	if (load_ranks(r, json_object_get(root, "ranks"), jpath, err, errlen) ||
	    load_map_groups(r, json_object_get(root, "map"), jpath, err, errlen) ||
	    load_cell_runs(r, json_object_get(root, "cells"), jpath, err, errlen) ||
	    load_cpu(r, json_object_get(root, "cpu"), jpath, err, errlen) ||
	    load_about(r, root, jpath, err, errlen) ||
	    load_probes(r, json_object_get(root, "probes"), jpath, err, errlen) ||
	    load_again(r, json_object_get(root, "baseline_again"), jpath, err, errlen) ||
	    load_victims(r, json_object_get(root, "victim_samples"), jpath, err, errlen) ||
	    load_samples(r, spath, err, errlen))
		goto fail;
	json_decref(root);
	return r;
fail:
	run_free(r);
	json_decref(root);
	return NULL;
}
