/* Results: write a run's folder, read it back (jansson), atomic files. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "fixture.h"
#include "pattern.h"
#include "report.h"
#include "results.h"

/* An empty run of the config keys kv on nranks hosts node00, node01, ... */
static struct sw_run *new_run(const char *const *kv, int nranks)
{
	struct sw_config c;
	char err[512];

	config_defaults(&c);
	for (int i = 0; kv[i]; i++)
		cr_assert_eq(config_set_arg(&c, kv[i], err, sizeof(err)), 0, "%s", err);
	struct sw_plan *p = plan_create(&c, nranks, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	struct sw_run *r = run_create(&c, p, nranks);
	cr_assert_not_null(r);
	for (int i = 0; i < nranks; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%02d", i);
	snprintf(r->name, sizeof(r->name), "unit-20261130-120000");
	return r;
}

/* A 4-rank run, levels 1 and 2 pairs, pingpong and stream at 8 B and
 * 64 KiB, 3 repetitions; sample seconds follow a known formula. */
static struct sw_run *make_run(void)
{
	const char *const kv[] = { "pairs=1,2", "patterns=pingpong,stream", "sizes=8,64KiB", "hops=100",
				   "repetitions=3", "label=unit", NULL };
	struct sw_run *r = new_run(kv, 4);
	const struct sw_plan *p = r->plan;

	snprintf(r->started, sizeof(r->started), "2026-11-30T12:00:00Z");
	snprintf(r->mpi_version, sizeof(r->mpi_version), "MPICH Version: 4.0.2");
	for (int ci = 0; ci < p->ncells; ci++) {
		int k = p->level_pairs[p->cell[ci].level];

		for (int rep = 0; rep < 3; rep++)
			for (int pr = 0; pr < k; pr++) {
				double secs = 1e-3 * (1 + ci) + 1e-5 * rep + 1e-6 * pr;
				struct sw_sample s = { ci, rep, pr, 10.0 + rep, 10.0 + rep + secs, secs, p->cell[ci].hops, 0 };

				cr_assert_eq(run_add_sample(r, &s), 0);
				/* the baseline level measured again (drift control) */
				s.seconds *= 1.5;
				s.t_end = s.t_start + s.seconds;
				if (p->cell[ci].level == 0)
					cr_assert_eq(run_add_again(r, &s), 0);
			}
		r->cell[ci].reps = 3;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	struct sw_cpu u = { 0, 1, 0.5, 0.25 };
	run_add_cpu(r, &u);
	r->round_trip = 42e-6;
	r->complete = true;
	return r;
}

TestSuite(results, .init = fixture_setup, .fini = fixture_teardown);

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
	cr_assert_eq(results_write(fixture_dir, r, a, "report text\n", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
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
	cr_assert_eq(b->round_trip, 42e-6);
	cr_assert(b->nagain > 0 && b->nagain == r->nagain, "%zu", b->nagain);
	for (size_t i = 0; i < r->nagain; i++) {
		cr_assert_eq(b->again[i].cell, r->again[i].cell);
		cr_assert_eq(b->again[i].pair, r->again[i].pair);
		/* run.json keeps 10 digits */
		cr_assert_float_eq(b->again[i].seconds, r->again[i].seconds, 1e-9 * r->again[i].seconds);
		cr_assert_eq(b->again[i].hops, r->again[i].hops);
	}
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
	cr_assert_eq(results_write(fixture_dir, r, a, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
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
	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	FILE *f = fopen(path, "r");
	int rows = 0;
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_eq(strncmp(line, "# swstress ", 11), 0);
	cr_assert(strstr(line, "MB/s = 10^6 bytes/s"));
	cr_assert_not_null(fgets(line, sizeof(line), f));
	cr_assert_eq(strncmp(line, "cell,level,nodes,pairs,pattern,size_bytes,hops,rep,block,pair", 61), 0);
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

	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s' | grep tmp)\"", fixture_dir);
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
	snprintf(r->cfg.output, sizeof(r->cfg.output), "%s/out", fixture_dir);
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
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	f = fopen(path, "w");
	fputs("{\"schema_version\": 1,\n \"config\": {", f);
	fclose(f);
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_assert(strstr(err, "run.json:2: not valid JSON"), "%s", err);

	/* A valid run.json whose samples.csv is missing. */
	struct sw_run *r = make_run();
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	unlink(path);
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv: cannot read"), "%s", err);
	run_free(r);
}

/* Rewrite samples.csv keeping the first keep lines, plus extra if given. */
static void cut_samples(int keep, const char *extra)
{
	char path[128], tmp[140], line[1024];
	FILE *in, *out;
	int n = 0;

	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	snprintf(tmp, sizeof(tmp), "%s/cut.csv", fixture_dir);
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

	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	/* Cut at a line end: no bad line, but cells lack samples. */
	cut_samples(2 + 10, NULL);
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv: cell 3 has 1 samples, run.json says 3 repetitions x 1 pairs"), "%s", err);

	/* A repetition beyond the cell's count (a fuzzed 2000000000 would
	 * otherwise size the analysis). */
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2, "0,0,2,1,pingpong,8,100,2000000000,0,0,0,1,node00,node01,10,10.001,0.001,5,0.8,\n");
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv:3: rep: '2000000000' not a repetition the cell ran"), "%s", err);

	/* The same repetition of a pair twice. */
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2 + 2, "0,0,2,1,pingpong,8,100,0,0,0,0,1,node00,node01,10,10.001,0.001,5,0.8,\n");
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
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
		struct sw_sample s = { 0, rep, 0, rep, rep + 0.1, 0.1, 150 + 10 * rep, 0 };

		cr_assert_eq(run_add_sample(r, &s), 0);
	}
	r->cell[0].reps = 3;
	r->cell[0].stop = SW_STOP_FIXED;
	r->complete = true;
	cr_assert_float_eq(run_sample_bandwidth(r, &r->sample[2]), 65536.0 * 170 / 0.1, 1e-3);
	cr_assert_float_eq(run_sample_latency(r, &r->sample[1]), 0.1 / 160, 1e-15);
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert(b->plan->cell[0].timed);
	cr_assert_eq(b->plan->cell[0].hops, 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(b->sample[i].hops, 150 + 10 * i);
	run_free(b);
	run_free(r);

	/* make_run's cells have 100 hops: a sample of 99 is not one of them */
	r = make_run();
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2, "0,0,2,1,pingpong,8,99,0,0,0,0,1,node00,node01,10,10.001,0.001,5,0.8,\n");
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv:3: hops: '99' not the cell's hop count"), "%s", err);
	run_free(r);
}

/* Set the member at a dotted path of run.json ("cells.0.hops") to v
 * (owned), or remove it when v is NULL. */
static void mutate_json(const char *path, json_t *v)
{
	char jpath[128], key[64], *save = NULL;
	json_error_t je;
	json_t *root, *o;

	snprintf(jpath, sizeof(jpath), "%s/run.json", fixture_dir);
	root = json_load_file(jpath, 0, &je);
	cr_assert_not_null(root, "%s", je.text);
	snprintf(key, sizeof(key), "%s", path);
	o = root;
	char *tok = strtok_r(key, ".", &save), *next;
	for (; (next = strtok_r(NULL, ".", &save)); tok = next)
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(tok)) : json_object_get(o, tok);
	cr_assert_not_null(o, "%s", path);
	if (json_is_array(o))
		json_array_set_new(o, (size_t)atoi(tok), v);
	else if (v)
		json_object_set_new(o, tok, v);
	else
		json_object_del(o, tok);
	cr_assert_eq(json_dump_file(root, jpath, 0), 0);
	json_decref(root);
}

/* run.json with the value at path replaced by v (NULL: removed) must be
 * refused with msg. */
struct mutation {
	const char *path;
	json_t *v;
	const char *msg;
};

/* r written, then each mutation applied alone: refused with its message. */
static void expect_refused(const struct sw_run *r, const struct mutation *t, size_t n)
{
	struct sw_run *b;
	char err[512];

	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
		mutate_json(t[i].path, t[i].v);
		b = results_load(fixture_dir, err, sizeof(err));
		cr_expect_null(b, "%s accepted", t[i].path);
		run_free(b);
		cr_expect(strstr(err, t[i].msg), "%s: got '%s', want '%s'", t[i].path, err, t[i].msg);
	}
}

/* Issue #11: every field of run.json is checked for type and range, and
 * the error names the field (these all used to load, some giving 0 us or
 * negative bandwidth with exit 0). */
Test(results, every_run_json_field_is_checked)
{
	const struct mutation t[] = {
		{ "cells.0.hops", json_integer(0), "run.json: cells[0].hops: 0 is outside 1..", },
		{ "cells.0.hops", json_integer(-1), "run.json: cells[0].hops: -1 is outside 1..", },
		{ "cells.0.hops", json_string("x"), "run.json: cells[0].hops: not an integer" },
		{ "cells.1.hops", NULL, "run.json: cells[1].hops: missing" },
		{ "cells.0.size_bytes", json_integer(-1), "run.json: cells[0].size_bytes: -1 is outside 1.." },
		{ "cells.0.size_bytes", json_integer(12345), "cells[0].size_bytes: 12345 is not one of the config's sizes" },
		{ "cells.0.level", json_integer(7), "run.json: cells[0].level: 7 is outside 0..1" },
		{ "cells.0.pattern", json_string("../x"), "cells[0].pattern: not one of pingpong, stream, bidir" },
		{ "cells.0.stop", json_string("bogus"), "run.json: cells[0].stop: not a known reason to stop" },
		{ "cells.0.reps", json_integer(4), "run.json: cells[0].reps: 4 is outside 0..3" },
		{ "cells.0.wall_s", json_real(-1), "run.json: cells[0].wall_s: -1 is outside 0..1e+06" },
		{ "schema_version", json_integer(0), "run.json: schema_version: 0 is outside 1..4" },
		{ "schema_version", json_integer(-1), "run.json: schema_version: -1 is outside 1..4" },
		{ "schema_version", json_string("1"), "run.json: schema_version: not an integer" },
		{ "pairs.0", json_pack("[ii]", 0, 0), "run.json: pairs[0]: not two distinct ranks of 0..3" },
		{ "pairs.1", json_pack("[ii]", 1, 2), "run.json: pairs[1]: not two distinct ranks of 0..3, each in one pair only" },
		{ "pairs.0", json_pack("[is]", 0, "1"), "run.json: pairs[0]: not two distinct ranks" },
		{ "levels.1.pairs", json_integer(1), "run.json: levels[1].pairs: 1 is outside 2..2" },
		{ "ranks.1.host", json_string(""), "run.json: ranks[1].host: missing, empty" },
		{ "cpu.0.user_s", json_real(-0.5), "run.json: cpu[0].user_s: -0.5 is outside 0..1e+06" },
		{ "cpu.0.rank", json_integer(9), "run.json: cpu[0].rank: 9 is outside 0..3" },
		{ "complete", json_string("yes"), "run.json: complete: missing or not true/false" },
		{ "wtick", json_real(5), "run.json: wtick: 5 is outside 0..1" },
		{ "round_trip_s", json_real(-1), "run.json: round_trip_s: -1 is outside 0..1e+06" },
		{ "round_trip_s", json_string("1"), "run.json: round_trip_s: not a number" },
		{ "baseline_again.0.pair", json_integer(1), "run.json: baseline_again[0].pair: 1 is outside 0..0" },
		{ "baseline_again.0.cell", json_integer(4), "run.json: baseline_again[0].cell: 4 is outside 0..3" },
		{ "baseline_again.0.cell", json_integer(4294967296LL), "run.json: baseline_again[0].cell: 4294967296 is outside 0..3" },
		{ "baseline_again.1.seconds", json_real(0), "run.json: baseline_again[1].seconds: 0 is outside" },
		{ "baseline_again.1.hops", json_integer(0), "run.json: baseline_again[1].hops: 0 is outside 1.." },
	};
	struct sw_run *r = make_run(), *b;
	char err[512];

	expect_refused(r, t, sizeof(t) / sizeof(t[0]));
	/* a key given twice is not silently the last one */
	char jpath[128];
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(jpath, sizeof(jpath), "%s/run.json", fixture_dir);
	json_error_t je;
	json_t *root = json_load_file(jpath, 0, &je);
	cr_assert_not_null(root);
	char *text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	FILE *f = fopen(jpath, "w");
	cr_assert(f && text && text[0] == '{');
	fprintf(f, "{\"complete\":false,%s", text + 1);   /* "complete" is in text too */
	fclose(f);
	free(text);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_expect_null(b);
	cr_expect(strstr(err, "run.json:1: not valid JSON: duplicate object key"), "%s", err);
	run_free(b);
	run_free(r);
}

/* Issue #11: every field of a probe record is checked before it becomes an
 * int (rank_a 2^32 used to wrap to rank 0 and load as a valid probe). */
Test(results, every_probe_field_is_checked)
{
	const struct mutation t[] = {
		{ "probes.0.rank_a", json_integer(4294967296LL), "run.json: probes[0].rank_a: 4294967296 is outside 0..3" },
		{ "probes.0.rank_b", json_integer(-4294967295LL), "run.json: probes[0].rank_b: -4294967295 is outside 0..3" },
		{ "probes.0.rank_b", json_integer(2), "run.json: probes[0].rank_b: 2, the same rank as rank_a" },
		{ "probes.0.host_rank", json_integer(-2), "run.json: probes[0].host_rank: -2 is outside -1..3" },
		{ "probes.0.cell", json_integer(4294967296LL + 1), "run.json: probes[0].cell: 4294967297 is outside 0..7" },
		{ "probes.0.cell", json_string("1"), "run.json: probes[0].cell: not an integer" },
		{ "probes.0.rep", json_integer(2147483648LL), "run.json: probes[0].rep: 2147483648 is outside 0.." },
		{ "probes.0.hops", json_integer(0), "run.json: probes[0].hops: 0 is outside 1.." },
		{ "probes.0.hops", NULL, "run.json: probes[0].hops: missing" },
		{ "probes.0.seconds", json_real(-1), "run.json: probes[0].seconds: -1 is outside 1e-09..1e+06" },
		{ "probes.0.seconds", json_null(), "run.json: probes[0].seconds: missing" },
		{ "probes.0.t_end_s", json_string("x"), "run.json: probes[0].t_end_s: not a number" },
		{ "probes", json_string("x"), "run.json: probes: not an array" },
	};
	struct sw_run *r = make_run(), *b;
	struct sw_probe q = { .a = 2, .b = 3, .host = 3, .cell = 5, .rep = 1, .t_start = 20, .t_end = 20.002,
			      .seconds = 0.002, .hops = 100 };
	char err[512];

	cr_assert_eq(run_add_probe(r, &q), 0);
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "the unmutated probe: %s", err);
	cr_expect_eq(b->nprobes, 1);
	cr_expect(b->nprobes == 1 && b->probe[0].a == 2 && b->probe[0].b == 3 && b->probe[0].cell == 5 &&
		  b->probe[0].hops == 100);
	run_free(b);
	expect_refused(r, t, sizeof(t) / sizeof(t[0]));
	run_free(r);
}

