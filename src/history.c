/*
 * history.c - the SQLite history of runs and checks, and the history
 * command; see history.h for the schema. Every statement goes through
 * sql_run (sql.h) with its values bound; no SQL is built from data.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "config.h"
#include "health.h"
#include "history.h"
#include "fmt.h"
#include "pattern.h"
#include "sql.h"

void history_default_path(const char *output, char *buf, size_t len)
{
	size_t n = strlen(output);

	while (n > 1 && output[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s/history.sqlite", (int)n, output);
}

/* The folder that holds a results folder (or run.json's folder). */
static void parent_of_result(const char *path, char *buf, size_t len)
{
	char tmp[SW_PATH_MAX];
	size_t n;
	struct stat st;
	char *slash;

	snprintf(tmp, sizeof(tmp), "%s", path);
	n = strlen(tmp);
	while (n > 1 && tmp[n - 1] == '/')
		tmp[--n] = '\0';
	if (stat(tmp, &st) == 0 && !S_ISDIR(st.st_mode)) {   /* .../NAME/run.json */
		slash = strrchr(tmp, '/');
		if (slash)
			*slash = '\0';
		else
			snprintf(tmp, sizeof(tmp), ".");
	}
	slash = strrchr(tmp, '/');
	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == tmp)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - tmp), tmp);
}

void history_result_path(const char *history, const char *result_dir, char *db, size_t len)
{
	char parent[SW_PATH_MAX];

	if (history) {
		snprintf(db, len, "%s", history);
		return;
	}
	parent_of_result(result_dir, parent, sizeof(parent));
	history_default_path(parent, db, len);
}

/* Schema 1. Upgrades from version N to N + 1 go into migrations[N]. */
static const char *const migrations[HISTORY_SCHEMA_VERSION] = {
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL UNIQUE,"
	" label TEXT NOT NULL,"
	" started TEXT NOT NULL,"
	" recorded TEXT NOT NULL,"
	" tool_version TEXT, mpi_version TEXT, command_line TEXT,"
	" nranks INTEGER, hosts TEXT, complete INTEGER, failure TEXT, duration_s REAL,"
	" config TEXT);"
	"CREATE INDEX runs_started ON runs(started);"
	"CREATE TABLE cells ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" cell INTEGER NOT NULL, level INTEGER, nodes INTEGER, pairs INTEGER,"
	" pattern TEXT, size_bytes INTEGER, hops INTEGER, n INTEGER, stop TEXT,"
	" lat_median_s REAL, lat_lo_s REAL, lat_hi_s REAL, lat_p99_s REAL,"
	" bw_median_Bps REAL, bw_lo_Bps REAL, bw_hi_Bps REAL,"
	" lat_infl_pct REAL, bw_drop_pct REAL,"
	" PRIMARY KEY (run_id, cell));"
	"CREATE TABLE suspects ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" host TEXT NOT NULL, flagged INTEGER, cells INTEGER);"
	"CREATE TABLE checks ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" checked TEXT NOT NULL, baseline TEXT, status INTEGER NOT NULL,"
	" verdict TEXT NOT NULL, summary TEXT);"
	"CREATE INDEX checks_run ON checks(run_id);"
	"CREATE TABLE check_cells ("
	" check_id INTEGER NOT NULL REFERENCES checks(id) ON DELETE CASCADE,"
	" cell INTEGER, pattern TEXT, size_bytes INTEGER, nodes INTEGER, hops INTEGER,"
	" metric TEXT, compared INTEGER, change_pct REAL, lo REAL, hi REAL, p REAL,"
	" status INTEGER, base_lat_median_s REAL, base_lat_lo_s REAL, base_lat_hi_s REAL,"
	" base_bw_median_Bps REAL, base_bw_lo_Bps REAL, base_bw_hi_Bps REAL, reason TEXT);",
	/* 2: baseline sets; the night-to-night statistics and the control
	 * chart of each checked cell. */
	"CREATE TABLE baseline_runs ("
	" baseline TEXT NOT NULL, run TEXT NOT NULL, folder TEXT NOT NULL, started TEXT NOT NULL,"
	" added TEXT NOT NULL, rolling INTEGER NOT NULL DEFAULT 0,"
	" PRIMARY KEY (baseline, run));"
	"ALTER TABLE check_cells ADD COLUMN base_runs INTEGER;"
	"ALTER TABLE check_cells ADD COLUMN typical REAL;"
	"ALTER TABLE check_cells ADD COLUMN spread_pct REAL;"
	"ALTER TABLE check_cells ADD COLUMN sigma REAL;"
	"ALTER TABLE check_cells ADD COLUMN ewma REAL;"
	"ALTER TABLE check_cells ADD COLUMN ewma_limit REAL;"
	"ALTER TABLE check_cells ADD COLUMN drift INTEGER;",
	/* 3: one sign. Checks before 2026-12-01T17:31:53Z (commit 47eef48)
	 * stored a bandwidth change with its raw sign (negative = worse);
	 * since then every change is a degradation (positive = worse). Only
	 * those older rows are turned, once (a schema 2 database may hold
	 * rows of both kinds; no swstress of the new sign ran before then). */
	"UPDATE check_cells SET change_pct = -change_pct, lo = -hi, hi = -lo"
	" WHERE metric = 'bandwidth' AND check_id IN"
	" (SELECT id FROM checks WHERE checked < '2026-12-01T17:31:53Z');",
};

/* The first column of a row as an int, into *(int *)arg. */
static int get_int(sqlite3_stmt *st, void *arg)
{
	*(int *)arg = sqlite3_column_int(st, 0);
	return 0;
}

