/*
 * blame_sim.h - simulated fabric maps with a known truth, for the unit
 * tests of blame.h and the calibration: n hosts in groups, the rounds of
 * the circle method (every pair once, n/2 pairs a round), nb blocks, and
 * the noise of a real fabric: each host's own small speed (sd host_sd),
 * a drift of every block (block_sd) and of every round within a block
 * (round_sd), each sample's noise (noise_sd), and hiccups (a sample
 * 30% low with probability hiccup). Faults: a host port slower by
 * slow_host (factor; its samples noisier by slow_noise, as a slow port's
 * coarse count of whole messages is), a group's uplink by slow_uplink, and a trunk of
 * capacity trunk (bytes/s) that the crossing pairs of one round and
 * direction share (0: none), every crossing link slower by congest (an
 * oversubscribed spine), one link alone slower by link_factor. Bandwidth near 117 MB/s, or latency near
 * 20 us (BLAME_LATENCY). Static functions: include once per test file.
 */
#ifndef BLAME_SIM_H
#define BLAME_SIM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blame.h"

#define SIM_MAX_HOSTS 64
#define SIM_MAX_BLOCKS 8
#define SIM_MAX_PAIRS (SIM_MAX_HOSTS * (SIM_MAX_HOSTS - 1) / 2)

struct sim {
	int n, nb, ng, metric;
	int group[SIM_MAX_HOSTS];
	double host_sd, block_sd, round_sd, noise_sd, hiccup;
	int slow_host;              /* -1: none */
	double slow_factor;         /* 0.7: 30% less bandwidth */
	double slow_noise;          /* extra sample noise (sd) on its links, 0 */
	int slow_uplink;            /* group, -1: none */
	double uplink_factor;
	double trunk;               /* bytes/s shared across groups, 0 */
	double congest;             /* factor of every crossing link, 1 */
	int slow_a, slow_b;         /* one link alone slower, -1: none */
	double link_factor;
	/* the map */
	char names[SIM_MAX_HOSTS][16];
	const char *host[SIM_MAX_HOSTS];
	struct blame_pair pair[SIM_MAX_PAIRS];
	double v[SIM_MAX_PAIRS][SIM_MAX_BLOCKS];
	int npair;
};

static uint64_t sim_rng = 88172645463325252ULL;

static double sim_uniform(void)
{
	sim_rng ^= sim_rng >> 12;
	sim_rng ^= sim_rng << 25;
	sim_rng ^= sim_rng >> 27;
	return ((sim_rng * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double sim_normal(void)
{
	double u = sim_uniform(), v = sim_uniform();

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* n hosts in ng equal groups, realistic noise, no fault. */
static void sim_init(struct sim *s, int n, int ng, int nb)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->ng = ng;
	s->nb = nb;
	s->metric = BLAME_BANDWIDTH;
	for (int i = 0; i < n; i++)
		s->group[i] = i * ng / n;
	s->host_sd = 0.01;
	s->block_sd = 0.05;
	s->round_sd = 0.02;
	s->noise_sd = 0.03;
	s->hiccup = 0.01;
	s->slow_host = s->slow_uplink = -1;
	s->slow_a = s->slow_b = -1;
	s->slow_factor = s->uplink_factor = s->congest = s->link_factor = 1.0;
}

/* Draw one map into s->pair (the circle method's rounds; n even). */
static void sim_draw(struct sim *s)
{
	double hfx[SIM_MAX_HOSTS], bfx[SIM_MAX_BLOCKS], rfx[SIM_MAX_BLOCKS][SIM_MAX_HOSTS];
	int n = s->n, np = 0;

	for (int i = 0; i < n; i++) {
		snprintf(s->names[i], sizeof(s->names[i]), "node%02d", i + 1);
		s->host[i] = s->names[i];
		hfx[i] = s->host_sd * sim_normal();
	}
	for (int b = 0; b < s->nb; b++) {
		bfx[b] = s->block_sd * sim_normal();
		for (int r = 0; r < n - 1; r++)
			rfx[b][r] = s->round_sd * sim_normal();
	}
	for (int r = 0; r < n - 1; r++) {
		int first = np, cross[2] = { 0, 0 };

		for (int k = 0; k < n / 2; k++) {
			int a = k == 0 ? n - 1 : (r + k) % (n - 1), b = (r - k + 2 * (n - 1)) % (n - 1);

			if ((k + r) % 2) {
				int t = a;

				a = b;
				b = t;
			}
			s->pair[np] = (struct blame_pair){ .a = a, .b = b, .round = r, .v = s->v[np] };
			if (s->group[a] != s->group[b])
				cross[s->group[a] < s->group[b]]++;
			np++;
		}
		for (int k = first; k < np; k++) {
			int a = s->pair[k].a, b = s->pair[k].b, ga = s->group[a], gb = s->group[b];
			double f = exp(hfx[a] + hfx[b]);

			if (a == s->slow_host || b == s->slow_host)
				f *= s->slow_factor;
			if (ga != gb && (ga == s->slow_uplink || gb == s->slow_uplink))
				f *= s->uplink_factor;
			if (ga != gb)
				f *= s->congest;
			if ((a == s->slow_a && b == s->slow_b) || (a == s->slow_b && b == s->slow_a))
				f *= s->link_factor;
			for (int bl = 0; bl < s->nb; bl++) {
				double x = f * exp(bfx[bl] + rfx[bl][r] + s->noise_sd * sim_normal());

				if (a == s->slow_host || b == s->slow_host)
					x *= exp(s->slow_noise * sim_normal());

				if (sim_uniform() < s->hiccup)
					x *= 0.7;
				if (s->metric == BLAME_LATENCY) {
					s->v[k][bl] = 20e-6 / x;
					continue;
				}
				x *= 117e6;
				if (s->trunk > 0 && ga != gb) {
					double share = s->trunk / cross[ga < gb] * exp(0.01 * sim_normal());

					x = x < share ? x : share;
				}
				s->v[k][bl] = x;
			}
		}
	}
	s->npair = np;
}

/* The blame input of s's map; groups given when topo. */
static struct blame_input sim_input(const struct sim *s, bool topo)
{
	return (struct blame_input){
		.nhost = s->n, .host = s->host, .group = topo ? s->group : NULL, .ngroup = topo ? s->ng : 0,
		.pair = s->pair, .npair = (size_t)s->npair, .nblock = s->nb, .metric = s->metric,
		.floor = 0.10, .alpha = 0.05, .confidence = 0.95,
	};
}

/* Draw one map of s, every value scaled by a run-level speed (speed x a
 * lognormal factor of sd run_sd; latency by its inverse), and its
 * statistics into *r (blame_run's return, err its reason). */
static int __attribute__((unused)) sim_run_map(struct sim *s, struct blame_input *in, struct blame_result *r,
						double run_sd, double speed, bool topo, char *err, size_t errlen)
{
	double f;

	sim_draw(s);
	f = speed * exp(run_sd * sim_normal());
	for (int k = 0; k < s->npair; k++)
		for (int b = 0; b < s->nb; b++)
			s->v[k][b] *= s->metric == BLAME_LATENCY ? 1 / f : f;
	*in = sim_input(s, topo);
	return blame_run(in, r, err, errlen);
}

#endif