/* Issue #11: every field of samples.csv the reader uses is numeric and in
 * range (atoi read "abc" as 0; one inf sample moved a median 8-fold). */
Test(results, every_samples_field_is_checked)
{
	struct {
		const char *row, *msg;
	} t[] = {
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,inf,5,0.8,", "samples.csv:3: seconds: 'inf' must be finite" },
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,1e308,5,0.8,", "samples.csv:3: seconds: '1e308'" },
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,1e-300,5,0.8,", "samples.csv:3: seconds: '1e-300'" },
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,nan,5,0.8,", "samples.csv:3: seconds: 'nan'" },
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,-0.001,5,0.8,", "samples.csv:3: seconds: '-0.001'" },
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10.001,10,0.001,5,0.8,", "samples.csv:3: t_end_s: '10' before t_start_s" },
		{ "0,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,nan,10,0.001,5,0.8,", "samples.csv:3: t_start_s: 'nan' not a finite" },
		{ "abc,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,0.001,5,0.8,", "samples.csv:3: cell: 'abc' not a cell" },
		{ "0,0,2,1,pingpong,8,100,abc,0,0,0,1,n0,n1,10,10.001,0.001,5,0.8,", "samples.csv:3: rep: 'abc'" },
		{ "0,0,2,1,pingpong,8,100,0,0,abc,0,1,n0,n1,10,10.001,0.001,5,0.8,", "samples.csv:3: pair: 'abc'" },
		{ "0,0,2,1,pingpong,8,100,0,0,1,0,1,n0,n1,10,10.001,0.001,5,0.8,", "samples.csv:3: pair: '1' not a pair of the cell's level" },
		{ "0,0,2,1,pingpong,8,1e2,0,0,0,0,1,n0,n1,10,10.001,0.001,5,0.8,", "samples.csv:3: hops: '1e2'" },
		{ "-1,0,2,1,pingpong,8,100,0,0,0,0,1,n0,n1,10,10.001,0.001,5,0.8,", "samples.csv:3: cell: '-1'" },
	};
	struct sw_run *r = make_run(), *b;
	char err[512], row[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
		snprintf(row, sizeof(row), "%s\n", t[i].row);
		cut_samples(2, row);
		b = results_load(fixture_dir, err, sizeof(err));
		cr_expect_null(b, "%s accepted", t[i].row);
		run_free(b);
		cr_expect(strstr(err, t[i].msg), "got '%s', want '%s'", err, t[i].msg);
	}
	run_free(r);
}

