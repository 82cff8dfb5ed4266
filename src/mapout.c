/*
 * mapout.c - a map run's statistics and files; see mapout.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "blame_out.h"
#include "config.h"
#include "mapdata.h"
#include "mapout.h"
#include "pattern.h"
#include "text.h"
#include "topology.h"

const char *const mapout_files[MAPOUT_NFILES] = { "links", "hosts", "groups" };

int mapout_nsets(const struct sw_run *r)
{
	return r->cfg.npatterns * r->cfg.nsizes;
}

int mapout_set_pattern(const struct sw_run *r, int k)
{
	return r->cfg.patterns[k / r->cfg.nsizes];
}

uint64_t mapout_set_size(const struct sw_run *r, int k)
{
	return r->cfg.sizes[k % r->cfg.nsizes];
}

void mapout_set_file(const struct sw_run *r, int k, const char *base, char *buf, size_t len)
{
	if (k == 0)
		snprintf(buf, len, "%s.csv", base);
	else
		snprintf(buf, len, "%s-%s-%llu.csv", base, pattern_name(mapout_set_pattern(r, k)),
			 (unsigned long long)mapout_set_size(r, k));
}

int mapout_keep_groups(struct sw_run *r, char *err, size_t errlen)
{
	struct topology t = { 0 };
	char (*name)[SW_HOST_MAX + 8] = NULL, (*gname)[SW_HOST_MAX] = NULL;
	const char **host = NULL;
	int *group = NULL, ng = 0, rc = -1;

	if (!r->cfg.file[0] || access(r->cfg.file, R_OK))
		return 0;
	if (topology_read_config(r->cfg.file, &t, err, errlen))
		return -1;
	if (t.nswitch == 0) {
		rc = 0;
		goto out;
	}
	name = calloc((size_t)r->nranks, sizeof(*name));
	host = calloc((size_t)r->nranks, sizeof(*host));
	group = malloc((size_t)r->nranks * sizeof(*group));
	if (!name || !host || !group) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < r->nranks; i++) {
		mapdata_host_name(r, i, name[i]);
		host[i] = name[i];
	}
	if (topology_groups(&t, host, r->nranks, group, &gname, &ng, err, errlen))
		goto out;
	free(r->group);
	free(r->group_name);
	r->group = group;
	r->group_name = gname;
	r->ngroup = ng;
	group = NULL;
	gname = NULL;
	rc = 0;
out:
	free(gname);
	free(group);
	free(host);
	free(name);
	topology_free(&t);
	return rc;
}

int mapout_analyse_keep(const struct sw_run *r, int pattern, uint64_t size, struct mapdata *d,
			struct blame_result *b, char *err, size_t errlen)
{
	if (r->cfg.schedule != CFG_SCHEDULE_MAP)
		return sw_fail(err, errlen, "not a map run (schedule = map)");
	if (mapdata_fill(r, pattern, size, d, err, errlen))
		return -1;
	if (blame_run(&d->in, b, err, errlen)) {
		mapdata_free(d);
		return -1;
	}
	return 0;
}

/* The length of the line at p (up to '\n' or the end). */
static size_t line_len(const char *p)
{
	return strcspn(p, "\n");
}

/* The line after the one at p ("" at the end). */
static const char *after_line(const char *p)
{
	p += line_len(p);
	return *p ? p + 1 : p;
}

/* The first line from p on that is not a comment ('#'), counting lines
 * in *lineno; NULL at the end. */
static const char *next_data(const char *p, int *lineno)
{
	for (; *p; p = after_line(p)) {
		(*lineno)++;
		if (*p != '#')
			return p;
	}
	return NULL;
}

/* Field k (0-based) of the CSV line at p into buf ("" when absent). */
static void field(const char *p, int k, char *buf, size_t len)
{
	for (; k > 0 && *p && *p != '\n'; k--) {
		p += strcspn(p, ",\n");
		p += *p == ',';
	}
	snprintf(buf, len, "%.*s", k ? 0 : (int)strcspn(p, ",\n"), p);
}

/* For a run whose run.json does not keep its groups (older map runs):
 * the groups hosts.csv (text) gives when its comment says "groups
 * given", into d's input (group and the names: the caller frees them):
 * host i's group by name, numbered by the place of its first host on
 * the heat map's axis (the order column), as the run numbered them.
 * Left unset (inferred) when the comment says so or the rows do not name
 * d's hosts in order: the comparison then names the line. 0 or -1. */
