/*
 * test_report.c - the report read by a person (issue 27): numbers without
 * exponents in scaled units, the answer first, the method in one line, a
 * slow pair in a level too small for the slow-pair test named with its
 * ratio. Runs from health_fixture.h, every effect planted there.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixture.h"
#include "health_fixture.h"
#include "compare.h"
#include "report.h"

TestSuite(report, .init = fixture_setup, .fini = fixture_teardown);

/* The report of a fixture run (spec s) under fixture_dir, format fmt. */
static char *report_of(struct fx_spec *s, int fmt)
{
	char path[512], err[512], *text;
	struct sw_run *r;
	struct sw_analysis *a;

	cr_assert_eq(fx_make(fixture_dir, s, path, sizeof(path), err, sizeof(err)), 0, "%s", err);
	r = results_load(path, err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	text = report_string(r, a, fmt);
	cr_assert_not_null(text);
	analysis_free(a);
	run_free(r);
	return text;
}

/* A copy of text with every run of blanks and newlines one blank: its
 * phrases found wherever the report wrapped them. */
static char *flat(const char *text)
{
	char *out = malloc(strlen(text) + 1), *w = out;

	cr_assert_not_null(out);
	for (const char *p = text; *p; p++)
		if (*p == ' ' || *p == '\n') {
			if (w == out || w[-1] != ' ')
				*w++ = ' ';
		} else
			*w++ = *p;
	*w = '\0';
	return out;
}

/* The longest line of text. */
static size_t widest(const char *text)
{
	size_t most = 0;

	for (const char *p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t n = strcspn(p, "\n");

		most = n > most ? n : most;
	}
	return most;
}

Test(report, numbers_scaled_without_exponent)
{
	struct fx_spec s;
	char *text;

	fx_defaults(&s);
	s.name = "big-20260301-020000";
	s.sizes = "8, 1MiB";
	text = report_of(&s, REPORT_TABLE | REPORT_VERBOSE);
	/* 1 MiB at 1 GB/s a hop, 4 pairs: about 4.2 GB/s aggregate, in GB/s */
	cr_expect_null(strstr(text, "e+0"), "an exponent in:\n%s", text);
	cr_expect_null(strstr(text, "e-0"), "an exponent in:\n%s", text);
	cr_expect_not_null(strstr(text, " GB/s ["), "no GB/s in:\n%s", text);
	cr_expect_not_null(strstr(text, " us ["), "no us in:\n%s", text);
	/* stream's latency column is time per message, pingpong's per hop */
	cr_expect_not_null(strstr(strstr(text, "\nstream 8B"), "time/message [CI]"), "%s", text);
	cr_expect_not_null(strstr(strstr(text, "\npingpong 8B"), "latency/hop [CI]"), "%s", text);
	free(text);
}

Test(report, answer_first_method_in_one_line)
{
	struct fx_spec s;
	char *text, *full;

	fx_defaults(&s);
	s.name = "slow-20260301-020000";
	s.slow_pattern = PAT_STREAM;
	s.slow_factor = 1 / 0.7;    /* a 30% drop at 4 pairs */
	text = report_of(&s, REPORT_TABLE);
	char *sum = strstr(text, "\nsummary:\n"), *table = strstr(text, "\npingpong 8B"), *ft = flat(text);

	cr_assert(sum && table && sum < table, "no summary before the tables:\n%s", text);
	cr_expect_not_null(strstr(ft, " summary: pingpong at 8 nodes (the highest load): latency inflation 8B "),
			   "%s", sum);
	cr_expect_not_null(strstr(ft, " stream at 8 nodes (the highest load): bandwidth drop 8B +"), "%s", sum);
	cr_expect_not_null(strstr(sum, "  knee: the first significant change at 8 nodes\n"), "%s", sum);
	cr_expect_not_null(strstr(sum, "  slow ports: none flagged\n"), "%s", sum);
	/* the method: one line, the whole text with --verbose */
	cr_expect_null(strstr(text, "Bonferroni"), "the full method in:\n%s", text);
	cr_expect_not_null(strstr(ft, "in full: report --verbose"), "%s", text);
	free(ft);
	s.name = "slow-20260302-020000";
	full = report_of(&s, REPORT_TABLE | REPORT_VERBOSE);
	cr_expect_not_null(strstr(full, "\nmethod: unit of replication: the repetition"), "%s", full);
	free(full);
	free(text);
}

/* issue #27: the report fits 80 columns (tables without the medians' CIs
 * and the p-values, prose wrapped); --verbose keeps the wide tables with
 * them. Before, its rows were about 115 columns. */
Test(report, fits_80_columns_verbose_keeps_the_cis)
{
	struct fx_spec s;
	char *text, *wide;

	fx_defaults(&s);
	s.name = "wide-20260301-020000";
	s.sizes = "8, 1MiB";
	s.slow_pattern = PAT_STREAM;
	s.slow_factor = 1 / 0.7;
	s.shared_cores = 2;
	text = report_of(&s, REPORT_TABLE);
	cr_expect_leq(widest(text), 80, "a line over 80 columns in:\n%s", text);
	/* the stream table: aligned medians, the change with its CI and mark */
	char *st = strstr(text, "\nstream 8B, 100 hops\n"), *end = st ? strstr(st, "\nstream 1MiB") : NULL;

	cr_assert(st && end, "%s", text);
	*end = '\0';
	cr_expect_not_null(strstr(st, "\nnodes  pairs  time/message    per pair   aggregate  bandwidth drop [CI]\n"),
			   "%s", st);
	cr_expect_not_null(strstr(st, "] * cpu\n"), "%s", st);
	cr_expect_null(strstr(st, " MB/s ["), "a median's CI in the short form:\n%s", st);
	cr_expect_null(strstr(st, ", p "), "a p-value in the short form:\n%s", st);
	s.name = "wide-20260302-020000";
	wide = report_of(&s, REPORT_TABLE | REPORT_VERBOSE);
	cr_expect_gt(widest(wide), 100, "%s", wide);
	cr_expect_not_null(strstr(wide, "latency/hop [CI]"), "%s", wide);
	cr_expect_not_null(strstr(wide, "bandwidth drop +"), "%s", wide);
	cr_expect_not_null(strstr(wide, ", p "), "%s", wide);
	free(wide);
	free(text);
}

Test(report, slow_pair_of_two_named_with_its_ratio)
{
	struct fx_spec s;
	char *text;

	fx_defaults(&s);
	s.name = "two-20260301-020000";
	s.pairs = "1, 2";
	s.nranks = 4;
	s.patterns = "pingpong";
	s.sizes = "8";
	s.slow_pair = 1;            /* ranks 2-3 */
	s.slow_pair_factor = 17;
	text = report_of(&s, REPORT_TABLE);
	char *ft = flat(text);

	cr_expect_not_null(strstr(ft, "slow-pair test needs 3 or more pairs"), "%s", text);
	/* 17 x 1.02 / 0.98 at most, 17 x 0.98 / 1.02 at least (noise 2%) */
	const char *p = strstr(ft, "note: at 4 nodes pair 1 (ranks 2-3, node03 - node04) is ");
	double ratio;

	cr_assert_not_null(p, "%s", text);
	ratio = strtod(p + strlen("note: at 4 nodes pair 1 (ranks 2-3, node03 - node04) is "), NULL);
	cr_expect(ratio > 16.3 && ratio < 17.7, "ratio %g, planted 17", ratio);
	cr_expect_not_null(strstr(p, "x slower than the fastest pair"), "%s", p);
	free(ft);
	free(text);
}

/* compare: a latency whose busy ranks outnumbered the cores of the kernel
 * they share says so in its own line (8 ranks on 2 cores at 4 pairs, 2
 * on 2 at 1 pair: planted by health_fixture.h's shared_cores). */
Test(report, compare_marks_cpu_bound_latency)
{
	struct fx_spec s;
	char pa[512], pb[512], err[512], *buf = NULL, *line;
	const char *paths[2] = { pa, pb };
	size_t len = 0;
	struct compare *c;
	FILE *f;
	int cpu8 = 0, cpu2 = 0, bw = 0, sum = 0;

	fx_defaults(&s);
	s.shared_cores = 2;
	s.name = "ka-20260301-020000";
	s.model = "KA";   /* two switches, a run each: a row each */
	cr_assert_eq(fx_make(fixture_dir, &s, pa, sizeof(pa), err, sizeof(err)), 0, "%s", err);
	s.name = "kb-20260302-020000";
	s.model = "KB";
	s.noise_seed = 1;
	cr_assert_eq(fx_make(fixture_dir, &s, pb, sizeof(pb), err, sizeof(err)), 0, "%s", err);
	c = compare_load(paths, 2, err, sizeof(err));
	cr_assert_not_null(c, "%s", err);
	f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	compare_print(f, c, false);
	fclose(f);
	if (getenv("T_DUMP"))
		fputs(buf, stderr);
	/* a row per switch: the matched cells' (size, nodes and hops on a
	 * cell's first row) and the summary's (the node count in its heading), under
	 * each pattern's heading; in the text and in --verbose alike */
	for (int verbose = 0; verbose < 2; verbose++) {
		int sect = 0;   /* 1, 2: pingpong's, stream's cells; 3, 4: their summary */
		char size[16] = "";
		int nodes = 0;

		cpu8 = cpu2 = bw = sum = 0;
		if (verbose) {
			free(buf);
			buf = NULL;
			f = open_memstream(&buf, &len);
			cr_assert_not_null(f);
			compare_print(f, c, true);
			fclose(f);
		}
		for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			char sz[8], un[8];
			int lead = (int)strspn(line, " ");
			bool mark = strstr(line, " cpu") != NULL;

			if (!strncmp(line, "pingpong: ", 10) || !strncmp(line, "stream: ", 8))
				sect = line[0] == 'p' ? 1 : 2;
			else if (!strncmp(line, "pingpong (", 10) || !strncmp(line, "stream (", 8))
				sect = line[0] == 'p' ? 3 : 4;
			else if (line[0] != ' ')
				sect = 0;
			if (!sect || lead == 0 || strstr(line, "nodes"))
				continue;
			if (sect >= 3) {   /* the summary: one node count, in its heading */
				if (lead < 6 && sscanf(line, "%7s %7s", sz, un) == 2)
					snprintf(size, sizeof(size), "%s %s", sz, un);
			} else if (lead < 6 && sscanf(line, "%7s %7s %d", sz, un, &nodes) == 3)
				snprintf(size, sizeof(size), "%s %s", sz, un);
			if (sect == 1 && !strcmp(size, "8 B") && nodes == 8)
				cpu8 += mark;
			else if (sect <= 2 && !strcmp(size, "8 B") && nodes == 2)
				cpu2 += mark;
			else if (sect == 2 && nodes == 8)
				bw += mark;
			else if (sect >= 3 && !strcmp(size, "8 B") && lead < 6)   /* a size's first row: A's */
				sum += mark;
		}
		cr_expect_eq(cpu8, 2, "verbose %d: the 8-node pingpong rows (A, B) are not marked cpu", verbose);
		cr_expect_eq(cpu2, 0, "verbose %d: a 2-node row marked cpu", verbose);
		cr_expect_eq(bw, 0, "verbose %d: a bandwidth row marked cpu", verbose);
		cr_expect_eq(sum, 1, "verbose %d: the summary's 8 B rows of A: pingpong's marked cpu, stream's not", verbose);
	}
	free(buf);
	compare_free(c);
}

