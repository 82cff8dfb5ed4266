/*
 * plan.c - levels, pairs and cells from the config and the rank count; see
 * plan.h. Pure: the same config and rank count always give the same plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"
#include "pattern.h"
#include "mapsched.h"

struct sw_plan *plan_alloc(int nranks, int npairs, int nlevels, int ncells)
{
	struct sw_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->nranks = nranks;
	p->per_node = 1;
	p->npairs = npairs;
	p->nlevels = nlevels;
	p->ncells = ncells;
	p->pair = calloc((size_t)npairs + 1, sizeof(*p->pair));
	p->level_pairs = calloc((size_t)nlevels + 1, sizeof(*p->level_pairs));
	p->cell = calloc((size_t)ncells + 1, sizeof(*p->cell));
	if (!p->pair || !p->level_pairs || !p->cell) {
		plan_free(p);
		return NULL;
	}
	return p;
}

void plan_free(struct sw_plan *p)
{
	if (!p)
		return;
	free(p->pair);
	free(p->victim);
	free(p->level_pairs);
	free(p->cell);
	mapsched_free(p->map);
	free(p);
}

int plan_set_victims(struct sw_plan *p, const struct sw_pair *v, int n)
{
	struct sw_pair *x = calloc((size_t)n + 1, sizeof(*x));

	if (!x)
		return -1;
	if (n)
		memcpy(x, v, (size_t)n * sizeof(*x));
	free(p->victim);
	p->victim = x;
	p->nvictims = n;
	return 0;
}

/* xorshift64*: small, seedable and the same on every platform, so a
 * random pairing is reproducible from its seed alone. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* perm = 0..n-1 in the seeded order of a Fisher-Yates shuffle. */
static void shuffle(int *perm, int n, uint64_t s)
{
	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rng_next(&s) % (uint64_t)(i + 1));
		int t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* Fill pair[] (room for n/2) by the configured pairing; returns the count. */
static int make_pairs(const struct sw_config *c, int n, struct sw_pair *pair)
{
	int np = 0;

	switch (c->pairing) {
	case CFG_PAIRING_HALVES:
		for (int i = 0; i < n / 2; i++)
			pair[np++] = (struct sw_pair){ i, i + n / 2 };
		break;
	case CFG_PAIRING_RANDOM: {
		int *perm = malloc((size_t)n * sizeof(*perm));

		if (!perm)
			return -1;
		shuffle(perm, n, c->seed * 0x9E3779B97F4A7C15ULL + 1);
		for (int i = 0; i + 1 < n; i += 2)
			pair[np++] = (struct sw_pair){ perm[i], perm[i + 1] };
		free(perm);
		break;
	}
	case CFG_PAIRING_SHIFT: {
		char *used = calloc((size_t)n, 1);

		if (!used)
			return -1;
		for (int i = 0; i < n; i++) {
			int j = (int)(((long)i + c->shift) % n);

			if (i == j || used[i] || used[j])
				continue;
			used[i] = used[j] = 1;
			pair[np++] = (struct sw_pair){ i, j };
		}
		free(used);
		break;
	}
	default: /* adjacent */
		for (int i = 0; i + 1 < n; i += 2)
			pair[np++] = (struct sw_pair){ i, i + 1 };
		break;
	}
	return np;
}

/* Resolve the level list to ascending, distinct pair counts in lv[], of
 * nranks units named unit ("ranks", or "nodes" when ranks_per_node > 1:
 * pairs are of nodes then, and so are the messages).
 * A list holding 'max' runs the levels up to max: entries above the pairs
 * there are skipped, so '1, 2, 4, max' runs on any even rank count.
 * Returns the count, or -1 with a message naming the key and the fix. */