static int csv_groups(const char *text, struct mapdata *d, int **group, char (**names)[SW_HOST_MAX],
		      const char ***gnames, char *err, size_t errlen)
{
	int n = d->in.nhost, ng = 0, lineno = 0, *first, *rank;
	const char *p = text;
	char buf[SW_HOST_MAX];

	if (text[0] != '#' || !memmem(text, line_len(text), "groups given", 12))
		return 0;
	*group = malloc(sizeof(**group) * (size_t)n);
	*names = malloc(sizeof(**names) * (size_t)n);
	*gnames = malloc(sizeof(**gnames) * (size_t)n);
	first = malloc(2 * sizeof(*first) * (size_t)n);
	if (!*group || !*names || !*gnames || !first) {
		free(first);
		return sw_fail(err, errlen, "out of memory");
	}
	rank = first + n;
	p = next_data(p, &lineno);   /* the header */
	for (int i = 0; i < n; i++) {
		long order;
		int g;

		p = p ? next_data(after_line(p), &lineno) : NULL;
		if (!p)
			goto out;
		field(p, 0, buf, sizeof(buf));
		if (strcmp(buf, d->in.host[i]))
			goto out;
		field(p, 2, buf, sizeof(buf));
		if (sw_parse_long(buf, 0, n - 1, &order))
			goto out;
		field(p, 1, buf, sizeof(buf));
		for (g = 0; g < ng && strcmp((*names)[g], buf); g++)
			;
		if (g == ng) {
			snprintf((*names)[ng], SW_HOST_MAX, "%s", buf);
			first[ng++] = (int)order;
		} else if (order < first[g]) {
			first[g] = (int)order;
		}
		(*group)[i] = g;
	}
	for (int g = 0; g < ng; g++) {   /* rank[g]: g's place by its first host */
		rank[g] = 0;
		for (int h = 0; h < ng; h++)
			rank[g] += first[h] < first[g] || (first[h] == first[g] && h < g);
		(*gnames)[rank[g]] = (*names)[g];
	}
	for (int i = 0; i < n; i++)
		(*group)[i] = rank[(*group)[i]];
	d->in.group = *group;
	d->in.ngroup = ng;
	d->in.group_name = *gnames;
out:
	free(first);
	return 0;
}

int mapout_analyse(const struct sw_run *r, int pattern, uint64_t size, struct blame_result *b, char *err,
		   size_t errlen)
{
	struct mapdata d;

	if (mapout_analyse_keep(r, pattern, size, &d, b, err, errlen))
		return -1;
	mapdata_free(&d);
	return 0;
}

typedef int (*blame_fn)(FILE *f, const struct blame_result *r);

struct writer {
	blame_fn fn;
	const struct blame_result *b;
};

static int call_writer(FILE *f, const void *arg)
{
	const struct writer *w = arg;

	return w->fn(f, w->b);
}

/* Set k's (pattern k / nsizes, size k % nsizes) four files into temporary
 * names beside path[k * NFILES ...]. 0, or -1 with err (nothing left). */
enum { NFILES = 4 };
typedef char mapout_path[SW_PATH_MAX + 96];

static int write_set(const char *dir, const struct sw_run *r, int k, mapout_path *path, mapout_path *tmp,
		     char *err, size_t errlen)
{
	static const struct { const char *name; blame_fn fn; } files[NFILES] = {
		{ "links", blame_write_links }, { "hosts", blame_write_hosts },
		{ "groups", blame_write_groups }, { "fabric", blame_write_matrix },
	};
	int pattern = mapout_set_pattern(r, k);
	uint64_t size = mapout_set_size(r, k);
	struct blame_result b;
	int done = 0, rc = -1;

	if (mapout_analyse(r, pattern, size, &b, err, errlen))
		return -1;
	for (; done < NFILES; done++) {
		struct writer w = { files[done].fn, &b };
		char name[96];

		mapout_set_file(r, k, files[done].name, name, sizeof(name));
		snprintf(path[done], sizeof(path[done]), "%s/%s", dir, name);
		if (sw_write_temp(path[done], call_writer, &w, tmp[done], sizeof(tmp[done]), err, errlen))
			break;
	}
	if (done == NFILES)
		rc = 0;
	else
		while (done-- > 0)
			unlink(tmp[done]);
	blame_free(&b);
	return rc;
}

