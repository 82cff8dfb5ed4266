/* Results: write a run's folder, read it back (jansson), atomic files. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "pattern.h"
#include "results.h"

/* A 4-rank run, levels 1 and 2 pairs, pingpong and stream at 8 B and
 * 64 KiB, 3 repetitions; sample seconds follow a known formula. */
static struct sw_run *make_run(void)
{
	struct sw_config c;
	char err[512];
	const char *kv[] = { "pairs=1,2", "patterns=pingpong,stream", "sizes=8,64KiB", "hops=100",
			     "repetitions=3", "label=unit", NULL };

	config_defaults(&c);
	for (int i = 0; kv[i]; i++)
		cr_assert_eq(config_set_arg(&c, kv[i], err, sizeof(err)), 0, "%s", err);
	struct sw_plan *p = plan_create(&c, 4, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	struct sw_run *r = run_create(&c, p, 4);
	cr_assert_not_null(r);
	for (int i = 0; i < 4; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%02d", i);
	snprintf(r->name, sizeof(r->name), "unit-20261130-120000");
	snprintf(r->started, sizeof(r->started), "2026-11-30T12:00:00Z");
	snprintf(r->mpi_version, sizeof(r->mpi_version), "MPICH Version: 4.0.2");
	for (int ci = 0; ci < p->ncells; ci++) {
		int k = p->level_pairs[p->cell[ci].level];

		for (int rep = 0; rep < 3; rep++)
			for (int pr = 0; pr < k; pr++) {
				double secs = 1e-3 * (1 + ci) + 1e-5 * rep + 1e-6 * pr;
				struct sw_sample s = { ci, rep, pr, 10.0 + rep, 10.0 + rep + secs, secs, p->cell[ci].hops };

				cr_assert_eq(run_add_sample(r, &s), 0);
			}
		r->cell[ci].reps = 3;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	struct sw_cpu u = { 0, 1, 0.5, 0.25 };
	run_add_cpu(r, &u);
	r->complete = true;
	return r;
}

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/swstress-unit-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)!system(cmd);
}

TestSuite(results, .init = setup, .fini = teardown);

Test(results, folder_name_is_label_and_utc_time)
{
	char buf[64];

	results_folder_name("switchA", 1796040000 + 9600, buf, sizeof(buf));  /* 2026-11-30 14:40:00 UTC (date -u -d @1796049600) */
	cr_assert_str_eq(buf, "switchA-20261130-144000");
}

Test(results, write_then_load_round_trip)
{
	struct sw_run *r = make_run(), *b;
	struct sw_analysis *a;
	char err[512];

	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(dir, r, a, "report text\n", err, sizeof(err)), 0, "%s", err);
	b = results_load(dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->nranks, 4);
	cr_assert_str_eq(b->host[3], "node03");
	cr_assert_str_eq(b->name, r->name);
	cr_assert_str_eq(b->started, r->started);
	cr_assert_eq(b->complete, true);
	cr_assert_eq(b->plan->ncells, r->plan->ncells);
	cr_assert_eq(b->plan->nlevels, 2);
	cr_assert_eq(b->plan->level_pairs[1], 2);
	cr_assert_eq(b->plan->pair[1].a, 2);
	cr_assert_eq(b->cfg.rep_max, 3);
	cr_assert_eq(b->cfg.sizes[1], 65536);
	cr_assert_eq(b->nsamples, r->nsamples);
	for (size_t i = 0; i < r->nsamples; i++) {
		cr_assert_eq(b->sample[i].cell, r->sample[i].cell);
		cr_assert_eq(b->sample[i].pair, r->sample[i].pair);
		cr_assert_eq(b->sample[i].rep, r->sample[i].rep);
		/* %.17g: exact, so report recomputes the same statistics. */
		cr_assert_eq(b->sample[i].seconds, r->sample[i].seconds);
		cr_assert_eq(b->sample[i].t_end, r->sample[i].t_end);
	}
	for (int ci = 0; ci < r->plan->ncells; ci++) {
		cr_assert_eq(b->plan->cell[ci].pattern, r->plan->cell[ci].pattern);
		cr_assert_eq(b->plan->cell[ci].size, r->plan->cell[ci].size);
		cr_assert_eq(b->plan->cell[ci].hops, 100);
		cr_assert_eq(b->cell[ci].stop, SW_STOP_FIXED);
	}
	cr_assert_eq(b->ncpu, 1);
	cr_assert_float_eq(b->cpu[0].user, 0.5, 1e-12);
	run_free(b);
	analysis_free(a);
	run_free(r);
}