static int user_version(sqlite3 *db, const char *path, int *v, char *err, size_t errlen)
{
	return sql_run(db, path, "PRAGMA user_version", NULL, 0, get_int, v, err, errlen);
}

/* Create the parent folder of path (one level) if it is missing. */
static void make_parent(const char *path)
{
	char dir[SW_PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	mkdir(dir, 0755);
}

/* Open db (create when create is set), WAL, busy timeout, foreign keys,
 * schema brought up to date. NULL with "PATH: reason" in err. */
static sqlite3 *db_open(const char *path, bool create, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	int v = 0, flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	if (!create && access(path, F_OK)) {
		sw_fail(err, errlen, "%s: no history yet (%s)", path, strerror(errno));
		return NULL;
	}
	if (create)
		make_parent(path);
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		sql_fail(db, path, err, errlen);
		goto out_close;
	}
	sqlite3_busy_timeout(db, 5000);
	sqlite3_extended_result_codes(db, 1);
	if (sql_exec(db, path, "PRAGMA foreign_keys = ON", err, errlen) || user_version(db, path, &v, err, errlen))
		goto out_close;
	if (v > HISTORY_SCHEMA_VERSION) {
		sw_fail(err, errlen, "%s: history schema version %d is newer than this swstress knows (%d)",
			path, v, HISTORY_SCHEMA_VERSION);
		goto out_close;
	}
	if (v < HISTORY_SCHEMA_VERSION) {
		if (sql_exec(db, path, "PRAGMA journal_mode = WAL", err, errlen) ||
		    sql_exec(db, path, "BEGIN IMMEDIATE", err, errlen))
			goto out_close;
		/* Another process may have upgraded it meanwhile. */
		if (user_version(db, path, &v, err, errlen)) {
			sql_exec(db, path, "ROLLBACK", NULL, 0);
			goto out_close;
		}
		for (; v < HISTORY_SCHEMA_VERSION; v++) {
			char pragma[64];

			snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
			if (sql_exec(db, path, migrations[v], err, errlen) || sql_exec(db, path, pragma, err, errlen)) {
				sql_exec(db, path, "ROLLBACK", NULL, 0);
				goto out_close;
			}
		}
		if (sql_exec(db, path, "COMMIT", err, errlen))
			goto out_close;
	}
	return db;

out_close:
	sqlite3_close(db);
	return NULL;
}

int history_schema_version(const char *path, char *err, size_t errlen)
{
	sqlite3 *db;
	int v = -1;

	if (access(path, F_OK))
		return sw_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		sql_fail(db, path, err, errlen);
	else if (user_version(db, path, &v, err, errlen))
		v = -1;
	sqlite3_close(db);
	return v;
}

/* ---------------------------------------------------------------- */
/* Writing                                                            */

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The first column of a row as an id, into *(sqlite3_int64 *)arg. */
static int get_id(sqlite3_stmt *st, void *arg)
{
	*(sqlite3_int64 *)arg = sqlite3_column_int64(st, 0);
	return 0;
}

/* The cells of a that have samples, and a's suspects, as rows of run id. */
static int put_cells(sqlite3 *db, const char *path, const struct sw_run *r, const struct sw_analysis *a,
		     sqlite3_int64 id, char *err, size_t errlen)
{
	static const char *const sql_cell =
		"INSERT INTO cells (run_id, cell, level, nodes, pairs, pattern, size_bytes, hops, n, stop,"
		" lat_median_s, lat_lo_s, lat_hi_s, lat_p99_s, bw_median_Bps, bw_lo_Bps, bw_hi_Bps,"
		" lat_infl_pct, bw_drop_pct)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";

	for (int c = 0; c < a->ncells && c < r->plan->ncells; c++) {
		const struct sw_cell_stats *cs = &a->cell[c];
		const struct sw_cell *pc = &r->plan->cell[c];

		if (cs->lat.n == 0)
			continue;
		if (sql_run(db, path, sql_cell,
			    SQL_VALS(sql_int(id), sql_int(c), sql_int(pc->level), sql_int(cs->nodes), sql_int(cs->pairs),
				     sql_text(pattern_name(pc->pattern)), sql_int((sqlite3_int64)pc->size), sql_int(pc->hops),
				     sql_int((sqlite3_int64)cs->lat_spread.n), sql_text(run_stop_name(r->cell[c].stop)),
				     sql_num(cs->lat.median), sql_num(cs->lat.med_lo), sql_num(cs->lat.med_hi),
				     sql_num(cs->lat_spread.p99), sql_num(cs->bw.median), sql_num(cs->bw.med_lo),
				     sql_num(cs->bw.med_hi), sql_num(cs->inflation.valid ? cs->inflation.pct : NAN),
				     sql_num(cs->drop.valid ? cs->drop.pct : NAN)),
			    NULL, NULL, err, errlen))
			return -1;
	}
	for (int i = 0; i < a->nsuspects; i++)
		if (sql_run(db, path, "INSERT INTO suspects (run_id, host, flagged, cells) VALUES (?1, ?2, ?3, ?4)",
			    SQL_VALS(sql_int(id), sql_text(a->suspect[i].host), sql_int(a->suspect[i].flagged),
				     sql_int(a->suspect[i].cells)),
			    NULL, NULL, err, errlen))
			return -1;
	return 0;
}

/* Insert or update the run row and replace its cells and suspects; its
 * id into *id. Inside the caller's transaction. */
