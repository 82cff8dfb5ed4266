/* A map run's files and report (mapout.h, report.h) over a synthetic map
 * folder with a known truth: one host port at half speed (at each size
 * its own host, in the run of two sizes). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "fixture.h"
#include "mapout.h"
#include "plan.h"
#include "report.h"
#include "results.h"

#include "map_fixture.h"

static struct sw_run *slow_host_run(void)
{
	return slow_host_run_at("1MiB");
}

/* The whole of file dir/name, NUL-ended (free it). */
static char *slurp(const char *dir, const char *name)
{
	char path[FIXTURE_DIR_MAX + 64];
	FILE *f;
	char *buf = calloc(1, 1 << 20);
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	cr_assert_not_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The value of column col (0-based) of the CSV row that starts with key. */
static void field(const char *csv, const char *key, int col, char *out, size_t len)
{
	const char *row = csv;
	size_t klen = strlen(key);

	while (row && strncmp(row, key, klen))
		row = (row = strchr(row, '\n')) ? row + 1 : NULL;
	cr_assert_not_null(row, "no row %s", key);
	for (int c = 0; c < col; c++)
		row = strchr(row, ',') + 1;
	snprintf(out, len, "%.*s", (int)strcspn(row, ",\n"), row);
}

Test(mapout, slow_host_in_the_files_and_the_report)
{
	struct sw_run *r = slow_host_run(), *back;
	char err[512], dir[FIXTURE_DIR_MAX + 32], v[64], *hosts, *links, *rep, *line;

	fixture_mkdtemp(dir, sizeof(dir), "mapout");
	cr_assert_eq(results_write(dir, r, NULL, "", err, sizeof(err)), 0, "%s", err);
	back = results_load(dir, err, sizeof(err));
	cr_assert_not_null(back, "%s", err);
	cr_assert_eq(mapout_write(dir, back, err, sizeof(err)), 0, "%s", err);
	hosts = slurp(dir, "hosts.csv");
	links = slurp(dir, "links.csv");
	/* hosts.csv: host,...,flagged (column 12): node5 alone */
	for (int i = 0; i < N; i++) {
		char key[16];

		snprintf(key, sizeof(key), "node%d,", i);
		field(hosts, key, 12, v, sizeof(v));
		cr_assert_str_eq(v, i == SLOW ? "1" : "0", "%s flagged %s", key, v);
	}
	/* links.csv: cause (column 9) of node5's links is its port; a link
	 * of two healthy hosts is explained by nothing */
	field(links, "node2,node5,", 9, v, sizeof(v));
	cr_assert_str_eq(v, "host:node5");
	field(links, "node1,node2,", 9, v, sizeof(v));
	cr_assert_str_eq(v, "-");
	field(links, "node1,node2,", 4, v, sizeof(v));
	cr_assert(atof(v) > 95 && atof(v) < 105, "healthy link %s MB/s", v);
	free(slurp(dir, "groups.csv"));
	free(slurp(dir, "fabric.csv"));

	rep = report_string(back, NULL, REPORT_TABLE);
	cr_assert_not_null(rep);
	cr_assert_not_null(strstr(rep, "SLOW: host node5:"), "%s", rep);
	cr_assert_null(strstr(rep, "host node1:"));
	cr_assert_not_null(strstr(rep, "Slowest hosts"));
	cr_assert_not_null(strstr(rep, "Slowest links"));
	cr_assert_null(strstr(rep, "values: the median over repetitions"), "level tables in a map's report");
	for (line = rep; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0'))
		cr_assert(strcspn(line, "\n") <= 80, "line over 80 columns: %.*s", (int)strcspn(line, "\n"), line);
	free(rep);
	free(hosts);
	free(links);
	run_free(back);
	run_free(r);
	cr_assert_eq(fixture_rmtree(dir), 0);
}

/* Replace the first "from" after "after" in dir/run.json with "to". */
static void edit_run_json(const char *dir, const char *after, const char *from, const char *to)
{
	char *j = slurp(dir, "run.json"), *at = strstr(j, after), path[FIXTURE_DIR_MAX + 64];
	FILE *f;

	cr_assert_not_null(at, "no %s in run.json", after);
	at = strstr(at, from);
	cr_assert_not_null(at, "no %s after %s in run.json", from, after);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "%.*s%s%s", (int)(at - j), j, to, at + strlen(from));
	fclose(f);
	free(j);
}

Test(mapout, groups_from_the_config_topology)
{
	struct sw_run *r = slow_host_run(), *back;
	char err[512], dir[FIXTURE_DIR_MAX + 32], v[64], *hosts;
	FILE *f;

	fixture_mkdtemp(dir, sizeof(dir), "mapout");
	snprintf(r->cfg.file, sizeof(r->cfg.file), "%s/map.conf", dir);
	f = fopen(r->cfg.file, "w");
	cr_assert_not_null(f);
	fputs("[topology]\nleafA = node[0-7]\nleafB = node[8-15]\n", f);
	fclose(f);
	cr_assert_eq(mapout_keep_groups(r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(r->ngroup, 2);
	/* run.json keeps them: the run loaded back (no config file) has the
	 * run's groups, not inferred ones */
	cr_assert_eq(results_write(dir, r, NULL, "", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(unlink(r->cfg.file), 0);
	back = results_load(dir, err, sizeof(err));
	cr_assert_not_null(back, "%s", err);
	cr_assert_eq(back->ngroup, 2);
	cr_assert_str_eq(back->group_name[back->group[12]], "leafB");
	cr_assert_eq(mapout_write(dir, back, err, sizeof(err)), 0, "%s", err);
	hosts = slurp(dir, "hosts.csv");
	cr_assert_not_null(strstr(hosts, "groups given"), "%s", hosts);
	field(hosts, "node2,", 1, v, sizeof(v));
	cr_assert_str_eq(v, "leafA");
	field(hosts, "node12,", 1, v, sizeof(v));
	cr_assert_str_eq(v, "leafB");
	free(hosts);
	run_free(back);
	/* a rank in two groups is refused, naming the field */
	edit_run_json(dir, "\"leafB\"", " 8,", " 7,");
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert_not_null(strstr(err, "map.groups[1].ranks"), "%s", err);
	/* an older map run (no map.groups) still loads: groups inferred */
	results_write(dir, r, NULL, "", err, sizeof(err));
	edit_run_json(dir, "\"map\":", "\"groups\":", "\"old_groups\":");
	back = results_load(dir, err, sizeof(err));
	cr_assert_not_null(back, "%s", err);
	cr_assert_eq(back->ngroup, 0);
	cr_assert_eq(mapout_write(dir, back, err, sizeof(err)), 0, "%s", err);
	hosts = slurp(dir, "hosts.csv");
	cr_assert_null(strstr(hosts, "groups given"), "%s", hosts);
	free(hosts);
	run_free(back);
	/* a topology that leaves a host out is an error naming it */
	f = fopen(r->cfg.file, "w");
	fputs("[topology]\nleafA = node[0-7]\nleafB = node[8-14]\n", f);
	fclose(f);
	cr_assert_neq(mapout_keep_groups(r, err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "node15"), "%s", err);
	run_free(r);
	cr_assert_eq(fixture_rmtree(dir), 0);
}

/* Every size is analysed: at 1 MiB node5 is slow, at 64 KiB node6. The
 * first size's set keeps the plain names, the second is
 * hosts-stream-65536.csv and so on; the report has both claims, each under
 * its size. */
Test(mapout, every_size_its_own_files_and_report)
{
	struct sw_run *r = slow_host_run_at("64KiB,1MiB");
	char err[512], dir[FIXTURE_DIR_MAX + 32], v[64], *sets[2], *links, *rep, *at64, *at1m;

	fixture_mkdtemp(dir, sizeof(dir), "mapout");
	cr_assert_eq(mapout_write(dir, r, err, sizeof(err)), 0, "%s", err);
	/* sizes ascend: 64 KiB first (plain names), its slow host node6 */
	sets[0] = slurp(dir, "hosts.csv");
	sets[1] = slurp(dir, "hosts-stream-1048576.csv");
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < N; i++) {
			char key[16];

			snprintf(key, sizeof(key), "node%d,", i);
			field(sets[k], key, 12, v, sizeof(v));
			cr_assert_str_eq(v, i == (k ? SLOW : SLOW + 1) ? "1" : "0", "set %d: %s flagged %s", k, key, v);
		}
	links = slurp(dir, "links-stream-1048576.csv");
	field(links, "node2,node5,", 9, v, sizeof(v));
	cr_assert_str_eq(v, "host:node5");
	free(links);
	free(slurp(dir, "groups-stream-1048576.csv"));
	free(slurp(dir, "fabric-stream-1048576.csv"));
	rep = report_string(r, NULL, REPORT_TABLE);
	cr_assert_not_null(rep);
	at64 = strstr(rep, "stream, 65536 bytes:");
	at1m = strstr(rep, "stream, 1048576 bytes:");
	cr_assert(at64 && at1m && at64 < at1m, "%s", rep);
	cr_assert_not_null(strstr(at64, "SLOW: host node6:"), "%s", rep);
	cr_assert(strstr(at64, "SLOW: host node6:") < at1m, "node6 under 64 KiB: %s", rep);
	cr_assert_not_null(strstr(at1m, "SLOW: host node5:"), "%s", rep);
	cr_assert_null(strstr(at1m, "SLOW: host node6:"), "%s", rep);
	free(rep);
	free(sets[0]);
	free(sets[1]);
	run_free(r);
	cr_assert_eq(fixture_rmtree(dir), 0);
}

/* publish's check (mapout_check): the files a run wrote pass, with the
 * run's groups or, for an older run.json that kept none, with the groups
 * its hosts.csv gives; a cut links.csv and a changed hosts.csv are
 * refused naming the line. */
Test(mapout, check_files_against_run_json)
{
	struct sw_run *r = slow_host_run(), *back;
	char err[512], dir[FIXTURE_DIR_MAX + 32], *text[MAPOUT_NFILES], *cut, *line;
	struct blame_result b;
	FILE *f;

	fixture_mkdtemp(dir, sizeof(dir), "mapout");
	snprintf(r->cfg.file, sizeof(r->cfg.file), "%s/map.conf", dir);
	f = fopen(r->cfg.file, "w");
	cr_assert_not_null(f);
	fputs("[topology]\nleafB = node[8-15]\nleafA = node[0-7]\n", f);
	fclose(f);
	cr_assert_eq(mapout_keep_groups(r, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mapout_write(dir, r, err, sizeof(err)), 0, "%s", err);
	for (int i = 0; i < MAPOUT_NFILES; i++) {
		char name[64];

		mapout_set_file(r, 0, mapout_files[i], name, sizeof(name));
		text[i] = slurp(dir, name);
	}
	cr_assert_eq(mapout_check(r, 0, (const char *const *)text, dir, &b, err, sizeof(err)), 0, "%s", err);
	cr_assert(b.ngroup == 2 && b.host[SLOW].flagged && b.nclaim == 1 && b.nlink == N * (N - 1) / 2);
	blame_free(&b);
	/* an older run: no groups kept, those of hosts.csv (in its order) */
	cr_assert_eq(results_write(dir, r, NULL, "", err, sizeof(err)), 0, "%s", err);
	edit_run_json(dir, "\"map\":", "\"groups\":", "\"old_groups\":");
	back = results_load(dir, err, sizeof(err));
	cr_assert_not_null(back, "%s", err);
	cr_assert_eq(back->ngroup, 0);
	cr_assert_eq(mapout_check(back, 0, (const char *const *)text, dir, &b, err, sizeof(err)), 0, "%s", err);
	cr_assert(b.ngroup == 2 && !strcmp(b.group[0].name, r->group_name[0]) && b.host[SLOW].flagged);
	blame_free(&b);
	/* links.csv cut after node1-node15; hosts.csv with node5 not flagged */
	cut = strdup(text[0]);
	strchr(strstr(cut, "node1,node15,"), '\n')[1] = '\0';
	cr_assert_neq(mapout_check(back, 0, (const char *const[]){ cut, text[1], text[2] }, dir, &b, err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "/links.csv:"), "%s", err);
	cr_assert_not_null(strstr(err, "the file ends here"), "%s", err);
	line = strstr(text[1], "\nnode5,") + 1;
	cr_assert_eq(line[strcspn(line, "\n") - 1], '1');
	line[strcspn(line, "\n") - 1] = '0';
	cr_assert_neq(mapout_check(back, 0, (const char *const *)text, dir, &b, err, sizeof(err)), 0);
	cr_assert_not_null(strstr(err, "/hosts.csv:8: not what run.json gives"), "%s", err);
	free(cut);
	for (int i = 0; i < MAPOUT_NFILES; i++)
		free(text[i]);
	run_free(back);
	run_free(r);
	cr_assert_eq(fixture_rmtree(dir), 0);
}