Test(results, run_json_and_csv_are_readable_by_others)
{
	struct sw_run *r = make_run();
	struct sw_analysis *a;
	char err[512], path[128], line[1024];
	json_error_t je;

	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_eq(results_write(dir, r, a, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	json_t *j = json_load_file(path, 0, &je);
	cr_assert_not_null(j, "%s", je.text);
	cr_assert_eq(json_integer_value(json_object_get(j, "schema_version")), SW_SCHEMA_VERSION);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "config"), "sizes")), "8, 64KiB");
	json_t *cell0 = json_array_get(json_object_get(j, "cells"), 0);
	/* Cell 0: seconds = 1 ms + 10 us * rep over 100 hops: median latency 10.1 us. */
	double med = json_number_value(json_object_get(json_object_get(json_object_get(cell0, "summary"),
								       "latency_s"), "median"));
	cr_assert_float_eq(med, (1e-3 + 1e-5) / 100, 1e-15);
	json_decref(j);

	/* samples.csv: comment, header, one row per sample. */
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	FILE *f = fopen(path, "r");
	int rows = 0;
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_eq(strncmp(line, "# swstress ", 11), 0);
	cr_assert(strstr(line, "MB/s = 10^6 bytes/s"));
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_eq(strncmp(line, "cell,level,nodes,pairs,pattern,size_bytes,hops,rep,pair", 55), 0);
	while (fgets(line, sizeof(line), f))
		rows++;
	fclose(f);
	cr_assert_eq((size_t)rows, r->nsamples);
	/* stream 64 KiB at 1 pair is cell 3: 1 ms * 4 per 100 hops of 65536 B. */
	cr_assert_float_eq(run_sample_bandwidth(r, &r->sample[9]), 65536.0 * 100 / 4e-3, 1e-3);
	analysis_free(a);
	run_free(r);
}

Test(results, no_temporary_files_left)
{
	struct sw_run *r = make_run();
	char err[512], cmd[256];

	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s' | grep tmp)\"", dir);
	cr_assert_eq(system(cmd), 0);
	run_free(r);
}