static int put_run(sqlite3 *db, const char *path, const struct sw_run *r, const struct sw_analysis *a,
		   sqlite3_int64 *id, char *err, size_t errlen)
{
	static const char *const sql_upsert =
		"INSERT INTO runs (name, label, started, recorded, tool_version, mpi_version, command_line,"
		" nranks, hosts, complete, failure, duration_s, config)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
		" ON CONFLICT(name) DO UPDATE SET label = ?2, started = ?3, recorded = ?4, tool_version = ?5,"
		" mpi_version = ?6, command_line = ?7, nranks = ?8, hosts = ?9, complete = ?10, failure = ?11,"
		" duration_s = ?12, config = ?13 WHERE runs.started = ?3";
	json_t *hosts = json_array(), *cfg = config_to_json(&r->cfg);
	char *hosts_s = NULL, *cfg_s = NULL, now[32];
	int rc = -1;

	if (!hosts || !cfg)
		goto out;
	for (int i = 0; i < r->nranks; i++)
		json_array_append_new(hosts, json_string(r->host[i]));
	hosts_s = json_dumps(hosts, JSON_COMPACT);
	cfg_s = json_dumps(cfg, JSON_COMPACT | JSON_SORT_KEYS);
	if (!hosts_s || !cfg_s)
		goto out;
	now_iso(now, sizeof(now));
	*id = 0;
	/* The cells and suspects replaced: a run recorded again has more. */
	if (sql_run(db, path, sql_upsert,
		    SQL_VALS(sql_text(r->name), sql_text(r->cfg.label), sql_text(r->started[0] ? r->started : now),
			     sql_text(now), sql_text(r->tool_version), sql_text(r->mpi_version),
			     sql_text(r->command_line), sql_int(r->nranks), sql_text(hosts_s), sql_int(r->complete),
			     sql_text(r->failure), sql_num(r->duration), sql_text(cfg_s)),
		    NULL, NULL, err, errlen))
		goto out;
	if (sqlite3_changes(db) == 0) {    /* the name is another run's (started at another time) */
		sw_fail(err, errlen, "%s: a different run named '%s' is already recorded (started at another time)",
			path, r->name);
		goto out;
	}
	if (sql_run(db, path, "SELECT id FROM runs WHERE name = ?1", SQL_VALS(sql_text(r->name)), get_id, id,
		    err, errlen) ||
	    sql_run(db, path, "DELETE FROM cells WHERE run_id = ?1", SQL_VALS(sql_int(*id)), NULL, NULL, err,
		    errlen) ||
	    sql_run(db, path, "DELETE FROM suspects WHERE run_id = ?1", SQL_VALS(sql_int(*id)), NULL, NULL, err,
		    errlen) ||
	    (a && put_cells(db, path, r, a, *id, err, errlen)))
		goto out;
	rc = 0;
out:
	if (rc && err && !err[0])
		sw_fail(err, errlen, "%s: out of memory", path);
	free(hosts_s);
	free(cfg_s);
	json_decref(hosts);
	json_decref(cfg);
	return rc;
}

/* Insert a check row; its id into *cid. */
static int put_check(sqlite3 *db, const char *path, sqlite3_int64 run_id, const char *baseline,
		     int status, const char *summary, sqlite3_int64 *cid, char *err, size_t errlen)
{
	char now[32];

	now_iso(now, sizeof(now));
	if (sql_run(db, path, "INSERT INTO checks (run_id, checked, baseline, status, verdict, summary)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
		    SQL_VALS(sql_int(run_id), sql_text(now), sql_text(baseline && baseline[0] ? baseline : NULL),
			     sql_int(status), sql_text(health_status_name(status)), sql_text(summary ? summary : "")),
		    NULL, NULL, err, errlen))
		return -1;
	*cid = sqlite3_last_insert_rowid(db);
	return 0;
}

static int put_check_cells(sqlite3 *db, const char *path, sqlite3_int64 cid,
			   const struct health_verdict *v, char *err, size_t errlen)
{
	static const char *const sql =
		"INSERT INTO check_cells (check_id, cell, pattern, size_bytes, nodes, hops, metric,"
		" compared, change_pct, lo, hi, p, status, base_lat_median_s, base_lat_lo_s, base_lat_hi_s,"
		" base_bw_median_Bps, base_bw_lo_Bps, base_bw_hi_Bps, reason, base_runs, typical, spread_pct,"
		" sigma, ewma, ewma_limit, drift)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"
		" ?21, ?22, ?23, ?24, ?25, ?26, ?27)";

	for (int i = 0; i < v->ncells; i++) {
		const struct health_cell *hc = &v->cell[i];

		if (hc->elem != HEALTH_CELL)   /* a map's elements: the check row only */
			continue;
		if (sql_run(db, path, sql,
			    SQL_VALS(sql_int(cid), hc->cell >= 0 ? sql_int(hc->cell) : sql_null(),
				     sql_text(pattern_name(hc->pattern)), sql_int((sqlite3_int64)hc->size),
				     sql_int(hc->nodes), sql_int(hc->hops),
				     sql_text(hc->metric == HEALTH_LATENCY ? "latency" : "bandwidth"), sql_int(hc->compared),
				     sql_num(hc->change), sql_num(hc->lo), sql_num(hc->hi), sql_num(hc->p),
				     sql_int(hc->status), sql_num(hc->base_lat.median), sql_num(hc->base_lat.lo),
				     sql_num(hc->base_lat.hi), sql_num(hc->base_bw.median), sql_num(hc->base_bw.lo),
				     sql_num(hc->base_bw.hi), sql_text(hc->why[0] ? hc->why : NULL), sql_int(hc->base_runs),
				     sql_num(hc->typical), sql_num(hc->spread_pct), sql_num(hc->sigma), sql_num(hc->ewma),
				     sql_num(hc->ewma_limit), sql_int(hc->drift)),
			    NULL, NULL, err, errlen))
			return -1;
	}
	return 0;
}