static int resolve_levels(const struct sw_config *c, int nranks, int npairs, const char *unit, int *lv,
			  char *err, size_t errlen)
{
	const char *besides = c->victims ? " besides the victims' pairs" : "";
	const char *key = c->level_unit == CFG_LEVEL_NODES ? "nodes" : "pairs";
	bool capped = false;
	int n = 0;

	for (int i = 0; i < c->nlevels; i++)
		capped |= c->levels[i] == CFG_LEVEL_MAX;

	if (c->levels_all) {
		for (int k = 1; k <= npairs; k++)
			lv[n++] = k;
		return n;
	}
	for (int i = 0; i < c->nlevels; i++) {
		int v = c->levels[i], k;

		if (v == CFG_LEVEL_MAX)
			k = npairs;
		else if (c->level_unit == CFG_LEVEL_NODES) {
			if (v % 2)
				return sw_fail(err, errlen, "%s: odd number of nodes %d (a level is a number of pairs)",
					       config_where(c, key), v);
			if (v > nranks && !capped)
				return sw_fail(err, errlen, "%s: level of %d nodes but only %d %s%s "
					       "(nodes=2,max runs the levels up to the %s there are)",
					       config_where(c, key), v, nranks, unit, besides, unit);
			k = v / 2;
		} else {
			if (2 * v > nranks && !capped)
				return sw_fail(err, errlen, "%s: level of %d pairs needs %d %s but only %d %s%s "
					       "(pairs=1,max runs the levels up to the %s there are)",
					       config_where(c, key), v, 2 * v, unit, nranks, unit, besides, unit);
			k = v;
		}
		if (k < 1)
			return sw_fail(err, errlen, "%s: level must be at least one pair", config_where(c, key));
		if (k > npairs && capped)
			continue;
		if (k > npairs)
			return sw_fail(err, errlen, "%s: level of %d pairs but pairing '%s' makes only %d disjoint pairs of %d %s%s "
				       "(pairs=1,max runs the levels up to the pairs there are)",
				       config_where(c, key), k, c->pairing == CFG_PAIRING_SHIFT ? "shift" : "this", npairs, nranks,
				       unit, besides);
		lv[n++] = k;
	}
	qsort(lv, (size_t)n, sizeof(*lv), sw_cmp_int);
	int m = 0;
	for (int i = 0; i < n; i++)
		if (m == 0 || lv[m - 1] != lv[i])
			lv[m++] = lv[i];
	return m;
}

/* The cells of nl levels: patterns x sizes x hops at each. */
static void fill_cells(struct sw_plan *p, const struct sw_config *c, int nl)
{
	int k = 0;

	for (int l = 0; l < nl; l++)
		for (int pi = 0; pi < c->npatterns; pi++)
			for (int s = 0; s < c->nsizes; s++)
				for (int h = 0; h < (c->nhops ? c->nhops : 1); h++)
					p->cell[k++] = (struct sw_cell){
						.level = l, .pattern = c->patterns[pi], .size = c->sizes[s],
						.hops = c->nhops ? c->hops[h] : 0, .size_index = s,
						.timed = config_pattern_timed(c, c->patterns[pi]),
					};
}

/* schedule = map: the rounds map_rounds asks for (the first of a seeded
 * shuffle of the pass, or all), cut into steps; a level per step. */
static struct sw_plan *map_plan(const struct sw_config *c, int nranks, char *err, size_t errlen)
{
	int pass = mapsched_pass(nranks), nr = c->map_rounds ? c->map_rounds : pass;
	int *round = malloc((size_t)pass * sizeof(*round));
	struct mapsched *m = NULL;
	struct sw_plan *p = NULL;
	int per_level = c->npatterns * c->nsizes * (c->nhops ? c->nhops : 1);

	if (!round) {
		sw_fail(err, errlen, "out of memory");
		return NULL;
	}
	if (nr > pass) {
		sw_fail(err, errlen, "%s: map_rounds = %d, but a pass of %d ranks has %d rounds (all runs them all)",
			config_where(c, "map_rounds"), nr, nranks, pass);
		goto out;
	}
	shuffle(round, pass, (c->seed ^ 0x3A95C0DEULL) * 0x9E3779B97F4A7C15ULL + 1);
	m = mapsched_create(nranks, round, nr, c->map_concurrency, err, errlen);
	if (!m)
		goto out;
	if ((long)m->nsteps * per_level > PLAN_MAX_CELLS) {
		sw_fail(err, errlen, "%s: the map of %d ranks has %d steps of %d cells, more than %d cells: fewer "
			"map_rounds, a larger map_concurrency or fewer patterns and sizes",
			config_where(c, "map_rounds"), nranks, m->nsteps, per_level, PLAN_MAX_CELLS);
		goto out;
	}
	p = plan_alloc(nranks, m->conc, m->nsteps, m->nsteps * per_level);
	if (!p) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	for (int l = 0; l < m->nsteps; l++)
		p->level_pairs[l] = mapsched_step_size(m, l);
	for (int i = 0; i < m->conc; i++)
		p->pair[i] = mapsched_step_pair(m, 0, i);
	fill_cells(p, c, m->nsteps);
	p->map = m;
	m = NULL;
out:
	mapsched_free(m);
	free(round);
	return p;
}