/* Issue #11: caps on what is read: a device, a FIFO, a directory, a line
 * without end. */
Test(results, devices_fifos_and_long_lines_are_refused)
{
	struct sw_run *r = make_run();
	char err[512], path[128], cmd[256];

	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	unlink(path);
	cr_assert_eq(symlink("/dev/zero", path), 0);
	cr_expect_null(results_load(fixture_dir, err, sizeof(err)));
	cr_expect(strstr(err, "samples.csv: cannot read: not a regular file"), "%s", err);
	unlink(path);
	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_expect_null(results_load(fixture_dir, err, sizeof(err)));
	cr_expect(strstr(err, "samples.csv: cannot read: not a regular file"), "%s", err);
	unlink(path);
	snprintf(cmd, sizeof(cmd), "head -c 10000 /dev/zero | tr '\\0' 1 > %s", path);
	cr_assert_eq(system(cmd), 0);
	cr_expect_null(results_load(fixture_dir, err, sizeof(err)));
	cr_expect(strstr(err, "samples.csv:1: line longer than 4095 bytes"), "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	unlink(path);
	cr_assert_eq(symlink("/dev/zero", path), 0);
	cr_expect_null(results_load(fixture_dir, err, sizeof(err)));
	cr_expect(strstr(err, "run.json: cannot read: not a regular file"), "%s", err);
	run_free(r);
}

/* A folder of schema 1 (before per-repetition summaries) still loads: the
 * statistics are recomputed from samples.csv; a newer schema is refused
 * with its number. */
Test(results, old_schema_loads_newer_is_refused_by_number)
{
	char path[128], err[512] = "", *text;
	struct sw_run *r = make_run(), *back;
	FILE *f;
	long len;

	r->cfg.design = CFG_DESIGN_SEQUENTIAL;   /* what the engine ran before schema 3 */
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	cr_assert_eq(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	for (int v = 0; v < 2; v++) {
		char *p = strstr(text, "\"schema_version\": 4");

		cr_assert_not_null(p, "%.80s", text);
		p[strlen("\"schema_version\": ")] = v == 0 ? '1' : '9';
		f = fopen(path, "w");
		fputs(text, f);
		fclose(f);
		back = results_load(fixture_dir, err, sizeof(err));
		if (v == 0) {
			cr_assert_not_null(back, "%s", err);
			run_free(back);
		} else {
			cr_assert_null(back);
			cr_assert(strstr(err, "run.json: schema_version: 9 is outside 1..4"), "%s", err);
		}
		p[strlen("\"schema_version\": ")] = '4';
	}
	free(text);
	run_free(r);
}

/* A run with victims (victims.h): 6 ranks, adjacent pairs, victim pair
 * 0-1, aggressor levels 1 and 2 pairs of stream 64 KiB, 5 repetitions;
 * each repetition has a loaded and an alone sample of the victim. */
static struct sw_run *make_victims_run(void)
{
	const char *const kv[] = { "pairs=1,2", "patterns=stream", "sizes=64KiB", "victims=1", "victim_size=16",
				   "repetitions=5", "sample_time=10ms", "label=unit", NULL };
	struct sw_run *r = new_run(kv, 6);
	const struct sw_plan *p = r->plan;

	for (int ci = 0; ci < p->ncells; ci++) {
		int k = p->level_pairs[p->cell[ci].level];

		for (int rep = 0; rep < 5; rep++) {
			for (int alone = 1; alone >= 0; alone--) {
				double p50 = (alone ? 10e-6 : 10e-6 * (1 + ci)) * (1 + 0.01 * rep);
				struct sw_victim v = { ci, rep, 0, alone, 20.0 + rep, 20.01 + rep, 0.01, 1000, p50,
						       3 * p50, false };

				cr_assert_eq(run_add_victim(r, &v), 0);
			}
			for (int pr = 0; pr < k; pr++) {
				struct sw_sample s = { ci, rep, pr, 20.0 + rep, 20.01 + rep, 0.01, 100 + pr, 0 };

				cr_assert_eq(run_add_sample(r, &s), 0);
			}
		}
		r->cell[ci].reps = 5;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	r->complete = true;
	return r;
}

/* The victims' pairs and samples go to run.json and come back the same;
 * summary.csv carries their inflation; every field is checked. */
Test(results, victims_round_trip_and_every_field_is_checked)
{
	struct sw_run *r = make_victims_run(), *b;
	char err[512], path[128], line[4096];
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));

	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(fixture_dir, r, a, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->plan->nvictims, 1);
	cr_assert_eq(b->plan->victim[0].a, 0);
	cr_assert_eq(b->plan->victim[0].b, 1);
	cr_assert_eq(b->plan->npairs, 2);
	cr_assert_eq(b->plan->pair[0].a, 2);
	cr_assert_eq(b->nvictims, r->nvictims);
	for (size_t i = 0; i < r->nvictims; i++) {
		cr_expect_eq(b->victim[i].cell, r->victim[i].cell);
		cr_expect_eq(b->victim[i].rep, r->victim[i].rep);
		cr_expect_eq(b->victim[i].alone, r->victim[i].alone);
		cr_expect_eq(b->victim[i].hops, r->victim[i].hops);
		cr_expect_float_eq(b->victim[i].p50, r->victim[i].p50, 1e-15);
		cr_expect_float_eq(b->victim[i].p99, r->victim[i].p99, 1e-15);
	}
	run_free(b);
	/* summary.csv: cell 1 (2 aggressor pairs) has the victims 2x slower
	 * than alone: inflation +100%, p99 too (3 x p50 on both sides) */
	snprintf(path, sizeof(path), "%s/summary.csv", fixture_dir);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	int col = -1, row = 0;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok = strtok_r(line, ",\n", &save);

		if (line[0] == '#')
			continue;
		for (int i = 0; tok; i++, tok = strtok_r(NULL, ",\n", &save)) {
			if (row == 0 && !strcmp(tok, "victim_infl_pct"))
				col = i;
			if (row == 2 && i == col)
				cr_expect_float_eq(atof(tok), 100.0, 1e-3, "victim_infl_pct %s", tok);
		}
		row++;
	}
	fclose(f);
	cr_expect_geq(col, 0, "summary.csv has victim_infl_pct");
	cr_expect_eq(row, 3);
	analysis_free(a);

	/* Issue #28: CPU control rounds (the victims 1.5 x slower than alone)
	 * come back as such; run.json splits cell 1's +100% into CPU +50%
	 * and network +33.3% */
	for (int ci = 0; ci < r->plan->ncells; ci++)
		for (int rep = 0; rep < 5; rep++) {
			struct sw_victim v = { ci, rep, 0, false, 30.0 + rep, 30.01 + rep, 0.01, 1000,
					       15e-6 * (1 + 0.01 * rep), 45e-6 * (1 + 0.01 * rep), true };

			cr_assert_eq(run_add_victim(r, &v), 0);
		}
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(fixture_dir, r, a, "x", err, sizeof(err)), 0, "%s", err);
	analysis_free(a);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->nvictims, r->nvictims);
	for (size_t i = 0; i < r->nvictims; i++)
		cr_expect_eq(b->victim[i].cpu, r->victim[i].cpu);
	run_free(b);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *vo;
	cr_assert_not_null(root, "%s", je.text);
	vo = json_object_get(json_object_get(json_array_get(json_object_get(root, "cells"), 1), "summary"), "victims");
	cr_expect_float_eq(json_real_value(json_object_get(json_object_get(vo, "cpu_inflation"), "pct")), 50.0, 1e-6);
	cr_expect_float_eq(json_real_value(json_object_get(json_object_get(vo, "network_inflation"), "pct")),
			   100.0 * (2.0 / 1.5 - 1), 1e-6);
	cr_expect_eq(json_integer_value(json_object_get(vo, "cpu_control_reps")), 5);
	json_decref(root);

	struct mutation t[] = {
		{ "victim_samples.0.p99_s", json_real(1e-6), "victim_samples[0].p99_s: 1e-06 is outside 1e-05.." },
		{ "victim_samples.0.p50_s", json_real(0), "victim_samples[0].p50_s: 0 is outside 1e-09.." },
		{ "victim_samples.0.pair", json_integer(1), "victim_samples[0].pair: 1 is outside 0..0" },
		{ "victim_samples.0.rep", json_integer(5), "victim_samples[0].rep: 5 is outside 0..4" },
		{ "victim_samples.0.cell", json_integer(2), "victim_samples[0].cell: 2 is outside 0..1" },
		{ "victim_samples.0.hops", json_integer(1), "victim_samples[0].hops: 1 is outside 2.." },
		{ "victim_samples.0.alone", json_integer(1), "victim_samples[0].alone: missing or not true/false" },
		{ "victim_samples.0.seconds", json_null(), "victim_samples[0]: a time or latency is missing" },
		{ "victim_samples.1.alone", json_true(), "victim_samples[1]: cell 0, repetition 0, victim pair 0 (alone) twice" },
		{ "victim_samples", json_string("x"), "victim_samples: not an array" },
		{ "victim_samples.0.cpu", json_true(), "victim_samples[0].cpu: not true/false, or true in a round of the victims alone" },
		{ "victim_samples.1.cpu", json_integer(1), "victim_samples[1].cpu: not true/false" },
		{ "victim_pairs.0", json_pack("[ii]", 0, 2), "victim_pairs[0]: not two distinct ranks of 0..5, each in one pair only" },
		{ "victim_pairs", json_array(), "victim_pairs: 0 pairs, but the config says victims = 1" },
	};
	expect_refused(r, t, sizeof(t) / sizeof(t[0]));
	run_free(r);
}

