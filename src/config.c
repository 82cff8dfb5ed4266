/*
 * config.c - the sweep configuration; see config.h.
 *
 * Everything hangs off one option table, opts[]: each entry names a key, its
 * type (a parse and a format function), where its value lives in struct
 * sw_config, its default as the text a file would hold, its range and its
 * help line. config_defaults parses the default texts, config_set parses a
 * value, config_to_json and config_print format values back to file text,
 * config_print_keys prints the table, and where[i] records where option i
 * got its value. Adding a key means adding one row (and a field).
 *
 * A parse function either sets the whole value or leaves c untouched and
 * writes "KEY: what is wrong" into msg; config_set prefixes the place.
 * Unused list slots and string tails are zeroed, so equal configs are
 * equal bytes (the engine broadcasts the struct; tests compare it).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ini.h>
#include "config.h"
#include "sfile.h"
#include "text.h"
#include "pattern.h"

#define MSG_MAX 400          /* one message without its place */
#define TEXT_MAX 2048        /* one value as text (64 list entries fit) */
#define CFG_LINE_MAX 198     /* one line of a config file, or one key=value word */
#define CFG_FILE_MAX (1 << 20)
#define SIZE_UNITS "units: B, KiB, MiB, GiB, KB, MB, GB"
#define DURATION_UNITS "units: s, ms, us, min"
#define LEVEL_MAX_SENTINEL INT64_MAX  /* "max" while a level list is parsed */

struct cfg_opt;

/* A value type: parse text into c, or format c's value as file text. */
struct cfg_type {
	int (*parse)(struct sw_config *c, const struct cfg_opt *o, const char *v,
		     char *msg, size_t len);
	void (*format)(const struct sw_config *c, const struct cfg_opt *o,
		       char *buf, size_t len);
};

enum {
	OPEN_MIN = 1,  /* range excludes min */
	OPEN_MAX = 2,  /* range excludes max */
	PERCENT = 4,   /* a trailing '%' is allowed */
};

struct cfg_opt {
	const char *name;
	const char *section;          /* grouping for --help and config_print */
	const struct cfg_type *type;
	size_t off;                   /* field in struct sw_config */
	int aux;                      /* levels: enum cfg_level_unit */
	const char *def;              /* default as file text; NULL: none */
	double min, max;              /* range of the value or of list entries */
	unsigned flags;
	const char *help;
};

/* ---- small helpers ---- */

/* Copy s into buf without leading and trailing white space. */
static void trim_copy(char *buf, size_t len, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static void *field(struct sw_config *c, const struct cfg_opt *o)
{
	return (char *)c + o->off;
}

static const void *cfield(const struct sw_config *c, const struct cfg_opt *o)
{
	return (const char *)c + o->off;
}

/* Shortest text of v that reads back as v: "64", "0.95", "1e-07". */
static void format_double(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* Optimal string alignment distance (Levenshtein plus transpositions). */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/* How far a misspelling of a word of length n may be from the word. */
static int typo_limit(size_t n)
{
	return n <= 2 ? 0 : n <= 4 ? 1 : n <= 8 ? 2 : 3;
}

/* ---- sizes and durations ---- */

int config_parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", 1ULL << 10 }, { "ki", 1ULL << 10 }, { "kib", 1ULL << 10 }, { "kb", 1000ULL },
		{ "m", 1ULL << 20 }, { "mi", 1ULL << 20 }, { "mib", 1ULL << 20 }, { "mb", 1000000ULL },
		{ "g", 1ULL << 30 }, { "gi", 1ULL << 30 }, { "gib", 1ULL << 30 }, { "gb", 1000000000ULL },
	};
	const char *p = s;
	uint64_t ip = 0, frac = 0, pow10 = 1, mult = 0;
	char unit[8];
	size_t un = 0;

	if (!s)
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -1;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			if (pow10 >= 1000000000000ULL)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			pow10 *= 10;
		}
	}
	while (isspace((unsigned char)*p))
		p++;
	while (isalpha((unsigned char)*p)) {
		if (un + 1 >= sizeof(unit))
			return -1;
		unit[un++] = (char)tolower((unsigned char)*p++);
	}
	unit[un] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].unit) == 0)
			mult = units[i].mult;
	if (!mult)
		return -1;
	if (ip > UINT64_MAX / mult)
		return -1;
	/* The fraction must come out to whole bytes: "1.5KiB" yes, "1.5" no. */
	if (frac && (frac * mult) % pow10)
		return -1;
	if (ip * mult > UINT64_MAX - frac * mult / pow10)
		return -1;
	*out = ip * mult + frac * mult / pow10;
	return 0;
}

/* The size in the largest binary unit that holds it exactly, sep between
 * number and unit; plain bytes get suffix (the "B" of config_format_size,
 * or "" in list text). */
static void format_size_suffix(uint64_t bytes, char *buf, size_t len, const char *sep, const char *suffix)
{
	static const char *const names[] = { "GiB", "MiB", "KiB" };
	static const uint64_t mult[] = { 1ULL << 30, 1ULL << 20, 1ULL << 10 };

	for (int i = 0; i < 3; i++)
		if (bytes && bytes % mult[i] == 0) {
			snprintf(buf, len, "%" PRIu64 "%s%s", bytes / mult[i], sep, names[i]);
			return;
		}
	snprintf(buf, len, "%" PRIu64 "%s%s", bytes, *suffix ? sep : "", suffix);
}

void config_format_size(uint64_t bytes, char *buf, size_t len)
{
	format_size_suffix(bytes, buf, len, "", "B");
}

void config_format_size_spaced(uint64_t bytes, char *buf, size_t len)
{
	format_size_suffix(bytes, buf, len, " ", "B");
}

/* A duration with an optional unit (s, ms, us, min; none = s) into seconds. */
static int parse_duration(const char *s, double *out)
{
	static const struct { const char *unit; double div, mul; } units[] = {
		{ "", 1, 1 }, { "s", 1, 1 }, { "sec", 1, 1 }, { "ms", 1e3, 1 },
		{ "us", 1e6, 1 }, { "min", 1, 60 },
	};
	char *end;
	char unit[8];
	size_t un = 0;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || isalpha((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	while (isalpha((unsigned char)*end)) {
		if (un + 1 >= sizeof(unit))
			return -1;
		unit[un++] = (char)tolower((unsigned char)*end++);
	}
	unit[un] = '\0';
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].unit) == 0) {
			*out = v * units[i].mul / units[i].div;
			return 0;
		}
	return -1;
}

/* Seconds as the shortest text in s, ms or us that parses back exactly;
 * at equal length, the unit that suits the magnitude ("20ms", "100us"). */
static void format_duration(double v, char *buf, size_t len)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "s", 1 }, { "ms", 1e3 }, { "us", 1e6 },
	};
	int first = v == 0 || fabs(v) >= 1 ? 0 : fabs(v) >= 1e-3 ? 1 : 2;
	char best[64] = "", cand[64];
	double back;

	for (int k = 0; k < 3; k++) {
		int u = k == 0 ? first : (k <= first ? k - 1 : k);
		double x = v * units[u].scale;

		for (int prec = 0; prec <= 17; prec++) {
			if (prec == 0 && !(x == floor(x) && fabs(x) < 1e15))
				continue;
			snprintf(cand, sizeof(cand), "%.*f%s", 0, x, units[u].unit);
			if (prec > 0)
				snprintf(cand, sizeof(cand), "%.*g%s", prec, x, units[u].unit);
			if (parse_duration(cand, &back) == 0 && back == v &&
			    (!*best || strlen(cand) < strlen(best)))
				snprintf(best, sizeof(best), "%s", cand);
		}
	}
	if (!*best)
		snprintf(best, sizeof(best), "%.17gs", v);
	snprintf(buf, len, "%s", best);
}

/* ---- ranges ---- */

static bool in_range(const struct cfg_opt *o, double v)
{
	if (isnan(v))
		return false;
	if ((o->flags & OPEN_MIN) ? v <= o->min : v < o->min)
		return false;
	if ((o->flags & OPEN_MAX) ? v >= o->max : v > o->max)
		return false;
	return true;
}

static bool is_duration(const struct cfg_opt *o);
static bool is_size(const struct cfg_opt *o);

static void format_bound(const struct cfg_opt *o, double v, char *buf, size_t len)
{
	if (is_duration(o))
		format_duration(v, buf, len);
	else if (is_size(o))
		format_size_suffix((uint64_t)v, buf, len, "", "");
	else
		format_double(v, buf, len);
}

