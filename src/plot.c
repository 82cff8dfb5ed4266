/*
 * plot.c - run the gnuplot scripts of plot/ over a results folder; see
 * plot.h. Reads run.json (jansson) for the title facts and the CSV files
 * for what to draw (patterns, sizes, levels, pairs); never writes gnuplot
 * commands itself beyond the -e variable assignments.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include "config.h"
#include "pattern.h"
#include "plot.h"
#include "sfile.h"

extern char **environ;

#define PLOT_MAX_VALUES 1024   /* distinct sizes or levels we chart */
#define PLOT_MAX_PATTERNS 16
#define PLOT_LINE_MAX 8192
#define PLOT_MAX_BYTES (1LL << 30)  /* a CSV file the charts read */

/* Columns each script reads (documented at the top of each script). */
static const char *const summary_columns[] = {
	"nodes", "pairs", "pattern", "size_bytes", "hops", "overlap",
	"lat_median_us", "lat_lo_us", "lat_hi_us",
	"bw_median_MBps", "bw_lo_MBps", "bw_hi_MBps",
	"agg_median_MBps", "agg_lo_MBps", "agg_hi_MBps", "ideal_agg_MBps",
	"lat_infl_pct", "lat_infl_lo", "lat_infl_hi", "lat_infl_sig",
	"bw_drop_pct", "bw_drop_lo", "bw_drop_hi", "bw_drop_sig", NULL
};
/* What victims.gp reads besides, in a run with victims. */
static const char *const victims_columns[] = {
	"victim_infl_pct", "victim_infl_lo", "victim_infl_hi", "victim_infl_sig",
	"victim_p99_infl_pct", "victim_p99_infl_lo", "victim_p99_infl_hi", "victim_p99_infl_sig", NULL
};
/* and for rate.gp, in runs that have them (older runs: no rate chart) */
static const char *const rate_columns[] = {
	"rate_median_Mmsgps", "rate_lo_Mmsgps", "rate_hi_Mmsgps",
	"agg_rate_median_Mmsgps", "agg_rate_lo_Mmsgps", "agg_rate_hi_Mmsgps", NULL
};
/* and for incast rows (incast.gp, drop.gp's metric 'rx') */
static const char *const incast_columns[] = {
	"receiver_drop_pct", "receiver_drop_lo", "receiver_drop_hi", "receiver_drop_sig", NULL
};
static const char *const pairs_columns[] = {
	"nodes", "pattern", "size_bytes", "hops", "pair", "host_a", "host_b",
	"lat_rel", "bw_rel", "flagged", NULL
};
static const char *const fits_columns[] = {
	"nodes", "pattern", "size_lo", "size_hi", "alpha_us", "beta_MBps", NULL
};
static const char *const scripts[] = {
	"common.gp", "map.gp", "falloff.gp", "size.gp", "drop.gp", "ports.gp", "victims.gp", "incast.gp", "rate.gp",
	"fabric.gp", "fabric-hosts.gp", NULL
};

/* What the charts of one folder need to know. */
struct plot_facts {
	char label[128];
	char date[64];
	char conf[16];
	double min_effect;
	double sample_us;      /* sample_time of timed cells (hops 0), or NaN */
	bool victims;          /* the run has victims: victims.gp too */
	bool fabric;           /* a map run: fabric.gp and fabric-hosts.gp alone */
	double floor;          /* a map's effect floor, a fraction */
	bool rates;            /* summary.csv has the message rates: rate.gp too */
	int npatterns;
	char pattern[PLOT_MAX_PATTERNS][32];
	int nsizes;
	uint64_t size[PLOT_MAX_VALUES];
	int nnodes;
	int nodes[PLOT_MAX_VALUES];
	long hops;             /* filter, 0 = every row */
	int npairs;            /* rows of the ports heat map */
	size_t nfits;
};

/* ---- CSV --------------------------------------------------------------- */

/* An open CSV file positioned after its header. */
struct csv {
	FILE *f;
	const char *path;
	char line[PLOT_LINE_MAX];
	char header[PLOT_LINE_MAX];
	char *name[256];
	int ncols;
	long lineno;
};

static int csv_open(struct csv *c, const char *path, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->f = sfile_read(path, PLOT_MAX_BYTES, 0, err, errlen);
	if (!c->f)
		return -1;
	while (fgets(c->header, sizeof(c->header), c->f)) {
		c->lineno++;
		if (c->header[0] == '#' || c->header[strspn(c->header, " \t\r\n")] == '\0')
			continue;
		c->ncols = sw_csv_split(c->header, c->name, 256);
		if (c->ncols > 256) {
			fclose(c->f);
			return sw_fail(err, errlen, "%s:%ld: more than 256 columns", path, c->lineno);
		}
		return 0;
	}
	fclose(c->f);
	return sw_fail(err, errlen, "%s: no header line", path);
}

static int csv_col(const struct csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (strcmp(c->name[i], name) == 0)
			return i;
	return -1;
}