/* The status a verdict line names (history_record_run). */
static int verdict_status(const char *s)
{
	if (!strncmp(s, "SWSTRESS ", 9))
		s += 9;
	for (int i = SW_NAGIOS_OK; i <= SW_NAGIOS_UNKNOWN; i++) {
		const char *name = health_status_name(i);
		size_t n = strlen(name);

		if (!strncmp(s, name, n) && (s[n] == '\0' || s[n] == ' ' || s[n] == ':'))
			return i;
	}
	return SW_NAGIOS_UNKNOWN;
}

/* The history at path opened for writing (created when missing) in a
 * transaction begun; NULL with "DB: reason" in err. */
static sqlite3 *db_begin(const char *path, char *err, size_t errlen)
{
	sqlite3 *db = db_open(path, true, err, errlen);

	if (db && sql_exec(db, path, "BEGIN IMMEDIATE", err, errlen)) {
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* db_begin's transaction committed when rc is 0 (else rolled back), db
 * closed; 0, or -1 (err says why). */
static int db_end(sqlite3 *db, const char *path, int rc, char *err, size_t errlen)
{
	if (rc == 0 && sql_exec(db, path, "COMMIT", err, errlen))
		rc = -1;
	if (rc)
		sql_exec(db, path, "ROLLBACK", NULL, 0);
	sqlite3_close(db);
	return rc;
}

/* Record r (and a check: a verdict line, or v) in one transaction. */
static int record(const char *path, const struct sw_run *r, const struct sw_analysis *a,
		  const char *verdict, const struct health_verdict *v, char *err, size_t errlen)
{
	sqlite3 *db = db_begin(path, err, errlen);
	sqlite3_int64 id, cid;
	int rc;

	if (!db)
		return -1;
	rc = put_run(db, path, r, a, &id, err, errlen);
	if (rc == 0 && v)
		rc = put_check(db, path, id, v->baseline, v->status, v->summary, &cid, err, errlen) ||
		     put_check_cells(db, path, cid, v, err, errlen) ? -1 : 0;
	else if (rc == 0 && verdict)
		rc = put_check(db, path, id, NULL, verdict_status(verdict), verdict, &cid, err, errlen);
	return db_end(db, path, rc, err, errlen);
}

int history_record_run(const char *db, const struct sw_run *r, const struct sw_analysis *a,
		       const char *verdict, char *err, size_t errlen)
{
	return record(db, r, a, verdict, NULL, err, errlen);
}

int history_record_unreadable(const char *path, const char *name, const struct health_verdict *v, char *err,
			      size_t errlen)
{
	sqlite3 *db = db_begin(path, err, errlen);
	sqlite3_int64 id = 0, cid;
	char now[32];
	int rc;

	if (!db)
		return -1;
	now_iso(now, sizeof(now));
	/* the run's row, when it reserved one (history_reserve), else a new one */
	rc = sql_run(db, path, "INSERT INTO runs (name, label, started, recorded, complete, failure)"
		     " VALUES (?1, '', ?2, ?2, 0, ?3) ON CONFLICT(name) DO NOTHING",
		     SQL_VALS(sql_text(name), sql_text(now), sql_text(v->summary)), NULL, NULL, err, errlen);
	if (rc == 0)
		rc = sql_run(db, path, "SELECT id FROM runs WHERE name = ?1", SQL_VALS(sql_text(name)), get_id, &id,
			     err, errlen);
	if (rc == 0)
		rc = put_check(db, path, id, v->baseline, v->status, v->summary, &cid, err, errlen);
	return db_end(db, path, rc, err, errlen);
}

int history_reserve(const char *path, const struct sw_run *r, char *err, size_t errlen)
{
	sqlite3 *db = db_begin(path, err, errlen);
	char now[32];
	int rc;

	if (!db)
		return -1;
	now_iso(now, sizeof(now));
	rc = sql_run(db, path, "INSERT INTO runs (name, label, started, recorded, tool_version, command_line, nranks,"
		     " complete, failure) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, 'running') ON CONFLICT(name) DO NOTHING",
		     SQL_VALS(sql_text(r->name), sql_text(r->cfg.label), sql_text(r->started[0] ? r->started : now),
			      sql_text(now), sql_text(r->tool_version), sql_text(r->command_line), sql_int(r->nranks)),
		     NULL, NULL, err, errlen);
	if (rc == 0 && sqlite3_changes(db) == 0)
		rc = 1;   /* another run's name */
	return db_end(db, path, rc < 0 ? -1 : 0, err, errlen) ? -1 : rc;
}

int history_record_check(const char *db, const struct sw_run *r, const struct sw_analysis *a,
			 const struct health_verdict *v, char *err, size_t errlen)
{
	return record(db, r, a, NULL, v, err, errlen);
}

/* ---------------------------------------------------------------- */
/* Baseline sets                                                      */

int history_baseline_put(const char *path, const char *set, const struct history_member *m, size_t n,
			 bool replace, char *err, size_t errlen)
{
	static const char *const sql =
		"INSERT INTO baseline_runs (baseline, run, folder, started, added, rolling)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(baseline, run) DO UPDATE SET folder = ?3,"
		" started = ?4, added = ?5, rolling = ?6";
	sqlite3 *db = db_begin(path, err, errlen);
	char now[32];
	int rc = 0;

	if (!db)
		return -1;
	now_iso(now, sizeof(now));
	if (replace)
		rc = sql_run(db, path, "DELETE FROM baseline_runs WHERE baseline = ?1", SQL_VALS(sql_text(set)),
			     NULL, NULL, err, errlen);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = sql_run(db, path, sql,
			     SQL_VALS(sql_text(set), sql_text(m[i].run), sql_text(m[i].folder), sql_text(m[i].started),
				      sql_text(now), sql_int(m[i].rolling)),
			     NULL, NULL, err, errlen);
	return db_end(db, path, rc, err, errlen);
}

int history_baseline_remove(const char *path, const char *set, const char *run, int *removed,
			    char *err, size_t errlen)
{
	sqlite3 *db = db_open(path, false, err, errlen);
	int rc;

	*removed = 0;
	if (!db)
		return -1;
	/* without a run, the statement has no ?2 */
	rc = sql_run(db, path, run ? "DELETE FROM baseline_runs WHERE baseline = ?1 AND run = ?2"
				   : "DELETE FROM baseline_runs WHERE baseline = ?1",
		     SQL_VALS(sql_text(set), sql_text(run)), NULL, NULL, err, errlen);
	if (rc == 0)
		*removed = sqlite3_changes(db);
	sqlite3_close(db);
	return rc;
}

int history_baseline_trim(const char *path, const char *set, int keep, char *err, size_t errlen)
{
	sqlite3 *db = db_open(path, false, err, errlen);
	int rc;

	if (!db)
		return -1;
	rc = sql_run(db, path, "DELETE FROM baseline_runs WHERE baseline = ?1 AND rolling = 1 AND run NOT IN"
		     " (SELECT run FROM baseline_runs WHERE baseline = ?1 AND rolling = 1"
		     " ORDER BY started DESC, run DESC LIMIT ?2)",
		     SQL_VALS(sql_text(set), sql_int(keep)), NULL, NULL, err, errlen);
	sqlite3_close(db);
	return rc;
}

/* Copy column col as text into buf ("" when NULL). */
static void col_text(sqlite3_stmt *st, int col, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

/* One row into elem (zeroed); false skips the row. */
typedef bool (*row_fn)(sqlite3_stmt *st, void *elem);

/* A growing array of size-byte elements, each row through fn. */
struct rows {
	size_t size;
	row_fn fn;
	char *v;
	size_t n, cap;
};

static int add_row(sqlite3_stmt *st, void *arg)
{
	struct rows *r = arg;

	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 16;
		char *p = realloc(r->v, nc * r->size);

		if (!p)
			return -1;
		r->v = p;
		r->cap = nc;
	}
	memset(r->v + r->n * r->size, 0, r->size);
	r->n += r->fn(st, r->v + r->n * r->size);
	return 0;
}

/* Run sql with the nv values v on the history at path, each row through
 * fn into a growing array of size-byte elements: *out (malloc'ed, caller
 * frees; NULL when empty) and *n. 0 or -1 with "DB: reason" in err. */
static int collect(const char *path, const char *sql, const struct sql_val *v, int nv, size_t size, row_fn fn,
		   void **out, size_t *n, char *err, size_t errlen)
{
	struct rows rows = { .size = size, .fn = fn };
	sqlite3 *db = db_open(path, false, err, errlen);
	int rc = db ? sql_run(db, path, sql, v, nv, add_row, &rows, err, errlen) : -1;

	sqlite3_close(db);
	if (rc || !rows.n) {
		free(rows.v);
		rows.v = NULL;
		rows.n = 0;
	}
	*out = rows.v;
	*n = rows.n;
	return rc;
}

static bool member_row(sqlite3_stmt *st, void *elem)
{
	struct history_member *m = elem;

	col_text(st, 0, m->set, sizeof(m->set));
	col_text(st, 1, m->run, sizeof(m->run));
	col_text(st, 2, m->folder, sizeof(m->folder));
	col_text(st, 3, m->started, sizeof(m->started));
	col_text(st, 4, m->added, sizeof(m->added));
	m->rolling = sqlite3_column_int(st, 5);
	return true;
}

int history_baseline_members(const char *path, const char *set, struct history_member **out, size_t *n,
			     char *err, size_t errlen)
{
	return collect(path, "SELECT baseline, run, folder, started, added, rolling FROM baseline_runs"
		       " WHERE ?1 IS NULL OR baseline = ?1 ORDER BY baseline, started, run",
		       SQL_VALS(sql_text(set)), sizeof(**out), member_row, (void **)out, n, err, errlen);
}

/* A night of a series; rows without the metric are skipped. */
static bool point_row(sqlite3_stmt *st, void *elem)
{
	struct history_point *p = elem;

	if (sqlite3_column_type(st, 2) == SQLITE_NULL)
		return false;
	col_text(st, 0, p->run, sizeof(p->run));
	col_text(st, 1, p->started, sizeof(p->started));
	p->value = sqlite3_column_double(st, 2);
	return true;
}

int history_cell_series(const char *path, const char *baseline, const char *after, const struct sw_run *r,
			const char *pattern, unsigned long long size, int nodes, long hops, bool latency,
			struct history_point **out, size_t *n, char *err, size_t errlen)
{
	static const char *const sql[2] = {
#define SERIES(col) "SELECT r.name, r.started, c." col " FROM runs r JOIN cells c ON c.run_id = r.id" \
		" WHERE r.started > ?1 AND r.started <= ?8 AND r.name <> ?2 AND c.pattern = ?3 AND c.size_bytes = ?4" \
		" AND c.nodes = ?5" \
		" AND (?6 < 0 OR c.hops = ?6)" \
		" AND EXISTS (SELECT 1 FROM checks k WHERE k.run_id = r.id AND k.baseline = ?7)" \
		" ORDER BY r.started, r.id"
		SERIES("bw_median_Bps"), SERIES("lat_median_s"),
#undef SERIES
	};

	*out = NULL;
	*n = 0;
	if (access(path, F_OK))
		return 0;
	return collect(path, sql[latency],
		       SQL_VALS(sql_text(after ? after : ""), sql_text(r->name), sql_text(pattern),
				sql_int((sqlite3_int64)size), sql_int(nodes), sql_int(hops), sql_text(baseline),
				sql_text(r->started[0] ? r->started : "9999")),
		       sizeof(**out), point_row, (void **)out, n, err, errlen);
}

/* ---------------------------------------------------------------- */
/* Reading                                                            */

/* The rest of an ISO date after YYYY-MM-DD: [T| ]HH:MM[:SS[.frac]][zone]. */
static const char *iso_time(const char *p, struct tm *tm)
{
	if (*p != 'T' && *p != ' ')
		return p;
	if (!(p = strptime(p + 1, "%H:%M", tm)))
		return NULL;
	if (*p == ':' && !(p = strptime(p + 1, "%S", tm)))
		return NULL;
	if (*p == '.' || *p == ',')   /* date -Ins: fractions of a second */
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if (*p && !(p = strptime(p, "%z", tm)))   /* Z, +HH, +HHMM, +HH:MM */
		return NULL;
	return p;
}

int history_parse_time(const char *s, time_t *t)
{
	static const char *const forms[] = {
		"%a %b %e %H:%M:%S UTC %Y",     /* date -u, date in UTC */
		"%a %b %e %H:%M:%S GMT %Y",
		"%a, %d %b %Y %H:%M:%S %z",     /* date -R */
	};
	struct tm tm;
	const char *end;

	for (size_t i = 0; i <= sizeof(forms) / sizeof(forms[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		if (i < sizeof(forms) / sizeof(forms[0]))
			end = strptime(s, forms[i], &tm);
		else if ((end = strptime(s, "%Y-%m-%d", &tm)) && end - s == 10)
			end = iso_time(end, &tm);
		else
			end = NULL;
		if (end && !*end && labs(tm.tm_gmtoff) <= 14 * 3600) {
			long off = tm.tm_gmtoff;   /* timegm resets it */
			int mday = tm.tm_mday, mon = tm.tm_mon;

			*t = timegm(&tm) - off;
			/* timegm moved 2026-02-30 to 2 March: no such day */
			return tm.tm_mday == mday && tm.tm_mon == mon ? 0 : -1;
		}
	}
	return -1;
}

/* The latest check of each run: a subquery used by the readers. */
#define LATEST_CHECK "(SELECT MAX(id) FROM checks k WHERE k.run_id = r.id)"

/* The runs of a history_filter, its values (FILTER_VALS) as ?1 to ?3. */
#define RUN_FILTER \
	" r.started >= ?1 AND (?2 IS NULL OR r.label = ?2) AND (?3 IS NULL" \
	" OR ?3 = json_extract(r.config, '$.model')" \
	" OR ?3 = json_extract(r.config, '$.vendor') || ' ' || json_extract(r.config, '$.model'))"
#define FILTER_VALS(f) \
	SQL_VALS(sql_text((f) && (f)->since ? (f)->since : ""), sql_text((f) ? (f)->label : NULL), \
		 sql_text((f) ? (f)->sw : NULL))

static bool run_row(sqlite3_stmt *st, void *elem)
{
	struct history_run *h = elem;

	h->id = sqlite3_column_int64(st, 0);
	col_text(st, 1, h->name, sizeof(h->name));
	col_text(st, 2, h->label, sizeof(h->label));
	col_text(st, 3, h->started, sizeof(h->started));
	h->nranks = sqlite3_column_int(st, 4);
	h->complete = sqlite3_column_int(st, 5);
	h->ncells = sqlite3_column_int(st, 6);
	h->status = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 7);
	snprintf(h->verdict, sizeof(h->verdict), "%s",
		 sqlite3_column_type(st, 8) == SQLITE_NULL ? "-" : (const char *)sqlite3_column_text(st, 8));
	col_text(st, 9, h->summary, sizeof(h->summary));
	return true;
}

int history_list(const char *path, const struct history_filter *flt, struct history_run **out, size_t *n,
		 char *err, size_t errlen)
{
	static const char *const sql =
		"SELECT r.id, r.name, r.label, r.started, r.nranks, r.complete,"
		" (SELECT COUNT(*) FROM cells c WHERE c.run_id = r.id),"
		" k.status, k.verdict, k.summary"
		" FROM runs r LEFT JOIN checks k ON k.id = " LATEST_CHECK
		" WHERE" RUN_FILTER " ORDER BY r.started, r.id";

	return collect(path, sql, FILTER_VALS(flt), sizeof(**out), run_row, (void **)out, n, err, errlen);
}

static void csv_num(FILE *f, sqlite3_stmt *st, int col, double k)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		fputs(",NaN", f);
	else
		fprintf(f, ",%.6g", sqlite3_column_double(st, col) * k);
}

/* A text field for CSV: quoted (RFC 4180) when it holds a comma, quote or
 * newline. */
static void csv_text(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}


static const char *const sql_rows =
	"SELECT r.started, r.name, r.label, c.pattern, c.size_bytes, c.nodes, c.pairs, c.hops, c.n,"
	" c.lat_median_s, c.lat_lo_s, c.lat_hi_s, c.bw_median_Bps, c.bw_lo_Bps, c.bw_hi_Bps,"
	" x.base_lat_median_s, x.base_lat_lo_s, x.base_lat_hi_s,"
	" x.base_bw_median_Bps, x.base_bw_lo_Bps, x.base_bw_hi_Bps, x.change_pct, x.status,"
	" k.status, k.verdict, x.sigma, x.ewma, x.ewma_limit, x.drift"
	" FROM runs r JOIN cells c ON c.run_id = r.id"
	" LEFT JOIN checks k ON k.id = " LATEST_CHECK
	" LEFT JOIN check_cells x ON x.check_id = k.id AND x.cell = c.cell"
	" WHERE" RUN_FILTER
	" ORDER BY r.started, r.id, c.cell";

/* One row of sql_rows as a CSV line into the FILE arg. */
static int csv_row(sqlite3_stmt *st, void *arg)
{
	FILE *f = arg;
	const char *started = (const char *)sqlite3_column_text(st, 0);
	double t = sw_iso_epoch(started);

	csv_text(f, started);
	if (isfinite(t))
		fprintf(f, ",%.0f,", t);
	else
		fputs(",NaN,", f);
	csv_text(f, (const char *)sqlite3_column_text(st, 1));
	fputc(',', f);
	csv_text(f, (const char *)sqlite3_column_text(st, 2));
	fputc(',', f);
	csv_text(f, (const char *)sqlite3_column_text(st, 3));
	fprintf(f, ",%lld,%d,%d,%lld,%lld", (long long)sqlite3_column_int64(st, 4), sqlite3_column_int(st, 5),
		sqlite3_column_int(st, 6), (long long)sqlite3_column_int64(st, 7),
		(long long)sqlite3_column_int64(st, 8));
	for (int c = 9; c <= 20; c++) {
		bool lat = (c >= 9 && c <= 11) || (c >= 15 && c <= 17);

		csv_num(f, st, c, lat ? 1e6 : 1e-6);
	}
	csv_num(f, st, 21, 1);
	fprintf(f, ",%d,%d,", sqlite3_column_type(st, 22) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 22),
		sqlite3_column_type(st, 23) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 23));
	fputs(sqlite3_column_type(st, 24) == SQLITE_NULL ? "run" : (const char *)sqlite3_column_text(st, 24), f);
	for (int c = 25; c <= 27; c++)
		csv_num(f, st, c, 1);
	fprintf(f, ",%d\n", sqlite3_column_type(st, 28) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 28));
	return 0;
}

