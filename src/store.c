/*
 * store.c - the catalog store on SQLite or PostgreSQL; see store.h.
 *
 * The two back ends sit behind one table of functions (exec, query, close):
 * every statement is written once, with parameters $1..$n passed as text
 * (SQLite binds them by name, PostgreSQL infers their types from the
 * columns), and NULL for numbers that do not exist. Nothing is built into
 * SQL text from data.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libpq-fe.h>
#include "analysis.h"
#include "blame_out.h"
#include "config.h"
#include "mapout.h"
#include "pattern.h"
#include "results.h"
#include "sfile.h"
#include "sql.h"
#include "store.h"
#include "text.h"

struct store;

struct store_ops {
	/* A statement without rows; *changes (may be NULL) gets the rows it
	 * changed. With n == 0, sql may hold several statements. */
	int (*exec)(struct store *s, const char *sql, int n, const char *const *params, long *changes,
		    char *err, size_t errlen);
	int (*query)(struct store *s, const char *sql, int n, const char *const *params,
		     store_row_fn fn, void *arg, char *err, size_t errlen);
	void (*close)(struct store *s);
	const char *begin;       /* starts a writing transaction */
	const char *lock;        /* then serialises migrations (NULL: begin did) */
};

struct store {
	const struct store_ops *ops;
	sqlite3 *db;
	PGconn *pg;
	char name[SW_PATH_MAX];  /* for messages; a URL without its password */
	int version;
};

/* ---- SQLite ---- */

/* The most parameters and columns of one statement. */
#define LITE_MAX 64

/* A store_query row function and its argument, behind sql_run's. */
struct lite_rows {
	store_row_fn fn;
	void *arg;
};

static int lite_row(sqlite3_stmt *st, void *arg)
{
	struct lite_rows *r = arg;
	const char *vals[LITE_MAX];
	int ncols = sqlite3_column_count(st);

	if (ncols > LITE_MAX)
		ncols = LITE_MAX;
	for (int i = 0; i < ncols; i++)
		vals[i] = (const char *)sqlite3_column_text(st, i);
	return r->fn(r->arg, ncols, vals) ? -1 : 0;
}

static int lite_query(struct store *s, const char *sql, int n, const char *const *params,
		      store_row_fn fn, void *arg, char *err, size_t errlen)
{
	struct lite_rows rows = { fn, arg };
	struct sql_val v[LITE_MAX];

	if (n > LITE_MAX)
		return sw_fail(err, errlen, "%s: %d parameters, at most %d", s->name, n, LITE_MAX);
	for (int i = 0; i < n; i++)
		v[i] = sql_text(params[i]);
	return sql_run(s->db, s->name, sql, v, n, fn ? lite_row : NULL, &rows, err, errlen);
}

static int lite_exec(struct store *s, const char *sql, int n, const char *const *params, long *changes,
		     char *err, size_t errlen)
{
	if (n == 0 && !changes)
		return sql_exec(s->db, s->name, sql, err, errlen);
	if (lite_query(s, sql, n, params, NULL, NULL, err, errlen))
		return -1;
	if (changes)
		*changes = sqlite3_changes(s->db);
	return 0;
}

static void lite_close(struct store *s)
{
	sqlite3_close(s->db);
}

static const struct store_ops lite_ops = {
	lite_exec, lite_query, lite_close, "BEGIN IMMEDIATE", NULL,
};

/* ---- PostgreSQL ---- */

/* The first line of libpq's message. */
static int pg_fail(struct store *s, const char *msg, char *err, size_t errlen)
{
	return sw_fail(err, errlen, "%s: %.*s", s->name, (int)strcspn(msg, "\n"), msg);
}

static PGresult *pg_run(struct store *s, const char *sql, int n, const char *const *params,
			ExecStatusType want, char *err, size_t errlen)
{
	PGresult *res = n ? PQexecParams(s->pg, sql, n, NULL, params, NULL, NULL, 0) : PQexec(s->pg, sql);

	ExecStatusType st = PQresultStatus(res);

	/* exec runs statements for their effect: rows are fine (SELECT lock) */
	if (st != want && !(want == PGRES_COMMAND_OK && st == PGRES_TUPLES_OK)) {
		const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(s->pg);

		pg_fail(s, *msg ? msg : PQresStatus(st), err, errlen);
		PQclear(res);
		return NULL;
	}
	return res;
}

static int pg_exec(struct store *s, const char *sql, int n, const char *const *params, long *changes,
		   char *err, size_t errlen)
{
	PGresult *res = pg_run(s, sql, n, params, PGRES_COMMAND_OK, err, errlen);

	if (!res)
		return -1;
	if (changes && sw_parse_long(PQcmdTuples(res), 0, LONG_MAX, changes))
		*changes = 0;   /* "" for a command that counts no rows */
	PQclear(res);
	return 0;
}

static int pg_query(struct store *s, const char *sql, int n, const char *const *params,
		    store_row_fn fn, void *arg, char *err, size_t errlen)
{
	PGresult *res = pg_run(s, sql, n, params, PGRES_TUPLES_OK, err, errlen);
	const char *vals[64];
	int ncols, rc = 0;

	if (!res)
		return -1;
	ncols = PQnfields(res) > 64 ? 64 : PQnfields(res);
	for (int r = 0; r < PQntuples(res) && !rc; r++) {
		for (int i = 0; i < ncols; i++)
			vals[i] = PQgetisnull(res, r, i) ? NULL : PQgetvalue(res, r, i);
		if (fn(arg, ncols, vals))
			rc = sw_fail(err, errlen, "%s: out of memory reading the store", s->name);
	}
	PQclear(res);
	return rc;
}

static void pg_close(struct store *s)
{
	PQfinish(s->pg);
}