struct sw_plan *plan_create(const struct sw_config *c, int nranks, char *err, size_t errlen)
{
	struct sw_pair *pairs = NULL;
	int *lv = NULL, np, nv, nl, per_level, per = c->ranks_per_node > 1 ? c->ranks_per_node : 1;
	int nodes = nranks / per;
	long long victim_samples;
	struct sw_plan *p = NULL;

	if (nranks % per) {
		sw_fail(err, errlen, "%s: ranks_per_node = %d, but %d ranks are not a whole number of nodes",
			config_where(c, "ranks_per_node"), per, nranks);
		return NULL;
	}
	if (c->schedule == CFG_SCHEDULE_MAP)
		return map_plan(c, nranks, err, errlen);
	if (nodes < 2) {
		sw_fail(err, errlen, "need at least 2 %s, got %d", per > 1 ? "nodes" : "ranks", nodes);
		return NULL;
	}
	nranks = nodes;   /* pairs and levels are of nodes; scaled to ranks below */
	pairs = calloc((size_t)nranks / 2 + 1, sizeof(*pairs));
	lv = calloc((size_t)nranks / 2 + SW_MAX_LIST + 1, sizeof(*lv));
	if (!pairs || !lv) {
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	np = make_pairs(c, nranks, pairs);
	if (np < 1) {
		sw_fail(err, errlen, "%s: pairing makes no pair of %d ranks", config_where(c, "pairing"), nranks);
		goto out;
	}
	nv = c->victims;
	if (nv >= np) {
		sw_fail(err, errlen, "%s: victims = %d leaves no aggressor pair: pairing makes %d pairs of %d ranks",
			config_where(c, "victims"), nv, np, nranks);
		goto out;
	}
	nl = resolve_levels(c, nranks - 2 * nv, np - nv, per > 1 ? "nodes" : "ranks", lv, err, errlen);
	if (nl < 0)
		goto out;
	per_level = c->npatterns * c->nsizes * (c->nhops ? c->nhops : 1);
	victim_samples = (long long)nl * per_level * c->rep_max * 3 * nv;
	if (victim_samples > PLAN_MAX_VICTIM_SAMPLES) {
		sw_fail(err, errlen, "%s: %d victim pairs over %d cells of up to %d repetitions are %lld victim samples, "
			"more than a run.json can keep and read back (%lld): fewer repetitions, victims or sizes",
			config_where(c, "victims"), nv, nl * per_level, c->rep_max, victim_samples,
			PLAN_MAX_VICTIM_SAMPLES);
		goto out;
	}
	for (int i = 0; i < np; i++)   /* a node's first rank names it */
		pairs[i] = (struct sw_pair){ pairs[i].a * per, pairs[i].b * per };
	p = plan_alloc(nranks * per, np - nv, nl, nl * per_level);
	if (!p || plan_set_victims(p, pairs, nv)) {
		plan_free(p);
		p = NULL;
		sw_fail(err, errlen, "out of memory");
		goto out;
	}
	p->per_node = per;
	memcpy(p->pair, pairs + nv, (size_t)(np - nv) * sizeof(*pairs));
	memcpy(p->level_pairs, lv, (size_t)nl * sizeof(*lv));
	fill_cells(p, c, nl);
out:
	free(pairs);
	free(lv);
	return p;
}

void plan_block_order(const struct sw_plan *p, const struct sw_config *c, int block, int *order)
{
	int L = p->nlevels, cycle = block / (L ? L : 1), turn = block % (L ? L : 1);

	if (c->design == CFG_DESIGN_SEQUENTIAL || L < 2) {
		for (int i = 0; i < L; i++)
			order[i] = i;
		return;
	}
	/* a fresh seeded order each cycle of L blocks, rotated by one level
	 * each block: within a cycle every level takes every place once */
	shuffle(order, L, (c->seed ^ 0xB10C5EEDULL) * 0x9E3779B97F4A7C15ULL + (uint64_t)cycle * 0xD1B54A32D192ED03ULL + 1);
	for (int r = 0; r < turn; r++) {
		int first = order[0];

		memmove(order, order + 1, (size_t)(L - 1) * sizeof(*order));
		order[L - 1] = first;
	}
}

int plan_cells_per_level(const struct sw_plan *p)
{
	return p->nlevels ? p->ncells / p->nlevels : 0;
}

int plan_level_first_cell(const struct sw_plan *p, int level)
{
	return level * plan_cells_per_level(p);
}

struct sw_pair plan_level_pair(const struct sw_plan *p, int level, int i)
{
	return p->map ? mapsched_step_pair(p->map, level, i) : p->pair[i];
}

struct sw_pair plan_pair(const struct sw_plan *p, int cell, int i)
{
	if (pattern_info(p->cell[cell].pattern)->incast)
		return (struct sw_pair){ p->pair[i].a, p->pair[0].b };
	return plan_level_pair(p, p->cell[cell].level, i);
}

int plan_nodes(const struct sw_plan *p, int cell)
{
	int k = p->level_pairs[p->cell[cell].level];

	return pattern_info(p->cell[cell].pattern)->incast ? k + 1 : 2 * k;
}

/* Busy ranks over the cores they share, at least 1 (plan.h). */
static double cpu_factor(const struct sw_plan *p, int level)
{
	double busy = 2.0 * (p->level_pairs[level] + p->nvictims) * p->per_node;

	return p->cores > 0 && busy > p->cores ? busy / p->cores : 1.0;
}

/* Seconds of one round of a cell under the simple model of plan.h. */
static double round_seconds(const struct sw_plan *p, const struct sw_cell *cell, const struct sw_config *c)
{
	const struct sw_pattern_info *pi = pattern_info(cell->pattern);
	double hop = 2e-6 + (double)cell->size / 1e9;

	if (cell->timed)
		return c->sample_time * (1.0 + PLAN_DRAIN_SHARE) + PLAN_ROUND_SECONDS;
	if (cell->hops == 0)   /* hops calibrated to sample_time at the baseline level's load */
		return c->sample_time * cpu_factor(p, cell->level) / cpu_factor(p, 0) + PLAN_ROUND_SECONDS;
	return ((double)cell->hops * hop * (pi ? pi->directions : 1) + 50e-6) * cpu_factor(p, cell->level) +
	       PLAN_ROUND_SECONDS;
}

/* The sweep without drift control's re-run (level < 0: every level). */
static double estimate(const struct sw_plan *p, const struct sw_config *c, int level)
{
	double t = 0.0;

	for (int i = 0; i < p->ncells; i++) {
		const struct sw_cell *cell = &p->cell[i];

		if (level >= 0 && cell->level != level)
			continue;
		t += round_seconds(p, cell, c) * (c->warmup + c->rep_min * (p->nvictims ? 2 : 1));
		if (cell->hops == 0 && !cell->timed && cell->level == 0 && level < 0)
			t += 2.0 * c->sample_time;  /* calibration */
	}
	return t;
}

void plan_set_cores(struct sw_plan *p, int cores)
{
	p->cores = cores > 0 && cores < p->nranks ? cores : 0;
}

bool plan_drift_check(const struct sw_plan *p, const struct sw_config *c)
{
	if (p->nlevels < 2 || c->drift_check == CFG_NO || c->design == CFG_DESIGN_BLOCKS)
		return false;
	return c->drift_check == CFG_YES || p->nlevels >= PLAN_LONG_LEVELS ||
	       estimate(p, c, -1) >= PLAN_LONG_SECONDS;
}

double plan_estimate_seconds(const struct sw_plan *p, const struct sw_config *c)
{
	return PLAN_START_SECONDS + estimate(p, c, -1) + (plan_drift_check(p, c) ? estimate(p, c, 0) : 0.0);
}

/* The design and, for blocks, the order of the levels in each block. */
static void print_design(FILE *f, const struct sw_plan *p, const struct sw_config *c)
{
	int *order;

	if (c->design == CFG_DESIGN_SEQUENTIAL || p->nlevels < 2) {
		fprintf(f, "design sequential: every repetition of a level, then the next level (a change of speed "
			"during the sweep reads as load)\n");
		return;
	}
	fprintf(f, "design blocks: repetition r is block r, every cell once, the levels in this order "
		"(warm-up before a cell's first visit; changes are computed within blocks)\n");
	order = malloc((size_t)p->nlevels * sizeof(*order));
	if (!order)
		return;
	for (int b = 0; b < c->rep_min; b++) {
		plan_block_order(p, c, b, order);
		fprintf(f, "  block %d: levels", b);
		for (int i = 0; i < p->nlevels; i++)
			fprintf(f, " %d", order[i]);
		fputc('\n', f);
	}
	if (c->rep_max != c->rep_min)
		fprintf(f, "  then up to block %d while a cell's interval is wider than ci_target, the orders going on "
			"the same way\n", c->rep_max - 1);
	free(order);
}

/* PLAN_PRINT_PAIRS ranks or fewer: the map's plan lists every round's
 * pairs; more: the rounds' numbers only. */
#define PLAN_PRINT_PAIRS 64

/* The map's schedule: the pass, the chosen rounds and their steps. */
static void print_map(FILE *f, const struct sw_plan *p, const struct sw_config *c)
{
	const struct mapsched *m = p->map;

	fprintf(f, "ranks %d, schedule map: a pass of %d rounds of %d pairs (the circle method: every pair of ranks "
		"once a pass%s), %ld pairs in all\n", p->nranks, m->pass, m->per_round,
		p->nranks % 2 ? ", a bye for one rank each round" : "", (long)p->nranks * (p->nranks - 1) / 2);
	if (m->nrounds == m->pass)
		fprintf(f, "rounds: all %d\n", m->nrounds);
	else
		fprintf(f, "rounds: %d of %d, drawn with seed %llu: a given pair is measured with chance %.1f%%, a "
			"host with every partner of its %d rounds\n", m->nrounds, m->pass, (unsigned long long)c->seed,
			100.0 * mapsched_cover(m), m->nrounds);
	fprintf(f, "concurrency: %d pairs at once (%s), %d step%s a round, %d steps (the levels), %d cells\n\n",
		m->conc, m->conc == m->per_round ? "the loaded map: a whole round" : m->conc == 1 ?
		"the unloaded map: one pair at a time" : "part of a round", m->steps_per_round,
		m->steps_per_round == 1 ? "" : "s", m->nsteps, p->ncells);
	if (p->nranks > PLAN_PRINT_PAIRS) {
		fprintf(f, "rounds run:");
		for (int r = 0; r < m->nrounds; r++)
			fprintf(f, " %d", m->round[r]);
		fprintf(f, "\n(pairs of each round: plan with %d ranks or fewer lists them)\n", PLAN_PRINT_PAIRS);
		return;
	}
	for (int s = 0; s < m->nsteps; s++) {
		fprintf(f, "step %d: round %d, %d pairs:", s, mapsched_step_round(m, s), p->level_pairs[s]);
		for (int i = 0; i < p->level_pairs[s]; i++) {
			struct sw_pair q = mapsched_step_pair(m, s, i);

			fprintf(f, " %d-%d", q.a, q.b);
		}
		fputc('\n', f);
	}
}

void plan_print(FILE *f, const struct sw_plan *p, const struct sw_config *c)
{
	char buf[32], pairing[64];
	double est = plan_estimate_seconds(p, c);

	bool incast = false;

	for (int i = 0; i < c->npatterns; i++)
		incast |= pattern_info(c->patterns[i])->incast;
	config_format_value(c, "pairing", pairing, sizeof(pairing));
	if (p->map)
		print_map(f, p, c);
	else {
		fprintf(f, "ranks %d, pairing %s", p->nranks, pairing);
		if (c->pairing == CFG_PAIRING_RANDOM)
			fprintf(f, " (seed %llu)", (unsigned long long)c->seed);
		fprintf(f, ", %d levels, %d cells\n", p->nlevels, p->ncells);
		if (p->per_node > 1)
			fprintf(f, "ranks_per_node %d: %d nodes, each named by its first rank; a pair of nodes is %d "
				"rank pairs to one deadline, its value their sum\n", p->per_node, p->nranks / p->per_node,
				p->per_node);
		fputc('\n', f);
	}
	for (int l = 0; !p->map && l < p->nlevels; l++) {
		int k = p->level_pairs[l];

		fprintf(f, "level %d: %d pairs, %d nodes", l, k, 2 * k);
		if (p->per_node > 1)
			fprintf(f, ", %d rank pairs", k * p->per_node);
		fprintf(f, "%s:", l == 0 ? " (baseline)" : "");
		for (int i = 0; i < k; i++)
			fprintf(f, " %d-%d", p->pair[i].a, p->pair[i].b);
		fputc('\n', f);
		if (incast) {
			fprintf(f, "  incast: %d sender%s, %d nodes:", k, k > 1 ? "s" : "", k + 1);
			for (int i = 0; i < k; i++)
				fprintf(f, "%s%d", i ? "," : " ", p->pair[i].a);
			fprintf(f, " -> receiver %d\n", p->pair[0].b);
		}
	}
	if (p->nvictims) {
		config_format_size(c->victim_size, buf, sizeof(buf));
		fprintf(f, "victims: %d pairs beside every level (pingpong %s; the levels count aggressor pairs), "
			"and alone in every repetition:", p->nvictims, buf);
		for (int i = 0; i < p->nvictims; i++)
			fprintf(f, " %d-%d", p->victim[i].a, p->victim[i].b);
		fputc('\n', f);
	}
	fprintf(f, "\ncells per level: %d (patterns x sizes x hops)\n", plan_cells_per_level(p));
	for (int i = 0; i < plan_cells_per_level(p); i++) {
		const struct sw_cell *cell = &p->cell[i];

		config_format_size(cell->size, buf, sizeof(buf));
		if (cell->hops)
			fprintf(f, "  %-9s %8s  %ld hops\n", pattern_name(cell->pattern), buf, cell->hops);
		else if (pattern_info(cell->pattern)->incast)
			fprintf(f, "  %-9s %8s  timed, %g ms a sample, every sender to one deadline\n",
				pattern_name(cell->pattern), buf, c->sample_time * 1e3);
		else if (cell->timed)
			fprintf(f, "  %-9s %8s  timed, %g ms a sample, all pairs to one deadline\n",
				pattern_name(cell->pattern), buf, c->sample_time * 1e3);
		else
			fprintf(f, "  %-9s %8s  auto hops (about %g ms a sample)\n", pattern_name(cell->pattern),
				buf, c->sample_time * 1e3);
	}
	fprintf(f, "\nrepetitions %d", c->rep_min);
	if (c->rep_max != c->rep_min)
		fprintf(f, "..%d (adaptive, ci_target %g, cell_budget %g s)", c->rep_max, c->ci_target, c->cell_budget);
	fprintf(f, ", warm-up %d rounds, timeout %g s a round\n", c->warmup, c->timeout);
	print_design(f, p, c);
	if (plan_drift_check(p, c))
		fprintf(f, "drift control: the baseline level (%d pair%s) again after the last level\n",
			p->level_pairs[0], p->level_pairs[0] == 1 ? "" : "s");
	fprintf(f, "estimated time: %.0f s", est);
	if (c->rep_max != c->rep_min) {
		struct sw_config hi = *c;

		hi.rep_min = c->rep_max;
		fprintf(f, " (up to %.0f s)", plan_estimate_seconds(p, &hi));
	}
	fputc('\n', f);
}