/* Next data row into field (ncols of them). 1 row, 0 end, -1 error. */
static int csv_row(struct csv *c, char **field, char *err, size_t errlen)
{
	while (fgets(c->line, sizeof(c->line), c->f)) {
		c->lineno++;
		if (c->line[0] == '#' || c->line[strspn(c->line, " \t\r\n")] == '\0')
			continue;
		if (!strchr(c->line, '\n') && !feof(c->f))
			return sw_fail(err, errlen, "%s:%ld: line longer than %d bytes",
				       c->path, c->lineno, PLOT_LINE_MAX - 1);
		int n = sw_csv_split(c->line, field, 256);
		if (n != c->ncols)
			return sw_fail(err, errlen, "%s:%ld: %d fields, the header has %d",
				       c->path, c->lineno, n, c->ncols);
		return 1;
	}
	if (ferror(c->f))
		return sw_fail(err, errlen, "%s: read error: %s", c->path, strerror(errno));
	return 0;
}

static int csv_require(const struct csv *c, const char *const *columns, char *err, size_t errlen)
{
	for (size_t i = 0; columns[i]; i++)
		if (csv_col(c, columns[i]) < 0)
			return sw_fail(err, errlen, "%s: missing column '%s'", c->path, columns[i]);
	return 0;
}

/* path's csv (malloc'ed: csv_close it) with its header read and the
 * columns there; NULL with the reason in err. */
static struct csv *csv_start(const char *path, const char *const *columns, char *err, size_t errlen)
{
	struct csv *c = malloc(sizeof(*c));