/* "1..1024", "> 0.5 and < 1", "> 0": the range of o as words. */
static void range_text(const struct cfg_opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	bool has_max = isfinite(o->max);

	format_bound(o, o->min, lo, sizeof(lo));
	format_bound(o, o->max, hi, sizeof(hi));
	if (!(o->flags & (OPEN_MIN | OPEN_MAX)) && has_max)
		snprintf(buf, len, "%s..%s", lo, hi);
	else if (!has_max)
		snprintf(buf, len, "%s %s", (o->flags & OPEN_MIN) ? ">" : ">=", lo);
	else
		snprintf(buf, len, "%s %s and %s %s", (o->flags & OPEN_MIN) ? ">" : ">=", lo,
			 (o->flags & OPEN_MAX) ? "<" : "<=", hi);
}

static int out_of_range(const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	char r[96];

	range_text(o, r, sizeof(r));
	return sw_fail(msg, len, "%s: '%s' is out of range (%s)", o->name, v, r);
}

/* A whole number in o's range. */
static int parse_int64(const struct cfg_opt *o, const char *v, int64_t *out, char *msg, size_t len)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(v, &end, 10);
	if (end == v || *end || errno == ERANGE)
		return errno == ERANGE ? out_of_range(o, v, msg, len)
				       : sw_fail(msg, len, "%s: '%s' is not a whole number", o->name, v);
	if (!in_range(o, (double)x))
		return out_of_range(o, v, msg, len);
	*out = x;
	return 0;
}

/* ---- number lists: "8, 1KiB..1MiB x8, max" ---- */

/* Parse one list entry (no ranges) into *out. */
typedef int (*entry_fn)(const struct cfg_opt *o, const char *tok, int64_t *out,
			char *msg, size_t len);

static int size_entry(const struct cfg_opt *o, const char *tok, int64_t *out, char *msg, size_t len)
{
	uint64_t b;

	if (config_parse_size(tok, &b))
		return sw_fail(msg, len, "%s: bad size '%s' (" SIZE_UNITS ")", o->name, tok);
	if (b > (uint64_t)INT64_MAX || !in_range(o, (double)b))
		return out_of_range(o, tok, msg, len);
	*out = (int64_t)b;
	return 0;
}

static int count_entry(const struct cfg_opt *o, const char *tok, int64_t *out, char *msg, size_t len)
{
	return parse_int64(o, tok, out, msg, len);
}

static int level_entry(const struct cfg_opt *o, const char *tok, int64_t *out, char *msg, size_t len)
{
	if (strcasecmp(tok, "max") == 0) {
		*out = LEVEL_MAX_SENTINEL;
		return 0;
	}
	if (strcasecmp(tok, "all") == 0)
		return sw_fail(msg, len, "%s: 'all' cannot be combined with other entries", o->name);
	return parse_int64(o, tok, out, msg, len);
}

/* Expand "A..B xF" (F defaults to 2): A, A*F, A*F^2, ... <= B, then B. */
static int parse_range(const struct cfg_opt *o, const char *item, const char *dots, entry_fn fn,
		       int64_t *vals, int *n, char *msg, size_t len)
{
	char a_txt[128], b_txt[128];
	int64_t a, b, f = 2, v;
	const char *x;

	trim_copy(a_txt, sizeof(a_txt), item, (size_t)(dots - item));
	trim_copy(b_txt, sizeof(b_txt), dots + 2, strlen(dots + 2));
	x = strrchr(b_txt, 'x');
	if (!x)
		x = strrchr(b_txt, '*');
	if (x && x[1] && strspn(x + 1, "0123456789 ") == strlen(x + 1)) {
		long fl;

		/* overflow is an error, never INT64_MAX */
		if (sw_parse_long(x + 1, 0, INT32_MAX, &fl))
			return sw_fail(msg, len, "%s: range factor in '%s' is more than %d", o->name, item, INT32_MAX);
		if (fl < 2)
			return sw_fail(msg, len, "%s: range factor in '%s' must be at least 2", o->name, item);
		f = fl;
		b_txt[x - b_txt] = '\0';
		trim_copy(b_txt, sizeof(b_txt), b_txt, strlen(b_txt));
	}
	if (!*a_txt || !*b_txt)
		return sw_fail(msg, len, "%s: range '%s' needs a start and an end, e.g. '1KiB..1MiB x4'",
			       o->name, item);
	if (fn(o, a_txt, &a, msg, len) || fn(o, b_txt, &b, msg, len))
		return -1;
	if (a == LEVEL_MAX_SENTINEL || b == LEVEL_MAX_SENTINEL)
		return sw_fail(msg, len, "%s: 'max' cannot end a range ('%s')", o->name, item);
	if (a > b)
		return sw_fail(msg, len, "%s: range '%s' starts after it ends", o->name, item);
	for (v = a;; v *= f) {
		if (*n >= SW_MAX_LIST)
			return sw_fail(msg, len, "%s: too many entries (at most %d)", o->name, SW_MAX_LIST);
		vals[(*n)++] = v;
		if (v > b / f)
			break;
	}
	if (vals[*n - 1] != b) {
		if (*n >= SW_MAX_LIST)
			return sw_fail(msg, len, "%s: too many entries (at most %d)", o->name, SW_MAX_LIST);
		vals[(*n)++] = b;
	}
	return 0;
}

/* Split text at commas; each entry is a value or a range. */
static int parse_list(const struct cfg_opt *o, const char *text, entry_fn fn,
		      int64_t *vals, int *n, char *msg, size_t len)
{
	const char *p = text;

	*n = 0;
	if (!*text)
		return sw_fail(msg, len, "%s: empty list", o->name);
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);
		char item[256];
		const char *dots;

		trim_copy(item, sizeof(item), p, l);
		if (!*item)
			return sw_fail(msg, len, "%s: empty entry in '%s'", o->name, text);
		dots = strstr(item, "..");
		if (dots) {
			if (parse_range(o, item, dots, fn, vals, n, msg, len))
				return -1;
		} else {
			if (*n >= SW_MAX_LIST)
				return sw_fail(msg, len, "%s: too many entries (at most %d)", o->name, SW_MAX_LIST);
			if (fn(o, item, &vals[*n], msg, len))
				return -1;
			(*n)++;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Sort ascending; index of the first duplicate or -1. */
static int sort_find_duplicate(int64_t *vals, int n)
{
	qsort(vals, (size_t)n, sizeof(*vals), cmp_i64);
	for (int i = 1; i < n; i++)
		if (vals[i] == vals[i - 1])
			return i;
	return -1;
}

/* ---- the types ---- */

static int levels_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int64_t vals[SW_MAX_LIST];
	int n, dup;

	if (strcasecmp(v, "all") == 0) {
		c->level_unit = o->aux;
		c->levels_all = true;
		c->nlevels = 0;
		memset(c->levels, 0, sizeof(c->levels));
		return 0;
	}
	if (parse_list(o, v, level_entry, vals, &n, msg, len))
		return -1;
	if (o->aux == CFG_LEVEL_NODES)
		for (int i = 0; i < n; i++)
			if (vals[i] != LEVEL_MAX_SENTINEL && vals[i] % 2)
				return sw_fail(msg, len, "%s: odd number of nodes '%" PRId64 "' (a pair takes 2 nodes)",
					       o->name, vals[i]);
	dup = sort_find_duplicate(vals, n);
	if (dup >= 0) {
		if (vals[dup] == LEVEL_MAX_SENTINEL)
			return sw_fail(msg, len, "%s: duplicate entry 'max'", o->name);
		return sw_fail(msg, len, "%s: duplicate entry '%" PRId64 "'", o->name, vals[dup]);
	}
	c->level_unit = o->aux;
	c->levels_all = false;
	c->nlevels = n;
	memset(c->levels, 0, sizeof(c->levels));
	for (int i = 0; i < n; i++)
		c->levels[i] = vals[i] == LEVEL_MAX_SENTINEL ? CFG_LEVEL_MAX : (int)vals[i];
	return 0;
}

static void levels_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c->level_unit != o->aux)
		return;         /* the other key holds the levels */
	if (c->levels_all) {
		snprintf(buf, len, "all");
		return;
	}
	for (int i = 0; i < c->nlevels; i++) {
		if (c->levels[i] == CFG_LEVEL_MAX)
			sw_appendf(buf, len, "%smax", i ? ", " : "");
		else
			sw_appendf(buf, len, "%s%d", i ? ", " : "", c->levels[i]);
	}
}

