/* Isolation: the probe plan of a flagged pair and the verdicts on known
 * probe results (the slow host named alone, its partner cleared). */
#include <criterion/criterion.h>
#include <string.h>
#include "analysis.h"
#include "isolate.h"
#include "pattern.h"

/* 8 ranks (node00..node07), adjacent pairs, one stream cell of 64 KiB at 4
 * pairs with fixed 100 hops, 10 repetitions; pair 2 (ranks 4-5) takes
 * slow times as long as pair 0 (1 ms per sample; pairs 1 and 3 2% and 6%
 * longer, and a little noise). */
static struct sw_run *make_run(double slow)
{
	struct sw_config c;
	char err[512];
	const char *kv[] = { "pairs=4", "patterns=stream", "sizes=64KiB", "hops=100", "repetitions=10",
			     "pairing=adjacent", NULL };

	config_defaults(&c);
	for (int i = 0; kv[i]; i++)
		cr_assert_eq(config_set_arg(&c, kv[i], err, sizeof(err)), 0, "%s", err);
	struct sw_plan *p = plan_create(&c, 8, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	struct sw_run *r = run_create(&c, p, 8);
	cr_assert_not_null(r);
	for (int i = 0; i < 8; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%02d", i);
	for (int rep = 0; rep < 10; rep++)
		for (int q = 0; q < 4; q++) {
			double sec = 1e-3 * (q == 2 ? slow : 1.0 + 0.02 * q) * (1 + 0.001 * ((rep * 7 + q * 3) % 5));
			struct sw_sample s = { 0, rep, q, rep, rep + sec, sec, 100, 0 };

			cr_assert_eq(run_add_sample(r, &s), 0);
		}
	r->cell[0].reps = 10;
	r->cell[0].stop = SW_STOP_FIXED;
	r->complete = true;
	return r;
}

Test(isolate, plan_pairs_each_host_of_the_flagged_pair_with_healthy_hosts)
{
	struct sw_run *r = make_run(4.0);
	char err[512];
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	struct sw_probe pr[64];

	cr_assert_not_null(a, "%s", err);
	int n = isolate_plan(r, a->pair, a->npairstats, pr, 64);
	/* ranks 4 and 5, each with 0, 1 and 2 (the first ranks in no flagged
	 * pair, initiating), then the control pair 0-1 */
	cr_assert_eq(n, 7);
	for (int i = 0; i < 6; i++) {
		cr_assert_eq(pr[i].host, i < 3 ? 4 : 5);
		cr_assert_eq(pr[i].b, pr[i].host);
		cr_assert_eq(pr[i].a, i % 3);
		cr_assert_eq(pr[i].cell, 0);
	}
	cr_assert_eq(pr[6].host, -1);
	cr_assert_eq(pr[6].a, 0);
	cr_assert_eq(pr[6].b, 1);
	cr_assert_eq(isolate_plan(r, a->pair, a->npairstats, pr, 3), 3, "cap respected");
	analysis_free(a);
	run_free(r);

	/* nothing flagged: nothing to probe */
	r = make_run(1.0);
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_eq(isolate_plan(r, a->pair, a->npairstats, pr, 64), 0);
	analysis_free(a);
	run_free(r);
}

/* Probes with known results: node05 is 4x slow with every partner, node04
 * as fast as the control: node05 alone stays a suspect, node04 is cleared;
 * one slow probe of three leaves a host unclear. */
Test(isolate, judge_names_the_slow_host_and_clears_its_partner)
{
	struct sw_run *r = make_run(4.0);
	char err[512], ev[512];
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	struct sw_probe pr[64];
	int n = isolate_plan(r, a->pair, a->npairstats, pr, 64);

	cr_assert_eq(a->nsuspects, 2, "before isolation, both hosts of the pair");
	analysis_free(a);
	for (int i = 0; i < n; i++)
		for (int rep = 0; rep < ISOLATE_REPS; rep++) {
			struct sw_probe p = pr[i];

			p.rep = rep;
			p.hops = 100;
			p.seconds = 1e-3 * (p.host == 5 ? 4.0 : 1.0) * (1 + 0.002 * rep);
			/* node04's third partner slow once: the median holds */
			if (p.host == 4 && p.a == 2 && rep == 0)
				p.seconds = 5e-3;
			cr_assert_eq(run_add_probe(r, &p), 0);
		}
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(a->nisolated, 2);
	cr_assert_str_eq(a->isolated[0].host, "node04");
	cr_assert_eq(a->isolated[0].verdict, ISOLATE_CLEARED);
	cr_assert_eq(a->isolated[0].tested, 3);
	cr_assert_str_eq(a->isolated[1].host, "node05");
	cr_assert_eq(a->isolated[1].verdict, ISOLATE_SLOW);
	cr_assert_eq(a->isolated[1].slow, 3);
	/* the flagged pair was 75% slower than the control: slow = a drop by more than 37.5% */
	cr_assert_float_eq(a->isolated[1].threshold, 37.5, 0.5);
	cr_assert_eq(a->nsuspects, 1);
	cr_assert_str_eq(a->suspect[0].host, "node05");
	isolate_evidence(&a->isolated[1], ev, sizeof(ev));
	/* 64 KiB x 100 hops in 4 ms (+0.2% a repetition): 1635 MB/s, the medians */
	cr_assert(strstr(ev, "host node05: slow with 3 different partners (1635, 1635, 1635 MB/s; healthy pair 6541 "
			 "MB/s; slow = a drop by more than 38%)") == ev, "%s", ev);
	isolate_evidence(&a->isolated[0], ev, sizeof(ev));
	cr_assert(strncmp(ev, "host node04: healthy with 3 others (", 36) == 0, "%s", ev);
	analysis_free(a);

	/* node04 slow with one partner in every repetition: unclear, and
	 * then still a suspect */
	for (size_t i = 0; i < r->nprobes; i++)
		if (r->probe[i].host == 4 && r->probe[i].a == 1)
			r->probe[i].seconds = 4e-3;
	a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_eq(a->isolated[0].verdict, ISOLATE_UNCLEAR);
	cr_assert_eq(a->nsuspects, 2);
	analysis_free(a);
	run_free(r);
}