	if (!c) {
		sw_fail(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	if (csv_open(c, path, err, errlen) < 0) {
		free(c);
		return NULL;
	}
	if (csv_require(c, columns, err, errlen) < 0) {
		fclose(c->f);
		free(c);
		return NULL;
	}
	return c;
}

static void csv_close(struct csv *c)
{
	fclose(c->f);
	free(c);
}

/* The numbers of a row that the scripts draw (the named columns but the
 * text ones): NaN (not known: gnuplot skips it) or finite, and times,
 * bandwidths and ratios not negative. 0, or -1 naming line and column. */
static int csv_check_numbers(const struct csv *c, char **field, const char *const *columns,
			     char *err, size_t errlen)
{
	for (size_t i = 0; columns[i]; i++) {
		const char *name = columns[i], *v = field[csv_col(c, name)];
		size_t n = strlen(name);
		bool positive = (n > 3 && !strcmp(name + n - 3, "_us")) || (n > 5 && !strcmp(name + n - 5, "MBps")) ||
				(n > 4 && !strcmp(name + n - 4, "_rel"));
		double x;

		if (!strcmp(name, "pattern") || !strncmp(name, "host_", 5) || !strcasecmp(v, "nan"))
			continue;
		if (sw_parse_double(v, positive ? 0 : -1e300, 1e300, &x))
			return sw_fail(err, errlen, "%s:%ld: %s: '%.32s' is not a finite%s number", c->path, c->lineno,
				       name, v, positive ? ", non-negative" : "");
	}
	return 0;
}

int plot_check_csv(const char *path, const char *const *columns, size_t *rows,
		   char *err, size_t errlen)
{
	struct csv *c = csv_start(path, columns, err, errlen);
	char *field[256];
	size_t n = 0;
	int rc = 0;

	if (!c)
		return -1;
	while (rc == 0) {
		int r = csv_row(c, field, err, errlen);
		if (r < 0)
			rc = -1;
		if (r <= 0)
			break;
		n++;
	}
	csv_close(c);
	if (rc == 0 && rows)
		*rows = n;
	return rc;
}

/* ---- what to draw ------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* One summary row's key, to spot several hop counts per cell. */
struct cell_key {
	int nodes;
	int pattern;
	uint64_t size;
};

static int cmp_key(const void *a, const void *b)
{
	const struct cell_key *x = a, *y = b;
	if (x->nodes != y->nodes)
		return (x->nodes > y->nodes) - (x->nodes < y->nodes);
	if (x->pattern != y->pattern)
		return x->pattern - y->pattern;
	return (x->size > y->size) - (x->size < y->size);
}

/* The rows summary.csv must hold, in order: one per run.json cell with a
 * summary (a cell that has samples), or, in a run.json whose cells carry
 * none, one per cell with repetitions. known is false when run.json has
 * no cells (a run too old to say): then any rows are taken. */
struct summary_rows {
	bool known;
	size_t n;
	struct summary_row {
		long nodes, hops;
		uint64_t size;
		char pattern[32];
	} *row;
};

/* The expected rows from run.json's cells (root), into *want. 0 or -1. */
static int expected_rows(const json_t *root, const char *path, struct summary_rows *want, char *err, size_t errlen)
{
	const json_t *cells = json_object_get(root, "cells"), *cell;
	bool summaries = false;
	size_t i;

	if (!json_is_array(cells) || !json_array_size(cells))
		return 0;
	want->known = true;
	want->row = calloc(json_array_size(cells), sizeof(*want->row));
	if (!want->row)
		return sw_fail(err, errlen, "out of memory");
	json_array_foreach(cells, i, cell)
		summaries |= json_is_object(json_object_get(cell, "summary"));
	json_array_foreach(cells, i, cell) {
		const char *pat = json_string_value(json_object_get(cell, "pattern"));
		struct summary_row *w = &want->row[want->n];

		if (summaries ? !json_is_object(json_object_get(cell, "summary"))
			      : json_integer_value(json_object_get(cell, "reps")) <= 0)
			continue;
		if (!pat || !json_is_integer(json_object_get(cell, "nodes")) ||
		    !json_is_integer(json_object_get(cell, "size_bytes")) || !json_is_integer(json_object_get(cell, "hops")))
			return sw_fail(err, errlen, "%s: cells[%zu]: nodes, pattern, size_bytes or hops missing", path, i);
		w->nodes = (long)json_integer_value(json_object_get(cell, "nodes"));
		w->size = (uint64_t)json_integer_value(json_object_get(cell, "size_bytes"));
		w->hops = (long)json_integer_value(json_object_get(cell, "hops"));
		snprintf(w->pattern, sizeof(w->pattern), "%s", pat);
		want->n++;
	}
	return 0;
}

/* Read summary.csv: patterns in order of first appearance, sorted distinct
 * sizes and levels (nodes); when a (level, pattern, size) appears with
 * several hop counts, chart only the largest. */
static int scan_summary(const char *path, const struct summary_rows *want, struct plot_facts *pf, char *err,
			size_t errlen)
{
	struct csv *c = csv_start(path, summary_columns, err, errlen);
	struct cell_key *key = NULL;
	size_t nkeys = 0, capkeys = 0;
	char *field[256];
	long max_hops = 0;
	bool dup = false;
	int rc;

	if (!c)
		return -1;
	rc = pf->victims ? csv_require(c, victims_columns, err, errlen) : 0;
	if (rc < 0)
		goto out_close;
	int i_nodes = csv_col(c, "nodes"), i_pat = csv_col(c, "pattern");
	int i_size = csv_col(c, "size_bytes"), i_hops = csv_col(c, "hops");

	pf->rates = csv_col(c, rate_columns[0]) >= 0;
	if (pf->rates && csv_require(c, rate_columns, err, errlen) < 0) {
		rc = -1;
		goto out_close;
	}
	for (;;) {
		int r = csv_row(c, field, err, errlen), p, j;

		if (r < 0) {
			rc = -1;
			goto out_close;
		}
		if (r == 0) {
			if (want->known && nkeys < want->n) {
				rc = sw_fail(err, errlen, "%s:%ld: ends here, but run.json has %zu cells with results, "
					     "not %zu (the file was cut)", path, c->lineno + 1, want->n, nkeys);
				goto out_close;
			}
			break;
		}
		long nodes, hops;
		uint64_t size;
		const char *bad = sw_parse_long(field[i_nodes], 2, 1 << 20, &nodes) ? "nodes"
				  : sw_parse_u64(field[i_size], 1, UINT64_C(1) << 30, &size) ? "size_bytes"
				  : sw_parse_long(field[i_hops], 0, LONG_MAX, &hops) ? "hops" : NULL;
		if (bad) {
			rc = sw_fail(err, errlen, "%s:%ld: %s: '%.32s' is not a valid value", path, c->lineno, bad,
				     field[csv_col(c, bad)]);
			goto out_close;
		}
		/* the pattern and the size become chart file names: only known ones */
		const struct sw_pattern_info *pi = pattern_info(pattern_find(field[i_pat]));

		if (!pi) {
			rc = sw_fail(err, errlen, "%s:%ld: pattern: unknown pattern '%.32s'",
				     path, c->lineno, field[i_pat]);
			goto out_close;
		}
		const struct summary_row *w = nkeys < want->n ? &want->row[nkeys] : NULL;

		if (want->known && !w) {
			rc = sw_fail(err, errlen, "%s:%ld: a row after run.json's %zu cells with results (rows added)",
				     path, c->lineno, want->n);
			goto out_close;
		}
		if (want->known && (w->nodes != nodes || w->size != size || w->hops != hops ||
				    strcmp(w->pattern, field[i_pat]))) {
			rc = sw_fail(err, errlen, "%s:%ld: not run.json's next cell with results (nodes %ld, %s, "
				     "size_bytes %" PRIu64 ", hops %ld): rows cut, added or changed", path, c->lineno,
				     w->nodes, w->pattern, w->size, w->hops);
			goto out_close;
		}
		rc = csv_check_numbers(c, field, summary_columns, err, errlen);
		if (rc == 0 && pf->victims)
			rc = csv_check_numbers(c, field, victims_columns, err, errlen);
		if (rc == 0 && pf->rates)
			rc = csv_check_numbers(c, field, rate_columns, err, errlen);
		if (rc == 0 && pi && pi->incast &&
		    (rc = csv_require(c, incast_columns, err, errlen)) == 0)
			rc = csv_check_numbers(c, field, incast_columns, err, errlen);
		if (rc < 0)
			goto out_close;
		for (p = 0; p < pf->npatterns; p++)
			if (strcmp(pf->pattern[p], field[i_pat]) == 0)
				break;
		if (p == pf->npatterns)
			snprintf(pf->pattern[pf->npatterns++], sizeof(pf->pattern[0]), "%s", field[i_pat]);
		for (j = 0; j < pf->nsizes && pf->size[j] != size; j++)
			;
		if (j == pf->nsizes && pf->nsizes == SW_MAX_LIST) {
			rc = sw_fail(err, errlen, "%s:%ld: size_bytes: more than %d sizes (the most a config holds)",
				     path, c->lineno, SW_MAX_LIST);
			goto out_close;
		}
		if (j == pf->nsizes)
			pf->size[pf->nsizes++] = size;
		for (j = 0; j < pf->nnodes && pf->nodes[j] != (int)nodes; j++)
			;
		if (j == pf->nnodes && pf->nnodes < PLOT_MAX_VALUES)
			pf->nodes[pf->nnodes++] = (int)nodes;
		if (hops > max_hops)
			max_hops = hops;
		if (nkeys == capkeys) {
			size_t cap = capkeys ? 2 * capkeys : 256;
			struct cell_key *k = realloc(key, cap * sizeof(*k));
			if (!k) {
				rc = sw_fail(err, errlen, "%s: out of memory", path);
				goto out_close;
			}
			key = k;
			capkeys = cap;
		}
		key[nkeys++] = (struct cell_key){ (int)nodes, p, size };
	}
	if (pf->npatterns == 0) {
		rc = sw_fail(err, errlen, "%s: no data rows", path);
		goto out_close;
	}
	qsort(pf->size, pf->nsizes, sizeof(pf->size[0]), cmp_u64);
	qsort(pf->nodes, pf->nnodes, sizeof(pf->nodes[0]), sw_cmp_int);
	qsort(key, nkeys, sizeof(*key), cmp_key);
	for (size_t k = 1; k < nkeys && !dup; k++)
		dup = cmp_key(&key[k - 1], &key[k]) == 0;
	pf->hops = dup ? max_hops : 0;
out_close:
	csv_close(c);
	free(key);
	return rc;
}

/* Read pairs.csv: rows of the heat map (largest pair index + 1). */
static int scan_pairs(const char *path, struct plot_facts *pf, char *err, size_t errlen)
{
	struct csv *c = csv_start(path, pairs_columns, err, errlen);
	char *field[256];
	int rc = 0;

	if (!c)
		return -1;
	int i_pair = csv_col(c, "pair");
	while (rc == 0) {
		int r = csv_row(c, field, err, errlen);
		if (r < 0)
			rc = -1;
		if (r <= 0)
			break;
		long p;
		if (sw_parse_long(field[i_pair], 0, 1023, &p)) {
			rc = sw_fail(err, errlen, "%s:%ld: bad pair '%s'", path, c->lineno, field[i_pair]);
			break;
		}
		rc = csv_check_numbers(c, field, pairs_columns, err, errlen);
		if (p + 1 > pf->npairs)
			pf->npairs = (int)p + 1;
	}
	csv_close(c);
	return rc;
}

/* Keep what is printable in a title (no control characters). */
static void copy_clean(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; src && *src && n + 1 < len; src++)
		dst[n++] = ((unsigned char)*src < 0x20 || *src == 0x7f) ? ' ' : *src;
	dst[n] = '\0';
}

/* The title facts, and the run's config read back the one way
 * (config_from_json over the defaults, as results_load does): a value a
 * run cannot have is an error naming run.json, not a silent default. */
static int read_run_json(const char *path, struct plot_facts *pf, struct summary_rows *want, char *err,
			 size_t errlen)
{
	json_error_t jerr;
	FILE *jf = sfile_read(path, PLOT_MAX_BYTES, 0, err, errlen);
	json_t *root = jf ? json_loadf(jf, 0, &jerr) : NULL;
	struct sw_config *cfg = NULL;
	const char *s;
	char msg[512];
	int rc = -1;

	if (!jf)
		return -1;
	fclose(jf);
	if (!root)
		return sw_fail(err, errlen, "%s:%d: %s", path, jerr.line, jerr.text);
	if (!json_is_object(root)) {
		sw_fail(err, errlen, "%s: not a JSON object", path);
		goto out_free;
	}
	cfg = malloc(sizeof(*cfg));
	if (!cfg) {
		sw_fail(err, errlen, "out of memory");
		goto out_free;
	}
	config_defaults(cfg);
	if (config_from_json(cfg, json_object_get(root, "config"), msg, sizeof(msg))) {
		sw_fail(err, errlen, "%s: config: %s", path, msg);
		goto out_free;
	}
	s = cfg->label;
	if (!*s)
		s = json_string_value(json_object_get(root, "name"));
	copy_clean(pf->label, sizeof(pf->label), s ? s : "");

	/* "2026-03-14T09:30:00Z" -> "2026-03-14 09:30 UTC" */
	s = json_string_value(json_object_get(root, "started"));
	if (s && strlen(s) >= 16 && s[10] == 'T')
		snprintf(pf->date, sizeof(pf->date), "%.10s %.5s%s", s, s + 11,
			 s[strlen(s) - 1] == 'Z' ? " UTC" : "");
	else
		copy_clean(pf->date, sizeof(pf->date), s ? s : "");

	pf->min_effect = cfg->min_effect;
	snprintf(pf->conf, sizeof(pf->conf), "%g", cfg->confidence * 100);
	/* Timed cells (hops 0) run samples of sample_time: the charts mark a
	 * too-short sample by it. */
	pf->sample_us = cfg->sample_time * 1e6;
	pf->victims = cfg->victims > 0;
	pf->fabric = cfg->schedule == CFG_SCHEDULE_MAP;
	pf->floor = cfg->suspect_min_effect / 100;
	rc = expected_rows(root, path, want, err, errlen);
out_free:
	free(cfg);
	json_decref(root);
	return rc;
}

/* ---- running gnuplot --------------------------------------------------- */

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool plot_available(void)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		if (n && n + sizeof("/gnuplot") < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%.*s/gnuplot", (int)n, path);
			if (file_exists(buf) && access(buf, X_OK) == 0)
				return true;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

static bool has_scripts(const char *dir)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/falloff.gp", dir);

	return n > 0 && (size_t)n < sizeof(path) && file_exists(path);
}

int plot_script_dir(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("SWSTRESS_PLOT_DIR");
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n;

	if (env && *env) {
		if (!has_scripts(env))
			return sw_fail(err, errlen, "SWSTRESS_PLOT_DIR=%s: no falloff.gp there", env);
		snprintf(buf, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			const char *rel[] = { "../plot", "../share/swstress/plot", NULL };
			for (int i = 0; rel[i]; i++) {
				snprintf(cand, sizeof(cand), "%s/%s", exe, rel[i]);
				if (has_scripts(cand)) {
					char real[PATH_MAX];
					snprintf(buf, len, "%s", realpath(cand, real) ? real : cand);
					return 0;
				}
			}
		}
	}
	const char *fixed[] = { "/usr/local/share/swstress/plot", "/usr/share/swstress/plot", NULL };
	for (int i = 0; fixed[i]; i++)
		if (has_scripts(fixed[i])) {
			snprintf(buf, len, "%s", fixed[i]);
			return 0;
		}
	return sw_fail(err, errlen, "cannot find the gnuplot scripts (plot/falloff.gp); "
		       "set SWSTRESS_PLOT_DIR");
}

void plot_vars_add(struct plot_vars *v, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (v->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(v->s ? v->s + v->len : NULL, v->s ? v->cap - v->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			v->oom = true;
			return;
		}
		if (v->s && v->len + (size_t)n < v->cap) {
			v->len += (size_t)n;
			return;
		}
		size_t cap = (v->cap ? v->cap : 1024);
		while (cap <= v->len + (size_t)n)
			cap *= 2;
		char *s = realloc(v->s, cap);
		if (!s) {
			v->oom = true;
			return;
		}
		v->s = s;
		v->cap = cap;
	}
}

void plot_vars_str(struct plot_vars *v, const char *name, const char *value)
{
	plot_vars_add(v, "%s='", name);
	for (const char *p = value; *p; p++)
		plot_vars_add(v, *p == '\'' ? "''" : "%c", *p);
	plot_vars_add(v, "'; ");
}

/* Last non-empty line of the log, to quote in an error. */
static void log_tail(const char *log, char *buf, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[512];

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[strspn(line, " \t^")] != '\0' && strncmp(line, "== ", 3) != 0)
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

/* Run "gnuplot -e VARS -e TMPVAR SCRIPT" with output to log; gnuplot
 * writes tmp. 0 or -1. */
static int run_gnuplot(const char *script, const char *vars, const char *tmpvar, const char *log,
		       const char *out, const char *tmp, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "gnuplot", "-e", (char *)vars, "-e", (char *)tmpvar, (char *)script, NULL };
	FILE *lf;
	pid_t pid;
	int status, rc;