static int sizes_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int64_t vals[SW_MAX_LIST];
	int n, dup;

	if (parse_list(o, v, size_entry, vals, &n, msg, len))
		return -1;
	dup = sort_find_duplicate(vals, n);
	if (dup >= 0) {
		char s[32];

		format_size_suffix((uint64_t)vals[dup], s, sizeof(s), "", "");
		return sw_fail(msg, len, "%s: duplicate entry '%s'", o->name, s);
	}
	c->nsizes = n;
	memset(c->sizes, 0, sizeof(c->sizes));
	for (int i = 0; i < n; i++)
		c->sizes[i] = (uint64_t)vals[i];
	return 0;
}

static void sizes_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	buf[0] = '\0';
	for (int i = 0; i < c->nsizes; i++) {
		char s[32];

		format_size_suffix(c->sizes[i], s, sizeof(s), "", "");
		sw_appendf(buf, len, "%s%s", i ? ", " : "", s);
	}
}

static int hops_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int64_t vals[SW_MAX_LIST];
	int n, dup;

	if (strcasecmp(v, "auto") == 0) {
		c->nhops = 0;
		memset(c->hops, 0, sizeof(c->hops));
		return 0;
	}
	if (parse_list(o, v, count_entry, vals, &n, msg, len))
		return -1;
	dup = sort_find_duplicate(vals, n);
	if (dup >= 0)
		return sw_fail(msg, len, "%s: duplicate entry '%" PRId64 "'", o->name, vals[dup]);
	c->nhops = n;
	memset(c->hops, 0, sizeof(c->hops));
	for (int i = 0; i < n; i++)
		c->hops[i] = (long)vals[i];
	return 0;
}

static void hops_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	buf[0] = '\0';
	if (c->nhops == 0)
		snprintf(buf, len, "auto");
	for (int i = 0; i < c->nhops; i++)
		sw_appendf(buf, len, "%s%ld", i ? ", " : "", c->hops[i]);
}

static int patterns_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int ids[SW_MAX_PATTERNS], n = 0;
	const char *p = v;

	if (!*v)
		return sw_fail(msg, len, "%s: empty list", o->name);
	for (;;) {
		const char *comma = strchr(p, ',');
		char name[64];
		int id;

		trim_copy(name, sizeof(name), p, comma ? (size_t)(comma - p) : strlen(p));
		lower(name);
		if (!*name)
			return sw_fail(msg, len, "%s: empty entry in '%s'", o->name, v);
		id = pattern_find(name);
		if (id < 0) {
			const char *best = NULL;
			int bd = 99;
			char known[128] = "";

			for (int i = 0; i < pattern_count(); i++) {
				int d = edit_distance(name, pattern_name(i));

				if (d < bd) {
					bd = d;
					best = pattern_name(i);
				}
				sw_appendf(known, sizeof(known), "%s%s", i ? ", " : "", pattern_name(i));
			}
			if (best && bd <= typo_limit(strlen(name)))
				return sw_fail(msg, len, "%s: unknown pattern '%s' (did you mean '%s'?)",
					       o->name, name, best);
			return sw_fail(msg, len, "%s: unknown pattern '%s' (patterns: %s)", o->name, name, known);
		}
		for (int i = 0; i < n; i++)
			if (ids[i] == id)
				return sw_fail(msg, len, "%s: duplicate entry '%s'", o->name, name);
		if (n >= SW_MAX_PATTERNS)
			return sw_fail(msg, len, "%s: too many entries (at most %d)", o->name, SW_MAX_PATTERNS);
		ids[n++] = id;
		if (!comma)
			break;
		p = comma + 1;
	}
	c->npatterns = n;
	memset(c->patterns, 0, sizeof(c->patterns));
	memcpy(c->patterns, ids, sizeof(ids[0]) * (size_t)n);
	return 0;
}

static void patterns_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	buf[0] = '\0';
	for (int i = 0; i < c->npatterns; i++)
		sw_appendf(buf, len, "%s%s", i ? ", " : "", pattern_name(c->patterns[i]));
}

static const char *const pairing_names[] = {
	[CFG_PAIRING_ADJACENT] = "adjacent",
	[CFG_PAIRING_HALVES] = "halves",
	[CFG_PAIRING_RANDOM] = "random",
	[CFG_PAIRING_SHIFT] = "shift",
};

static int pairing_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	char name[64];
	const char *colon = strchr(v, ':');

	trim_copy(name, sizeof(name), v, colon ? (size_t)(colon - v) : strlen(v));
	lower(name);
	if (strcmp(name, "shift") == 0) {
		char d[64];
		char *end;
		long x;

		if (!colon)
			return sw_fail(msg, len, "%s: shift needs a distance, e.g. 'shift:2'", o->name);
		trim_copy(d, sizeof(d), colon + 1, strlen(colon + 1));
		errno = 0;
		x = strtol(d, &end, 10);
		if (end == d || *end || errno)
			return sw_fail(msg, len, "%s: shift distance '%s' is not a whole number", o->name, d);
		if (!in_range(o, (double)x))
			return sw_fail(msg, len, "%s: shift distance '%s' is out of range (1..%g)", o->name, d, o->max);
		c->pairing = CFG_PAIRING_SHIFT;
		c->shift = (int)x;
		return 0;
	}
	for (int i = 0; i < CFG_PAIRING_SHIFT; i++)
		if (strcmp(name, pairing_names[i]) == 0 && !colon) {
			c->pairing = i;
			c->shift = 0;
			return 0;
		}
	return sw_fail(msg, len, "%s: unknown pairing '%s' (adjacent, halves, random, shift:D)", o->name, v);
}

static void pairing_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	if (c->pairing == CFG_PAIRING_SHIFT)
		snprintf(buf, len, "shift:%d", c->shift);
	else if (c->pairing >= 0 && c->pairing < CFG_PAIRING_SHIFT)
		snprintf(buf, len, "%s", pairing_names[c->pairing]);
	else
		snprintf(buf, len, "?");
}

static const char *const design_names[] = {
	[CFG_DESIGN_BLOCKS] = "blocks",
	[CFG_DESIGN_SEQUENTIAL] = "sequential",
};

static int design_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	for (int i = 0; i < (int)(sizeof(design_names) / sizeof(design_names[0])); i++)
		if (strcasecmp(v, design_names[i]) == 0) {
			c->design = i;
			return 0;
		}
	return sw_fail(msg, len, "%s: unknown design '%s' (blocks, sequential)", o->name, v);
}

static void design_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", c->design == CFG_DESIGN_SEQUENTIAL ? "sequential" : "blocks");
}

static int schedule_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	if (strcasecmp(v, "sweep") && strcasecmp(v, "map"))
		return sw_fail(msg, len, "%s: unknown schedule '%s' (sweep, map)", o->name, v);
	c->schedule = strcasecmp(v, "map") == 0 ? CFG_SCHEDULE_MAP : CFG_SCHEDULE_SWEEP;
	return 0;
}

static void schedule_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	snprintf(buf, len, "%s", c->schedule == CFG_SCHEDULE_MAP ? "map" : "sweep");
}

/* all (0) or a count in the option's range. */
static int count_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int64_t x = 0;

	if (strcasecmp(v, "all") && parse_int64(o, v, &x, msg, len))
		return -1;
	*(int *)field(c, o) = (int)x;
	return 0;
}

static void count_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	int v = *(const int *)cfield(c, o);

	if (v)
		snprintf(buf, len, "%d", v);
	else
		snprintf(buf, len, "all");
}

static int reps_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	const char *dots = strstr(v, "..");
	int64_t lo, hi;

	if (!dots) {
		if (parse_int64(o, v, &lo, msg, len))
			return -1;
		hi = lo;
	} else {
		char a[64], b[64];

		trim_copy(a, sizeof(a), v, (size_t)(dots - v));
		trim_copy(b, sizeof(b), dots + 2, strlen(dots + 2));
		if (parse_int64(o, a, &lo, msg, len) || parse_int64(o, b, &hi, msg, len))
			return -1;
		if (lo > hi)
			return sw_fail(msg, len, "%s: minimum %" PRId64 " is larger than maximum %" PRId64,
				       o->name, lo, hi);
	}
	c->rep_min = (int)lo;
	c->rep_max = (int)hi;
	return 0;
}

static void reps_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	(void)o;
	if (c->rep_min == c->rep_max)
		snprintf(buf, len, "%d", c->rep_min);
	else
		snprintf(buf, len, "%d..%d", c->rep_min, c->rep_max);
}

static int int_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int64_t x;

	if (parse_int64(o, v, &x, msg, len))
		return -1;
	*(int *)field(c, o) = (int)x;
	return 0;
}

static void int_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%d", *(const int *)cfield(c, o));
}