int mapout_write(const char *dir, const struct sw_run *r, char *err, size_t errlen)
{
	int nset = mapout_nsets(r), done = 0, rc = -1;
	mapout_path *path = calloc((size_t)nset * NFILES, sizeof(*path));
	mapout_path *tmp = calloc((size_t)nset * NFILES, sizeof(*tmp));

	if (!path || !tmp) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	for (; done < nset; done++)
		if (write_set(dir, r, done, path + done * NFILES, tmp + done * NFILES, err, errlen))
			goto out_unlink;
	rc = 0;
	for (int i = 0; i < nset * NFILES && rc == 0; i++)
		rc = sw_commit_temp(tmp[i], path[i], err, errlen);
	goto out;
out_unlink:
	for (int i = done * NFILES; i-- > 0;)
		unlink(tmp[i]);
out:
	free(tmp);
	free(path);
	return rc;
}

/* text (a file's content, shown as name) has the lines that fn writes
 * from b, comments aside. 0, or -1 with err naming the first line that
 * differs. */
static int same_lines(const char *text, const char *name, blame_fn fn, const struct blame_result *b, char *err,
		      size_t errlen)
{
	char *want = NULL, raw[128], shown[160];
	size_t wlen = 0;
	FILE *f = open_memstream(&want, &wlen);
	const char *p, *q;
	int line = 0, wline = 0, rc = -1;

	if (!f)
		return sw_fail(err, errlen, "%s: out of memory", name);
	if (fn(f, b) | fclose(f)) {
		sw_fail(err, errlen, "%s: out of memory", name);
		goto out;
	}
	p = next_data(text, &line);
	q = next_data(want, &wline);
	for (; p && q; p = next_data(after_line(p), &line), q = next_data(after_line(q), &wline)) {
		size_t n = line_len(q);

		if (line_len(p) == n && !strncmp(p, q, n) && q[n] && !p[n]) {
			sw_fail(err, errlen, "%s:%d: the file ends in this line, without its newline: a cut copy "
				"(swstress report FOLDER writes it again)", name, line);
			goto out;
		}
		if (line_len(p) != n || strncmp(p, q, n)) {
			snprintf(raw, sizeof(raw), "%.*s", (int)(n < 100 ? n : 100), q);
			sw_fail(err, errlen, "%s:%d: not what run.json gives ('%s'): a cut or changed copy "
				"(swstress report FOLDER writes it again)", name, line, text_term(shown, sizeof(shown), raw));
			goto out;
		}
	}
	if (p || q) {
		sw_fail(err, errlen, q ? "%s:%d: the file ends here, but run.json gives more rows: a cut copy "
			"(swstress report FOLDER writes it again)" : "%s:%d: a row that run.json does not give",
			name, q ? line + 1 : line);
		goto out;
	}
	rc = 0;
out:
	free(want);
	return rc;
}

int mapout_check(const struct sw_run *r, int k, const char *const text[MAPOUT_NFILES], const char *dir,
		 struct blame_result *b, char *err, size_t errlen)
{
	static const blame_fn fns[MAPOUT_NFILES] = { blame_write_links, blame_write_hosts, blame_write_groups };
	struct mapdata d;
	int *group = NULL, rc = -1;
	char (*names)[SW_HOST_MAX] = NULL;
	const char **gnames = NULL;
	char shown[SW_PATH_MAX + 32], file[96];

	if (k < 0 || k >= mapout_nsets(r))
		return sw_fail(err, errlen, "%s: no pattern and size %d in the run", dir, k);
	for (int i = 0; i < MAPOUT_NFILES; i++)
		if (!text[i]) {
			mapout_set_file(r, k, mapout_files[i], file, sizeof(file));
			return sw_fail(err, errlen, "%s/%s: a map run's file is missing (swstress report %s writes it)",
				       dir, file, dir);
		}
	if (mapdata_fill(r, mapout_set_pattern(r, k), mapout_set_size(r, k), &d, err, errlen))
		return -1;
	if ((d.in.group || csv_groups(text[1], &d, &group, &names, &gnames, err, errlen) == 0) &&
	    blame_run(&d.in, b, err, errlen) == 0) {
		rc = 0;
		for (int i = 0; i < MAPOUT_NFILES && !rc; i++) {
			mapout_set_file(r, k, mapout_files[i], file, sizeof(file));
			snprintf(shown, sizeof(shown), "%s/%s", dir, file);
			rc = same_lines(text[i], shown, fns[i], b, err, errlen);
		}
		if (rc)
			blame_free(b);
	}
	free(gnames);
	free(names);
	free(group);
	mapdata_free(&d);
	return rc;
}
