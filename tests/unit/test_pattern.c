/*
 * test_pattern.c - a new pattern is its own rows (pattern.h, "Adding a
 * pattern"). The test adds "dummy" with pattern_add, the table row a new
 * pattern would have in pattern.c, and nothing else: a latency pattern
 * that is not pingpong, with its own short label and a headline rank
 * below pingpong's. Runs of it (health_fixture.h: B's dummy 30% slower at
 * the loaded level) go through report, compare, health, history and the
 * site; each must treat it as a latency pattern, which only asking the
 * capability can do (by name, every one of them took it for bandwidth).
 * The MPI loop (engine_pattern.c's pattern_ops row) is the one more place; the
 * MPI tests run the real patterns.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "fixture.h"
#include "health.h"
#include "health_fixture.h"
#include "health_out.h"
#include "history.h"
#include "report.h"
#include "site.h"
#include "store.h"

static const struct sw_pattern_info DUMMY = {
	.name = "dummy", .abbrev = "dx", .metric = SW_METRIC_LATENCY, .directions = 1,
	.charts = PAT_CHARTS_PAIRS, .headline = 2, .help = "a test's latency pattern",
};

static int dummy;

static void setup(void)
{
	fixture_setup();
	dummy = pattern_add(&DUMMY);
}

TestSuite(pattern, .init = setup, .fini = fixture_teardown);

/* A folder of dummy and stream cells under fixture_dir, the dummy slow
 * times slower at the loaded level (4 pairs, 8 nodes); loaded back. */
static struct sw_run *make_run(const char *name, double slow, uint64_t seed, char *path, size_t len,
			       struct sw_analysis **a)
{
	struct fx_spec s;
	char err[512];
	struct sw_run *r;