static int u64_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	uint64_t x;

	/* decimal only: seed=010 is ten, not octal 8 */
	if (sw_parse_u64(v, 0, UINT64_MAX, &x))
		return sw_fail(msg, len, "%s: '%s' is not a whole number 0..%" PRIu64, o->name, v, UINT64_MAX);
	*(uint64_t *)field(c, o) = x;
	return 0;
}

static void u64_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64, *(const uint64_t *)cfield(c, o));
}

/* One byte size ("8", "1KiB"), as one entry of sizes. */
static int size_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int64_t b;

	if (size_entry(o, v, &b, msg, len))
		return -1;
	*(uint64_t *)field(c, o) = (uint64_t)b;
	return 0;
}

static void size_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	format_size_suffix(*(const uint64_t *)cfield(c, o), buf, len, "", "");
}

static int double_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (end != v && (o->flags & PERCENT) && *end == '%')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	if (end == v || *end || errno || !isfinite(x) || isalpha((unsigned char)*v))
		return sw_fail(msg, len, "%s: '%s' is not a number", o->name, v);
	if (!in_range(o, x))
		return out_of_range(o, v, msg, len);
	*(double *)field(c, o) = x;
	return 0;
}

static void double_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	format_double(*(const double *)cfield(c, o), buf, len);
}

static int duration_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	double x;

	if (parse_duration(v, &x))
		return sw_fail(msg, len, "%s: bad duration '%s' (" DURATION_UNITS ")", o->name, v);
	if (!in_range(o, x))
		return out_of_range(o, v, msg, len);
	*(double *)field(c, o) = x;
	return 0;
}

static void duration_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	format_duration(*(const double *)cfield(c, o), buf, len);
}

/* Accepts yes/no/true/false/on/off/1/0; returns 1, 0 or -1. */
static int bool_word(const char *v)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (int i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return -1;
}

static int bool_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int b = bool_word(v);

	if (b < 0)
		return sw_fail(msg, len, "%s: '%s' is not yes or no", o->name, v);
	*(bool *)field(c, o) = b;
	return 0;
}

static void bool_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s", *(const bool *)cfield(c, o) ? "yes" : "no");
}

/* auto, yes or no into an int field (enum cfg_auto). */
static int auto_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	int b = bool_word(v);

	if (strcasecmp(v, "auto") == 0)
		*(int *)field(c, o) = CFG_AUTO;
	else if (b < 0)
		return sw_fail(msg, len, "%s: '%s' is not auto, yes or no", o->name, v);
	else
		*(int *)field(c, o) = b ? CFG_YES : CFG_NO;
	return 0;
}

static void auto_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	int v = *(const int *)cfield(c, o);

	snprintf(buf, len, "%s", v == CFG_YES ? "yes" : v == CFG_NO ? "no" : "auto");
}

static int label_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	size_t n = strlen(v);

	if (!n)
		return sw_fail(msg, len, "%s: empty value", o->name);
	if (n >= sizeof(c->label))
		return sw_fail(msg, len, "%s: '%s' is longer than %zu characters", o->name, v, sizeof(c->label) - 1);
	if (strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != n)
		return sw_fail(msg, len, "%s: '%s' may hold only letters, digits, '.', '_' and '-'", o->name, v);
	if (v[0] == '-' || v[0] == '.')
		return sw_fail(msg, len, "%s: '%s' may not start with '%c' (it names a folder)", o->name, v, v[0]);
	memset(c->label, 0, sizeof(c->label));
	memcpy(c->label, v, n + 1);
	return 0;
}

static int path_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	size_t n = strlen(v);
	char *dst = field(c, o);

	if (!n)
		return sw_fail(msg, len, "%s: empty value", o->name);
	if (n >= SW_PATH_MAX)
		return sw_fail(msg, len, "%s: path is longer than %d characters", o->name, SW_PATH_MAX - 1);
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return sw_fail(msg, len, "%s: path holds a control character", o->name);
	if (!text_utf8_valid(v))
		return sw_fail(msg, len, "%s: path is not valid UTF-8", o->name);
	memset(dst, 0, SW_PATH_MAX);
	memcpy(dst, v, n + 1);
	return 0;
}

/* Free text (switch and host metadata): may be empty, one line of
 * printable characters, shorter than o->max bytes (the field's size). */
static int text_parse(struct sw_config *c, const struct cfg_opt *o, const char *v, char *msg, size_t len)
{
	size_t n = strlen(v);
	char *dst = field(c, o);

	if (n >= (size_t)o->max)
		return sw_fail(msg, len, "%s: longer than %d characters", o->name, (int)o->max - 1);
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return sw_fail(msg, len, "%s: control character in '%s'", o->name, v);
	if (text_check(v))
		return sw_fail(msg, len, "%s: %s", o->name, text_check(v));
	memset(dst, 0, (size_t)o->max);
	memcpy(dst, v, n + 1);
	return 0;
}

static void string_format(const struct sw_config *c, const struct cfg_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s", (const char *)cfield(c, o));
}

static const struct cfg_type T_LEVELS = { levels_parse, levels_format };
static const struct cfg_type T_SIZES = { sizes_parse, sizes_format };
static const struct cfg_type T_HOPS = { hops_parse, hops_format };
static const struct cfg_type T_PATTERNS = { patterns_parse, patterns_format };
static const struct cfg_type T_PAIRING = { pairing_parse, pairing_format };
static const struct cfg_type T_REPS = { reps_parse, reps_format };
static const struct cfg_type T_DESIGN = { design_parse, design_format };
static const struct cfg_type T_SCHEDULE = { schedule_parse, schedule_format };
static const struct cfg_type T_COUNT = { count_parse, count_format };
static const struct cfg_type T_INT = { int_parse, int_format };
static const struct cfg_type T_U64 = { u64_parse, u64_format };
static const struct cfg_type T_SIZE = { size_parse, size_format };
static const struct cfg_type T_DOUBLE = { double_parse, double_format };
static const struct cfg_type T_DURATION = { duration_parse, duration_format };
static const struct cfg_type T_BOOL = { bool_parse, bool_format };
static const struct cfg_type T_AUTO = { auto_parse, auto_format };
static const struct cfg_type T_LABEL = { label_parse, string_format };
static const struct cfg_type T_PATH = { path_parse, string_format };
static const struct cfg_type T_TEXT = { text_parse, string_format };

static bool is_duration(const struct cfg_opt *o)
{
	return o->type == &T_DURATION;
}

static bool is_size(const struct cfg_opt *o)
{
	return o->type == &T_SIZES || o->type == &T_SIZE;
}

/* ---- the option table ---- */

#define OFF(f) offsetof(struct sw_config, f)
#define GiB (1024.0 * 1024.0 * 1024.0)