/* Incast: each sample row is a sender (rank_a) with the one receiver
 * (rank_b), nodes = senders + 1, the receiver's drop in summary.csv and
 * run.json, and run.json's receiver read back and checked. */
Test(results, incast_rows_name_each_sender_and_the_receiver)
{
	const char *const kv[] = { "pairs=1,2,3", "patterns=incast", "sizes=64KiB", "repetitions=3", "label=unit", NULL };
	struct sw_run *r = new_run(kv, 6), *b;
	char err[512], line[1024], path[128];

	for (int ci = 0; ci < 3; ci++) {
		for (int rep = 0; rep < 3; rep++)
			for (int s = 0; s <= ci; s++) {
				/* k senders share 100 messages a second: 100 / k each */
				struct sw_sample x = { ci, rep, s, rep, rep + 1.0, 1.0, 100 / (ci + 1), 0 };

				cr_assert_eq(run_add_sample(r, &x), 0);
			}
		r->cell[ci].reps = 3;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	r->complete = true;
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(fixture_dir, r, a, "x", err, sizeof(err)), 0, "%s", err);

	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	FILE *f = fopen(path, "r");
	int rows = 0;
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		int cell, level, nodes, pairs, rep, pair, ra, rb;

		if (sscanf(line, "%d,%d,%d,%d,incast,65536,%*d,%d,%*d,%d,%d,%d,", &cell, &level, &nodes, &pairs, &rep,
			   &pair, &ra, &rb) != 8)
			continue;
		rows++;
		cr_assert_eq(nodes, pairs + 1, "%s", line);
		cr_assert_eq(ra, 2 * pair, "sender %d is rank %d: %s", pair, 2 * pair, line);
		cr_assert_eq(rb, 1, "the receiver is rank 1: %s", line);
	}
	fclose(f);
	cr_assert_eq(rows, 3 * (1 + 2 + 3));
	snprintf(path, sizeof(path), "%s/summary.csv", fixture_dir);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f) && line[0] == '#')
		;
	fclose(f);
	cr_assert(strstr(line, ",receiver_drop_pct,receiver_drop_lo,receiver_drop_hi,receiver_drop_p,"
			 "receiver_drop_sig,"), "%s", line);
	analysis_free(a);

	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->plan->cell[2].pattern, PAT_INCAST);
	cr_assert_eq(plan_pair(b->plan, 2, 2).a, 4);
	cr_assert_eq(plan_pair(b->plan, 2, 2).b, 1);
	run_free(b);

	const struct mutation t[] = {
		{ "cells.1.receiver", json_integer(3), "run.json: cells[1].receiver: rank 3, but the plan's receiver is rank 1" },
		{ "cells.2.receiver", json_integer(6), "run.json: cells[2].receiver: 6 is outside 0..5" },
		{ "cells.0.receiver", NULL, "run.json: cells[0].receiver: missing" },
	};
	expect_refused(r, t, sizeof(t) / sizeof(t[0]));
	run_free(r);
}

