/*
 * test_catalog.c - the catalog store (SQLite) and the site, on synthetic
 * runs with planted effects (health_fixture.h): run B loses 30% of its
 * stream bandwidth at full load, run A nothing. The PostgreSQL store and
 * the site in a browser are tested by tests/catalog/run_tests.sh.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "fixture.h"
#include "health_fixture.h"
#include "analysis.h"
#include "map_fixture.h"
#include "mapout.h"
#include "results.h"
#include "report.h"
#include "site.h"
#include "store.h"

/* A run folder under fixture_dir; drop: planted stream bandwidth drop at the
 * highest level (0..1). */
static void make_run(const char *name, const char *model, double drop, bool fail, uint64_t seed,
		     char *path, size_t len)
{
	struct fx_spec s;
	char err[512];

	fx_defaults(&s);
	s.name = name;
	s.model = model;
	s.noise_seed = seed;
	s.fail_last = fail;
	if (drop > 0) {
		s.slow_pattern = PAT_STREAM;
		s.slow_factor = 1 / (1 - drop);
	}
	cr_assert_eq(fx_make(fixture_dir, &s, path, len, err, sizeof(err)), 0, "%s", err);
}

static int first_text(void *arg, int ncols, const char *const *vals)
{
	char *out = arg;

	if (ncols > 0 && vals[0] && !*out)
		snprintf(out, 256, "%s", vals[0]);
	return 0;
}

/* The first value of a query with one parameter, as text. */
static void query1(struct store *s, const char *sql, const char *param, char out[256])
{
	char err[512];

	out[0] = '\0';
	cr_assert_eq(store_query(s, sql, param ? 1 : 0, &param, first_text, out, err, sizeof(err)), 0, "%s", err);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

TestSuite(catalog, .init = fixture_setup, .fini = fixture_teardown);

Test(catalog, publish_once_refuse_with_reason)
{
	char a[512], b[512], late[512], bare[512], path[600], store[300], err[1024], v[256];
	struct store *s;

	make_run("a-20260301-020000", "Fabric 9000", 0, false, 1, a, sizeof(a));
	make_run("b-20260302-020000", "X<1> & \"2\"", 0.30, false, 2, b, sizeof(b));
	make_run("late-20260303-020000", "Fabric 9000", 0, true, 3, late, sizeof(late));
	make_run("bare-20260304-020000", NULL, 0, false, 4, bare, sizeof(bare));
	snprintf(store, sizeof(store), "%s/none.sqlite", fixture_dir);
	cr_assert_null(store_open(store, false, err, sizeof(err)), "a missing store opened without create");
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_version(s), STORE_SCHEMA_VERSION);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", b);
	cr_assert_eq(store_publish(s, path, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_PRESENT, "%s", err);
	cr_assert_eq(store_publish(s, late, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "did not finish (watchdog: rank 7"), "%s", err);
	cr_assert_eq(store_publish(s, bare, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "no switch model"), "%s", err);
	query1(s, "SELECT count(*) FROM runs", NULL, v);
	cr_assert_str_eq(v, "2");
	/* the planted drop: 30% at full load (4 pairs) for stream 64KiB */
	query1(s, "SELECT bw_drop_pct FROM cells WHERE run = $1 AND pattern = 'stream' AND pairs = 4"
	       " AND size_bytes = 65536", "b-20260302-020000", v);
	cr_assert(fabs(atof(v) - 30) < 2, "drop %s", v);
	query1(s, "SELECT bw_drop_lo || ' ' || bw_drop_hi FROM cells WHERE run = $1 AND pattern = 'stream'"
	       " AND pairs = 4 AND size_bytes = 65536", "b-20260302-020000", v);
	cr_assert(atof(v) <= 30 && atof(strchr(v, ' ')) >= 30 - 1.5, "CI %s", v);
	store_close(s);
	/* reopened: the schema is there, nothing applied twice */
	s = store_open(store, false, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	query1(s, "SELECT count(*) FROM schema_migrations", NULL, v);
	cr_assert_eq(atoi(v), STORE_SCHEMA_VERSION);
	store_close(s);
}

/* issue #27: a run whose ranks shared a host measured the host: refused
 * unless asked, and marked; publish fills in the [switch] keys a run
 * lacks, says so, and changes none that it has */
Test(catalog, publish_shared_node_and_supplied_keys)
{
	struct fx_spec sp;
	struct store_publish_opts o = { 0 };
	char one[512], bare[512], store[300], err[1024], v[256];
	struct store *s;

	fx_defaults(&sp);
	sp.name = "one-20260305-020000";
	sp.model = "Fabric 9000";
	sp.one_host = true;
	cr_assert_eq(fx_make(fixture_dir, &sp, one, sizeof(one), err, sizeof(err)), 0, "%s", err);
	make_run("bare-20260304-020000", NULL, 0, false, 4, bare, sizeof(bare));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, one, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "ranks 0 and 1 shared a host (allow_shared_node = yes): the run measured the host"),
		  "%s", err);
	o.shared_node = true;
	cr_assert_eq(store_publish(s, one, &o, err, sizeof(err)), STORE_ADDED, "%s", err);
	query1(s, "SELECT shared_node || '/' || supplied FROM runs WHERE name = $1", "one-20260305-020000", v);
	cr_assert_str_eq(v, "1/");

	o.model = "Other";
	cr_assert_eq(store_publish(s, bare, &o, err, sizeof(err)), STORE_ADDED, "%s", err);
	query1(s, "SELECT model || '/' || vendor || '/' || supplied || '/' || shared_node FROM runs WHERE name = $1",
	       "bare-20260304-020000", v);
	cr_assert_str_eq(v, "Other//model/0");
	/* a run that has a model keeps it */
	cr_assert_eq(store_publish(s, one, &o, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "the run's [switch] model is 'Fabric 9000', not 'Other'"), "%s", err);
	o.model = NULL;
	o.vendor = "Acme";
	o.firmware = "1.0\x01";
	cr_assert_eq(store_publish(s, bare, &o, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "firmware"), "%s", err);
	store_close(s);
}

