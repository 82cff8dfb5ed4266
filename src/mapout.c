/*
 * mapout.c - a map run's statistics and files; see mapout.h.
 */
#include <stdlib.h>
#include <unistd.h>
#include "blame_out.h"
#include "config.h"
#include "mapdata.h"
#include "mapout.h"
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

int mapout_analyse(const struct sw_run *r, struct blame_result *b, char *err, size_t errlen)
{
	struct mapdata d;
	int rc;

	if (r->cfg.schedule != CFG_SCHEDULE_MAP)
		return sw_fail(err, errlen, "not a map run (schedule = map)");
	if (mapdata_fill(r, r->cfg.patterns[0], r->cfg.sizes[0], &d, err, errlen))
		return -1;
	rc = blame_run(&d.in, b, err, errlen);
	mapdata_free(&d);
	return rc;
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

int mapout_write(const char *dir, const struct sw_run *r, char *err, size_t errlen)
{
	static const struct { const char *name; blame_fn fn; } files[] = {
		{ "links.csv", blame_write_links }, { "hosts.csv", blame_write_hosts },
		{ "groups.csv", blame_write_groups }, { "fabric.csv", blame_write_matrix },
	};
	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	char path[NFILES][SW_PATH_MAX + 32], tmp[NFILES][SW_PATH_MAX + 96];
	struct blame_result b;
	size_t done = 0;
	int rc = -1;

	if (mapout_analyse(r, &b, err, errlen))
		return -1;
	for (; done < NFILES; done++) {
		struct writer w = { files[done].fn, &b };

		snprintf(path[done], sizeof(path[done]), "%s/%s", dir, files[done].name);
		if (sw_write_temp(path[done], call_writer, &w, tmp[done], sizeof(tmp[done]), err, errlen))
			goto out_unlink;
	}
	rc = 0;
	for (size_t i = 0; i < NFILES && rc == 0; i++)
		rc = sw_commit_temp(tmp[i], path[i], err, errlen);
	goto out;
out_unlink:
	while (done-- > 0)
		unlink(tmp[done]);
out:
	blame_free(&b);
	return rc;
}