/* Issue #28: every rank's identity (kernel, network stack, cores) goes
 * into run.json and back; a run without identities (older runs) loads
 * with all unknown; a bad field is refused by name. */
Test(results, rank_identities_round_trip_older_runs_load)
{
	struct sw_run *r = make_run(), *b;
	char err[512];
	int n;

	for (int i = 0; i < r->nranks; i++) {
		snprintf(r->id[i].boot_id, HOSTID_ID_MAX, "6b1f3a0e-0c1d-4a52-9d0b-6a7c1e2f3a4b");
		snprintf(r->id[i].machine_id, HOSTID_ID_MAX, "0123456789abcdef0123456789abcdef");
		r->id[i].netns = 4026532000u + (uint64_t)i;
		r->id[i].mpi_node = i;
		cr_assert_eq(hostid_parse_cpus(i == 3 ? "1" : "0-1", r->id[i].cpu, &n), 0);
		r->id[i].cores = n;
	}
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	for (int i = 0; i < r->nranks; i++) {
		cr_expect_str_eq(b->id[i].boot_id, r->id[i].boot_id);
		cr_expect_str_eq(b->id[i].machine_id, r->id[i].machine_id);
		cr_expect_eq(b->id[i].netns, r->id[i].netns);
		cr_expect_eq(b->id[i].mpi_node, i);
		cr_expect_eq(b->id[i].cores, i == 3 ? 1 : 2);
		cr_expect(memcmp(b->id[i].cpu, r->id[i].cpu, sizeof(r->id[i].cpu)) == 0);
	}
	/* 4 ranks on one kernel's 2 cores: a 2-pair cell (4 busy ranks) is
	 * CPU-bound, a 1-pair cell (2 busy ranks) is not */
	int k, c;
	cr_expect(run_cell_cpu_bound(b, b->plan->ncells - 1, &k, &c));
	cr_expect(k == 4 && c == 2, "%d ranks, %d cores", k, c);
	cr_expect_not(run_cell_cpu_bound(b, 0, &k, &c));
	run_free(b);

	const struct mutation t[] = {
		{ "ranks.1.netns", json_integer(-1), "run.json: ranks[1].netns: -1 is outside 0.." },
		{ "ranks.1.cores", NULL, "run.json: ranks[1].cores: missing" },
		{ "ranks.2.mpi_node", json_integer(4), "run.json: ranks[2].mpi_node: 4 is outside -1..3" },
		{ "ranks.0.cpus", json_string("0-x"), "run.json: ranks[0].cpus: missing or not a CPU list" },
		{ "ranks.0.boot_id", json_integer(1), "run.json: ranks[0].boot_id, machine_id: not both strings" },
	};
	expect_refused(r, t, sizeof(t) / sizeof(t[0]));

	/* an older run: no identity, nothing shared, nothing CPU-bound */
	for (int i = 0; i < r->nranks; i++)
		hostid_unknown(&r->id[i]);
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_expect_str_eq(b->id[0].boot_id, "");
	cr_expect_eq(b->id[0].mpi_node, -1);
	cr_expect_not(run_cell_cpu_bound(b, b->plan->ncells - 1, &k, &c));
	cr_expect_eq(k, 0);
	run_free(b);
	run_free(r);
}