static const struct cfg_opt opts[] = {
	/* [sweep] */
	{ "nodes", "sweep", &T_LEVELS, OFF(levels), CFG_LEVEL_NODES, "all", 2, 1e6, 0,
	  "load levels as node counts (even): '8, 16, 24, max', or all = every pair count 1..N/2" },
	{ "pairs", "sweep", &T_LEVELS, OFF(levels), CFG_LEVEL_PAIRS, NULL, 1, 5e5, 0,
	  "load levels as pair counts instead of nodes: '1, 2, 4, max' or all" },
	{ "sizes", "sweep", &T_SIZES, OFF(sizes), 0, "8, 1KiB, 64KiB, 1MiB", 1, GiB, 0,
	  "message sizes: B, KiB, MiB, GiB (KB, MB, GB = 1000s) and ranges '1KiB..1MiB x4'" },
	{ "hops", "sweep", &T_HOPS, OFF(hops), 0, "auto", 1, 1e12, 0,
	  "one-way messages per sample: a list ('1000, 16384'), or auto (sized to sample_time)" },
	{ "sample_time", "sweep", &T_DURATION, OFF(sample_time), 0, "20ms", 0, 60, OPEN_MIN,
	  "length of one sample when hops = auto (s, ms, us): a timed sample's window, else the hop count's target" },
	{ "timed", "sweep", &T_AUTO, OFF(timed), 0, "auto", 0, 0, 0,
	  "time-bounded samples: every pair sends until one common deadline and counts its messages; "
	  "auto = stream and bidir when hops = auto (every pattern with victims or schedule = map), yes = "
	  "pingpong too, no = hop counts" },
	{ "patterns", "sweep", &T_PATTERNS, OFF(patterns), 0, "pingpong, stream, bidir", 0, 0, 0,
	  "what each pair does: pingpong (latency), stream (one-way bandwidth), bidir (both ways), "
	  "incast (k senders to one receiver, timed; levels count senders)" },
	{ "window", "sweep", &T_INT, OFF(window), 0, "64", 1, SW_MAX_WINDOW, 0,
	  "messages in flight for stream and bidir" },
	{ "distinct_buffers", "sweep", &T_BOOL, OFF(distinct_buffers), 0, "no", 0, 0, 0,
	  "receive each message of a window into its own buffer (no: one buffer, as osu_bw)" },
	{ "blocking_waits", "sweep", &T_BOOL, OFF(blocking_waits), 0, "no", 0, 0, 0,
	  "untimed samples wait in MPI's blocking calls, as OSU does (faster below 4 KiB, never yield; "
	  "a watchdog thread ends a stuck run at timeout); no: they poll" },
	{ "pairing", "sweep", &T_PAIRING, OFF(pairing), 0, "adjacent", 1, 1e6, 0,
	  "how ranks pair up: adjacent (0-1, 2-3), halves (i, i+N/2), random (seeded), shift:D" },
	{ "seed", "sweep", &T_U64, OFF(seed), 0, "1", 0, 0, 0,
	  "seed of the random pairing" },
	{ "repetitions", "sweep", &T_REPS, OFF(rep_min), 0, "10", 1, 1e6, 0,
	  "samples per pair and cell: N, or MIN..MAX to repeat until ci_target is met" },
	{ "design", "sweep", &T_DESIGN, OFF(design), 0, "blocks", 0, 0, 0,
	  "order of the sweep: blocks = each repetition visits every level once, in an order that changes "
	  "from block to block (plan prints it), and changes are computed within blocks; sequential = all "
	  "repetitions of a level, then the next (the classic order: a change of speed during the sweep "
	  "reads as load)" },
	{ "schedule", "sweep", &T_SCHEDULE, OFF(schedule), 0, "sweep", 0, 0, 0,
	  "sweep = the load levels; map = the fabric map (swstress map): every pair of ranks once a pass, "
	  "in rounds of disjoint pairs (the circle method), levels and pairing unused" },
	{ "map_rounds", "sweep", &T_COUNT, OFF(map_rounds), 0, "all", 1, SW_MAX_RANKS, 0,
	  "map: rounds of the pass to run, all (N-1 for N ranks, N if odd) or a seeded subset of this many "
	  "(seed): a given pair is measured with chance rounds / pass, a slow host in every round" },
	{ "map_concurrency", "sweep", &T_COUNT, OFF(map_concurrency), 0, "all", 1, SW_MAX_RANKS, 0,
	  "map: pairs of a round that run at once: all (the loaded map), 1 (the unloaded map) or K" },
	{ "warmup", "sweep", &T_INT, OFF(warmup), 0, "1", 0, 1000, 0,
	  "untimed rounds before each cell" },
	{ "timeout", "sweep", &T_DURATION, OFF(timeout), 0, "60s", 0, 86400, OPEN_MIN,
	  "watchdog: longest one round (one sample of every pair) may take before the run stops" },
	{ "allow_shared_node", "sweep", &T_BOOL, OFF(allow_shared_node), 0, "no", 0, 0, 0,
	  "allow ranks that share a host (yes for one-machine runs; measures no switch)" },
	{ "allow_shared_kernel", "sweep", &T_BOOL, OFF(allow_shared_kernel), 0, "yes", 0, 0, 0,
	  "allow ranks on one kernel in their own network stacks (namespaces, containers): their traffic "
	  "crosses the switch but they share the kernel's CPUs, which every table then says; no refuses them" },
	{ "yield", "sweep", &T_AUTO, OFF(yield), 0, "auto", 0, 0, 0,
	  "give up the CPU while waiting: auto (when ranks outnumber cores), yes, no" },
	{ "ranks_per_node", "sweep", &T_INT, OFF(ranks_per_node), 0, "1", 1, 256, 0,
	  "K ranks on each node drive its port (as osu_mbw_mr's pairs): a pair is two nodes with K rank pairs "
	  "between them to one deadline, its value their sum; levels count node pairs; stream and bidir "
	  "only; place exactly K ranks a node, in rank order (mpiexec -ppn K)" },
	{ "victims", "sweep", &T_INT, OFF(victims), 0, "0", 0, 5e5, 0,
	  "victim pairs: the first N pairs of the pairing run timed pingpong of victim_size beside every "
	  "level's pairs (the aggressors, running the cells' pattern), and alone in every repetition; "
	  "levels then count aggressor pairs (0: no victims)" },
	{ "victim_size", "sweep", &T_SIZE, OFF(victim_size), 0, "8", 1, GiB, 0,
	  "message size of the victims' pingpong" },
	{ "cpu_control", "sweep", &T_AUTO, OFF(cpu_control), 0, "auto", 0, 0, 0,
	  "victims: a third round in every repetition in which the aggressors stream as fast through their own "
	  "loopback, crossing no switch, so that the victims' inflation splits into a CPU part and a network part: "
	  "auto (when ranks share a kernel's cores), yes, no" },
	{ "isolate", "sweep", &T_AUTO, OFF(isolate), 0, "auto", 0, 0, 0,
	  "after the sweep, re-pair each host of a flagged pair with 3 healthy hosts, one pair at a time, "
	  "to name the slow one alone: auto = for check, yes, no" },
	{ "drift_check", "sweep", &T_AUTO, OFF(drift_check), 0, "auto", 0, 0, 0,
	  "drift control: measure the baseline level again after the last level and test it against its "
	  "first measurement; a significant change marks the run as drifted: auto = long sweeps (4 or more "
	  "levels, or an estimated 10 min or more), yes (2 or more levels), no; design = blocks tests the "
	  "baseline level's trend over the blocks instead, with no re-run" },
	{ "label", "sweep", &T_LABEL, OFF(label), 0, "swstress", 0, 0, 0,
	  "name of the run, starts the results folder name (letters, digits, . _ -)" },
	{ "output", "sweep", &T_PATH, OFF(output), 0, "results", 0, 0, 0,
	  "folder that receives the result folders" },
	{ "keep_days", "sweep", &T_INT, OFF(keep_days), 0, "0", 0, 36500, 0,
	  "retention: after a run or check, delete result folders in output and history runs older "
	  "than this many days (the runs of baseline sets stay); 0 keeps everything" },
	/* [stats] */
	{ "confidence", "stats", &T_DOUBLE, OFF(confidence), 0, "0.95", 0.5, 1, OPEN_MIN | OPEN_MAX,
	  "confidence level of the intervals" },
	{ "alpha", "stats", &T_DOUBLE, OFF(alpha), 0, "0.05", 0, 0.5, OPEN_MIN,
	  "significance level of the tests" },
	{ "min_effect", "stats", &T_DOUBLE, OFF(min_effect), 0, "2", 0, 1000, PERCENT,
	  "smallest change (%) reported as a real difference" },
	{ "run_to_run", "stats", &T_DOUBLE, OFF(run_to_run), 0, "5", 0, 1000, PERCENT,
	  "SD (%) of a run's value between runs of one switch or healthy nights: with one run a side (compare) a "
	  "difference counts only when its whole interval lies beyond z sqrt 2 x this (13.9% at 5% and 95% "
	  "confidence); against fewer than 3 baseline runs (judge, check) each cell's interval counts this SD "
	  "twice; with more runs the spread is measured" },
	{ "suspect_min_effect", "stats", &T_DOUBLE, OFF(suspect_min_effect), 0, "10", 0, 1000, PERCENT,
	  "a pair is flagged only when at least this much (%) slower than its level's typical pair" },
	{ "ci_target", "stats", &T_DOUBLE, OFF(ci_target), 0, "0.02", 0, 1, OPEN_MIN | OPEN_MAX,
	  "MIN..MAX repetitions stop when CI half-width / median is below this" },
	{ "cell_budget", "stats", &T_DURATION, OFF(cell_budget), 0, "30s", 0, 86400, OPEN_MIN,
	  "most time MIN..MAX repetitions may spend on one cell (design = blocks: no block starts after "
	  "cell_budget x cells)" },
	{ "bootstrap", "stats", &T_INT, OFF(bootstrap), 0, "2000", 100, 1e6, 0,
	  "unused since compare's intervals became Bonett-Price; kept so that older configs and runs load" },
	/* [health] */
	{ "warn_drop", "health", &T_DOUBLE, OFF(warn_drop), 0, "10", 0, 100, OPEN_MIN | PERCENT,
	  "bandwidth drop (%) against the baseline that makes check warn" },
	{ "crit_drop", "health", &T_DOUBLE, OFF(crit_drop), 0, "25", 0, 100, OPEN_MIN | PERCENT,
	  "bandwidth drop (%) that makes check critical" },
	{ "warn_inflation", "health", &T_DOUBLE, OFF(warn_inflation), 0, "20", 0, 1e5, OPEN_MIN | PERCENT,
	  "latency inflation (%) against the baseline that makes check warn" },
	{ "crit_inflation", "health", &T_DOUBLE, OFF(crit_inflation), 0, "50", 0, 1e5, OPEN_MIN | PERCENT,
	  "latency inflation (%) that makes check critical" },
	{ "deadline", "health", &T_DURATION, OFF(deadline), 0, "300s", 0, 7 * 86400, OPEN_MIN,
	  "longest the whole check may run (s, min)" },
	{ "nightly_sigma", "health", &T_DOUBLE, OFF(nightly_sigma), 0, "3", 0, 100, OPEN_MIN,
	  "unused since a check pages on one rule (an interval simultaneous over its cells); kept so that older "
	  "configs and runs load" },
	{ "baseline_window", "health", &T_INT, OFF(baseline_window), 0, "0", 0, 1000, 0,
	  "check adds each OK night to the named baseline, keeping the newest N (0: never)" },
	{ "ewma_lambda", "health", &T_DOUBLE, OFF(ewma_lambda), 0, "0.2", 0, 1, OPEN_MIN,
	  "weight of the newest night in the drift control chart (EWMA)" },
	{ "ewma_limit", "health", &T_DOUBLE, OFF(ewma_limit), 0, "3", 0, 100, OPEN_MIN,
	  "control limit of the drift chart, in SDs of the EWMA (warns on slow drift)" },
	/* [switch] and [host]: recorded for the catalog (swstress publish) */
#define TEXT(f) &T_TEXT, OFF(f), 0, "", 0, sizeof(((struct sw_config *)0)->f), 0
	{ "vendor", "switch", TEXT(vendor), "maker of the switch under test" },
	{ "model", "switch", TEXT(model), "switch model (publish needs it)" },
	{ "firmware", "switch", TEXT(firmware), "switch firmware or OS version" },
	{ "port_speed", "switch", TEXT(port_speed), "speed of the ports used, e.g. 100GbE" },
	{ "ports_used", "switch", &T_INT, OFF(ports_used), 0, "0", 0, 1e6, 0,
	  "switch ports cabled for the test (0: not given)" },
	{ "topology", "switch", TEXT(topology), "single, leaf-spine, ... (how the nodes reach each other)" },
	{ "oversubscription", "switch", TEXT(oversubscription), "oversubscription of the topology, e.g. 3:1" },
	{ "cabling", "switch", TEXT(cabling), "cables and optics, e.g. 3 m DAC" },
	{ "notes", "switch", TEXT(notes), "anything else a reader of the results should know" },
	{ "nic", "host", TEXT(nic), "network adapter of the nodes, e.g. ConnectX-6 100GbE" },
	{ "transport", "host", TEXT(transport), "MPI transport, e.g. ucx/tcp, ofi/verbs (the MPI library is recorded)" },
#undef TEXT
};