/* Issue #39: a run stopped early (Ctrl-C) prints what stopped it, how
 * many cells finished and their tables only, no headline figures; a run
 * stopped before any cell finished says so and prints no table. */
Test(report, stopped_run_prints_the_cells_that_finished)
{
	struct fx_spec s;
	char path[512], err[512], *text, *fl;
	struct sw_run *r;
	struct sw_analysis *a;
	int per, keep;

	fx_defaults(&s);
	s.name = "stopped-20261207-204731";
	cr_assert_eq(fx_make(fixture_dir, &s, path, sizeof(path), err, sizeof(err)), 0, "%s", err);
	r = results_load(path, err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	per = plan_cells_per_level(r->plan);
	r->complete = false;
	snprintf(r->failure, sizeof(r->failure), "stopped by signal 2 (Interrupt)");
	keep = 1;   /* the first cell of the first level alone finished */
	for (int c = keep; c < r->plan->ncells; c++)
		r->cell[c].stop = SW_STOP_NOT_RUN;
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	text = report_string(r, a, REPORT_TABLE);
	fl = flat(text);
	cr_assert(strstr(fl, "INCOMPLETE: stopped by signal 2 (Interrupt); 1 of "), "%s", text);
	cr_assert(!strstr(text, "\nsummary:\n") && !strstr(text, "knee:"), "a headline over a cut run:\n%s", text);
	{
		int tables = 0;

		for (const char *p = text; (p = strstr(p, "\nnodes  ")); p++)
			tables++;
		cr_assert_eq(tables, 1, "one table (the cell that finished), got %d:\n%s", tables, text);
	}
	(void)per;
	free(fl);
	free(text);
	for (int c = 0; c < r->plan->ncells; c++)
		r->cell[c].stop = SW_STOP_NOT_RUN;
	analysis_free(a);
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	text = report_string(r, a, REPORT_TABLE);
	fl = flat(text);
	cr_assert(strstr(fl, "none of its ") && strstr(fl, "cells finished: nothing to report"), "%s", text);
	cr_assert(!strstr(text, "\nnodes  "), "a table of a run whose cells all stopped:\n%s", text);
	free(fl);
	free(text);
	analysis_free(a);
	run_free(r);
}