static const struct store_ops pg_ops = {
	pg_exec, pg_query, pg_close, "BEGIN", "SELECT pg_advisory_xact_lock(7316252)",
};

/* ---- schema ---- */

/* Migration i brings the schema from version i to i + 1. Types that mean
 * the same in SQLite and PostgreSQL only. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	"CREATE TABLE runs ("
	" name TEXT PRIMARY KEY,"
	" started TEXT NOT NULL, published TEXT NOT NULL,"
	" tool_version TEXT NOT NULL, mpi_version TEXT NOT NULL, command_line TEXT NOT NULL,"
	" nranks INTEGER NOT NULL, max_nodes INTEGER NOT NULL, hosts TEXT NOT NULL,"
	" vendor TEXT NOT NULL, model TEXT NOT NULL, firmware TEXT NOT NULL,"
	" port_speed TEXT NOT NULL, ports_used INTEGER NOT NULL, topology TEXT NOT NULL,"
	" oversubscription TEXT NOT NULL, cabling TEXT NOT NULL, notes TEXT NOT NULL,"
	" nic TEXT NOT NULL, transport TEXT NOT NULL);"
	"CREATE TABLE run_files ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" file TEXT NOT NULL, content TEXT NOT NULL, PRIMARY KEY (run, file));"
	"CREATE TABLE cells ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" cell INTEGER NOT NULL, level INTEGER NOT NULL, nodes INTEGER NOT NULL, pairs INTEGER NOT NULL,"
	" pattern TEXT NOT NULL, size_bytes BIGINT NOT NULL, hops BIGINT NOT NULL, reps INTEGER NOT NULL,"
	" n INTEGER NOT NULL,"
	" lat_median_us DOUBLE PRECISION, lat_lo_us DOUBLE PRECISION, lat_hi_us DOUBLE PRECISION,"
	" bw_median_MBps DOUBLE PRECISION, bw_lo_MBps DOUBLE PRECISION, bw_hi_MBps DOUBLE PRECISION,"
	" agg_median_MBps DOUBLE PRECISION, agg_lo_MBps DOUBLE PRECISION, agg_hi_MBps DOUBLE PRECISION,"
	" lat_infl_pct DOUBLE PRECISION, lat_infl_lo DOUBLE PRECISION, lat_infl_hi DOUBLE PRECISION,"
	" lat_infl_p DOUBLE PRECISION, lat_infl_sig INTEGER,"
	" bw_drop_pct DOUBLE PRECISION, bw_drop_lo DOUBLE PRECISION, bw_drop_hi DOUBLE PRECISION,"
	" bw_drop_p DOUBLE PRECISION, bw_drop_sig INTEGER,"
	" PRIMARY KEY (run, cell));",
	/* 2: the ports verdict, and switches found by vendor and model */
	"CREATE TABLE suspects ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" host TEXT NOT NULL, flagged INTEGER NOT NULL, cells INTEGER NOT NULL,"
	" PRIMARY KEY (run, host));"
	"CREATE INDEX runs_switch ON runs(vendor, model);",
	/* 3: runs that measured a host (ranks that shared one), and the
	 * [switch] keys given at publish time */
	"ALTER TABLE runs ADD COLUMN shared_node INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN supplied TEXT NOT NULL DEFAULT '';",
	/* 4: the changes of a sequential run that drifted (summary.csv's drifted) */
	"ALTER TABLE cells ADD COLUMN drifted INTEGER NOT NULL DEFAULT 0;",
	/* 5: a map run's statistics (schedule = map: mapout.h), in the CSV
	 * units (MB/s or us, the map's metric) */
	"CREATE TABLE maps ("
	" run TEXT PRIMARY KEY REFERENCES runs(name) ON DELETE CASCADE,"
	" metric TEXT NOT NULL, nhosts INTEGER NOT NULL, ngroups INTEGER NOT NULL, inferred INTEGER NOT NULL,"
	" floor DOUBLE PRECISION NOT NULL, alpha DOUBLE PRECISION NOT NULL, confidence DOUBLE PRECISION NOT NULL);"
	"CREATE TABLE map_hosts ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" host TEXT NOT NULL, group_name TEXT NOT NULL, axis INTEGER NOT NULL,"
	" score DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL,"
	" rel DOUBLE PRECISION, slower INTEGER NOT NULL, tested INTEGER NOT NULL, p DOUBLE PRECISION,"
	" flagged INTEGER NOT NULL, PRIMARY KEY (run, host));"
	"CREATE TABLE map_groups ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" kind TEXT NOT NULL, group_a TEXT NOT NULL, group_b TEXT NOT NULL, n INTEGER NOT NULL,"
	" median DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION,"
	" rel DOUBLE PRECISION, rel_lo DOUBLE PRECISION, rel_hi DOUBLE PRECISION, p DOUBLE PRECISION,"
	" flagged INTEGER NOT NULL, capacity DOUBLE PRECISION, cap_lo DOUBLE PRECISION,"
	" cap_hi DOUBLE PRECISION, cap_pairs INTEGER NOT NULL, PRIMARY KEY (run, kind, group_a, group_b));"
	"CREATE TABLE map_links ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" host_a TEXT NOT NULL, host_b TEXT NOT NULL,"
	" median DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL,"
	" rel DOUBLE PRECISION, flagged INTEGER NOT NULL, cause TEXT NOT NULL, PRIMARY KEY (run, host_a, host_b));"
	"CREATE TABLE map_claims ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" claim INTEGER NOT NULL, kind TEXT NOT NULL, element TEXT NOT NULL, holds TEXT NOT NULL,"
	" rel DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, p DOUBLE PRECISION,"
	" evidence TEXT NOT NULL, PRIMARY KEY (run, claim));",
	/* 6: a map per pattern and size (schema 5 kept the first only): the
	 * map tables again, keyed by run, pattern and size_bytes too; the
	 * rows of 5 are their run's first cell's pattern and size */
	"ALTER TABLE maps RENAME TO maps_v5;"
	"ALTER TABLE map_hosts RENAME TO map_hosts_v5;"
	"ALTER TABLE map_groups RENAME TO map_groups_v5;"
	"ALTER TABLE map_links RENAME TO map_links_v5;"
	"ALTER TABLE map_claims RENAME TO map_claims_v5;"
	"CREATE TABLE maps ("
	" run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE,"
	" pattern TEXT NOT NULL, size_bytes BIGINT NOT NULL,"
	" metric TEXT NOT NULL, nhosts INTEGER NOT NULL, ngroups INTEGER NOT NULL, inferred INTEGER NOT NULL,"
	" floor DOUBLE PRECISION NOT NULL, alpha DOUBLE PRECISION NOT NULL, confidence DOUBLE PRECISION NOT NULL,"
	" PRIMARY KEY (run, pattern, size_bytes));"
	"CREATE TABLE map_hosts ("
	" run TEXT NOT NULL, pattern TEXT NOT NULL, size_bytes BIGINT NOT NULL,"
	" host TEXT NOT NULL, group_name TEXT NOT NULL, axis INTEGER NOT NULL,"
	" score DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL,"
	" rel DOUBLE PRECISION, slower INTEGER NOT NULL, tested INTEGER NOT NULL, p DOUBLE PRECISION,"
	" flagged INTEGER NOT NULL, PRIMARY KEY (run, pattern, size_bytes, host),"
	" FOREIGN KEY (run, pattern, size_bytes) REFERENCES maps(run, pattern, size_bytes) ON DELETE CASCADE);"
	"CREATE TABLE map_groups ("
	" run TEXT NOT NULL, pattern TEXT NOT NULL, size_bytes BIGINT NOT NULL,"
	" kind TEXT NOT NULL, group_a TEXT NOT NULL, group_b TEXT NOT NULL, n INTEGER NOT NULL,"
	" median DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION,"
	" rel DOUBLE PRECISION, rel_lo DOUBLE PRECISION, rel_hi DOUBLE PRECISION, p DOUBLE PRECISION,"
	" flagged INTEGER NOT NULL, capacity DOUBLE PRECISION, cap_lo DOUBLE PRECISION,"
	" cap_hi DOUBLE PRECISION, cap_pairs INTEGER NOT NULL,"
	" PRIMARY KEY (run, pattern, size_bytes, kind, group_a, group_b),"
	" FOREIGN KEY (run, pattern, size_bytes) REFERENCES maps(run, pattern, size_bytes) ON DELETE CASCADE);"
	"CREATE TABLE map_links ("
	" run TEXT NOT NULL, pattern TEXT NOT NULL, size_bytes BIGINT NOT NULL,"
	" host_a TEXT NOT NULL, host_b TEXT NOT NULL,"
	" median DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL,"
	" rel DOUBLE PRECISION, flagged INTEGER NOT NULL, cause TEXT NOT NULL,"
	" PRIMARY KEY (run, pattern, size_bytes, host_a, host_b),"
	" FOREIGN KEY (run, pattern, size_bytes) REFERENCES maps(run, pattern, size_bytes) ON DELETE CASCADE);"
	"CREATE TABLE map_claims ("
	" run TEXT NOT NULL, pattern TEXT NOT NULL, size_bytes BIGINT NOT NULL,"
	" claim INTEGER NOT NULL, kind TEXT NOT NULL, element TEXT NOT NULL, holds TEXT NOT NULL,"
	" rel DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, p DOUBLE PRECISION,"
	" evidence TEXT NOT NULL, PRIMARY KEY (run, pattern, size_bytes, claim),"
	" FOREIGN KEY (run, pattern, size_bytes) REFERENCES maps(run, pattern, size_bytes) ON DELETE CASCADE);"
	"INSERT INTO maps (run, pattern, size_bytes, metric, nhosts, ngroups, inferred, floor, alpha, confidence)"
	" SELECT m.run,"
	" (SELECT c.pattern FROM cells c WHERE c.run = m.run ORDER BY c.cell LIMIT 1),"
	" (SELECT c.size_bytes FROM cells c WHERE c.run = m.run ORDER BY c.cell LIMIT 1),"
	" m.metric, m.nhosts, m.ngroups, m.inferred, m.floor, m.alpha, m.confidence FROM maps_v5 m;"
	"INSERT INTO map_hosts (run, pattern, size_bytes, host, group_name, axis, score, lo, hi, n, rel, slower,"
	" tested, p, flagged) SELECT x.run, m.pattern, m.size_bytes, x.host, x.group_name, x.axis, x.score, x.lo,"
	" x.hi, x.n, x.rel, x.slower, x.tested, x.p, x.flagged FROM map_hosts_v5 x JOIN maps m ON m.run = x.run;"
	"INSERT INTO map_groups (run, pattern, size_bytes, kind, group_a, group_b, n, median, lo, hi, rel, rel_lo,"
	" rel_hi, p, flagged, capacity, cap_lo, cap_hi, cap_pairs) SELECT x.run, m.pattern, m.size_bytes, x.kind,"
	" x.group_a, x.group_b, x.n, x.median, x.lo, x.hi, x.rel, x.rel_lo, x.rel_hi, x.p, x.flagged, x.capacity,"
	" x.cap_lo, x.cap_hi, x.cap_pairs FROM map_groups_v5 x JOIN maps m ON m.run = x.run;"
	"INSERT INTO map_links (run, pattern, size_bytes, host_a, host_b, median, lo, hi, n, rel, flagged, cause)"
	" SELECT x.run, m.pattern, m.size_bytes, x.host_a, x.host_b, x.median, x.lo, x.hi, x.n, x.rel, x.flagged,"
	" x.cause FROM map_links_v5 x JOIN maps m ON m.run = x.run;"
	"INSERT INTO map_claims (run, pattern, size_bytes, claim, kind, element, holds, rel, lo, hi, p, evidence)"
	" SELECT x.run, m.pattern, m.size_bytes, x.claim, x.kind, x.element, x.holds, x.rel, x.lo, x.hi, x.p,"
	" x.evidence FROM map_claims_v5 x JOIN maps m ON m.run = x.run;"
	"DROP TABLE map_claims_v5; DROP TABLE map_links_v5; DROP TABLE map_groups_v5; DROP TABLE map_hosts_v5;"
	" DROP TABLE maps_v5;",
};