int history_write_csv(FILE *f, const char *path, const struct history_filter *flt, char *err, size_t errlen)
{
	sqlite3 *db = db_open(path, false, err, errlen);
	int rc;

	if (!db)
		return -1;
	fprintf(f, "# swstress %s history %s, latency us, MB/s = 10^6 bytes/s\n", SW_VERSION, path);
	fputs("started,epoch_s,run,label,pattern,size_bytes,nodes,pairs,hops,n,"
	      "lat_median_us,lat_lo_us,lat_hi_us,bw_median_MBps,bw_lo_MBps,bw_hi_MBps,"
	      "base_lat_median_us,base_lat_lo_us,base_lat_hi_us,"
	      "base_bw_median_MBps,base_bw_lo_MBps,base_bw_hi_MBps,"
	      "change_pct,cell_status,status,verdict,sigma,ewma,ewma_limit,drift\n", f);
	rc = sql_run(db, path, sql_rows, FILTER_VALS(flt), csv_row, f, err, errlen);
	if (rc == 0 && ferror(f))
		rc = sw_fail(err, errlen, "write failed: %s", strerror(errno));
	sqlite3_close(db);
	return rc;
}

/* One cell's trend over the runs listed, printed into f. */
struct trend {
	FILE *f;
	char pattern[32];
	long long size;
	int nodes, runs;
	double first, last, min, max;
};