/* issue #32: publish trusts no summary.csv that is not what run.json and
 * samples.csv give, and no folder that is not named as its run */
Test(catalog, publish_refuses_a_cut_summary_and_a_renamed_folder)
{
	char a[512], b[512], other[600], path[600], store[300], err[1024], v[256];
	struct store *s;
	long len;

	make_run("a-20260301-020000", "Fabric 9000", 0, false, 1, a, sizeof(a));
	make_run("b-20260302-020000", "Fabric 9000", 0, false, 2, b, sizeof(b));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	/* its last row cut: 2 bytes shorter; then the whole last row gone.
	 * The error names the line: the last one, then the one after the end. */
	snprintf(path, sizeof(path), "%s/summary.csv", a);
	char *text = slurp(path), *last = strrchr(text, '\n'), want[600];
	int lines = 0;

	for (char *q = text; *q; q++)
		lines += *q == '\n';
	len = (long)strlen(text);
	cr_assert_eq(truncate(path, len - 2), 0);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_REFUSED);
	snprintf(want, sizeof(want), "summary.csv:%d: not what run.json and samples.csv give", lines);
	cr_assert(strstr(err, want), "%s", err);
	*last = '\0';
	last = strrchr(text, '\n');
	cr_assert_eq(truncate(path, last + 1 - text), 0);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_REFUSED);
	snprintf(want, sizeof(want), "summary.csv:%d: ends here, but run.json and samples.csv give more rows", lines);
	cr_assert(strstr(err, want), "%s", err);
	free(text);
	snprintf(other, sizeof(other), "%s/c-20260303-020000", fixture_dir);
	cr_assert_eq(rename(b, other), 0);
	cr_assert_eq(store_publish(s, other, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "but run.json says the run is 'b-20260302-020000'"), "%s", err);
	cr_assert_eq(rename(other, b), 0);
	cr_assert_eq(store_publish(s, b, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	query1(s, "SELECT count(*) FROM runs", NULL, v);
	cr_assert_str_eq(v, "1");
	store_close(s);
}

/* path's summary.csv as an older swstress wrote it: every row without
 * the message-rate columns at its end (the last 6). */
static void cut_rate_columns(const char *path)
{
	char *text = slurp(path), *line, *save;
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (int k = 0; k < 6 && line[0] != '#'; k++)
			*strrchr(line, ',') = '\0';
		fprintf(f, "%s\n", line);
	}
	fclose(f);
	free(text);
}

/* A summary.csv of an older swstress (no message rates at the end) is
 * still the run's, but one of its values changed is not. */