Test(results, begin_refuses_unwritable_output_and_finish_renames)
{
	struct sw_run *r = make_run();
	char err[512], path[256], final[256];

	snprintf(r->cfg.output, sizeof(r->cfg.output), "/proc/swstress-nope");
	cr_assert_eq(results_begin(r, path, sizeof(path), err, sizeof(err)), -1);
	cr_assert(strstr(err, "output '/proc/swstress-nope'"), "%s", err);
	snprintf(r->cfg.output, sizeof(r->cfg.output), "%s/out", dir);
	cr_assert_eq(results_begin(r, path, sizeof(path), err, sizeof(err)), 0, "%s", err);
	cr_assert(strstr(path, "unit-20261130-120000.partial"));
	cr_assert_eq(results_finish(path, final, sizeof(final), err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(access(final, F_OK), 0);
	cr_assert_neq(access(path, F_OK), 0);
	run_free(r);
}

Test(results, load_errors_name_the_file)
{
	char err[512], path[128];
	FILE *f;

	cr_assert_null(results_load("/nonexistent/swstress", err, sizeof(err)));
	cr_assert(strstr(err, "/nonexistent/swstress"), "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	f = fopen(path, "w");
	fputs("{\"schema_version\": 1,\n \"config\": {", f);
	fclose(f);
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert(strstr(err, "run.json:2: not valid JSON"), "%s", err);

	/* A valid run.json whose samples.csv is missing. */
	struct sw_run *r = make_run();
	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	unlink(path);
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv: cannot read"), "%s", err);
	run_free(r);
}

/* Rewrite samples.csv keeping the first keep lines, plus extra if given. */
static void cut_samples(int keep, const char *extra)
{
	char path[128], tmp[140], line[1024];
	FILE *in, *out;
	int n = 0;

	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	snprintf(tmp, sizeof(tmp), "%s/cut.csv", dir);
	in = fopen(path, "r");
	out = fopen(tmp, "w");
	cr_assert(in && out);
	while (fgets(line, sizeof(line), in) && n++ < keep)
		fputs(line, out);
	if (extra)
		fputs(extra, out);
	fclose(in);
	fclose(out);
	cr_assert_eq(rename(tmp, path), 0);
}

Test(results, truncated_duplicated_or_impossible_samples_are_refused)
{
	struct sw_run *r = make_run();
	char err[512];

	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	/* Cut at a line end: no bad line, but cells lack samples. */
	cut_samples(2 + 10, NULL);
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv: cell 3 has 1 samples, run.json says 3 repetitions x 1 pairs"), "%s", err);

	/* A repetition beyond the cell's count (a fuzzed 2000000000 would
	 * otherwise size the analysis). */
	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2, "0,0,2,1,pingpong,8,100,2000000000,0,0,1,node00,node01,10,10.001,0.001,5,0.8\n");
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv:3: bad sample"), "%s", err);

	/* The same repetition of a pair twice. */
	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2 + 2, "0,0,2,1,pingpong,8,100,0,0,0,1,node00,node01,10,10.001,0.001,5,0.8\n");
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert(strstr(err, "cell 0: repetition 0 of pair 0 twice"), "%s", err);
	run_free(r);
}

/* A timed cell: each sample carries the hops it completed; bandwidth is
 * its own bytes over its own time, and the counts survive the round trip
 * through samples.csv. A fixed-hop cell's sample with another count is
 * refused. */
Test(results, timed_samples_keep_their_own_hop_counts)
{
	struct sw_config c;
	char err[512];
	const char *kv[] = { "pairs=1", "patterns=stream", "sizes=64KiB", "repetitions=3", "label=unit", NULL };

	config_defaults(&c);
	for (int i = 0; kv[i]; i++)
		cr_assert_eq(config_set_arg(&c, kv[i], err, sizeof(err)), 0, "%s", err);
	struct sw_plan *p = plan_create(&c, 2, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	cr_assert(p->cell[0].timed);
	struct sw_run *r = run_create(&c, p, 2), *b;
	cr_assert_not_null(r);
	snprintf(r->host[0], SW_HOST_MAX, "a");
	snprintf(r->host[1], SW_HOST_MAX, "b");
	for (int rep = 0; rep < 3; rep++) {
		/* 0.1 s each, 150 + 10 rep messages of 64 KiB */
		struct sw_sample s = { 0, rep, 0, rep, rep + 0.1, 0.1, 150 + 10 * rep };

		cr_assert_eq(run_add_sample(r, &s), 0);
	}
	r->cell[0].reps = 3;
	r->cell[0].stop = SW_STOP_FIXED;
	r->complete = true;
	cr_assert_float_eq(run_sample_bandwidth(r, &r->sample[2]), 65536.0 * 170 / 0.1, 1e-3);
	cr_assert_float_eq(run_sample_latency(r, &r->sample[1]), 0.1 / 160, 1e-15);
	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert(b->plan->cell[0].timed);
	cr_assert_eq(b->plan->cell[0].hops, 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(b->sample[i].hops, 150 + 10 * i);
	run_free(b);
	run_free(r);

	/* make_run's cells have 100 hops: a sample of 99 is not one of them */
	r = make_run();
	cr_assert_eq(results_write(dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2, "0,0,2,1,pingpong,8,99,0,0,0,1,node00,node01,10,10.001,0.001,5,0.8\n");
	cr_assert_null(results_load(dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv:3: bad sample"), "%s", err);
	run_free(r);
}
