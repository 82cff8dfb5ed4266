/*
 * test_history.c - the SQLite history: runs appended and read back, the
 * schema version, WAL, hostile labels kept as data, a run recorded twice
 * (check = run, then judge), the CSV for trend.gp, --since, the command's
 * exit codes, and a database from a newer swstress refused.
 */
#include <criterion/criterion.h>
#include <unistd.h>
#include <sqlite3.h>
#include "capture.h"
#include "fixture.h"
#include "commands.h"
#include "health.h"
#include "history.h"
#include "judge.h"
#include "health_fixture.h"

static char db[200];

static void setup(void)
{
	fixture_setup();
	snprintf(db, sizeof(db), "%s/results/history.sqlite", fixture_dir);
}

TestSuite(history, .init = setup, .fini = fixture_teardown);

/* A fixture run, loaded back, with its analysis. */
static struct sw_run *load_run(const char *name, uint64_t seed, double drop, char *path, size_t len,
			       struct sw_analysis **a)
{
	struct fx_spec s;
	char err[512];
	struct sw_run *r;

	fx_defaults(&s);
	s.name = name;
	s.noise_seed = seed;
	if (drop > 0) {
		s.slow_pattern = PAT_STREAM;
		s.slow_size = 65536;
		s.slow_factor = 1 / (1 - drop);
	}
	cr_assert_eq(fx_make(fixture_dir, &s, path, len, err, sizeof(err)), 0, "%s", err);
	r = results_load(path, err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	*a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(*a, "%s", err);
	return r;
}

/* A single integer or text from db. */
static long long q_int(const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	long long v = -1;

	cr_assert_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return v;
}

Test(history, two_runs_appended_and_read_back)
{
	char p1[512], p2[512], err[512];
	struct sw_analysis *a1, *a2;
	struct sw_run *r1 = load_run("health-20260301-020000", 1, 0, p1, sizeof(p1), &a1);
	struct sw_run *r2 = load_run("health-20260302-020000", 2, 0, p2, sizeof(p2), &a2);
	struct history_run *runs;
	size_t n;

	cr_assert_eq(history_record_run(db, r2, a2, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r1, a1, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_schema_version(db, err, sizeof(err)), HISTORY_SCHEMA_VERSION);
	cr_assert_eq(q_int("PRAGMA user_version"), HISTORY_SCHEMA_VERSION);
	cr_assert_eq(history_list(db, NULL, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 2);
	/* oldest first, whatever the order of recording */
	cr_assert_str_eq(runs[0].name, "health-20260301-020000");
	cr_assert_str_eq(runs[1].name, "health-20260302-020000");
	cr_assert_str_eq(runs[0].started, r1->started);
	cr_assert_str_eq(runs[0].label, "health");
	cr_assert_eq(runs[0].nranks, 8);
	cr_assert_eq(runs[0].ncells, 8);
	cr_assert(runs[0].complete);
	cr_assert_eq(runs[0].status, -1);
	cr_assert_str_eq(runs[0].verdict, "-");
	free(runs);
	/* the cell summaries are the analysis' numbers */
	cr_assert_eq(q_int("SELECT COUNT(*) FROM cells"), 16);
	cr_assert_eq(q_int("SELECT CAST(ROUND(lat_median_s * 1e9) AS INTEGER) FROM cells c JOIN runs r ON r.id = c.run_id"
			   " WHERE r.name = 'health-20260301-020000' AND c.cell = 0"),
		     (long long)llround(a1->cell[0].lat.median * 1e9));
	/* --since */
	cr_assert_eq(history_list(db, &(struct history_filter){ .since = "2026-03-03" }, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(runs[0].name, "health-20260302-020000");
	free(runs);
	analysis_free(a1);
	analysis_free(a2);
	run_free(r1);
	run_free(r2);
}

Test(history, wal_mode_and_newer_schema_refused)
{
	char p[512], err[512];
	struct sw_analysis *a;
	struct sw_run *r = load_run("health-20260301-020000", 1, 0, p, sizeof(p), &a);
	sqlite3 *h;

	cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_stmt *st;

	cr_assert_eq(sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	cr_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	cr_assert_eq(sqlite3_exec(h, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "schema version 99 is newer"), "%s", err);
	analysis_free(a);
	run_free(r);
}

Test(history, hostile_label_is_data)
{
	static const char label[] = "it's \"x\"; DROP TABLE runs; --";
	static const char name[] = "q'\"; DELETE FROM cells; --,x";
	char p[512], err[512];
	struct sw_analysis *a;
	struct sw_run *r = load_run("plain", 1, 0, p, sizeof(p), &a);
	struct history_run *runs;
	size_t n;

	snprintf(r->cfg.label, sizeof(r->cfg.label), "%s", label);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->host[3], SW_HOST_MAX, "host'); DROP TABLE cells; --");
	cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r, a, "SWSTRESS WARNING - x; y", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_list(db, NULL, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(runs[0].label, label);
	cr_assert_str_eq(runs[0].name, name);
	cr_assert_eq(runs[0].status, SW_NAGIOS_WARNING);
	cr_assert_str_eq(runs[0].summary, "SWSTRESS WARNING - x; y");
	free(runs);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM cells"), 8);
	cr_assert_eq(q_int("SELECT instr(hosts, 'host''); DROP TABLE cells; --') > 0 FROM runs"), 1);

	/* The CSV quotes the name with its comma and doubled quotes. */
	char csv[1 << 16];
	FILE *f = fmemopen(csv, sizeof(csv), "w");

	cr_assert_eq(history_write_csv(f, db, NULL, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	cr_assert_not_null(strstr(csv, ",\"q'\"\"; DELETE FROM cells; --,x\",\"it's \"\"x\"\"; DROP TABLE runs; --\","),
			   "%s", csv);
	analysis_free(a);
	run_free(r);
}

Test(history, check_after_run_is_one_run_with_a_verdict)
{
	char base[512], now[512], err[512], out[8192];
	struct sw_analysis *ab, *an;
	struct sw_run *rb = load_run("base", 1, 0, base, sizeof(base), &ab);
	struct sw_run *rn = load_run("health-20260302-020000", 2, 0.45, now, sizeof(now), &an);   /* beyond crit 25% by the run-to-run allowance */
	struct judge_opts o = { .baseline = base, .history = db };
	struct history_run *runs;
	size_t n;
	struct capture c;
	int code;

	/* run records it plain; then check judges the same folder */
	cr_assert_eq(history_record_run(db, rn, an, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(capture_start(&c, false), 0);
	code = judge_dir(now, &o, stdout);
	capture_end(&c, NULL, 0);
	cr_assert_eq(code, SW_NAGIOS_CRITICAL);
	cr_assert_eq(history_list(db, NULL, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_eq(runs[0].status, SW_NAGIOS_CRITICAL);
	cr_assert_str_eq(runs[0].verdict, "CRITICAL");
	cr_assert_not_null(strstr(runs[0].summary, "8 nodes 64KiB stream: bandwidth drop +"), "%s", runs[0].summary);
	free(runs);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM checks"), 1);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM check_cells WHERE compared = 1"), 8);
	cr_assert_eq(q_int("SELECT status FROM check_cells WHERE pattern = 'stream' AND size_bytes = 65536 AND nodes = 8"), 2);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM cells"), 8);

	/* CSV: header, one row per cell, the baseline band on the judged rows */
	FILE *f = fmemopen(out, sizeof(out), "w");
	char *line, *save = NULL;
	int rows = 0;

	cr_assert_eq(history_write_csv(f, db, NULL, err, sizeof(err)), 0, "%s", err);
	fclose(f);
	line = strtok_r(out, "\n", &save);
	cr_assert(line && line[0] == '#');
	line = strtok_r(NULL, "\n", &save);
	cr_assert_str_eq(line, "started,epoch_s,run,label,pattern,size_bytes,nodes,pairs,hops,n,"
			 "lat_median_us,lat_lo_us,lat_hi_us,bw_median_MBps,bw_lo_MBps,bw_hi_MBps,"
			 "base_lat_median_us,base_lat_lo_us,base_lat_hi_us,"
			 "base_bw_median_MBps,base_bw_lo_MBps,base_bw_hi_MBps,"
			 "change_pct,cell_status,status,verdict,sigma,ewma,ewma_limit,drift");
	while ((line = strtok_r(NULL, "\n", &save))) {
		int commas = 0;

		for (char *c = line; *c; c++)
			commas += *c == ',';
		cr_assert_eq(commas, 29, "%s", line);
		/* one baseline run: no night-to-night spread, no drift chart */
		char *tail = strstr(line, ",2,CRITICAL,NaN,NaN,NaN,0");

		cr_assert_not_null(tail, "%s", line);
		*tail = '\0';
		cr_assert_null(strstr(line, "NaN"), "judged row without baseline: %s", line);
		rows++;
	}
	cr_assert_eq(rows, 8);
	analysis_free(ab);
	analysis_free(an);
	run_free(rb);
	run_free(rn);
}

Test(history, parse_time_forms)
{
	/* 2026-03-02T10:00:00Z is 1772445600 s after the epoch */
	const char *same[] = { "2026-03-02T10:00Z", "2026-03-02T10:00:00Z", "2026-03-02 10:00:00",
			       "2026-03-02T10:00:00+00:00", "2026-03-02T11:30:00+01:30", "2026-03-02T05:00-05",
			       "2026-03-02T10:00:00,123456789+00:00", "Mon Mar  2 10:00:00 UTC 2026",
			       "Mon, 02 Mar 2026 12:00:00 +0200", "2026-03-02T10:00:00.5Z" };
	const char *bad[] = { "2026-03-02x", "yesterday", "2026-3-2", "2026-03-02T10", "Mon Mar  2 10:00:00 CET 2026",
			      "2026-03-02T10:00:00+25:00", "" };
	time_t t;

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		cr_assert_eq(history_parse_time(same[i], &t), 0, "%s", same[i]);
		cr_assert_eq(t, 1772445600, "%s: %lld", same[i], (long long)t);
	}
	cr_assert_eq(history_parse_time("2026-03-02", &t), 0);
	cr_assert_eq(t, 1772409600);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(history_parse_time(bad[i], &t), -1, "%s", bad[i]);
}

/* Run the history command with stdout and stderr into out; its exit code. */
static int history_cmd(char **argv, int argc, char *out, size_t len)
{
	struct capture c;
	int code;

	cr_assert_eq(capture_start(&c, true), 0);
	code = cli_run(&history_command, argc, argv);
	capture_end(&c, out, len);
	return code;
}

Test(history, command_table_csv_and_errors)
{
	char p1[512], p2[512], err[512], out[1 << 15];
	struct sw_analysis *a1, *a2;
	struct sw_run *r1 = load_run("health-20260301-020000", 1, 0, p1, sizeof(p1), &a1);
	struct sw_run *r2 = load_run("health-20260302-020000", 2, 0.3, p2, sizeof(p2), &a2);
	char *table[] = { "swstress", "history", "--history", db, NULL };
	char *csv[] = { "swstress", "history", "--history", db, "--format", "csv", "--since", "2026-03-03", NULL };
	char *badfmt[] = { "swstress", "history", "--history", db, "--format", "xml", NULL };
	char *baddate[] = { "swstress", "history", "--history", db, "--since", "yesterday", NULL };
	char *missing[] = { "swstress", "history", "--history", "/nonexistent/h.sqlite", NULL };

	cr_assert_eq(history_record_run(db, r1, a1, "OK", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r2, a2, "CRITICAL", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_cmd(table, 4, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "health-20260301-020000"), "%s", out);
	cr_assert_not_null(strstr(out, "CRITICAL"), "%s", out);
	/* the trend of the dropped cell: first 927 MB/s-ish, last 30% lower:
	 * a change of +30% (positive = worse, as everywhere) */
	const char *row = strstr(out, "\nstream    64KiB     8    2 ");
	double first, last, change;

	cr_assert_not_null(row, "%s", out);
	cr_assert_eq(sscanf(row, " stream 64KiB 8 2 %lf MB/s %lf MB/s %lf%%", &first, &last, &change), 3, "%s", row);
	/* the runs and the trend fit 80 columns, the numbers without
	 * e-notation (issue #27: 101 and 98 columns, "%.4g" values) */
	for (const char *l = strstr(out, "\nstarted"); l && *l; l = strchr(l + 1, '\n')) {
		size_t n = strcspn(l + 1, "\n");

		cr_expect(n <= 80, "%zu columns: %.*s", n, (int)n, l + 1);
		cr_expect(!memmem(l + 1, n, "e+", 2), "%.*s", (int)n, l + 1);
	}
	cr_assert(change > 28 && change < 32 && fabs((1 - last / first) * 100 - change) < 0.1, "%g", change);
	cr_assert_eq(history_cmd(csv, 8, out, sizeof(out)), 0, "%s", out);
	cr_assert_null(strstr(out, "health-20260301-020000"), "%s", out);
	cr_assert_not_null(strstr(out, "health-20260302-020000"), "%s", out);
	/* --since compares times: the run started 2026-03-03T02:00:00Z */
	const char *at[] = { "2026-03-03T02:00Z", "2026-03-03T03:00+01:00", "Tue, 03 Mar 2026 02:00:00 +0000",
			     "Tue Mar  3 02:00:00 UTC 2026", "2026-03-03 02:00:00.000000000+00:00" };
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		csv[7] = (char *)at[i];
		cr_assert_eq(history_cmd(csv, 8, out, sizeof(out)), 0, "%s", out);
		cr_assert_not_null(strstr(out, "health-20260302-020000"), "--since %s: %s", at[i], out);
	}
	csv[7] = "2026-03-03T02:00:01Z";
	cr_assert_eq(history_cmd(csv, 8, out, sizeof(out)), 0, "%s", out);
	cr_assert_null(strstr(out, "health-20260302-020000"), "%s", out);
	cr_assert_eq(history_cmd(badfmt, 6, out, sizeof(out)), SW_EXIT_USAGE);
	cr_assert_not_null(strstr(out, "--format: 'xml' is not table or csv"), "%s", out);
	cr_assert_eq(history_cmd(baddate, 6, out, sizeof(out)), SW_EXIT_USAGE);
	cr_assert_not_null(strstr(out, "option --since: 'yesterday' is not a time"), "%s", out);
	cr_assert_eq(history_cmd(missing, 4, out, sizeof(out)), SW_EXIT_FAIL);
	cr_assert_not_null(strstr(out, "swstress: /nonexistent/h.sqlite: no history yet"), "%s", out);
	analysis_free(a1);
	analysis_free(a2);
	run_free(r1);
	run_free(r2);
}

/* A schema 1 database (as swstress 0.1.0 left it, with a run in it) is
 * upgraded in place to schema 2 on the next open: the run stays, the
 * baseline table and the night-to-night columns appear. */
Test(history, schema_1_database_is_upgraded)
{
	char p[512], err[512];
	struct sw_analysis *a;
	struct sw_run *r = load_run("health-20260301-020000", 1, 0, p, sizeof(p), &a);
	struct history_member m = { .rolling = false }, *got;
	size_t n;
	sqlite3 *h;

	cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), 0, "%s", err);
	/* take it back to schema 1 */
	cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h, "DROP TABLE baseline_runs;"
				  "ALTER TABLE check_cells DROP COLUMN base_runs;"
				  "ALTER TABLE check_cells DROP COLUMN typical;"
				  "ALTER TABLE check_cells DROP COLUMN spread_pct;"
				  "ALTER TABLE check_cells DROP COLUMN sigma;"
				  "ALTER TABLE check_cells DROP COLUMN ewma;"
				  "ALTER TABLE check_cells DROP COLUMN ewma_limit;"
				  "ALTER TABLE check_cells DROP COLUMN drift;"
				  "PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	cr_assert_eq(history_schema_version(db, err, sizeof(err)), 1);
	snprintf(m.run, sizeof(m.run), "%s", r->name);
	snprintf(m.folder, sizeof(m.folder), "%s", p);
	snprintf(m.started, sizeof(m.started), "%s", r->started);
	cr_assert_eq(history_baseline_put(db, "nightly", &m, 1, true, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_schema_version(db, err, sizeof(err)), HISTORY_SCHEMA_VERSION);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM runs"), 1);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM pragma_table_info('check_cells') WHERE name = 'drift'"), 1);
	cr_assert_eq(history_baseline_members(db, "nightly", &got, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(got[0].folder, p);
	cr_assert_str_eq(got[0].set, "nightly");
	free(got);
	analysis_free(a);
	run_free(r);
}

/* A schema 2 database with checks of both signs: a bandwidth row of a
 * check made before the sign was unified (raw change, -30% = worse) is
 * turned into a degradation on the next open, exactly once; its latency
 * row and every row of a later check keep their numbers. */
Test(history, old_bandwidth_sign_is_migrated_once)
{
	char p[512], err[512];
	struct sw_analysis *a;
	struct sw_run *r = load_run("health-20261201-020000", 1, 0, p, sizeof(p), &a);
	sqlite3 *h;

	cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
	cr_assert_eq(sqlite3_exec(h,
		"INSERT INTO checks (id, run_id, checked, status, verdict) VALUES"
		" (1, 1, '2026-12-01T17:00:00Z', 2, 'CRITICAL'), (2, 1, '2026-12-01T18:00:00Z', 2, 'CRITICAL');"
		"INSERT INTO check_cells (check_id, cell, metric, change_pct, lo, hi) VALUES"
		" (1, 0, 'bandwidth', -30.0, -34.0, -26.0), (1, 1, 'latency', 40.0, 35.0, 45.0),"
		" (2, 0, 'bandwidth', 30.0, 26.0, 34.0);"
		"PRAGMA user_version = 2", NULL, NULL, NULL), SQLITE_OK, "%s", sqlite3_errmsg(h));
	sqlite3_close(h);
	for (int open = 0; open < 2; open++) {
		cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(history_schema_version(db, err, sizeof(err)), HISTORY_SCHEMA_VERSION);
		cr_assert_eq(q_int("SELECT change_pct * 10 FROM check_cells WHERE check_id = 1 AND cell = 0"), 300);
		cr_assert_eq(q_int("SELECT lo * 10 FROM check_cells WHERE check_id = 1 AND cell = 0"), 260);
		cr_assert_eq(q_int("SELECT hi * 10 FROM check_cells WHERE check_id = 1 AND cell = 0"), 340);
		cr_assert_eq(q_int("SELECT change_pct * 10 FROM check_cells WHERE check_id = 1 AND cell = 1"), 400);
		cr_assert_eq(q_int("SELECT lo * 10 FROM check_cells WHERE check_id = 1 AND cell = 1"), 350);
		cr_assert_eq(q_int("SELECT change_pct * 10 FROM check_cells WHERE check_id = 2"), 300);
		cr_assert_eq(q_int("SELECT lo * 10 FROM check_cells WHERE check_id = 2"), 260);
	}
	analysis_free(a);
	run_free(r);
}

/* A results folder under dir, with a run.json when json. */
static void folder(const char *dir, const char *name, bool json)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
	if (json) {
		snprintf(p, sizeof(p), "%s/%s/run.json", dir, name);
		FILE *f = fopen(p, "w");

		cr_assert_not_null(f);
		fputs("{}\n", f);
		fclose(f);
	}
}

Test(history, retention_keeps_baselines_new_and_partial_runs)
{
	char p1[512], p2[512], out[512], err[512], path[600];
	struct sw_analysis *a1, *a2;
	struct sw_run *r1 = load_run("health-20260301-020000", 1, 0, p1, sizeof(p1), &a1);
	struct sw_run *r2 = load_run("health-20260302-020000", 2, 0, p2, sizeof(p2), &a2);
	struct history_member m = { .set = "nightly", .started = "2026-03-02T02:00:00Z",
				    .added = "2026-03-05T00:00:00Z" };
	const char *gone[] = { "a-20200101-000000" };
	const char *kept[] = { "b-20200101-000000", "c-20200101-000000.partial", "d-20990101-000000",
			       "e-20200101-000000", "notes" };
	int nf, nr;

	snprintf(out, sizeof(out), "%s/prune", fixture_dir);
	cr_assert_eq(mkdir(out, 0755), 0);
	folder(out, gone[0], true);
	folder(out, kept[0], false);     /* no run.json: not a results folder */
	folder(out, kept[1], true);      /* unfinished */
	folder(out, kept[2], true);      /* newer than the cutoff */
	folder(out, kept[3], true);      /* a baseline's */
	folder(out, kept[4], true);
	cr_assert_eq(history_record_run(db, r1, a1, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r2, a2, NULL, err, sizeof(err)), 0, "%s", err);
	snprintf(m.run, sizeof(m.run), "%s", r1->name);
	snprintf(path, sizeof(path), "%s/%s", out, kept[3]);
	cr_assert_not_null(realpath(path, m.folder));
	cr_assert_eq(history_baseline_put(db, "nightly", &m, 1, true, err, sizeof(err)), 0, "%s", err);

	/* cutoff 2026-03-10: both runs are older; r1 is in the baseline set */
	cr_assert_eq(history_prune(db, out, 1773100800, &nf, &nr, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(nf, 1);
	cr_assert_eq(nr, 1);
	snprintf(path, sizeof(path), "%s/%s", out, gone[0]);
	cr_assert_neq(access(path, F_OK), 0, "%s still there", path);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", out, kept[i]);
		cr_assert_eq(access(path, F_OK), 0, "%s removed", path);
	}
	cr_assert_eq(q_int("SELECT COUNT(*) FROM runs"), 1);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM runs WHERE name = 'health-20260301-020000'"), 1);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM cells WHERE run_id NOT IN (SELECT id FROM runs)"), 0);
	/* again: nothing more to do */
	cr_assert_eq(history_prune(db, out, 1773100800, &nf, &nr, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(nf + nr, 0);
	cr_assert_eq(history_prune(db, "/nonexistent/out", 1773100800, &nf, &nr, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "/nonexistent/out: No such file or directory"), "%s", err);
	analysis_free(a1);
	analysis_free(a2);
	run_free(r1);
	run_free(r2);
}

/* history --label and --switch: a trend of one label or one switch only. */
Test(history, label_and_switch_filters)
{
	char p1[512], p2[512], p3[512], err[512];
	struct sw_analysis *a1, *a2, *a3;
	struct sw_run *r1 = load_run("night-20260301-020000", 1, 0, p1, sizeof(p1), &a1);
	struct sw_run *r2 = load_run("night-20260302-020000", 2, 0, p2, sizeof(p2), &a2);
	struct sw_run *r3 = load_run("proc-20260303-020000", 3, 0, p3, sizeof(p3), &a3);
	struct history_run *runs;
	size_t n;

	snprintf(r1->cfg.label, sizeof(r1->cfg.label), "night");
	snprintf(r2->cfg.label, sizeof(r2->cfg.label), "night");
	snprintf(r3->cfg.label, sizeof(r3->cfg.label), "proc");
	snprintf(r1->cfg.vendor, sizeof(r1->cfg.vendor), "Acme");
	snprintf(r1->cfg.model, sizeof(r1->cfg.model), "F9");
	snprintf(r3->cfg.vendor, sizeof(r3->cfg.vendor), "Acme");
	snprintf(r3->cfg.model, sizeof(r3->cfg.model), "F9");
	cr_assert_eq(history_record_run(db, r1, a1, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r2, a2, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r3, a3, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_list(db, &(struct history_filter){ .label = "night" }, &runs, &n, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(runs[1].name, "night-20260302-020000");
	free(runs);
	cr_assert_eq(history_list(db, &(struct history_filter){ .sw = "F9" }, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 2);
	cr_assert_str_eq(runs[1].name, "proc-20260303-020000");
	free(runs);
	cr_assert_eq(history_list(db, &(struct history_filter){ .label = "night", .sw = "Acme F9" }, &runs, &n, err,
				  sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(runs[0].name, "night-20260301-020000");
	free(runs);
	cr_assert_eq(history_list(db, &(struct history_filter){ .sw = "nosuch" }, &runs, &n, err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(n, 0);
	free(runs);
	for (int i = 0; i < 3; i++) {
		analysis_free(i == 0 ? a1 : i == 1 ? a2 : a3);
		run_free(i == 0 ? r1 : i == 1 ? r2 : r3);
	}
}

/* judge with a baseline that cannot be read says UNKNOWN, but keeps the
 * run's recorded verdict: the run was not judged. */
Test(history, unusable_baseline_keeps_the_recorded_verdict)
{
	char base[512], now[512], err[512];
	struct sw_analysis *ab, *an;
	struct sw_run *rb = load_run("base", 1, 0, base, sizeof(base), &ab);
	struct sw_run *rn = load_run("health-20260302-020000", 2, 0, now, sizeof(now), &an);
	struct judge_opts o = { .baseline = base, .history = db };
	struct history_run *runs;
	size_t n;
	struct capture c;

	cr_assert_eq(capture_start(&c, false), 0);
	cr_assert_eq(judge_dir(now, &o, stdout), SW_NAGIOS_OK);
	o.baseline = "nosuch";
	cr_assert_eq(judge_dir(now, &o, stdout), SW_NAGIOS_UNKNOWN);
	capture_end(&c, NULL, 0);
	cr_assert_eq(history_list(db, NULL, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_str_eq(runs[0].verdict, "OK", "%s: %s", runs[0].verdict, runs[0].summary);
	free(runs);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM checks"), 1);
	analysis_free(ab);
	analysis_free(an);
	run_free(rb);
	run_free(rn);
}

/* Issue #39: two runs of one label started in the same second, into two
 * output folders and one history: the first reserves the name before it
 * measures, the second is told the name is taken (it takes NAME-2), and
 * the first run's row is completed, never replaced; an output folder
 * that holds NAME or NAME.partial gives the name up too. */
Test(history, a_name_is_reserved_once)
{
	char path[512], err[512], out[600];
	struct sw_analysis *a;
	struct sw_run *r = load_run("same-20261207-204326", 1, 0, path, sizeof(path), &a);
	struct sw_run r2;

	cr_assert_eq(history_reserve(db, r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(q_int("SELECT count(*) FROM runs WHERE complete = 0 AND failure = 'running'"), 1);
	memcpy(&r2, r, sizeof(r2));
	cr_assert_eq(history_reserve(db, &r2, err, sizeof(err)), 1, "a second run took the name: %s", err);
	snprintf(r2.name, sizeof(r2.name), "same-20261207-204326-2");
	cr_assert_eq(history_reserve(db, &r2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(history_record_run(db, r, a, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(q_int("SELECT count(*) FROM runs"), 2);
	cr_assert_eq(q_int("SELECT complete FROM runs WHERE name = 'same-20261207-204326'"), 1, "the row completed");
	cr_assert_eq(q_int("SELECT count(*) FROM cells c JOIN runs r ON c.run_id = r.id"
			   " WHERE r.name = 'same-20261207-204326'"), r->plan->ncells);
	/* the output folder: NAME there (the fixture's folder) */
	snprintf(r2.cfg.output, sizeof(r2.cfg.output), "%s", fixture_dir);
	snprintf(r2.name, sizeof(r2.name), "same-20261207-204326");
	cr_assert_eq(results_begin(&r2, out, sizeof(out), err, sizeof(err)), 1, "%s", err);
	snprintf(r2.name, sizeof(r2.name), "same-20261207-204326-2");
	cr_assert_eq(results_begin(&r2, out, sizeof(out), err, sizeof(err)), 0, "%s", err);
	cr_assert(strstr(out, "/same-20261207-204326-2.partial"), "%s", out);
	cr_assert_eq(results_begin(&r2, out, sizeof(out), err, sizeof(err)), 1, "NAME.partial there: %s", err);
	analysis_free(a);
	run_free(r);
}

/* Issue #39: a check whose own results cannot be read (a sample its reader
 * refuses) is UNKNOWN, and that night is in the history with the reason,
 * on the row the run reserved; a judge of someone else's folder (not
 * fresh) records nothing. */
Test(history, unreadable_check_is_recorded_with_why)
{
	char base[512], now[512], file[600], err[512];
	struct sw_analysis *ab, *an;
	struct sw_run *rb = load_run("base", 1, 0, base, sizeof(base), &ab);
	struct sw_run *rn = load_run("health-20260302-020000", 2, 0, now, sizeof(now), &an);
	struct judge_opts o = { .baseline = base, .history = db, .fresh = true };
	struct history_run *runs;
	struct capture c;
	size_t n;
	int code;
	FILE *f;

	cr_assert_eq(history_reserve(db, rn, err, sizeof(err)), 0, "%s", err);
	snprintf(file, sizeof(file), "%s/samples.csv", now);
	f = fopen(file, "a");
	cr_assert_not_null(f);
	fputs("garbage,row\n", f);
	fclose(f);
	o.fresh = false;
	cr_assert_eq(capture_start(&c, false), 0);
	code = judge_dir(now, &o, stdout);
	capture_end(&c, NULL, 0);
	cr_assert_eq(code, SW_NAGIOS_UNKNOWN);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM checks"), 0, "judge of a folder it cannot read: no row");
	o.fresh = true;
	cr_assert_eq(capture_start(&c, false), 0);
	code = judge_dir(now, &o, stdout);
	capture_end(&c, NULL, 0);
	cr_assert_eq(code, SW_NAGIOS_UNKNOWN);
	cr_assert_eq(q_int("SELECT COUNT(*) FROM checks WHERE status = 3 AND summary LIKE"
			   " '%cannot read the results to judge%samples.csv%'"), 1, "the night's UNKNOWN row with why");
	cr_assert_eq(q_int("SELECT COUNT(*) FROM runs"), 1, "on the run's reserved row");
	cr_assert_eq(history_list(db, NULL, &runs, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 1);
	cr_assert_eq(runs[0].status, SW_NAGIOS_UNKNOWN);
	free(runs);
	analysis_free(ab);
	analysis_free(an);
	run_free(rb);
	run_free(rn);
}