/* The schema version: the one value of a row, -1 when it is not a whole
 * number from 0 to INT_MAX. */
static int get_int(void *arg, int ncols, const char *const *vals)
{
	long v;

	if (ncols > 0 && vals[0])
		*(int *)arg = sw_parse_long(vals[0], 0, INT_MAX, &v) ? -1 : (int)v;
	return 0;
}

/* Begin, lock, and apply the migrations the store lacks. */
static int migrate(struct store *s, char *err, size_t errlen)
{
	int version = 0;

	if (s->ops->exec(s, s->ops->begin, 0, NULL, NULL, err, errlen))
		return -1;
	if ((s->ops->lock && s->ops->exec(s, s->ops->lock, 0, NULL, NULL, err, errlen) < 0) ||
	    s->ops->exec(s, "CREATE TABLE IF NOT EXISTS schema_migrations ("
			 " version INTEGER PRIMARY KEY, applied TEXT NOT NULL)", 0, NULL, NULL, err, errlen) ||
	    s->ops->query(s, "SELECT max(version) FROM schema_migrations", 0, NULL, get_int, &version,
			  err, errlen))
		goto fail;
	if (version < 0) {
		sw_fail(err, errlen, "%s: schema_migrations.version is not a whole number: not a swstress store, "
			"or a damaged one", s->name);
		goto fail;
	}
	if (version > STORE_SCHEMA_VERSION) {
		sw_fail(err, errlen, "%s: schema version %d is newer than this swstress knows (%d): upgrade swstress",
			s->name, version, STORE_SCHEMA_VERSION);
		goto fail;
	}
	for (int v = version; v < STORE_SCHEMA_VERSION; v++) {
		char num[16], when[32];
		const char *params[2] = { num, when };
		time_t now = time(NULL);
		struct tm tm;

		snprintf(num, sizeof(num), "%d", v + 1);
		gmtime_r(&now, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (s->ops->exec(s, migrations[v], 0, NULL, NULL, err, errlen) ||
		    s->ops->exec(s, "INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)", 2, params,
				 NULL, err, errlen))
			goto fail;
	}
	if (s->ops->exec(s, "COMMIT", 0, NULL, NULL, err, errlen))
		goto fail;
	s->version = STORE_SCHEMA_VERSION;
	return 0;
fail:
	s->ops->exec(s, "ROLLBACK", 0, NULL, NULL, NULL, 0);
	return -1;
}

static bool is_postgres(const char *url)
{
	return !strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11);
}