#define NOPTS ((int)(sizeof(opts) / sizeof(opts[0])))

_Static_assert(sizeof(opts) / sizeof(opts[0]) <= CFG_MAX_OPTIONS,
	       "more options than where[] has rows: raise CFG_MAX_OPTIONS");

/* Other programs' names for our keys, for "did you mean". */
static const struct { const char *alias, *key; } aliases[] = {
	{ "msgsz", "sizes" }, { "msgsize", "sizes" }, { "msg_size", "sizes" },
	{ "message_size", "sizes" }, { "message_sizes", "sizes" }, { "bytes", "sizes" },
	{ "length", "sizes" }, { "np", "nodes" }, { "nprocs", "nodes" }, { "ranks", "nodes" },
	{ "levels", "nodes" }, { "load", "nodes" }, { "iterations", "hops" }, { "iters", "hops" },
	{ "niter", "hops" }, { "count", "hops" }, { "messages", "hops" }, { "loops", "hops" },
	{ "reps", "repetitions" }, { "repeat", "repetitions" }, { "runs", "repetitions" },
	{ "samples", "repetitions" }, { "test", "patterns" }, { "tests", "patterns" },
	{ "mode", "patterns" }, { "benchmark", "patterns" }, { "duration", "sample_time" },
	{ "name", "label" }, { "tag", "label" }, { "dir", "output" }, { "outdir", "output" },
	{ "output_dir", "output" }, { "results", "output" }, { "significance", "alpha" },
	{ "pvalue", "alpha" }, { "p_value", "alpha" }, { "resamples", "bootstrap" },
	{ "shared", "allow_shared_node" }, { "oversubscribe", "allow_shared_node" },
	{ "mapping", "pairing" }, { "placement", "pairing" }, { "inflight", "window" },
	{ "outstanding", "window" }, { "depth", "window" }, { "warm_up", "warmup" },
	{ "watchdog", "timeout" }, { "time_limit", "deadline" },
};

/* Key text as looked up: trimmed, lower case, '-' read as '_'. */
static void normalize_key(char *buf, size_t len, const char *key)
{
	trim_copy(buf, len, key, strlen(key));
	lower(buf);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

static int find_option(const char *key)
{
	char k[64];

	normalize_key(k, sizeof(k), key);
	for (int i = 0; i < NOPTS; i++)
		if (strcmp(opts[i].name, k) == 0)
			return i;
	return -1;
}

/* The key that an unknown key most likely meant, or NULL. */
static const char *suggest_key(const char *key)
{
	char k[64];
	const char *best = NULL;
	int bd = 99;

	normalize_key(k, sizeof(k), key);
	for (int i = 0; i < NOPTS; i++) {
		int d = edit_distance(k, opts[i].name);

		if (d < bd) {
			bd = d;
			best = opts[i].name;
		}
	}
	if (best && bd <= typo_limit(strlen(k)))
		return best;
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(k, aliases[i].alias) == 0)
			return aliases[i].key;
	return NULL;
}

static void set_where(struct sw_config *c, int i, const char *where)
{
	snprintf(c->where[i], CFG_WHERE_MAX, "%s", where);
	/* nodes and pairs share the levels: both report where they came from */
	if (opts[i].type == &T_LEVELS)
		for (int j = 0; j < NOPTS; j++)
			if (opts[j].type == &T_LEVELS)
				snprintf(c->where[j], CFG_WHERE_MAX, "%s", where);
}

/* ---- the public functions ---- */

void config_defaults(struct sw_config *c)
{
	char msg[MSG_MAX];

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < NOPTS; i++) {
		if (opts[i].def && opts[i].type->parse(c, &opts[i], opts[i].def, msg, sizeof(msg)))
			abort();  /* a default that does not parse is a bug in opts[] */
		snprintf(c->where[i], CFG_WHERE_MAX, "default");
	}
}

int config_set(struct sw_config *c, const char *key, const char *value,
	       const char *where, char *err, size_t errlen)
{
	char k[64], v[TEXT_MAX], msg[MSG_MAX];
	int i;

	trim_copy(k, sizeof(k), key, strlen(key));
	if (!*k)
		return sw_fail(err, errlen, "%s: missing key before '='", where);
	i = find_option(k);
	if (i < 0) {
		const char *s = suggest_key(k);

		if (s)
			return sw_fail(err, errlen, "%s: unknown key '%s' (did you mean '%s'?)", where, k, s);
		return sw_fail(err, errlen, "%s: unknown key '%s' (swstress --help lists the keys)", where, k);
	}
	if (strlen(value) >= sizeof(v))
		return sw_fail(err, errlen, "%s: %s: value is longer than %zu characters",
			       where, opts[i].name, sizeof(v) - 1);
	trim_copy(v, sizeof(v), value, strlen(value));
	if (!*v && opts[i].type != &T_SIZES && opts[i].type != &T_HOPS &&
	    opts[i].type != &T_LEVELS && opts[i].type != &T_PATTERNS && opts[i].type != &T_TEXT)
		return sw_fail(err, errlen, "%s: %s: empty value", where, opts[i].name);
	if (opts[i].type->parse(c, &opts[i], v, msg, sizeof(msg)))
		return sw_fail(err, errlen, "%s: %s", where, msg);
	set_where(c, i, where);
	return 0;
}