Test(catalog, publish_takes_an_older_summary_not_a_changed_one)
{
	char a[512], b[512], path[600], store[300], err[1024];
	struct store *s;

	make_run("a-20260301-020000", "Fabric 9000", 0, false, 1, a, sizeof(a));
	make_run("b-20260302-020000", "Fabric 9000", 0, false, 2, b, sizeof(b));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	snprintf(path, sizeof(path), "%s/summary.csv", b);
	cut_rate_columns(path);
	char *text = slurp(path), *lat = strstr(strchr(strchr(text, '\n') + 1, '\n') + 1, ",fixed,");

	cr_assert_not_null(lat);
	lat[strlen(",fixed,") + 2] = lat[strlen(",fixed,") + 2] == '7' ? '8' : '7';   /* the overlap's 2nd digit */
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	free(text);
	cr_assert_eq(store_publish(s, b, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "summary.csv:2: not what run.json and samples.csv give"), "%s", err);   /* an older one: its header is shorter */
	snprintf(path, sizeof(path), "%s/summary.csv", a);
	cut_rate_columns(path);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	store_close(s);
}

Test(catalog, site_pages_escape_and_numbers)
{
	char a[512], b[512], store[300], err[1024], path[600], v[256], want[300];
	struct store *s;
	int pages = 0;
	char *html;

	make_run("a-20260301-020000", "Fabric 9000", 0, false, 1, a, sizeof(a));
	make_run("b-20260302-020000", "X<1> & \"2\"", 0.30, false, 2, b, sizeof(b));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, b, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	snprintf(path, sizeof(path), "%s/site", fixture_dir);
	cr_assert_eq(site_write(s, path, &pages, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(pages, 4, "index, 2 switches, 1 comparison: %d", pages);
	snprintf(path, sizeof(path), "%s/site/index.html", fixture_dir);
	html = slurp(path);
	cr_assert(strstr(html, "X&lt;1&gt; &amp; &quot;2&quot;"), "model not escaped");
	cr_assert_null(strstr(html, "X<1>"));
	cr_assert(strstr(html, "<th scope=\"col\">Switch</th>"));
	/* the index shows the store's drop at full load */
	query1(s, "SELECT printf('%+.1f%% [%+.1f, %+.1f]', bw_drop_pct, bw_drop_lo, bw_drop_hi) FROM cells"
	       " WHERE run = $1 AND pattern = 'stream' AND pairs = 4 AND size_bytes = 65536",
	       "b-20260302-020000", v);
	snprintf(want, sizeof(want), ">%s<br>", v);
	cr_assert(strstr(html, want), "index lacks %s", want);
	free(html);
	snprintf(path, sizeof(path), "%s/site/compare/fabric-9000--x-1-2-n8.html", fixture_dir);
	html = slurp(path);
	cr_assert(strstr(html, "<td>stream</td><td class=\"num\">64KiB</td><td class=\"num opt\">100</td>"
			       "<td class=\"num\">8</td>"), "no 8-node stream row");
	free(html);
	snprintf(path, sizeof(path), "%s/site/runs/b-20260302-020000/samples.csv", fixture_dir);
	free(slurp(path));
	store_close(s);
}

/* Issue #26: the site says how many runs back each switch's numbers: the
 * index and the comparison use the newest run of a switch with 2 runs and
 * of one with 1, and say "1 of 2" and "1 of 1". */
Test(catalog, site_says_runs_behind_the_figures)
{
	char a[512], a2[512], b[512], store[300], err[1024], path[600];
	struct store *s;
	char *html;

	make_run("a-20260301-020000", "Fabric 9000", 0, false, 1, a, sizeof(a));
	make_run("a-20260303-020000", "Fabric 9000", 0, false, 3, a2, sizeof(a2));
	make_run("b-20260302-020000", "Fabric 9001", 0, false, 2, b, sizeof(b));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, a2, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, b, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	snprintf(path, sizeof(path), "%s/site", fixture_dir);
	cr_assert_eq(site_write(s, path, NULL, err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/site/index.html", fixture_dir);
	html = slurp(path);
	cr_assert(strstr(html, "<th scope=\"col\" class=\"opt\">Runs behind the figures</th>"));
	cr_assert(strstr(html, ">1 of 2</td><td class=\"opt\">2026"), "Fabric 9000: 1 of its 2 runs");
	cr_assert(strstr(html, ">1 of 1</td><td class=\"opt\">2026"), "Fabric 9001: its one run");
	free(html);
	snprintf(path, sizeof(path), "%s/site/switch/fabric-9000.html", fixture_dir);
	html = slurp(path);
	cr_assert(strstr(html, "<p>2 published runs, newest first; each run's figures are from that run alone"));
	free(html);
	snprintf(path, sizeof(path), "%s/site/compare/fabric-9000--fabric-9001-n8.html", fixture_dir);
	html = slurp(path);
	cr_assert(strstr(html, ">a-20260303-020000</a> (label "), "A's newest run is on the page");
	cr_assert(strstr(html, "</a>, 2 runs (of the switch's 2 published):"), "side A: both its runs");
	cr_assert(strstr(html, "</a>, 1 run (of the switch's 1 published):"), "side B: its one run");
	free(html);
	store_close(s);
}

/* One SQL statement on the SQLite store behind swstress's back. */
static void sql_poke(const char *store, const char *sql)
{
	sqlite3 *db;

	cr_assert_eq(sqlite3_open(store, &db), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* Issue #26: a store of schema 3 gains cells.drifted (0 for its runs),
 * and the site marks a drifted change on the switch page and the index,
 * no other. */
Test(catalog, site_marks_drifted_changes)
{
	char a[512], store[300], err[1024], path[600], v[256];
	struct store *s;
	char *html, *row;

	make_run("b-20260302-020000", "Fabric 9001", 0.30, false, 2, a, sizeof(a));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	store_close(s);
	sql_poke(store, "ALTER TABLE cells DROP COLUMN drifted");
	sql_poke(store, "DROP TABLE maps; DROP TABLE map_hosts; DROP TABLE map_groups; DROP TABLE map_links;"
		 " DROP TABLE map_claims");
	sql_poke(store, "DELETE FROM schema_migrations WHERE version >= 4");
	s = store_open(store, false, err, sizeof(err));
	cr_assert_not_null(s, "schema 3 to 5: %s", err);
	query1(s, "SELECT count(*) FROM map_hosts", NULL, v);   /* 5: the map tables, empty */
	cr_assert_str_eq(v, "0");
	query1(s, "SELECT count(*) || '/' || sum(drifted) FROM cells WHERE run = $1", "b-20260302-020000", v);
	cr_assert(strstr(v, "/0") && atoi(v) > 0, "cells/drifted %s", v);
	store_close(s);
	sql_poke(store, "UPDATE cells SET drifted = 1 WHERE pattern = 'stream' AND pairs = 4 AND size_bytes = 65536");
	s = store_open(store, false, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	snprintf(path, sizeof(path), "%s/site", fixture_dir);
	cr_assert_eq(site_write(s, path, NULL, err, sizeof(err)), 0, "%s", err);
	store_close(s);
	snprintf(path, sizeof(path), "%s/site/switch/fabric-9001.html", fixture_dir);
	html = slurp(path);
	row = strstr(html, "drifted: may be drift, not load");
	cr_assert(row, "no drift mark");
	cr_assert_null(strstr(row + 1, "drifted: may be drift, not load"), "more than the one cell marked");
	while (row > html && strncmp(row, "<tr", 3))
		row--;
	cr_assert(!strncmp(row, "<tr data-cell=\"b-20260302-020000/", strlen("<tr data-cell=\"b-20260302-020000/")) &&
		  strstr(row, "<td>stream</td><td class=\"num\">64KiB</td>") < strstr(row, "drifted:"),
		  "the mark is not in the stream 64KiB row");
	free(html);
	snprintf(path, sizeof(path), "%s/site/index.html", fixture_dir);
	html = slurp(path);
	/* its full-load drop is that cell's (site_pages_escape_and_numbers) */
	cr_assert(strstr(html, "</small><br><small class=\"drift\">drifted: may be drift, not load</small></td>"),
		  "index: no mark");
	free(html);
}

/* Issue #11: numbers read back from the store are range-checked and the
 * error names the table and field; atoi read '8x' as 8 and wrapped
 * 4294967304 to 8 (a comparison page for nodes the run never had). */
Test(catalog, store_numbers_are_checked)
{
	static const struct {
		const char *sql, *msg;
	} t[] = {
		{ "UPDATE runs SET max_nodes = '8x' WHERE name = 'a-20260301-020000'",
		  "store: runs.max_nodes of run 'a-20260301-020000': '8x' is not a whole number from 2 to 65536" },
		{ "UPDATE cells SET nodes = 4294967304 WHERE run = 'b-20260302-020000' AND cell = 0",
		  "store: cells.nodes of run 'b-20260302-020000': '4294967304' is not a whole number from 2 to 65536" },
		{ "UPDATE cells SET size_bytes = -8 WHERE run = 'b-20260302-020000' AND cell = 1",
		  "store: cells.size_bytes of run 'b-20260302-020000': '-8' is not a whole number from 1 to" },
	};
	char a[512], b[512], store[300], err[1024], path[600], cmd[700];
	struct store *s;

	make_run("a-20260301-020000", "Fabric 9000", 0, false, 1, a, sizeof(a));
	make_run("b-20260302-020000", "Fabric 9001", 0, false, 2, b, sizeof(b));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	snprintf(path, sizeof(path), "%s/site", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, a, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, b, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(site_write(s, path, NULL, err, sizeof(err)), 0, "the untouched store: %s", err);
	store_close(s);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s.good'", store, store);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "cp '%s.good' '%s'", store, store);   /* each case on the good store */
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cr_assert_eq(system(cmd), 0);
		sql_poke(store, t[i].sql);
		s = store_open(store, false, err, sizeof(err));
		cr_assert_not_null(s, "%s", err);
		err[0] = '\0';
		cr_expect_neq(site_write(s, path, NULL, err, sizeof(err)), 0, "%s accepted", t[i].sql);
		cr_expect(strstr(err, t[i].msg), "%s: got '%s', want '%s'", t[i].sql, err, t[i].msg);
		store_close(s);
	}
	/* the schema version: 4294967298 wrapped to 2 through atoi */
	sql_poke(store, "UPDATE schema_migrations SET version = 4294967298 WHERE version = 2");
	cr_expect_null(store_open(store, false, err, sizeof(err)), "a store of version 4294967298 opened");
	cr_expect(strstr(err, "schema_migrations.version is not a whole number"), "%s", err);
}

/* The report names the switch and the hosts' side from the config. */
Test(catalog, report_shows_switch_and_host)
{
	struct sw_config cfg;
	struct sw_plan *plan;
	struct sw_run *r;
	char err[512], *text;

	config_defaults(&cfg);
	cr_assert_eq(config_set_arg(&cfg, "pairs=1", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "vendor=Acme", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "model=Fabric 9000", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "ports_used=32", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "topology=leaf-spine", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "oversubscription=3:1", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "nic=ConnectX-6", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "transport=ucx/rc", err, sizeof(err)), 0, "%s", err);
	plan = plan_create(&cfg, 2, err, sizeof(err));
	cr_assert_not_null(plan, "%s", err);
	r = run_create(&cfg, plan, 2);
	cr_assert_not_null(r);
	snprintf(r->mpi_version, sizeof(r->mpi_version), "MPICH Version:\t4.0.2\nMPICH Release date: ...");
	text = report_string(r, NULL, REPORT_TABLE);
	cr_assert_not_null(text);
	cr_assert(strstr(text, "switch: Acme, model Fabric 9000, ports used 32, topology leaf-spine, "
			       "oversubscription 3:1\n"), "%s", text);
	/* the MPI library on a line of its own, labelled so, its tab one space */
	cr_assert(strstr(text, "hosts: NIC ConnectX-6, MPI transport ucx/rc\nMPI library: MPICH Version: 4.0.2\n"),
		  "%s", text);
	free(text);
	run_free(r);
}

/* The whole of tests/catalog/schema6to5.sql run on store: the store as
 * swstress made it at schema 5 (the first pattern and size of a map). */
static void to_schema5(const char *store)
{
	char *sql = slurp("tests/catalog/schema6to5.sql");

	sql_poke(store, sql);
	free(sql);
}

/* Map run name of two sizes (map_fixture.h: node6 slow at 64 KiB, node5
 * at 1 MiB) written as a run writes it, into path: fixture_dir/SUB/NAME. */
static void make_map_run_of(const char *sub, const char *name, const char *model, char *path, size_t len)
{
	struct sw_run *r = slow_host_run_at("64KiB,1MiB");
	struct sw_analysis *a;
	char err[512], set[128];

	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(set, sizeof(set), "model=%s", model);
	cr_assert_eq(config_set_arg(&r->cfg, set, err, sizeof(err)), 0, "%s", err);
	snprintf(path, len, "%s/%s", fixture_dir, sub);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
	snprintf(path, len, "%s/%s/%s", fixture_dir, sub, name);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(path, r, a, "", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mapout_write(path, r, err, sizeof(err)), 0, "%s", err);
	analysis_free(a);
	run_free(r);
}

static void make_map_run(const char *sub, const char *name, char *path, size_t len)
{
	make_map_run_of(sub, name, "Fabric 9000", path, len);
}

/* Issue #30's gap: a map of two sizes is stored and shown whole, each
 * size with its own known truth; every size's files are checked line by
 * line; a store of schema 5 (which kept the first size only) opens,
 * migrates its map under that size and is shown as before. */
Test(catalog, map_every_pattern_and_size)
{
	static const char *const name = "map2-20260306-020000";
	char run[512], file[600], store[300], err[1024], path[600], v[256], groups[256], *html, *at64, *at1m, *text;
	const char *p[3] = { name, "stream", v };
	struct store *s;
	FILE *f;

	make_map_run("cut", name, run, sizeof(run));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	/* 1 MiB's hosts.csv with node5 not flagged: refused, naming it */
	snprintf(file, sizeof(file), "%s/hosts-stream-1048576.csv", run);
	text = slurp(file);
	strstr(text, "\nnode5,")[1] = '\0';   /* cut before node5's row */
	f = fopen(file, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	cr_assert_eq(store_publish(s, run, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "/hosts-stream-1048576.csv:") && strstr(err, "the file ends here"), "%s", err);
	query1(s, "SELECT count(*) FROM runs", NULL, v);
	cr_assert_str_eq(v, "0");
	free(text);
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(store_publish(s, run, NULL, err, sizeof(err)), STORE_REFUSED);
	cr_assert(strstr(err, "/hosts-stream-1048576.csv: a map run's file is missing"), "%s", err);
	make_map_run("map", name, run, sizeof(run));
	cr_assert_eq(store_publish(s, run, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	query1(s, "SELECT count(*) || '/' || min(size_bytes) || '/' || max(size_bytes) FROM maps WHERE run = $1", name, v);
	cr_assert_str_eq(v, "2/65536/1048576");
	for (int k = 0; k < 2; k++) {
		char want[256] = "";

		snprintf(v, sizeof(v), "%s", k ? "1048576" : "65536");
		cr_assert_eq(store_query(s, "SELECT count(*) || '/' || sum(flagged) FROM map_hosts WHERE run = $1 AND"
					 " pattern = $2 AND size_bytes = $3", 3, p, first_text, want, err, sizeof(err)), 0);
		cr_assert_str_eq(want, "16/1", "size %s: hosts/flagged", v);
		want[0] = '\0';
		cr_assert_eq(store_query(s, "SELECT host FROM map_hosts WHERE flagged = 1 AND run = $1 AND"
					 " pattern = $2 AND size_bytes = $3", 3, p, first_text, want, err, sizeof(err)), 0);
		cr_assert_str_eq(want, k ? "node5" : "node6", "size %s", v);
		want[0] = '\0';
		cr_assert_eq(store_query(s, "SELECT count(*) || ' ' || min(element) FROM map_claims WHERE run = $1 AND"
					 " pattern = $2 AND size_bytes = $3", 3, p, first_text, want, err, sizeof(err)), 0);
		cr_assert_str_eq(want, k ? "1 host node5" : "1 host node6", "size %s", v);
		want[0] = '\0';
		cr_assert_eq(store_query(s, "SELECT count(*) FROM map_links WHERE run = $1 AND pattern = $2 AND"
					 " size_bytes = $3", 3, p, first_text, want, err, sizeof(err)), 0);
		cr_assert_str_eq(want, "120", "size %s", v);
	}
	query1(s, "SELECT count(*) FROM run_files WHERE run = $1 AND file LIKE '%-stream-1048576.csv'", name, v);
	cr_assert_str_eq(v, "3");
	query1(s, "SELECT count(*) FROM map_groups WHERE run = $1 AND size_bytes = 65536", name, groups);
	snprintf(path, sizeof(path), "%s/site", fixture_dir);
	cr_assert_eq(site_write(s, path, NULL, err, sizeof(err)), 0, "%s", err);
	store_close(s);
	snprintf(path, sizeof(path), "%s/site/maps/%s.html", fixture_dir, name);
	html = slurp(path);
	at64 = strstr(html, "<section class=\"map-set\" id=\"stream-65536\">");
	at1m = strstr(html, "<section class=\"map-set\" id=\"stream-1048576\">");
	cr_assert(at64 && at1m && at64 < at1m, "a section per size, in the run's order");
	cr_assert(strstr(html, "<a href=\"#stream-65536\">stream, 64 KiB</a>: 1 claim, 1 flagged host"), "contents");
	cr_assert(strstr(at64, "<strong>SLOW</strong>: host node6:") < at1m, "node6's claim under 64 KiB");
	cr_assert(strstr(at1m, "<strong>SLOW</strong>: host node5:") && !strstr(at1m, "host node6:"), "1 MiB's claim");
	cr_assert(strstr(at64, "aria-labelledby=\"heat-t-stream-65536 heat-d-stream-65536\"") < at1m &&
		  strstr(at1m, "aria-labelledby=\"heat-t-stream-1048576 heat-d-stream-1048576\""), "a heat map each");
	cr_assert(strstr(at1m, "<tr data-host=\"node5\" data-set=\"stream/1048576\">"), "1 MiB's host table");
	free(html);
	snprintf(path, sizeof(path), "%s/site/switch/fabric-9000.html", fixture_dir);
	html = slurp(path);
	cr_assert(strstr(html, "Fabric map of this run (16 hosts, 2 patterns and sizes, 2 claims)"), "switch page");
	free(html);
	/* the same store at schema 5: its map keyed by run, 64 KiB's alone */
	to_schema5(store);
	s = store_open(store, false, err, sizeof(err));
	cr_assert_not_null(s, "schema 5 to 6: %s", err);
	query1(s, "SELECT max(version) FROM schema_migrations", NULL, v);
	cr_assert_eq(atoi(v), STORE_SCHEMA_VERSION);
	query1(s, "SELECT count(*) || '/' || min(pattern) || '/' || min(size_bytes) FROM maps WHERE run = $1", name, v);
	cr_assert_str_eq(v, "1/stream/65536", "schema 5's map under the run's first pattern and size");
	query1(s, "SELECT count(*) || '/' || sum(flagged) || '/' || min(size_bytes) || '/' || max(size_bytes)"
	       " FROM map_hosts WHERE run = $1", name, v);
	cr_assert_str_eq(v, "16/1/65536/65536");
	query1(s, "SELECT host FROM map_hosts WHERE flagged = 1 AND run = $1", name, v);
	cr_assert_str_eq(v, "node6");
	query1(s, "SELECT count(*) || '/' || min(size_bytes) FROM map_links WHERE run = $1", name, v);
	cr_assert_str_eq(v, "120/65536");
	query1(s, "SELECT count(*) || ' ' || min(element) || ' ' || min(pattern) FROM map_claims WHERE run = $1", name, v);
	cr_assert_str_eq(v, "1 host node6 stream");
	query1(s, "SELECT count(*) FROM map_groups WHERE run = $1 AND size_bytes = 65536", name, v);
	cr_assert_str_eq(v, groups);
	/* the same run again: already there (the store keeps what schema 5 kept) */
	cr_assert_eq(store_publish(s, run, NULL, err, sizeof(err)), STORE_PRESENT, "%s", err);
	snprintf(path, sizeof(path), "%s/site5", fixture_dir);
	cr_assert_eq(site_write(s, path, NULL, err, sizeof(err)), 0, "%s", err);
	store_close(s);
	snprintf(path, sizeof(path), "%s/site5/maps/%s.html", fixture_dir, name);
	html = slurp(path);
	cr_assert(strstr(html, "<strong>SLOW</strong>: host node6:") && !strstr(html, "stream-1048576") &&
		  !strstr(html, "<section"), "one map, as schema 5 kept it");
	free(html);
}

/* A sweep of 16 nodes (pairs 1 and 8) of model into a new folder under
 * fixture_dir/SUB. */
static void make_sweep16(const char *sub, const char *name, const char *model, uint64_t seed, char *path, size_t len)
{
	struct fx_spec s;
	char parent[512], err[512];

	fx_defaults(&s);
	s.name = name;
	s.model = model;
	s.noise_seed = seed;
	s.nranks = 16;
	s.pairs = "1, 8";
	snprintf(parent, sizeof(parent), "%s/%s", fixture_dir, sub);
	cr_assert_eq(mkdir(parent, 0755), 0, "%s", parent);
	cr_assert_eq(fx_make(parent, &s, path, len, err, sizeof(err)), 0, "%s", err);
}

static bool exists(const char *fmt, const char *a)
{
	char p[700];

	snprintf(p, sizeof(p), fmt, fixture_dir, a);
	return access(p, F_OK) == 0;
}

/* Issue #39: a store of one fabric map and one sweep of the same node
 * count (two switches) makes a site (compare takes one kind a side: no
 * comparison, not a failure); a second switch's map and sweep are paired
 * kind with kind; a site that fails leaves the previous one whole; a
 * folder of other files is never replaced. */
Test(catalog, site_pairs_kinds_and_replaces_whole)
{
	char map1[512], map2[512], sw1[512], sw2[512], store[300], err[1024], path[600], *before, *after;
	struct store *s;
	int pages = 0;

	make_map_run("m1", "mapa-20260306-020000", map1, sizeof(map1));   /* Fabric 9000, 16 hosts */
	make_sweep16("s1", "swb-20260307-020000", "Other 100", 3, sw1, sizeof(sw1));
	snprintf(store, sizeof(store), "%s/catalog.sqlite", fixture_dir);
	snprintf(path, sizeof(path), "%s/site", fixture_dir);
	s = store_open(store, true, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_eq(store_publish(s, map1, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(store_publish(s, sw1, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(site_write(s, path, &pages, err, sizeof(err)), 0, "a map and a sweep of 16 nodes: %s", err);
	cr_assert(exists("%s/site/%s", "index.html") && !exists("%s/site/%s", "compare"), "no comparison of a map "
		  "with a sweep");
	/* each switch a map and a sweep: one comparison of each kind */
	make_map_run_of("m2", "mapb-20260308-020000", "Other 100", map2, sizeof(map2));
	make_sweep16("s2", "swa-20260309-020000", "Fabric 9000", 4, sw2, sizeof(sw2));
	cr_assert_eq(store_publish(s, sw2, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(site_write(s, path, &pages, err, sizeof(err)), 0, "%s", err);
	cr_assert(exists("%s/site/compare/%s", "fabric-9000--other-100-n16.html"), "the sweeps compared");
	cr_assert(!exists("%s/site/compare/%s", "fabric-9000--other-100-n16-map.html"), "one map: no map comparison");
	cr_assert_eq(store_publish(s, map2, NULL, err, sizeof(err)), STORE_ADDED, "%s", err);
	cr_assert_eq(site_write(s, path, &pages, err, sizeof(err)), 0, "%s", err);
	cr_assert(exists("%s/site/compare/%s", "fabric-9000--other-100-n16.html") &&
		  exists("%s/site/compare/%s", "fabric-9000--other-100-n16-map.html"), "sweeps and maps compared apart");
	snprintf(err, sizeof(err), "%s/site/index.html", fixture_dir);
	before = slurp(err);
	/* a store the site refuses: the previous site stays whole */
	store_close(s);
	sql_poke(store, "UPDATE cells SET nodes = 4294967304 WHERE run = 'swa-20260309-020000' AND cell = 0");
	s = store_open(store, false, err, sizeof(err));
	cr_assert_not_null(s, "%s", err);
	cr_assert_neq(site_write(s, path, NULL, err, sizeof(err)), 0, "a poisoned store made a site");
	cr_assert(strstr(err, "cells.nodes of run 'swa-20260309-020000'"), "%s", err);
	snprintf(err, sizeof(err), "%s/site/index.html", fixture_dir);
	after = slurp(err);
	cr_assert_str_eq(after, before, "the previous index.html kept whole");
	cr_assert(exists("%s/site/compare/%s", "fabric-9000--other-100-n16-map.html"), "the previous pages kept");
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s' | grep '^\\.site\\.')\"", fixture_dir);
		cr_assert_eq(system(cmd), 0, "no temporary folder left beside the site");
	}
	free(before);
	free(after);
	/* a folder of other files: refused, untouched */
	snprintf(path, sizeof(path), "%s/m1", fixture_dir);
	cr_assert_neq(site_write(s, path, NULL, err, sizeof(err)), 0, "a folder of runs replaced by a site");
	cr_assert(strstr(err, "holds 'mapa-20260306-020000', which a site does not"), "%s", err);
	cr_assert(exists("%s/m1/%s", "mapa-20260306-020000/run.json"), "the folder's run kept");
	store_close(s);
}