	lf = sfile_fopen_own(log, "a", err, errlen);
	if (!lf)
		return -1;
	fprintf(lf, "== gnuplot -e \"%s\" %s\n", vars, script);
	fclose(lf);

	if (posix_spawn_file_actions_init(&fa) != 0)
		return sw_fail(err, errlen, "cannot start gnuplot: out of memory");
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return sw_fail(err, errlen, "cannot run gnuplot: %s", strerror(rc));
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return sw_fail(err, errlen, "gnuplot: waitpid: %s", strerror(errno));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char tail[512];
		log_tail(log, tail, sizeof(tail));
		return sw_fail(err, errlen, "%s: gnuplot failed (%s %d) drawing %s; see %s%s%s",
			       script, WIFEXITED(status) ? "exit status" : "signal",
			       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			       out, log, tail[0] ? ": " : "", tail);
	}
	struct stat st;
	if (stat(tmp, &st) != 0 || st.st_size == 0)
		return sw_fail(err, errlen, "%s: gnuplot wrote no chart (see %s)", out, log);
	return 0;
}

int plot_draw(const char *script, const struct plot_vars *vars, const char *log, const char *out,
	      char *err, size_t errlen)
{
	struct plot_vars tv = { 0 };
	char tmp[PATH_MAX], tmp_p[PATH_MAX + 2];
	int rc;

	if (vars->oom)
		return sw_fail(err, errlen, "out of memory");
	/* gnuplot draws into a fresh temporary file, renamed into place */
	rc = sw_temp_create(out, tmp, sizeof(tmp), err, errlen);
	if (rc < 0)
		return -1;
	close(rc);
	rc = sw_path_plain(tmp, tmp_p, sizeof(tmp_p), err, errlen);
	if (rc == 0) {
		plot_vars_str(&tv, "out", tmp_p);
		rc = tv.oom ? sw_fail(err, errlen, "out of memory") : 0;
	}
	if (rc == 0)
		rc = run_gnuplot(script, vars->s ? vars->s : "", tv.s, log, out, tmp, err, errlen);
	free(tv.s);
	if (rc == 0)
		return sw_commit_temp(tmp, out, err, errlen);
	unlink(tmp);
	return -1;
}