int config_set_arg(struct sw_config *c, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char key[64];

	if (!eq)
		return sw_fail(err, errlen, "command line: expected key=value, got '%s'", arg);
	if (strlen(arg) > CFG_LINE_MAX)
		return sw_fail(err, errlen, "command line: '%.*s...' is longer than %d characters (as a config file line)",
			       (int)(eq - arg) + 1, arg, CFG_LINE_MAX);
	if ((size_t)(eq - arg) >= sizeof(key))
		return sw_fail(err, errlen, "command line: unknown key '%.*s'", (int)(eq - arg), arg);
	memcpy(key, arg, (size_t)(eq - arg));
	key[eq - arg] = '\0';
	return config_set(c, key, eq + 1, "command line", err, errlen);
}

/* The option row of a key=value word, or -1. */
static int arg_option(const char *arg)
{
	char key[64];
	size_t n = strcspn(arg, "=");

	if (n >= sizeof(key))
		return -1;
	memcpy(key, arg, n);
	key[n] = '\0';
	return find_option(key);
}

int config_set_args(struct sw_config *c, const char *const *args, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		int o = arg_option(args[i]);

		for (int j = 0; o >= 0 && j < i; j++)
			if (arg_option(args[j]) >= 0 && opts[arg_option(args[j])].type == &T_LEVELS &&
			    opts[o].type == &T_LEVELS)
				return sw_fail(err, errlen, "command line: '%s' conflicts with '%s' (levels are nodes "
					       "or pairs, not both)", args[i], args[j]);
		if (config_set_arg(c, args[i], err, errlen))
			return -1;
	}
	return 0;
}

/* State of one config_load_file: the file in memory, read line by line. */
struct load_ctx {
	struct sw_config *c;
	const char *path;
	const char *buf;
	size_t len, pos;
	int lineno;          /* line the parser is on */
	int long_line;       /* first line too long for inih, or 0 */
	int max_len;
	int err_line;        /* first line a key failed on, or 0 */
	int line_of[64];     /* line that set each option in this file, or 0 */
	char err[MSG_MAX + CFG_WHERE_MAX];
};
_Static_assert(NOPTS <= 64, "load_ctx.line_of holds every option");

/* inih reader: the next line without its leading blanks, so that indented
 * lines are plain lines (never inih continuation lines). */
static char *load_reader(char *str, int num, void *stream)
{
	struct load_ctx *x = stream;
	const char *p, *nl;
	size_t n, skip = 0;

	if (x->pos >= x->len)
		return NULL;
	p = x->buf + x->pos;
	nl = memchr(p, '\n', x->len - x->pos);
	n = nl ? (size_t)(nl - p) + 1 : x->len - x->pos;
	x->pos += n;
	x->lineno++;
	while (skip < n && (p[skip] == ' ' || p[skip] == '\t'))
		skip++;
	p += skip;
	n -= skip;
	x->max_len = num - 2 < CFG_LINE_MAX ? num - 2 : CFG_LINE_MAX;
	if (n > (size_t)num - 1 || n - (n && p[n - 1] == '\n') - (n > 1 && p[n - 2] == '\r') > CFG_LINE_MAX) {
		if (!x->long_line)
			x->long_line = x->lineno;
		n = (size_t)num - 1;
	}
	memcpy(str, p, n);
	str[n] = '\0';
	return str;
}

static int load_handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *x = user;
	char where[CFG_WHERE_MAX], v[TEXT_MAX];
	char *hash;

	/* sections only group keys, but [topology] (topology.h reads it) */
	if (x->err_line || !strcmp(section, "topology"))
		return 1;
	/* '#' after a blank starts a comment, as ';' does for inih */
	snprintf(v, sizeof(v), "%s", value);
	for (hash = strchr(v, '#'); hash; hash = strchr(hash + 1, '#'))
		if (hash == v || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	snprintf(where, sizeof(where), "%s:%d", x->path, x->lineno);
	/* a key given twice, or nodes and pairs both, is an error naming both lines */
	int i = find_option(name);
	for (int j = 0; i >= 0 && j < NOPTS; j++) {
		if (!x->line_of[j] || (j != i && !(opts[i].type == &T_LEVELS && opts[j].type == &T_LEVELS)))
			continue;
		if (j == i)
			snprintf(x->err, sizeof(x->err), "%s: duplicate key '%s' (first set at line %d)", where,
				 opts[i].name, x->line_of[j]);
		else
			snprintf(x->err, sizeof(x->err), "%s: '%s' conflicts with '%s' at line %d (levels are nodes or pairs, not both)",
				 where, opts[i].name, opts[j].name, x->line_of[j]);
		x->err_line = x->lineno;
		return 0;
	}
	if (config_set(x->c, name, v, where, x->err, sizeof(x->err))) {
		x->err_line = x->lineno;
		return 0;
	}
	x->line_of[i] = x->lineno;
	return 1;
}