/* The trend's line, when it has runs; then none. Values through fmt.c
 * (scaled units, no e-notation: "%.4g" printed 1.234e+04 MB/s), one
 * space between columns so the line fits 80 (TREND_HEAD). */
#define TREND_ROW "%-8s %6s %5s %4s %10s %10s %7s %10s %10s\n"
static void trend_print(struct trend *t)
{
	char sz[32], a[32], b[32], mn[32], mx[32];
	bool lat;

	if (!t->runs)
		return;
	lat = pattern_latency_metric(pattern_find(t->pattern));
	config_format_size((uint64_t)t->size, sz, sizeof(sz));
	enum fmt_unit u = lat ? FMT_TIME : FMT_BW;
	double scale = lat ? 1e-6 : 1e6;   /* us, MB/s in the store */
	char nodes[16], runs[16], chg[32];

	fmt_val(a, sizeof(a), u, t->first * scale);
	fmt_val(b, sizeof(b), u, t->last * scale);
	fmt_val(mn, sizeof(mn), u, t->min * scale);
	fmt_val(mx, sizeof(mx), u, t->max * scale);
	fmt_pct(chg, sizeof(chg), (lat ? t->last / t->first - 1 : 1 - t->last / t->first) * 100);   /* > 0 worse */
	snprintf(nodes, sizeof(nodes), "%d", t->nodes);
	snprintf(runs, sizeof(runs), "%d", t->runs);
	fprintf(t->f, TREND_ROW, t->pattern, sz, nodes, runs, a, b, chg, mn, mx);
	t->runs = 0;
}

