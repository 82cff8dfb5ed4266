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

/* The groups of d's hosts from the [topology] section of the config
 * file, into d's input (group and names: the caller frees them). No
 * file or no section: groups left unset (inferred). 0 or -1. */
static int given_groups(const struct sw_run *r, struct mapdata *d, int **group, char (**names)[SW_HOST_MAX],
			const char ***gnames, char *err, size_t errlen)
{
	struct topology t = { 0 };
	int ng = 0, rc = -1;

	if (!r->cfg.file[0] || access(r->cfg.file, R_OK))
		return 0;
	if (topology_read_config(r->cfg.file, &t, err, errlen))
		return -1;
	if (t.nswitch == 0)
		return 0;
	*group = malloc(sizeof(**group) * (size_t)d->in.nhost);
	if (!*group) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	if (topology_groups(&t, d->in.host, d->in.nhost, *group, names, &ng, err, errlen))
		goto out;
	*gnames = malloc(sizeof(**gnames) * (size_t)ng);
	if (!*gnames) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	for (int g = 0; g < ng; g++)
		(*gnames)[g] = (*names)[g];
	d->in.group = *group;
	d->in.ngroup = ng;
	d->in.group_name = *gnames;
	rc = 0;
out:
	topology_free(&t);
	return rc;
}

int mapout_analyse(const struct sw_run *r, struct blame_result *b, char *err, size_t errlen)
{
	struct mapdata d;
	int *group = NULL, rc = -1;
	char (*names)[SW_HOST_MAX] = NULL;
	const char **gnames = NULL;

	if (r->cfg.schedule != CFG_SCHEDULE_MAP)
		return sw_fail(err, errlen, "not a map run (schedule = map)");
	if (mapdata_fill(r, r->cfg.patterns[0], r->cfg.sizes[0], &d, err, errlen))
		return -1;
	if (given_groups(r, &d, &group, &names, &gnames, err, errlen) == 0)
		rc = blame_run(&d.in, b, err, errlen);
	free(gnames);
	free(names);
	free(group);
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