	fx_defaults(&s);
	s.name = name;
	s.patterns = "dummy, stream";
	s.model = name[0] == 'a' ? "Fabric A" : "Fabric B";
	s.noise_seed = seed;
	s.slow_pattern = dummy;
	s.slow_factor = slow;
	cr_assert_eq(fx_make(fixture_dir, &s, path, len, err, sizeof(err)), 0, "%s", err);
	r = results_load(path, err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	*a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(*a, "%s", err);
	return r;
}

/* The number after the first "after" in s. */
static double number_after(const char *s, const char *after)
{
	const char *p = strstr(s, after);

	cr_assert_not_null(p, "no '%s' in:\n%s", after, s);
	return strtod(p + strlen(after), NULL);
}

Test(pattern, added_after_the_built_in_ones)
{
	cr_assert_eq(dummy, PAT_COUNT);
	cr_assert_eq(pattern_count(), PAT_COUNT + 1);
	cr_assert_eq(pattern_find("dummy"), dummy);
	cr_assert_str_eq(pattern_name(dummy), "dummy");
	cr_assert(pattern_latency_metric(dummy));
	cr_assert_eq(pattern_add(&DUMMY), -1, "room for one test pattern only");
	cr_assert_null(pattern_info(PAT_COUNT + 1));
	cr_assert(!pattern_latency_metric(-1));
}

Test(pattern, report_judges_it_by_latency)
{
	char a[512];
	struct sw_analysis *an;
	struct sw_run *r = make_run("b-20260302-020000", 1.3, 2, a, sizeof(a), &an);
	char *text = report_string(r, an, REPORT_TABLE | REPORT_VERBOSE), *sec;

	cr_assert_not_null(text);
	sec = strstr(text, "\ndummy 8B, 100 hops");
	cr_assert_not_null(sec, "no dummy table in:\n%s", text);
	/* the loaded level: 30% slower, as planted */
	double infl = number_after(sec, "latency inflation +");
	cr_assert(infl > 25 && infl < 35, "latency inflation %g, planted 30", infl);
	free(text);
	analysis_free(an);
	run_free(r);
}

/* Runs A (as planned) and B (the dummy 30% slower loaded), loaded back. */
struct pair_of_runs {
	char a[512], b[512];
	struct sw_run *ra, *rb;
	struct sw_analysis *aa, *ab;
};

static void make_runs(struct pair_of_runs *p)
{
	p->ra = make_run("a-20260301-020000", 1.0, 1, p->a, sizeof(p->a), &p->aa);
	p->rb = make_run("b-20260302-020000", 1.3, 2, p->b, sizeof(p->b), &p->ab);
}

static void free_runs(struct pair_of_runs *p)
{
	analysis_free(p->aa);
	analysis_free(p->ab);
	run_free(p->ra);
	run_free(p->rb);
}

Test(pattern, compare_judges_it_by_latency)
{
	struct pair_of_runs p;
	const char *paths[2];
	char err[1024], *buf = NULL;
	size_t len = 0;
	const struct compare_cell *m = NULL;

	make_runs(&p);
	paths[0] = p.a;
	paths[1] = p.b;
	struct compare *c = compare_load(paths, 2, err, sizeof(err));
	cr_assert_not_null(c, "%s", err);
	for (int k = 0; k < c->ncells; k++)
		if (c->cells[k].pattern == dummy && c->cells[k].size == 8 && c->cells[k].nodes == 8)
			m = &c->cells[k];
	cr_assert_not_null(m);
	cr_assert(m->latency);
	cr_assert(m->s[1].valid && m->s[1].pct > 25 && m->s[1].pct < 35, "B %%worse %g, planted 30", m->s[1].pct);
	FILE *f = open_memstream(&buf, &len);
	compare_print(f, c, false);
	fclose(f);
	cr_assert(strstr(buf, "\ndummy: per-hop latency (lower is better)"), "%s", buf);
	cr_assert(strstr(buf, "\ndummy (degradation = latency inflation)"), "%s", buf);
	free(buf);
	compare_free(c);
	free_runs(&p);
}

Test(pattern, health_judges_it_by_latency_with_its_label)
{
	struct pair_of_runs p;
	char perf[4096];
	int ndummy = 0;

	make_runs(&p);
	struct health_verdict *v = health_judge(p.rb, p.ab, p.ra, p.aa);
	cr_assert_not_null(v);
	for (int i = 0; i < v->ncells; i++)
		if (v->cell[i].pattern == dummy) {
			ndummy++;
			cr_assert_eq(v->cell[i].metric, HEALTH_LATENCY);
		}
	cr_assert_eq(ndummy, 4, "2 sizes x 2 levels");
	cr_assert(health_perfdata(v, perf, sizeof(perf)) >= 0);
	cr_assert(strstr(perf, "dx_8B_n8"), "%s", perf);
	health_verdict_free(v);
	free_runs(&p);
}

Test(pattern, history_trends_it_in_microseconds)
{
	struct pair_of_runs p;
	char db[400], err[1024], *buf = NULL;
	size_t len = 0;

	make_runs(&p);
	snprintf(db, sizeof(db), "%s/history.sqlite", fixture_dir);
	cr_assert_eq(history_record_run(db, p.ra, p.aa, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, p.rb, p.ab, NULL, err, sizeof(err)), 0, "%s", err);
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(history_write_table(f, db, NULL, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	const char *row = strstr(buf, "\ndummy ");
	cr_assert_not_null(row, "%s", buf);
	const char *us = strstr(row, " us "), *eol = strchr(row + 1, '\n');
	cr_assert(us && (!eol || us < eol), "%s", buf);
	free(buf);
	free_runs(&p);
}

/* The index's latency column at full load is the dummy's (no pingpong:
 * the next headline rank), its smallest size at 8 nodes. */
Test(pattern, site_index_heads_latency_with_it)
{
	struct pair_of_runs p;
	char db[400], site[400], err[1024], *buf = NULL;
	size_t len = 0;

	make_runs(&p);
	snprintf(db, sizeof(db), "%s/catalog.sqlite", fixture_dir);
	struct store *s = store_open(db, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, p.a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, p.b, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	snprintf(site, sizeof(site), "%s/site", fixture_dir);
	cr_assert_eq(site_write(s, site, NULL, err, sizeof(err)), 0, "%s", err);
	store_close(s);
	snprintf(site, sizeof(site), "%s/site/index.html", fixture_dir);
	FILE *f = fopen(site, "r");
	cr_assert_not_null(f);
	cr_assert(getdelim(&buf, &len, '\0', f) > 0);
	fclose(f);
	const char *td = strstr(buf, "data-col=\"lat_infl\">");
	cr_assert_not_null(td, "no latency inflation on the index:\n%s", buf);
	cr_assert(strstr(td, "<small>dummy 8B, 8 nodes, p"), "%s", td);
	free(buf);
	free_runs(&p);
}
