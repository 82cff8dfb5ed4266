/*
 * mapout.c - a map run's statistics and files; see mapout.h.
 */
#include <stdlib.h>
#include <unistd.h>
#include "blame_out.h"
#include "config.h"
#include "mapdata.h"
#include "mapout.h"
#include "pattern.h"
#include "topology.h"

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
	int pattern = r->cfg.patterns[k / r->cfg.nsizes];
	uint64_t size = r->cfg.sizes[k % r->cfg.nsizes];
	struct blame_result b;
	int done = 0, rc = -1;

	if (mapout_analyse(r, pattern, size, &b, err, errlen))
		return -1;
	for (; done < NFILES; done++) {
		struct writer w = { files[done].fn, &b };

		if (k == 0)
			snprintf(path[done], sizeof(path[done]), "%s/%s.csv", dir, files[done].name);
		else
			snprintf(path[done], sizeof(path[done]), "%s/%s-%s-%llu.csv", dir, files[done].name,
				 pattern_name(pattern), (unsigned long long)size);
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
	int nset = r->cfg.npatterns * r->cfg.nsizes, done = 0, rc = -1;
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