static int charts_add(struct plot_charts *out, const struct plot_chart *c)
{
	if (!out)
		return 0;
	struct plot_chart *p = realloc(out->chart, (out->n + 1) * sizeof(*p));
	if (!p)
		return -1;
	out->chart = p;
	out->chart[out->n++] = *c;
	return 0;
}

void plot_charts_free(struct plot_charts *c)
{
	if (!c)
		return;
	free(c->chart);
	c->chart = NULL;
	c->n = 0;
}

/* The metric a chart of pattern draws: 'lat' (per-hop latency, latency
 * inflation), 'bw' (bandwidth, bandwidth drop) or 'rx' (incast charts: the
 * drop at the receiver). */
static const char *chart_metric(const char *pattern)
{
	const struct sw_pattern_info *pi = pattern_info(pattern_find(pattern));

	return pi->metric == SW_METRIC_LATENCY ? "lat" : pi->charts == PAT_CHARTS_INCAST ? "rx" : "bw";
}

/* The variables every script shares. */
static void common_vars(struct plot_vars *v, const struct plot_facts *pf, bool svg,
			const char *in, const char *out, const char *pattern, int w, int h)
{
	plot_vars_str(v, "in", in);
	plot_vars_str(v, "out", out);
	plot_vars_str(v, "pattern", pattern);
	plot_vars_str(v, "metric", chart_metric(pattern));
	plot_vars_str(v, "label", pf->label);
	plot_vars_str(v, "date", pf->date);
	plot_vars_str(v, "conf", pf->conf);
	plot_vars_str(v, "term", svg ? "svg" : "png");
	plot_vars_add(v, "width=%d; height=%d; hops=%ld; sizes='", w, h, pf->hops);
	for (int i = 0; i < pf->nsizes; i++)
		plot_vars_add(v, "%s%llu", i ? " " : "", (unsigned long long)pf->size[i]);
	plot_vars_add(v, "'; nodes='");
	for (int i = 0; i < pf->nnodes; i++)
		plot_vars_add(v, "%s%d", i ? " " : "", pf->nodes[i]);
	plot_vars_add(v, "'; ");
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Draw one chart: kind is the script name without .gp. */
static int draw(const char *result_dir, const char *script_dir, bool svg,
		const struct plot_facts *pf, const char *kind, int pat, uint64_t size,
		struct plot_charts *out, char *err, size_t errlen)
{
	struct plot_chart c = { 0 };
	struct plot_vars v = { 0 };
	char script[PATH_MAX], in[PATH_MAX], log[PATH_MAX], fits[PATH_MAX], sz[32];
	char script_p[PATH_MAX + 2], in_p[PATH_MAX + 2], fits_p[PATH_MAX + 2], out_p[PATH_MAX + 2];
	const char *pattern = pf->pattern[pat];
	int rc;

	snprintf(c.kind, sizeof(c.kind), "%s", kind);
	snprintf(c.pattern, sizeof(c.pattern), "%s", pattern);
	c.size = size;
	if ((strcmp(kind, "falloff") == 0 || strcmp(kind, "drop") == 0) && pf->nsizes > 4) {
		/* small multiples: as falloff.gp and drop.gp lay them out */
		int cols = pf->nsizes <= 6 ? 3 : 4;
		c.width = 1500;
		c.height = 200 + 260 * ((pf->nsizes + cols) / cols);   /* + a slot for the key */
	} else if (strcmp(kind, "falloff") == 0 || strcmp(kind, "size") == 0) {
		c.width = 1500;
		c.height = 680;
	} else if (strcmp(kind, "drop") == 0 || strcmp(kind, "victims") == 0 || strcmp(kind, "incast") == 0 ||
		   strcmp(kind, "rate") == 0) {
		c.width = 1100;
		c.height = 720;
	} else if (strcmp(kind, "map") == 0) {
		c.width = clamp(560 + 90 * pf->nnodes, 1100, 2400);
		c.height = clamp(330 + 45 * pf->nsizes, 600, 2400);
	} else {
		c.width = clamp(500 + 80 * (size ? pf->nnodes : pf->nsizes), 1100, 2400);
		c.height = clamp(260 + 38 * pf->npairs, 600, 2400);
	}
	config_format_size(size, sz, sizeof(sz));
	if (size)
		rc = snprintf(c.path, sizeof(c.path), "%s/%s-%s-%s.%s", result_dir, kind,
			      pattern, sz, svg ? "svg" : "png");
	else
		rc = snprintf(c.path, sizeof(c.path), "%s/%s-%s.%s", result_dir, kind,
			      pattern, svg ? "svg" : "png");
	if (rc < 0 || (size_t)rc >= sizeof(c.path))
		return sw_fail(err, errlen, "%s: path too long", result_dir);
	snprintf(log, sizeof(log), "%s/plot.log", result_dir);
	/* every path that gnuplot sees goes through sw_path_plain */
	snprintf(in, sizeof(in), "%s/%s", result_dir,
		 strcmp(kind, "ports") == 0 ? "pairs.csv" : "summary.csv");
	snprintf(fits, sizeof(fits), "%s/fits.csv", result_dir);
	snprintf(script, sizeof(script), "%s/%s.gp", script_dir, kind);
	if (sw_path_plain(in, in_p, sizeof(in_p), err, errlen) ||
	    sw_path_plain(fits, fits_p, sizeof(fits_p), err, errlen) ||
	    sw_path_plain(script, script_p, sizeof(script_p), err, errlen) ||
	    sw_path_plain(c.path, out_p, sizeof(out_p), err, errlen))
		return -1;
	common_vars(&v, pf, svg, in_p, out_p, pattern, c.width, c.height);
	if (strcmp(kind, "size") == 0) {
		plot_vars_str(&v, "fits", pf->nfits ? fits_p : "");
		plot_vars_add(&v, "nfits=%zu; ", pf->nfits);
	} else if (strcmp(kind, "drop") == 0 || strcmp(kind, "map") == 0 || strcmp(kind, "victims") == 0) {
		plot_vars_add(&v, "min_effect=%g; ", pf->min_effect);
		if (!isnan(pf->sample_us))
			plot_vars_add(&v, "timed_sample_us=%g; ", pf->sample_us);
	} else if (strcmp(kind, "ports") == 0 && size) {
		plot_vars_add(&v, "size=%llu; ", (unsigned long long)size);
	}
	rc = plot_draw(script_p, &v, log, c.path, err, errlen);
	free(v.s);
	if (rc == 0 && charts_add(out, &c) < 0)
		rc = sw_fail(err, errlen, "out of memory");
	return rc;
}

/* A map run's chart: kind "fabric" (the heat map of fabric.csv) or
 * "fabric-hosts" (hosts.csv and groups.csv), for its first pattern, as
 * mapout.h writes them. 0 or -1. */
static int draw_fabric(const char *result_dir, const char *script_dir, bool svg, const struct plot_facts *pf,
		       const char *kind, struct plot_charts *out, char *err, size_t errlen)
{
	static const char *const files[] = { "fabric.csv", "hosts.csv", "groups.csv" };
	static const char *const host_columns[] = { "host", "group", "order", "group_start", "score", "lo", "hi",
						     "flagged", NULL };
	size_t nhost = 0;
	struct plot_chart c = { 0 };
	struct plot_vars v = { 0 };
	char path[3][PATH_MAX + 16], plain[3][PATH_MAX + 18], script[PATH_MAX + 32], script_p[PATH_MAX + 34];
	char log[PATH_MAX], out_p[PATH_MAX + 2];
	bool heat = strcmp(kind, "fabric") == 0;
	int rc;

	snprintf(c.kind, sizeof(c.kind), "%s", kind);
	snprintf(c.pattern, sizeof(c.pattern), "%s", pf->pattern[0]);
	rc = snprintf(c.path, sizeof(c.path), "%s/%s-%s.%s", result_dir, kind, c.pattern, svg ? "svg" : "png");
	if (rc < 0 || (size_t)rc >= sizeof(c.path))
		return sw_fail(err, errlen, "%s: path too long", result_dir);
	for (int i = 0; i < 3; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/%s", result_dir, files[i]);
		if (!file_exists(path[i]))
			return sw_fail(err, errlen, "%s: no such file (swstress report %s writes it)", path[i],
				       result_dir);
		if (sw_path_plain(path[i], plain[i], sizeof(plain[i]), err, errlen))
			return -1;
	}
	if (plot_check_csv(path[1], host_columns, &nhost, err, errlen) < 0)
		return -1;
	c.width = clamp(500 + 12 * (int)nhost, heat ? 900 : 1100, 2400);
	c.height = heat ? c.width - 80 : 760;
	snprintf(log, sizeof(log), "%s/plot.log", result_dir);
	snprintf(script, sizeof(script), "%s/%s.gp", script_dir, kind);
	if (sw_path_plain(script, script_p, sizeof(script_p), err, errlen) ||
	    sw_path_plain(c.path, out_p, sizeof(out_p), err, errlen))
		return -1;
	common_vars(&v, pf, svg, plain[0], out_p, c.pattern, c.width, c.height);
	plot_vars_str(&v, "hosts", plain[1]);
	plot_vars_str(&v, "groups", plain[2]);
	plot_vars_add(&v, "floor=%g; ", pf->floor);
	rc = plot_draw(script_p, &v, log, c.path, err, errlen);
	free(v.s);
	if (rc == 0 && charts_add(out, &c) < 0)
		rc = sw_fail(err, errlen, "out of memory");
	return rc;
}

/* Read and check what the charts of result_dir draw from: run.json,
 * summary.csv, pairs.csv and fits.csv when present. 0 or -1. */
static int read_facts(const char *result_dir, struct plot_facts *pf, char *err, size_t errlen)
{
	char path[PATH_MAX + 64];
	struct summary_rows want = { 0 };
	int rc;

	snprintf(path, sizeof(path), "%s/run.json", result_dir);
	rc = read_run_json(path, pf, &want, err, errlen);
	snprintf(path, sizeof(path), "%s/summary.csv", result_dir);
	if (rc == 0)
		rc = scan_summary(path, &want, pf, err, errlen);
	free(want.row);
	if (rc < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/pairs.csv", result_dir);
	if (scan_pairs(path, pf, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/fits.csv", result_dir);
	if (file_exists(path) && plot_check_csv(path, fits_columns, &pf->nfits, err, errlen) < 0)
		return -1;
	return 0;
}

int plot_check_results(const char *result_dir, char *err, size_t errlen)
{
	struct plot_facts *pf = calloc(1, sizeof(*pf));
	int rc;

	if (!pf)
		return sw_fail(err, errlen, "out of memory");
	rc = read_facts(result_dir, pf, err, errlen);
	free(pf);
	return rc;
}

int plot_render(const char *result_dir, const char *script_dir, unsigned flags,
		struct plot_charts *out, char *err, size_t errlen)
{
	bool svg = flags & PLOT_SVG;
	struct plot_facts *pf = calloc(1, sizeof(*pf));
	char dir[PATH_MAX], path[PATH_MAX + 64];
	int n = 0, rc = -1;

	if (!pf)
		return sw_fail(err, errlen, "out of memory");
	if (out)
		*out = (struct plot_charts){ 0 };
	if (!script_dir) {
		if (plot_script_dir(dir, sizeof(dir), err, errlen) < 0)
			goto out_free;
		script_dir = dir;
	}
	for (int i = 0; scripts[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", script_dir, scripts[i]);
		if (!file_exists(path)) {
			sw_fail(err, errlen, "%s: no such script", path);
			goto out_free;
		}
	}
	if (!plot_available()) {
		sw_fail(err, errlen, "gnuplot not found on PATH (install gnuplot-nox)");
		goto out_free;
	}

	if (read_facts(result_dir, pf, err, errlen) < 0)
		goto out_free;

	snprintf(path, sizeof(path), "%s/plot.log", result_dir);
	FILE *lf = sfile_fopen_own(path, "w", err, errlen);
	if (!lf)
		goto out_free;
	fclose(lf);

	for (int k = 0; pf->fabric && k < 2; k++, n++)
		if (draw_fabric(result_dir, script_dir, svg, pf, k ? "fabric-hosts" : "fabric", out, err, errlen))
			goto out_free;
	for (int p = 0; !pf->fabric && p < pf->npatterns; p++) {
		/* incast charts: their own chart, and the drop of the receiver
		 * (drop.gp's metric 'rx'); a sender's share of one port is no
		 * per-pair story */
		static const char *const kinds[] = { "map", "falloff", "size", "drop", "ports", "victims", "rate", NULL };
		static const char *const incast_kinds[] = { "incast", "drop", "victims", "rate", NULL };
		int id = pattern_find(pf->pattern[p]);
		bool incast = pattern_info(id)->charts == PAT_CHARTS_INCAST;

		for (const char *const *k = incast ? incast_kinds : kinds; *k; k++) {
			if (strcmp(*k, "victims") == 0 && !pf->victims)
				continue;
			if (strcmp(*k, "rate") == 0 && (!pf->rates || pattern_latency_metric(id)))
				continue;   /* a message rate is a bandwidth pattern's */
			if (strcmp(*k, "size") == 0 && pf->nsizes < 2)
				continue;   /* against size: one point per line says nothing */
			if (draw(result_dir, script_dir, svg, pf, *k, p, 0, out, err, errlen) < 0)
				goto out_free;
			n++;
		}
		for (int s = 0; !incast && (flags & PLOT_PORTS_PER_SIZE) && s < pf->nsizes; s++) {
			if (draw(result_dir, script_dir, svg, pf, "ports", p, pf->size[s], out, err, errlen) < 0)
				goto out_free;
			n++;
		}
	}
	rc = n;
out_free:
	free(pf);
	return rc;
}