/* Issue #26: a block design's run records its design, the levels of each
 * block in the order plan_block_order gave them, and each sample's block
 * (its repetition); a samples.csv row whose block is not the design's is
 * refused; a run of schema 2 loads as sequential whatever its config says
 * (the engine ran no blocks then). Samples added block by block are put
 * back into cell order. */
Test(results, blocks_design_and_order_are_recorded)
{
	struct sw_run *r = make_run(), *b;
	char err[512], path[128], line[512];
	int order[2];
	json_t *j, *bo;

	r->cfg.design = CFG_DESIGN_BLOCKS;
	/* shuffle the samples as a block design adds them: block 2 first */
	for (size_t i = 0; i + 1 < r->nsamples; i += 2) {
		struct sw_sample t = r->sample[i];

		r->sample[i] = r->sample[r->nsamples - 1 - i];
		r->sample[r->nsamples - 1 - i] = t;
	}
	run_sort_samples(r);
	for (size_t i = 1; i < r->nsamples; i++)
		cr_assert(r->sample[i - 1].cell < r->sample[i].cell ||
			  (r->sample[i - 1].cell == r->sample[i].cell && r->sample[i - 1].rep <= r->sample[i].rep));
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	j = json_load_file(path, 0, NULL);
	cr_assert_not_null(j);
	cr_assert_str_eq(json_string_value(json_object_get(j, "design")), "blocks");
	bo = json_object_get(j, "block_order");
	cr_assert_eq(json_array_size(bo), 3);
	for (int blk = 0; blk < 3; blk++) {
		plan_block_order(r->plan, &r->cfg, blk, order);
		for (int i = 0; i < 2; i++)
			cr_assert_eq(json_integer_value(json_array_get(json_array_get(bo, (size_t)blk), (size_t)i)),
				     order[i]);
	}
	json_decref(j);
	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		int rep, block;

		if (sscanf(line, "%*d,%*d,%*d,%*d,%*[a-z],%*d,%*d,%d,%d,", &rep, &block) == 2)
			cr_assert_eq(block, rep, "%s", line);
	}
	fclose(f);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->cfg.design, CFG_DESIGN_BLOCKS);
	run_free(b);
	cut_samples(2, "0,0,2,1,pingpong,8,100,0,-1,0,0,1,node00,node01,10,10.001,0.001,5,0.8,\n");
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_assert(strstr(err, "samples.csv:3: block: '-1' is not 0"), "%s", err);

	/* schema 2 with config design = blocks (accepted, not run) loads sequential */
	r->cfg.design = CFG_DESIGN_SEQUENTIAL;
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	j = json_load_file(path, 0, NULL);
	json_object_set_new(j, "schema_version", json_integer(2));
	json_object_set_new(json_object_get(j, "config"), "design", json_string("blocks"));
	cr_assert_eq(json_dump_file(j, path, 0), 0);
	json_decref(j);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->cfg.design, CFG_DESIGN_SEQUENTIAL);
	run_free(b);
	run_free(r);
}

/* Issue #32: the biggest honest run.json fits the cap with room to spare.
 * The biggest config is configs/procurement.conf's sweep (nodes 8..48 and
 * max, sizes 4..4MiB x4, blocks) on 64 nodes, with every pattern, every
 * cell at 100 repetitions (the most that config asks), 2 victim pairs and the CPU
 * control (3 victims' rounds a repetition), and the analysis of every
 * cell: RESULTS_MAX_JSON must hold it 4 times over, and it loads back. */