/* url without the password of "scheme://user:password@host". */
static void display_name(const char *url, char *buf, size_t len)
{
	const char *at = strchr(url, '@'), *user = strstr(url, "://");
	const char *colon = user ? strchr(user + 3, ':') : NULL;

	if (is_postgres(url) && at && colon && colon < at)
		snprintf(buf, len, "%.*s:***%s", (int)(colon - url), url, at);
	else
		snprintf(buf, len, "%s", url);
}

struct store *store_open(const char *url, bool create, char *err, size_t errlen)
{
	struct store *s = calloc(1, sizeof(*s));

	if (!s) {
		sw_fail(err, errlen, "%s: out of memory", url);
		return NULL;
	}
	display_name(url, s->name, sizeof(s->name));
	if (is_postgres(url)) {
		s->ops = &pg_ops;
		s->pg = PQconnectdb(url);
		if (PQstatus(s->pg) != CONNECTION_OK) {
			pg_fail(s, PQerrorMessage(s->pg), err, errlen);
			goto fail;
		}
		if (s->ops->exec(s, "SET client_min_messages = warning", 0, NULL, NULL, err, errlen))
			goto fail;
	} else {
		int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

		s->ops = &lite_ops;
		if (!create && access(url, F_OK) != 0) {
			sw_fail(err, errlen, "%s: no such store (swstress publish RUN --store %s makes one)", url, url);
			goto fail;
		}
		if (sqlite3_open_v2(url, &s->db, flags, NULL) != SQLITE_OK) {
			sw_fail(err, errlen, "%s: %s", url, s->db ? sqlite3_errmsg(s->db) : "cannot open");
			goto fail;
		}
		sqlite3_busy_timeout(s->db, 60000);
		if (s->ops->exec(s, "PRAGMA foreign_keys = ON", 0, NULL, NULL, err, errlen))
			goto fail;
	}
	if (migrate(s, err, errlen))
		goto fail;
	return s;
fail:
	store_close(s);
	return NULL;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->ops)
		s->ops->close(s);
	free(s);
}

int store_version(struct store *s)
{
	return s->version;
}

int store_query(struct store *s, const char *sql, int n, const char *const *params,
		store_row_fn fn, void *arg, char *err, size_t errlen)
{
	return s->ops->query(s, sql, n, params, fn, arg, err, errlen);
}

const char *store_name(const struct store *s)
{
	return s->name;
}