/* One run's value of a cell into the struct trend arg: a new cell prints
 * the one before. */
static int trend_row(sqlite3_stmt *st, void *arg)
{
	struct trend *t = arg;
	const char *pat = (const char *)sqlite3_column_text(st, 0);
	long long size = sqlite3_column_int64(st, 1);
	int nodes = sqlite3_column_int(st, 2);
	bool lat = pat && pattern_latency_metric(pattern_find(pat));
	double x = NAN;

	if (sqlite3_column_type(st, lat ? 3 : 4) != SQLITE_NULL)
		x = sqlite3_column_double(st, lat ? 3 : 4) * (lat ? 1e6 : 1e-6);
	if (strcmp(t->pattern, pat ? pat : "") || t->size != size || t->nodes != nodes)
		trend_print(t);
	if (!isfinite(x))
		return 0;
	if (t->runs == 0) {
		snprintf(t->pattern, sizeof(t->pattern), "%s", pat ? pat : "");
		t->size = size;
		t->nodes = nodes;
		t->first = t->min = t->max = x;
	}
	t->runs++;
	t->last = x;
	t->min = x < t->min ? x : t->min;
	t->max = x > t->max ? x : t->max;
	return 0;
}

int history_write_table(FILE *f, const char *path, const struct history_filter *flt, char *err, size_t errlen)
{
	static const char *const sql_trend =
		"SELECT c.pattern, c.size_bytes, c.nodes, c.lat_median_s, c.bw_median_Bps"
		" FROM runs r JOIN cells c ON c.run_id = r.id WHERE" RUN_FILTER
		" ORDER BY c.pattern, c.size_bytes, c.nodes, r.started, r.id";
	struct history_run *runs = NULL;
	size_t nruns = 0;
	sqlite3 *db;
	struct trend t = { .f = f };
	int rc;

	if (history_list(path, flt, &runs, &nruns, err, errlen))
		return -1;
	fprintf(f, "runs in %s", path);
	if (flt && flt->since && flt->since[0])
		fprintf(f, " since %s", flt->since);
	if (flt && flt->label)
		fprintf(f, " with label %s", flt->label);
	if (flt && flt->sw)
		fprintf(f, " of switch %s", flt->sw);
	fprintf(f, ": %zu\n", nruns);
	/* the run column as wide as its longest name (36 fixed made 101
	 * columns); a verdict's summary on its own line below, cut to 80 */
	int wname = 3;

	for (size_t i = 0; i < nruns; i++)
		if ((int)strlen(runs[i].name) > wname)
			wname = (int)strlen(runs[i].name);
	if (nruns)
		fprintf(f, "%-20s  %-*s  %5s  %5s  %-8s  %s\n", "started", wname, "run", "ranks", "cells",
			"complete", "verdict");
	for (size_t i = 0; i < nruns; i++) {
		fprintf(f, "%-20s  %-*s  %5d  %5d  %-8s  %s\n", runs[i].started, wname, runs[i].name,
			runs[i].nranks, runs[i].ncells, runs[i].complete ? "yes" : "no", runs[i].verdict);
		if (runs[i].summary[0])
			fprintf(f, "  %.75s%s\n", runs[i].summary, strlen(runs[i].summary) > 75 ? "..." : "");
	}
	free(runs);
	db = db_open(path, false, err, errlen);
	if (!db)
		return -1;
	fputs("\ntrend of each cell over these runs (median per-hop latency for pingpong,\n"
	      "per-pair bandwidth otherwise, MB/s = 10^6 bytes/s; change from the first to\n"
	      "the last run, positive = worse):\n", f);
	fprintf(f, TREND_ROW, "pattern", "size", "nodes", "runs", "first", "last", "change", "min", "max");
	rc = sql_run(db, path, sql_trend, FILTER_VALS(flt), trend_row, &t, err, errlen);
	if (rc == 0)
		trend_print(&t);
	sqlite3_close(db);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Retention                                                          */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* The folder's time from its name's -YYYYmmdd-HHMMSS tail; -1 if none. */
static time_t folder_time(const char *name)
{
	size_t n = strlen(name);
	struct tm tm = { 0 };
	const char *end;

	if (n < 17 || name[n - 16] != '-' || !(end = strptime(name + n - 15, "%Y%m%d-%H%M%S", &tm)) || *end)
		return -1;
	return timegm(&tm);
}

int history_prune(const char *db, const char *output, time_t cutoff, int *nfolders, int *nruns,
		  char *err, size_t errlen)
{
	struct history_member *m = NULL;
	size_t nm = 0;
	char path[SW_PATH_MAX + 300], json[SW_PATH_MAX + 320], real[PATH_MAX], iso[32];
	struct dirent *e;
	sqlite3 *h = NULL;
	struct tm tm;
	DIR *d;
	int rc = -1;

	*nfolders = *nruns = 0;
	if (access(db, F_OK) == 0 && history_baseline_members(db, NULL, &m, &nm, err, errlen))
		return -1;
	d = opendir(output);
	if (!d) {
		sw_fail(err, errlen, "%s: %s", output, strerror(errno));
		goto out;
	}
	while ((e = readdir(d))) {
		time_t t = folder_time(e->d_name);
		bool kept = false;

		if (t < 0 || t >= cutoff)
			continue;
		snprintf(path, sizeof(path), "%s/%s", output, e->d_name);
		snprintf(json, sizeof(json), "%s/run.json", path);
		if (access(json, F_OK) || !realpath(path, real))
			continue;
		for (size_t i = 0; i < nm && !kept; i++)
			kept = !strcmp(m[i].folder, real);
		if (kept)
			continue;
		if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS)) {
			sw_fail(err, errlen, "%s: cannot remove: %s", path, strerror(errno));
			closedir(d);
			goto out;
		}
		(*nfolders)++;
	}
	closedir(d);
	rc = 0;
	if (access(db, F_OK))
		goto out;
	rc = -1;
	h = db_open(db, false, err, errlen);
	if (!h)
		goto out;
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&cutoff, &tm));
	if (sql_run(h, db, "DELETE FROM runs WHERE started < ?1 AND name NOT IN (SELECT run FROM baseline_runs)",
		    SQL_VALS(sql_text(iso)), NULL, NULL, err, errlen))
		goto out;
	*nruns = sqlite3_changes(h);
	rc = 0;
out:
	sqlite3_close(h);
	free(m);
	return rc;
}