Test(results, biggest_honest_run_json_fits_the_cap_4_times, .timeout = 120)
{
	const char *const kv[] = { "nodes=8,16,24,32,40,48,max", "sizes=4..4MiB x4",
				   "patterns=pingpong,stream,bidir,incast", "repetitions=100", "victims=2",
				   "cpu_control=yes", "design=blocks", "bootstrap=200", "label=unit", NULL };
	struct sw_run *r = new_run(kv, 64), *b;
	const struct sw_plan *p = r->plan;
	char err[512], path[128];
	struct stat st;

	for (int ci = 0; ci < p->ncells; ci++) {
		int k = p->level_pairs[p->cell[ci].level];

		for (int rep = 0; rep < 100; rep++) {
			double t = 100.0 * rep + ci * 1e-3;

			for (int round = 0; round < 3; round++)
				for (int pr = 0; pr < 2; pr++) {
					double p50 = 1e-5 * (1 + 0.01 * rep + round);
					struct sw_victim v = { ci, rep, pr, round == 1, t, t + 0.05, 0.05, 1000, p50,
							       3 * p50, round == 2 };

					cr_assert_eq(run_add_victim(r, &v), 0);
				}
			for (int pr = 0; pr < k; pr++) {
				double secs = 1e-3 * (1 + 0.001 * rep + 0.01 * pr);
				struct sw_sample s = { ci, rep, pr, t, t + secs, secs, 100, 0 };

				cr_assert_eq(run_add_sample(r, &s), 0);
			}
		}
		r->cell[ci].reps = 100;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	for (int l = 0; l < p->nlevels; l++)
		for (int rank = 0; rank < 64; rank++) {
			struct sw_cpu u = { l, rank, 1234.567891, 234.5678912 };

			cr_assert_eq(run_add_cpu(r, &u), 0);
		}
	r->complete = true;
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));

	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(fixture_dir, r, a, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_gt(r->nvictims, 180000);
	cr_assert_lt(st.st_size * 4, RESULTS_MAX_JSON, "the biggest honest run.json is %lld bytes", (long long)st.st_size);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_assert_eq(b->nvictims, r->nvictims);
	run_free(b);
	analysis_free(a);
	run_free(r);
}

/* Field name of the CSV row line under header (both cut in place), or NULL. */
static const char *csv_field(char *header, char *line, const char *name)
{
	char *hs, *ls, *h = strtok_r(header, ",\n", &hs), *v = strtok_r(line, ",\n", &ls);

	for (; h && v; h = strtok_r(NULL, ",\n", &hs), v = strtok_r(NULL, ",\n", &ls))
		if (!strcmp(h, name))
			return v;
	return NULL;
}

/* The message rate is the messages a second, whatever the size: 1000
 * messages in 10 ms are 0.1 Mmsg/s a pair (stream), 0.2 (bidir: both
 * ways), twice that in the aggregate of 2 pairs; summary.csv's last
 * columns (so that readers by position keep theirs) and run.json. */
Test(results, message_rate_is_messages_a_second)
{
	const char *const kv[] = { "pairs=1,2", "patterns=stream,bidir", "sizes=1KiB", "hops=1000", "timed=no",
				   "repetitions=3", "label=unit", NULL };
	struct sw_run *r = new_run(kv, 4);
	const struct sw_plan *p = r->plan;
	char err[512], header[2048], line[2048], path[128];
	/* cell order: level, then pattern: stream 1 pair, bidir 1 pair, stream 2, bidir 2 */
	const double want[4][2] = { { 0.1, 0.1 }, { 0.2, 0.2 }, { 0.1, 0.2 }, { 0.2, 0.4 } };

	for (int ci = 0; ci < p->ncells; ci++) {
		for (int rep = 0; rep < 3; rep++)
			for (int q = 0; q < p->level_pairs[p->cell[ci].level]; q++) {
				struct sw_sample x = { ci, rep, q, rep, rep + 0.01, 0.01, 1000, 0 };

				cr_assert_eq(run_add_sample(r, &x), 0);
			}
		r->cell[ci].reps = 3;
		r->cell[ci].stop = SW_STOP_FIXED;
	}
	r->complete = true;
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(fixture_dir, r, a, "x", err, sizeof(err)), 0, "%s", err);
	analysis_free(a);
	run_free(r);

	snprintf(path, sizeof(path), "%s/summary.csv", fixture_dir);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	while (fgets(header, sizeof(header), f) && header[0] == '#')
		;
	cr_assert(strstr(header, ",receiver_drop_sig,rate_median_Mmsgps,rate_lo_Mmsgps,rate_hi_Mmsgps,"
			 "agg_rate_median_Mmsgps,agg_rate_lo_Mmsgps,agg_rate_hi_Mmsgps,drifted\n"), "%s", header);
	for (int ci = 0; ci < 4; ci++) {
		char h[2048];

		cr_assert_not_null(fgets(line, sizeof(line), f));
		for (int k = 0; k < 2; k++) {
			char l[2048];

			memcpy(h, header, sizeof(h));
			memcpy(l, line, sizeof(l));
			const char *v = csv_field(h, l, k ? "agg_rate_median_Mmsgps" : "rate_median_Mmsgps");

			cr_assert_not_null(v);
			cr_expect_float_eq(strtod(v, NULL), want[ci][k], 1e-6, "cell %d %s: %s", ci, k ? "agg" : "pair", v);
		}
	}
	fclose(f);

	snprintf(path, sizeof(path), "%s/run.json", fixture_dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	cr_assert_not_null(root, "%s", je.text);
	for (int ci = 0; ci < 4; ci++) {
		json_t *sum = json_object_get(json_array_get(json_object_get(root, "cells"), (size_t)ci), "summary");

		cr_expect_float_eq(json_real_value(json_object_get(json_object_get(sum, "message_rate_per_s"), "median")),
				   want[ci][0] * 1e6, 1e-3, "cell %d", ci);
		cr_expect_float_eq(json_real_value(json_object_get(json_object_get(sum, "aggregate_message_rate_per_s"),
								    "median")), want[ci][1] * 1e6, 1e-3, "cell %d", ci);
	}
	json_decref(root);
}

/* Issue #39: every kind of edge sample goes through the writer and back.
 * A window that is empty (the pair began after the deadline), of one timer
 * tick or less, or holds more than a message a nanosecond is a missing
 * sample: written with its reason and no seconds, read back as missing,
 * counted in its cell and in the report, left out of every statistic; a
 * usable one beside it is kept as it was. */