void store_default_path(const char *output, char *buf, size_t len)
{
	size_t n = strlen(output);

	while (n > 1 && output[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s/catalog.sqlite", (int)n, output);
}

/* ---- publish ---- */

/* The files a run's folder may hold, stored verbatim; the first two must
 * be there (results_load read them). A map run's are besides, each
 * pattern and size's mapout_files (mapout_set_file). */
static const char *const run_files[] = {
	"run.json", "samples.csv", "summary.csv", "pairs.csv", "fits.csv", "report.txt",
};

/* The most a stored file may have: the store holds it whole, and so
 * does the site's download. */
#define STORE_MAX_FILE (256LL << 20)

/* A number as text for a parameter; NULL (SQL NULL) when not finite. */
static const char *num(char *buf, size_t len, double x)
{
	if (!isfinite(x))
		return NULL;
	snprintf(buf, len, "%.17g", x);
	return buf;
}

/* Two ranks of r on one host, allowed by allow_shared_node = yes: the
 * run measured the host, not a switch. false, or true with the ranks. */
static bool shared_node(const struct sw_run *r, int *ra, int *rb)
{
	char h[SW_HOST_MAX], g[SW_HOST_MAX];

	if (!r->cfg.allow_shared_node)
		return false;
	for (*ra = 0; *ra < r->nranks; (*ra)++) {
		run_host_name(r, *ra, h);
		for (*rb = *ra + 1; *rb < r->nranks; (*rb)++)
			if (run_host_name(r, *rb, g), !strcmp(h, g))
				return true;
	}
	return false;
}

/* The [switch] keys of o that r lacks into r's config, their names into
 * supplied ("vendor, model"); a key that r has with another value is
 * refused. "" in why, or why not. */
static void supply(struct sw_run *r, const struct store_publish_opts *o, char *supplied, size_t slen, char *why,
		   size_t len)
{
	const struct { const char *key, *value; const char *have; } keys[] = {
		{ "vendor", o ? o->vendor : NULL, r->cfg.vendor },
		{ "model", o ? o->model : NULL, r->cfg.model },
		{ "firmware", o ? o->firmware : NULL, r->cfg.firmware },
	};
	char msg[256], hv[80], vv[80];

	why[0] = supplied[0] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && !why[0]; i++) {
		if (!keys[i].value || !strcmp(keys[i].have, keys[i].value))
			continue;
		if (keys[i].have[0])
			snprintf(why, len, "the run's [switch] %s is '%s', not '%s': %s= only fills in what a run lacks",
				 keys[i].key, text_term(hv, sizeof(hv), keys[i].have),
				 text_term(vv, sizeof(vv), keys[i].value), keys[i].key);
		else if (config_set(&r->cfg, keys[i].key, keys[i].value, "publish", msg, sizeof(msg)))
			snprintf(why, len, "%s", msg);
		else
			sw_appendf(supplied, slen, "%s%s", supplied[0] ? ", " : "", keys[i].key);
	}
}

/* Why the run cannot go into the catalog, or "" when it can. */
static void check_publishable(const struct sw_run *r, const struct store_publish_opts *o, char *why, size_t len)
{
	size_t n = strlen(r->name);
	int ra, rb;

	why[0] = '\0';
	if (!n || strspn(r->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != n ||
	    r->name[0] == '.')
		snprintf(why, len, "run name '%s' is not letters, digits, '.', '_' and '-'", r->name);
	else if (!r->complete)
		snprintf(why, len, "the run did not finish (%.300s); publish only complete runs",
			 r->failure[0] ? r->failure : "complete is false");
	else if (!r->cfg.model[0])
		snprintf(why, len, "no switch model: set [switch] model (and vendor, firmware, ...) in the "
			 "config of the run, or publish it with model=MODEL (vendor=, firmware=)");
	else if ((!o || !o->shared_node) && shared_node(r, &ra, &rb))
		snprintf(why, len, "ranks %d and %d shared a host (allow_shared_node = yes): the run measured "
			 "the host, not a switch; --shared-node publishes it, marked as such", ra, rb);
	else if (r->nsamples == 0)
		snprintf(why, len, "the run has no samples");
}

/* Collects the text of the first column of one row. */
static int get_text(void *arg, int ncols, const char *const *vals)
{
	char **out = arg;

	if (ncols < 1 || !vals[0] || *out)
		return 0;
	*out = strdup(vals[0]);
	return *out ? 0 : -1;
}

/* True when the stored file of run name equals text. */
static int same_file(struct store *s, const char *name, const char *file, const char *text, bool *same,
		     char *err, size_t errlen)
{
	const char *params[2] = { name, file };
	char *stored = NULL;

	if (store_query(s, "SELECT content FROM run_files WHERE run = $1 AND file = $2", 2, params,
			get_text, &stored, err, errlen))
		return -1;
	*same = stored && !strcmp(stored, text);
	free(stored);
	return 0;
}

static int insert_run(struct store *s, const struct sw_run *r, const char *supplied, long *changes, char *err,
		      size_t errlen)
{
	const struct sw_config *c = &r->cfg;
	char nranks[16], nodes[16], ports[16], when[32], hosts[4096] = "";
	time_t now = time(NULL);
	struct tm tm;
	int max_nodes = 0, ra, rb;

	for (int l = 0; l < r->plan->nlevels; l++)
		if (2 * r->plan->level_pairs[l] > max_nodes)
			max_nodes = 2 * r->plan->level_pairs[l];
	for (int i = 0; i < r->nranks; i++) {
		char h[SW_HOST_MAX];

		run_host_name(r, i, h);
		sw_appendf(hosts, sizeof(hosts), "%s%s", i ? " " : "", h);
	}
	snprintf(nranks, sizeof(nranks), "%d", r->nranks);
	snprintf(nodes, sizeof(nodes), "%d", max_nodes);
	snprintf(ports, sizeof(ports), "%d", c->ports_used);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	const char *p[] = {
		r->name, r->started, when, r->tool_version, r->mpi_version, r->command_line,
		nranks, nodes, hosts, c->vendor, c->model, c->firmware, c->port_speed, ports,
		c->topology, c->oversubscription, c->cabling, c->notes, c->nic, c->transport,
		shared_node(r, &ra, &rb) ? "1" : "0", supplied,
	};
	return s->ops->exec(s, "INSERT INTO runs (name, started, published, tool_version, mpi_version,"
			    " command_line, nranks, max_nodes, hosts, vendor, model, firmware, port_speed,"
			    " ports_used, topology, oversubscription, cabling, notes, nic, transport, shared_node,"
			    " supplied) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
			    " $16, $17, $18, $19, $20, $21, $22) ON CONFLICT (name) DO NOTHING",
			    22, p, changes, err, errlen);
}

static int insert_cells(struct store *s, const struct sw_run *r, const struct sw_analysis *a,
			char *err, size_t errlen)
{
	for (int ci = 0; ci < a->ncells; ci++) {
		const struct sw_cell_stats *cs = &a->cell[ci];
		const struct sw_cell *cell = &r->plan->cell[ci];
		char t[29][32];
		const char *p[30];

		if (cs->lat.n == 0)
			continue;
		snprintf(t[0], 32, "%d", ci);
		snprintf(t[1], 32, "%d", cell->level);
		snprintf(t[2], 32, "%d", cs->nodes);
		snprintf(t[3], 32, "%d", cs->pairs);
		snprintf(t[4], 32, "%s", pattern_name(cell->pattern));
		snprintf(t[5], 32, "%llu", (unsigned long long)cell->size);
		snprintf(t[6], 32, "%ld", cell->hops);
		snprintf(t[7], 32, "%d", r->cell[ci].reps);
		snprintf(t[8], 32, "%zu", cs->lat_spread.n);
		for (int i = 0; i < 9; i++)
			p[i] = t[i];
		double v[] = {
			cs->lat.median * 1e6, cs->lat.med_lo * 1e6, cs->lat.med_hi * 1e6,
			cs->bw.median * 1e-6, cs->bw.med_lo * 1e-6, cs->bw.med_hi * 1e-6,
			cs->agg.median * 1e-6, cs->agg.med_lo * 1e-6, cs->agg.med_hi * 1e-6,
			cs->inflation.pct, cs->inflation.lo, cs->inflation.hi, cs->inflation.p,
			cs->inflation.valid ? cs->inflation.significant : NAN,
			cs->drop.pct, cs->drop.lo, cs->drop.hi, cs->drop.p,
			cs->drop.valid ? cs->drop.significant : NAN,
		};
		for (int i = 0; i < 19; i++)
			p[9 + i] = num(t[9 + i], 32, v[i]);
		p[28] = r->name;
		p[29] = cs->drifted ? "1" : "0";
		if (s->ops->exec(s, "INSERT INTO cells (cell, level, nodes, pairs, pattern, size_bytes, hops,"
				 " reps, n, lat_median_us, lat_lo_us, lat_hi_us, bw_median_MBps, bw_lo_MBps,"
				 " bw_hi_MBps, agg_median_MBps, agg_lo_MBps, agg_hi_MBps, lat_infl_pct,"
				 " lat_infl_lo, lat_infl_hi, lat_infl_p, lat_infl_sig, bw_drop_pct, bw_drop_lo,"
				 " bw_drop_hi, bw_drop_p, bw_drop_sig, run, drifted) VALUES ($1, $2, $3, $4, $5, $6,"
				 " $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23,"
				 " $24, $25, $26, $27, $28, $29, $30)", 30, p, NULL, err, errlen))
			return -1;
	}
	for (int i = 0; i < a->nsuspects; i++) {
		char fl[16], nc[16];
		const char *p[] = { r->name, a->suspect[i].host, fl, nc };

		snprintf(fl, sizeof(fl), "%d", a->suspect[i].flagged);
		snprintf(nc, sizeof(nc), "%d", a->suspect[i].cells);
		if (s->ops->exec(s, "INSERT INTO suspects (run, host, flagged, cells) VALUES ($1, $2, $3, $4)",
				 4, p, NULL, err, errlen))
			return -1;
	}
	return 0;
}

/* A map run's statistics of one pattern and size (b, as mapout_check
 * gave them) into the map tables, in the CSV units. */
static int insert_map(struct store *s, const char *run, int pattern, uint64_t size, const struct blame_result *b,
		      char *err, size_t errlen)
{
	double k = b->metric == BLAME_LATENCY ? 1e6 : 1e-6;
	char t[16][32], sz[32], cause[2 * SW_HOST_MAX + 16];
	const char *pat = pattern_name(pattern);
	int *axis = malloc(sizeof(*axis) * (size_t)b->nhost);
	int rc = -1;

	if (!axis)
		return sw_fail(err, errlen, "%s: out of memory", s->name);
	blame_host_order(b, axis);
	snprintf(sz, sizeof(sz), "%llu", (unsigned long long)size);
	snprintf(t[0], 32, "%d", b->nhost);
	snprintf(t[1], 32, "%d", b->ngroup);
	const char *pm[] = {
		run, pat, sz, b->metric == BLAME_LATENCY ? "latency_us" : "bandwidth_MBps", t[0], t[1], b->inferred ? "1" : "0",
		num(t[2], 32, b->floor), num(t[3], 32, b->alpha), num(t[4], 32, b->confidence),
	};
	if (s->ops->exec(s, "INSERT INTO maps (run, pattern, size_bytes, metric, nhosts, ngroups, inferred, floor,"
			 " alpha, confidence) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", 10, pm, NULL, err, errlen))
		goto out;
	for (int i = 0; i < b->nhost; i++) {
		const struct blame_host *h = &b->host[i];

		snprintf(t[0], 32, "%d", axis[i]);
		snprintf(t[1], 32, "%d", h->n);
		snprintf(t[2], 32, "%d", h->slower);
		snprintf(t[3], 32, "%d", h->tested);
		const char *p[] = {
			run, pat, sz, h->name, b->group[h->group].name, t[0], num(t[4], 32, h->score * k), num(t[5], 32, h->lo * k),
			num(t[6], 32, h->hi * k), t[1], num(t[7], 32, h->rel), t[2], t[3], num(t[8], 32, h->p),
			h->flagged ? "1" : "0",
		};
		if (s->ops->exec(s, "INSERT INTO map_hosts (run, pattern, size_bytes, host, group_name, axis, score, lo,"
				 " hi, n, rel, slower, tested, p, flagged) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
				 " $11, $12, $13, $14, $15)", 15, p, NULL, err, errlen))
			goto out;
	}
	for (size_t i = 0; i < (size_t)b->ngroup + b->nbound; i++) {
		bool up = i < (size_t)b->ngroup;
		const struct blame_group *g = up ? &b->group[i] : NULL;
		const struct blame_boundary *bd = up ? NULL : &b->bound[i - (size_t)b->ngroup];

		if (up && !isfinite(g->rel))
			continue;   /* an uplink not tested (fewer than 3 groups) */
		snprintf(t[0], 32, "%d", up ? g->n : bd->n);
		snprintf(t[1], 32, "%d", up ? 0 : bd->cap_pairs);
		const char *p[] = {
			run, pat, sz, up ? "uplink" : "boundary", up ? g->name : b->group[bd->g].name, up ? "-" : b->group[bd->h].name,
			t[0], up ? NULL : num(t[2], 32, bd->median * k), up ? NULL : num(t[3], 32, bd->lo * k),
			up ? NULL : num(t[4], 32, bd->hi * k), num(t[5], 32, up ? g->rel : bd->rel),
			num(t[6], 32, up ? g->lo : bd->rel_lo), num(t[7], 32, up ? g->hi : bd->rel_hi),
			num(t[8], 32, up ? g->p : bd->p), (up ? g->flagged : bd->flagged) ? "1" : "0",
			up ? NULL : num(t[9], 32, bd->capacity * k), up ? NULL : num(t[10], 32, bd->cap_lo * k),
			up ? NULL : num(t[11], 32, bd->cap_hi * k), t[1],
		};
		if (s->ops->exec(s, "INSERT INTO map_groups (run, pattern, size_bytes, kind, group_a, group_b, n, median,"
				 " lo, hi, rel, rel_lo, rel_hi, p, flagged, capacity, cap_lo, cap_hi, cap_pairs) VALUES ($1,"
				 " $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)", 19, p,
				 NULL, err, errlen))
			goto out;
	}
	for (size_t i = 0; i < b->nlink; i++) {
		const struct blame_link *l = &b->link[i];

		snprintf(t[0], 32, "%d", l->n);
		blame_link_cause(b, l, cause, sizeof(cause));
		const char *p[] = {
			run, pat, sz, b->host[l->a].name, b->host[l->b].name, num(t[1], 32, l->median * k), num(t[2], 32, l->lo * k),
			num(t[3], 32, l->hi * k), t[0], num(t[4], 32, l->rel), l->flagged ? "1" : "0", cause,
		};
		if (s->ops->exec(s, "INSERT INTO map_links (run, pattern, size_bytes, host_a, host_b, median, lo, hi, n,"
				 " rel, flagged, cause) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)", 12, p,
				 NULL, err, errlen))
			goto out;
	}
	for (int i = 0; i < b->nclaim; i++) {
		const struct blame_claim *c = &b->claim[i];

		snprintf(t[0], 32, "%d", i);
		const char *p[] = {
			run, pat, sz, t[0], blame_kind_name(c->kind), c->name, blame_when_name(c->when), num(t[1], 32, c->rel),
			num(t[2], 32, c->lo), num(t[3], 32, c->hi), num(t[4], 32, c->p), c->evidence,
		};
		if (s->ops->exec(s, "INSERT INTO map_claims (run, pattern, size_bytes, claim, kind, element, holds, rel,"
				 " lo, hi, p, evidence) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)", 12, p,
				 NULL, err, errlen))
			goto out;
	}
	rc = 0;
out:
	free(axis);
	return rc;
}

/* The folder of a results path (the folder itself, or run.json's). */
static void folder_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = strlen(path);

	if (n > 5 && !strcmp(path + n - 5, ".json"))
		snprintf(dir, len, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	else
		snprintf(dir, len, "%s", path);
}


/* The folder is the run's (named as run.json names it), and its
 * summary.csv and fits.csv, when there, are what its run.json and samples.csv
 * give (results_derived_check, as plot, compare and site check them):
 * never a cut or changed copy. 0, or -1 with err. */
static int consistent(const struct sw_run *r, const struct sw_analysis *a, const char *dir, const char *summary,
		      const char *fits, char *err, size_t errlen)
{
	const char *base = strrchr(dir, '/');
	char shown[SW_PATH_MAX + 16];

	base = base ? base + 1 : dir;
	if (strcmp(base, r->name) && strcmp(dir, "."))
		return sw_fail(err, errlen, "%s: the folder is named '%s', but run.json says the run is '%s'", dir, base,
			       r->name);
	snprintf(shown, sizeof(shown), "%s/summary.csv", dir);
	if (summary && results_derived_check(r, a, "summary.csv", summary, shown, err, errlen))
		return -1;
	snprintf(shown, sizeof(shown), "%s/fits.csv", dir);
	return fits ? results_derived_check(r, a, "fits.csv", fits, shown, err, errlen) : 0;
}

/* A map run's files (mapout_files of each of its nset sets, set-major)
 * read from dfd into text (NULL: missing; mapout_check names it), and
 * each set checked against run.json into map[k]. 0, or -1 with err. */
static int read_maps(const struct sw_run *r, int dfd, const char *dir, int nset, char **text,
		     struct blame_result *map, char *err, size_t errlen)
{
	for (int k = 0; k < nset; k++) {
		for (int i = 0; i < MAPOUT_NFILES; i++) {
			char name[96], fp[SW_PATH_MAX + 128];

			mapout_set_file(r, k, mapout_files[i], name, sizeof(name));
			snprintf(fp, sizeof(fp), "%s/%s", dir, name);
			text[k * MAPOUT_NFILES + i] = sfile_slurp_at(dfd, name, STORE_MAX_FILE, NULL, fp, err, errlen);
			if (!text[k * MAPOUT_NFILES + i] && errno != ENOENT)
				return -1;
		}
		if (mapout_check(r, k, (const char *const *)&text[k * MAPOUT_NFILES], dir, &map[k], err, errlen))
			return -1;
	}
	return 0;
}

int store_publish(struct store *s, const char *path, const struct store_publish_opts *o, char *err,
		  size_t errlen)
{
	enum { NFILES = sizeof(run_files) / sizeof(run_files[0]) };
	char dir[SW_PATH_MAX], why[512], msg[512], supplied[64];
	char *text[NFILES] = { 0 }, **mtext = NULL;
	struct sw_run *r;
	struct sw_analysis *a = NULL;
	struct blame_result *map = NULL;
	int nset = 0;
	long added = 0;
	int rc = STORE_REFUSED, dfd = -1;

	r = results_load(path, err, errlen);
	if (!r)
		return STORE_REFUSED;
	supply(r, o, supplied, sizeof(supplied), why, sizeof(why));
	if (!why[0])
		check_publishable(r, o, why, sizeof(why));
	if (why[0]) {
		sw_fail(err, errlen, "%s: %s", path, why);
		goto out;
	}
	a = analysis_run(r, &r->cfg, msg, sizeof(msg));
	if (!a) {
		sw_fail(err, errlen, "%s: statistics: %s", path, msg);
		goto out;
	}
	folder_of(path, dir, sizeof(dir));
	if ((dfd = sfile_dir(dir, err, errlen)) < 0)
		goto out;
	for (int i = 0; i < NFILES; i++) {
		char fp[SW_PATH_MAX + 64];

		snprintf(fp, sizeof(fp), "%s/%s", dir, run_files[i]);
		text[i] = sfile_slurp_at(dfd, run_files[i], STORE_MAX_FILE, NULL, fp, err, errlen);
		if (!text[i] && (errno != ENOENT || i < 2))
			goto out;
	}
	if (consistent(r, a, dir, text[2], text[4], err, errlen))
		goto out;
	if (r->cfg.schedule == CFG_SCHEDULE_MAP) {
		nset = mapout_nsets(r);
		mtext = calloc((size_t)nset * MAPOUT_NFILES, sizeof(*mtext));
		map = calloc((size_t)nset, sizeof(*map));
		if (!mtext || !map) {
			sw_fail(err, errlen, "%s: out of memory", path);
			goto out;
		}
		if (read_maps(r, dfd, dir, nset, mtext, map, err, errlen))
			goto out;
	}
	rc = STORE_FAILED;
	if (s->ops->exec(s, s->ops->begin, 0, NULL, NULL, err, errlen))
		goto out;
	if (insert_run(s, r, supplied, &added, err, errlen))
		goto rollback;
	if (!added) {
		bool same_json, same_samples;

		if (same_file(s, r->name, run_files[0], text[0], &same_json, err, errlen) ||
		    same_file(s, r->name, run_files[1], text[1], &same_samples, err, errlen))
			goto rollback;
		if (same_json && same_samples)
			rc = STORE_PRESENT;
		else {
			sw_fail(err, errlen, "%s: a different run named '%s' is already in %s", path, r->name, s->name);
			rc = STORE_REFUSED;
		}
		goto rollback;
	}
	for (int i = 0; i < NFILES + nset * MAPOUT_NFILES; i++) {
		char name[96];
		const char *p[] = { r->name, name, i < NFILES ? text[i] : mtext[i - NFILES] };

		if (i < NFILES)
			snprintf(name, sizeof(name), "%s", run_files[i]);
		else
			mapout_set_file(r, (i - NFILES) / MAPOUT_NFILES, mapout_files[(i - NFILES) % MAPOUT_NFILES], name,
					sizeof(name));
		if (p[2] && s->ops->exec(s, "INSERT INTO run_files (run, file, content) VALUES ($1, $2, $3)",
					 3, p, NULL, err, errlen))
			goto rollback;
	}
	if (insert_cells(s, r, a, err, errlen))
		goto rollback;
	for (int k = 0; k < nset; k++)
		if (insert_map(s, r->name, mapout_set_pattern(r, k), mapout_set_size(r, k), &map[k], err, errlen))
			goto rollback;
	if (s->ops->exec(s, "COMMIT", 0, NULL, NULL, err, errlen))
		goto rollback;
	rc = STORE_ADDED;
	goto out;
rollback:
	s->ops->exec(s, "ROLLBACK", 0, NULL, NULL, NULL, 0);
out:
	for (int i = 0; i < NFILES; i++)
		free(text[i]);
	for (int i = 0; mtext && i < nset * MAPOUT_NFILES; i++)
		free(mtext[i]);
	free(mtext);
	for (int k = 0; map && k < nset; k++)
		blame_free(&map[k]);
	free(map);
	if (dfd >= 0)
		close(dfd);
	analysis_free(a);
	run_free(r);
	return rc;
}