/* The text of line n of buf (trimmed) into out. */
static void line_text(const char *buf, size_t len, int n, char *out, size_t outlen)
{
	const char *p = buf, *end = buf + len, *nl;

	for (int i = 1; i < n && p < end; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	trim_copy(out, outlen, p, (size_t)((nl ? nl : end) - p));
}

int config_load_file(struct sw_config *c, const char *path, char *err, size_t errlen)
{
	struct load_ctx x = { .c = c, .path = path };
	char *buf = NULL;
	size_t cap = 0;
	FILE *f;
	int ret, rc = -1, syntax;

	f = sfile_read(path, CFG_FILE_MAX, SFILE_FOLLOW | SFILE_STREAM, err, errlen);
	if (!f)
		return -1;
	for (;;) {
		char *nb;
		size_t got;

		if (x.len + 4096 > cap) {
			cap = cap ? 2 * cap : 8192;
			nb = realloc(buf, cap);
			if (!nb) {
				sw_fail(err, errlen, "%s: cannot read: out of memory", path);
				goto out_close;
			}
			buf = nb;
		}
		got = fread(buf + x.len, 1, cap - x.len, f);
		x.len += got;
		if (x.len > CFG_FILE_MAX) {
			sw_fail(err, errlen, "%s: more than %d bytes: not a config file", path, CFG_FILE_MAX);
			goto out_close;
		}
		if (got == 0) {
			if (ferror(f)) {
				sw_fail(err, errlen, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
				goto out_close;
			}
			break;
		}
	}
	x.buf = buf ? buf : "";
	const char *nul = memchr(x.buf, '\0', x.len);
	if (nul) {
		int line = 1;

		for (const char *p = x.buf; p < nul; p++)
			line += *p == '\n';
		sw_fail(err, errlen, "%s:%d: a NUL byte: not a text file", path, line);
		goto out_close;
	}
	snprintf(c->file, sizeof(c->file), "%s", path);

	ret = ini_parse_stream(load_reader, &x, load_handler, &x);
	if (ret < 0) {
		sw_fail(err, errlen, "%s: cannot read: out of memory", path);
		goto out_close;
	}
	/* inih reports the first failing line: ours (a bad key) or a line it
	 * could not split; a line too long to hold comes before either. */
	syntax = ret > 0 && ret != x.err_line ? ret : 0;
	if (x.long_line && (!x.err_line || x.long_line <= x.err_line) &&
	    (!syntax || x.long_line <= syntax)) {
		sw_fail(err, errlen, "%s:%d: line is longer than %d characters", path, x.long_line, x.max_len);
		goto out_close;
	}
	if (syntax && (!x.err_line || syntax < x.err_line)) {
		char line[64];

		line_text(x.buf, x.len, syntax, line, sizeof(line));
		if (line[0] == '[')
			sw_fail(err, errlen, "%s:%d: section header '%s' has no closing ']'", path, syntax, line);
		else
			sw_fail(err, errlen, "%s:%d: expected 'key = value', got '%s'", path, syntax, line);
		goto out_close;
	}
	if (x.err_line) {
		sw_fail(err, errlen, "%s", x.err);
		goto out_close;
	}
	rc = 0;

out_close:
	free(buf);
	fclose(f);
	return rc;
}

/* Where a key got its value, or NULL for an unknown key. */
static const char *where_of(const struct sw_config *c, const char *key)
{
	int i = find_option(key);

	return i < 0 ? NULL : c->where[i];
}

int config_validate(const struct sw_config *c, char *err, size_t errlen)
{
	const char *w;

	if (c->rep_min < 1)
		return sw_fail(err, errlen, "%s: repetitions: minimum %d is below 1",
			       where_of(c, "repetitions"), c->rep_min);
	if (c->rep_min > c->rep_max)
		return sw_fail(err, errlen, "%s: repetitions: minimum %d is larger than maximum %d",
			       where_of(c, "repetitions"), c->rep_min, c->rep_max);
	if (!c->levels_all && c->nlevels < 1)
		return sw_fail(err, errlen, "%s: %s: empty list",
			       where_of(c, c->level_unit == CFG_LEVEL_NODES ? "nodes" : "pairs"),
			       c->level_unit == CFG_LEVEL_NODES ? "nodes" : "pairs");
	if (c->nsizes < 1)
		return sw_fail(err, errlen, "%s: sizes: empty list", where_of(c, "sizes"));
	if (c->npatterns < 1)
		return sw_fail(err, errlen, "%s: patterns: empty list", where_of(c, "patterns"));
	for (int p = 0; p < c->npatterns; p++) {
		const struct sw_pattern_info *info = pattern_info(c->patterns[p]);

		if (!info || !info->even_hops)
			continue;
		for (int h = 0; h < c->nhops; h++)
			if (c->hops[h] % 2)
				return sw_fail(err, errlen,
					       "%s: hops: %ld is odd, but %s needs an even number (a round trip is 2 hops)",
					       where_of(c, "hops"), c->hops[h], info->name);
	}
	for (int p = 0; p < c->npatterns; p++)
		if (pattern_info(c->patterns[p])->incast && (c->nhops || c->timed == CFG_NO))
			return sw_fail(err, errlen, "%s: incast is time-bounded: it needs hops = auto and timed = auto or yes",
				       c->nhops ? where_of(c, "hops") : where_of(c, "timed"));
	if (c->timed == CFG_YES && c->nhops)
		return sw_fail(err, errlen, "%s: timed = yes: hops must be auto (a timed sample lasts sample_time)",
			       strcmp(where_of(c, "timed"), "default") ? where_of(c, "timed") : where_of(c, "hops"));
	if (c->victims && (c->timed == CFG_NO || c->nhops))
		return sw_fail(err, errlen, "%s: victims = %d: needs time-bounded samples (hops = auto, timed = auto or yes): "
			       "victims and aggressors run to one deadline", where_of(c, "victims"), c->victims);
	if (c->ranks_per_node > 1) {
		for (int p = 0; p < c->npatterns; p++)
			if (pattern_latency_metric(c->patterns[p]) || pattern_info(c->patterns[p])->incast)
				return sw_fail(err, errlen, "%s: ranks_per_node = %d: stream and bidir only (%s: "
					       "run it with ranks_per_node = 1)", where_of(c, "ranks_per_node"),
					       c->ranks_per_node, pattern_name(c->patterns[p]));
		if (c->victims)
			return sw_fail(err, errlen, "%s: ranks_per_node = %d: victims need one rank a node",
				       where_of(c, "victims"), c->ranks_per_node);
	}
	if (c->schedule == CFG_SCHEDULE_MAP) {
		for (int p = 0; p < c->npatterns; p++)
			if (pattern_info(c->patterns[p])->incast)
				return sw_fail(err, errlen, "%s: schedule = map runs pairs; incast is not a pair pattern",
					       where_of(c, "patterns"));
		if (c->victims)
			return sw_fail(err, errlen, "%s: victims = %d: not with schedule = map (every rank is in a "
				       "round's pairs)", where_of(c, "victims"), c->victims);
		if (c->design == CFG_DESIGN_SEQUENTIAL)
			return sw_fail(err, errlen, "%s: design = sequential: not with schedule = map (its repetitions are "
				       "blocks that visit every round)", where_of(c, "design"));
		if (c->isolate == CFG_YES)
			return sw_fail(err, errlen, "%s: isolate = yes: not with schedule = map (the map meets every "
				       "host with every partner already)", where_of(c, "isolate"));
		if (c->ranks_per_node > 1)
			return sw_fail(err, errlen, "%s: ranks_per_node = %d: not with schedule = map (one rank a node "
				       "meets every partner)", where_of(c, "ranks_per_node"), c->ranks_per_node);
	}
	if (c->cpu_control == CFG_YES && !c->victims)
		return sw_fail(err, errlen, "%s: cpu_control = yes: needs victims (the CPU control is a round of the "
			       "victims beside aggressors that only load their CPUs)", where_of(c, "cpu_control"));
	if (c->warn_drop > c->crit_drop) {
		w = strcmp(where_of(c, "crit_drop"), "default") ? where_of(c, "crit_drop") : where_of(c, "warn_drop");
		return sw_fail(err, errlen, "%s: warn_drop %g is larger than crit_drop %g",
			       w, c->warn_drop, c->crit_drop);
	}
	if (c->warn_inflation > c->crit_inflation) {
		w = strcmp(where_of(c, "crit_inflation"), "default") ? where_of(c, "crit_inflation")
								     : where_of(c, "warn_inflation");
		return sw_fail(err, errlen, "%s: warn_inflation %g is larger than crit_inflation %g",
			       w, c->warn_inflation, c->crit_inflation);
	}
	return 0;
}

bool config_pattern_timed(const struct sw_config *c, int pattern)
{
	const struct sw_pattern_info *p = pattern_info(pattern);

	if (p && p->incast)
		return true;
	if (c->nhops || c->timed == CFG_NO || !p)
		return false;
	return c->timed == CFG_YES || c->victims > 0 || c->schedule == CFG_SCHEDULE_MAP || p->timed;
}

const char *config_where(const struct sw_config *c, const char *key)
{
	const char *w = where_of(c, key);

	return w ? w : "?";
}

void config_print_keys(FILE *f)
{
	int kw = 3, dw = 7;
	const char *section = "";

	for (int i = 0; i < NOPTS; i++) {
		int k = (int)strlen(opts[i].name), d = opts[i].def ? (int)strlen(opts[i].def) : 1;

		if (k > kw)
			kw = k;
		if (d > dw)
			dw = d;
	}
	fprintf(f, "%-*s  %-*s  %s\n", kw, "key", dw, "default", "meaning");
	for (int i = 0; i < NOPTS; i++) {
		if (strcmp(section, opts[i].section)) {
			section = opts[i].section;
			fprintf(f, "[%s]\n", section);
		}
		fprintf(f, "%-*s  %-*s  %s\n", kw, opts[i].name, dw, opts[i].def && *opts[i].def ? opts[i].def : "-",
			opts[i].help);
	}
}

const char *config_key(int i, const char **def, const char **help)
{
	if (i < 0 || i >= NOPTS)
		return NULL;
	if (def)
		*def = opts[i].def;
	if (help)
		*help = opts[i].help;
	return opts[i].name;
}

bool config_has_key(const char *key)
{
	return find_option(key) >= 0;
}

int config_format_value(const struct sw_config *c, const char *key, char *buf, size_t len)
{
	int i = find_option(key);

	if (i < 0) {
		if (len)
			buf[0] = '\0';
		return -1;
	}
	opts[i].type->format(c, &opts[i], buf, len);
	return 0;
}

void config_print(FILE *f, const struct sw_config *c)
{
	const char *section = "";

	for (int i = 0; i < NOPTS; i++) {
		char v[TEXT_MAX];

		opts[i].type->format(c, &opts[i], v, sizeof(v));
		if (!*v)
			continue;
		if (strcmp(section, opts[i].section)) {
			fprintf(f, "%s[%s]\n", *section ? "\n" : "", opts[i].section);
			section = opts[i].section;
		}
		fprintf(f, "%s = %s  # %s\n", opts[i].name, v, c->where[i]);
	}
}

json_t *config_to_json(const struct sw_config *c)
{
	json_t *obj = json_object();

	if (!obj)
		return NULL;
	for (int i = 0; i < NOPTS; i++) {
		char v[TEXT_MAX];

		opts[i].type->format(c, &opts[i], v, sizeof(v));
		if (!*v)
			continue;  /* the levels key not in use */
		if (json_object_set_new(obj, opts[i].name, json_string(v))) {
			json_decref(obj);
			return NULL;
		}
	}
	return obj;
}

int config_from_json(struct sw_config *c, const json_t *obj, char *err, size_t errlen)
{
	const char *key;
	json_t *val;

	if (!json_is_object(obj))
		return sw_fail(err, errlen, "run.json: config is not an object");
	json_object_foreach((json_t *)obj, key, val) {
		char text[64];
		const char *v = text;

		if (json_is_string(val))
			v = json_string_value(val);
		else if (json_is_integer(val))
			snprintf(text, sizeof(text), "%" JSON_INTEGER_FORMAT, json_integer_value(val));
		else if (json_is_real(val))
			snprintf(text, sizeof(text), "%.17g", json_real_value(val));
		else if (json_is_boolean(val))
			snprintf(text, sizeof(text), "%s", json_is_true(val) ? "yes" : "no");
		else
			return sw_fail(err, errlen, "run.json: %s: value must be a string", key);
		if (config_set(c, key, v, "run.json", err, errlen))
			return -1;
	}
	return 0;
}