Test(results, edge_samples_are_written_missing_and_read_back)
{
	struct sw_run *r = make_run(), *b;
	struct sw_analysis *a, *a0;
	char err[512];
	const struct {
		double t_start, t_end, seconds;
		long hops;
		int want;
	} edge[] = {
		{ 12.0, 12.0, 0.0, 1, SW_MISSING_LATE },          /* began at the deadline */
		{ 12.5, 12.4, -0.1, 61, SW_MISSING_LATE },        /* began after it */
		{ 12.0, 12.0 + 1e-9, 1e-9, 1, SW_MISSING_SHORT }, /* one tick: 65536000 MB/s before */
		{ 12.0, 12.0 + 5e-7, 5e-7, 600, SW_MISSING_FAST }, /* more than a message a ns */
		{ 12.0, 12.5, NAN, 100, SW_MISSING_LATE },         /* no seconds at all */
		{ 12.0, 12.001, 0.001, 100, SW_MISSING_NONE },     /* usable */
	};
	int cell = r->plan->ncells - 1;   /* 2 pairs of stream 64 KiB: timed counts allowed */

	r->wtick = 1e-9;
	a0 = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a0, "%s", err);
	/* the fixture's cells hold 3 repetitions of every pair; the edge
	 * samples go into a run of their own, one cell of them */
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		struct sw_sample s = { .cell = cell, .t_start = edge[i].t_start, .t_end = edge[i].t_end,
				       .seconds = edge[i].seconds, .hops = edge[i].hops };

		cr_expect_eq(run_sample_check(&s, r->wtick), edge[i].want, "edge %zu: %d", i, run_sample_check(&s, 1e-9));
	}
	/* replace the last cell's samples by the edge samples (3 reps x 2 pairs) */
	size_t first, n = run_cell_samples(r, cell, &first);

	cr_assert_eq(n, 6);
	for (size_t i = 0; i < n; i++) {
		struct sw_sample *s = &r->sample[first + i];
		long hops = r->plan->cell[cell].hops;

		*s = (struct sw_sample){ .cell = cell, .rep = s->rep, .pair = s->pair, .t_start = edge[i].t_start,
					 .t_end = edge[i].t_end, .seconds = edge[i].seconds,
					 .hops = edge[i].want == SW_MISSING_FAST ? edge[i].hops : hops };
		s->missing = run_sample_check(s, r->wtick);
		if (s->missing)
			s->seconds = NAN;
	}
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "the writer's own edge samples refused: %s", err);
	n = run_cell_samples(b, cell, &first);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(b->sample[first + i].missing, edge[i].want, "sample %zu: missing %d, want %d", i,
			     b->sample[first + i].missing, edge[i].want);
		cr_expect_eq(!isnan(b->sample[first + i].seconds), edge[i].want == SW_MISSING_NONE);
	}
	a = analysis_run(b, &b->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_expect_eq(a->cell[cell].nmissing, 5);
	cr_expect_eq(a->cell[cell].missing[SW_MISSING_LATE], 3);
	cr_expect_eq(a->cell[cell].lat_spread.n, 1, "one usable sample, not %zu", a->cell[cell].lat_spread.n);
	cr_expect(a->cell[cell].below_floor, "5 of 6 missing: the cell is not trusted");
	/* the usable sample's bandwidth is the statistic: 1 ms for hops x 64 KiB */
	double want = (double)r->plan->cell[cell].hops * 65536 / 0.001;

	cr_expect(fabs(a->cell[cell].bw_spread.max - want) < 1e-6 * want, "max %g, want %g", a->cell[cell].bw_spread.max,
		  want);
	char *text = report_string(b, a, REPORT_TABLE);

	cr_assert_not_null(text);
	cr_expect(strstr(text, "5 of 6 samples missing"), "%s", text);
	cr_expect(strstr(text, "the cell is short"), "%s", text);
	free(text);
	/* the other cells are as before */
	for (int c = 0; c < cell; c++)
		cr_expect_eq(a->cell[c].lat_spread.n, a0->cell[c].lat_spread.n);
	analysis_free(a);
	analysis_free(a0);
	run_free(b);
	run_free(r);
}

/* A samples.csv of an older run (no missing column) with a count over a
 * clamped 1 ns window, as runs before issue #39 could write: it loads, the
 * row a missing sample by the same rule, never a value. */
Test(results, old_rows_without_a_window_load_as_missing)
{
	struct sw_run *r = make_run(), *b;
	char path[128], tmp[140], line[1024];
	char err[512];
	FILE *in, *out;
	int row = 0;

	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	snprintf(path, sizeof(path), "%s/samples.csv", fixture_dir);
	snprintf(tmp, sizeof(tmp), "%s/old.csv", fixture_dir);
	in = fopen(path, "r");
	out = fopen(tmp, "w");
	cr_assert(in && out);
	while (fgets(line, sizeof(line), in)) {
		char *last = strrchr(line, ',');   /* the missing column off */

		if (line[0] != '#' && last)
			strcpy(last, "\n");
		/* the first data row: pingpong 8 B, 100 hops in 1 ns */
		if (line[0] != '#' && row++ == 1)
			snprintf(line, sizeof(line), "0,0,2,1,pingpong,8,100,0,0,0,0,1,node00,node01,10,10.000000001,1e-9,0,0\n");
		fputs(line, out);
	}
	fclose(in);
	fclose(out);
	cr_assert_eq(rename(tmp, path), 0);
	b = results_load(fixture_dir, err, sizeof(err));
	cr_assert_not_null(b, "%s", err);
	cr_expect_eq(b->sample[0].missing, SW_MISSING_SHORT, "%d", b->sample[0].missing);
	cr_expect(isnan(b->sample[0].seconds));
	cr_expect_eq(b->sample[1].missing, SW_MISSING_NONE);
	run_free(b);
	run_free(r);
}

/* What the writer would have marked missing is refused unmarked: a row of
 * this schema (missing column) over one tick, and in any schema a count of
 * more than a message a nanosecond over a real window (a changed file). */
Test(results, unmarked_rows_without_a_window_are_refused)
{
	struct sw_run *r = make_run();
	char err[512];

	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2, "0,0,2,1,pingpong,8,100,0,0,0,0,1,node00,node01,10,10.000000001,1e-9,0,0,\n");
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_expect(strstr(err, "samples.csv:3: hops: 100 in 1e-09 s: a window of one timer tick or less, not marked missing"),
		  "%s", err);
	cr_assert_eq(results_write(fixture_dir, r, NULL, "x", err, sizeof(err)), 0, "%s", err);
	cut_samples(2, "0,0,2,1,pingpong,8,100,0,0,0,0,1,node00,node01,10,10.00000005,5e-8,0,0,\n");
	cr_assert_null(results_load(fixture_dir, err, sizeof(err)));
	cr_expect(strstr(err, "samples.csv:3: hops: 100 in 5e-08 s: more messages than one a nanosecond in its window"), "%s", err);
	run_free(r);
}
