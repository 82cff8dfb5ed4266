/*
 * mapsched.c - the circle method's rounds and their steps; see mapsched.h.
 */
#include <stdlib.h>
#include <string.h>
#include "mapsched.h"
#include "sw.h"

int mapsched_pass(int n)
{
	return n % 2 ? n : n - 1;
}

int mapsched_round_size(int n)
{
	return n / 2;
}

static struct sw_pair ordered(int x, int y)
{
	return x < y ? (struct sw_pair){ x, y } : (struct sw_pair){ y, x };
}

struct sw_pair mapsched_pair(int n, int r, int i)
{
	int m = mapsched_pass(n);

	if (n % 2 == 0 && i == 0)
		return ordered(r, n - 1);
	if (n % 2)
		i++;   /* no fixed rank: r sits out */
	return ordered((r + i) % m, (r - i + m) % m);
}

int mapsched_partner(int n, int r, int rank)
{
	int m = mapsched_pass(n);

	if (n % 2 == 0 && rank == n - 1)
		return r;
	if (rank == r)
		return n % 2 ? -1 : n - 1;
	return (int)((2L * r - rank + 2L * m) % m);
}

int mapsched_round_of(int n, int x, int y)
{
	int m = mapsched_pass(n);

	if (n % 2 == 0 && (x == n - 1 || y == n - 1))
		return x == n - 1 ? y : x;
	/* 2r = x + y (mod m), m odd: r = (x + y) (m + 1) / 2 mod m */
	return (int)((long)(x + y) % m * ((m + 1) / 2) % m);
}

struct mapsched *mapsched_create(int n, const int *round, int nrounds, int conc, char *err, size_t errlen)
{
	struct mapsched *m = NULL;
	char *seen = NULL;
	int pass = n >= 2 ? mapsched_pass(n) : 0;

	if (n < 2 || nrounds < 1 || nrounds > pass || conc < 0) {
		sw_fail(err, errlen, "map of %d ranks: %d rounds of %d, %d pairs a step", n, nrounds, pass, conc);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	seen = calloc((size_t)pass, 1);
	if (!m || !seen || !(m->round = malloc((size_t)nrounds * sizeof(*m->round))))
		goto out_nomem;
	for (int i = 0; i < nrounds; i++) {
		if (round[i] < 0 || round[i] >= pass || seen[round[i]]) {
			sw_fail(err, errlen, "map of %d ranks: round %d twice or outside 0..%d", n, round[i], pass - 1);
			goto out_free;
		}
		seen[round[i]] = 1;
	}
	for (int r = 0, k = 0; r < pass; r++)
		if (seen[r])
			m->round[k++] = r;
	m->n = n;
	m->pass = pass;
	m->per_round = mapsched_round_size(n);
	m->nrounds = nrounds;
	m->conc = conc == 0 || conc > m->per_round ? m->per_round : conc;
	m->steps_per_round = (m->per_round + m->conc - 1) / m->conc;
	m->nsteps = nrounds * m->steps_per_round;
	free(seen);
	return m;
out_nomem:
	sw_fail(err, errlen, "out of memory (map of %d ranks)", n);
out_free:
	free(seen);
	mapsched_free(m);
	return NULL;
}

void mapsched_free(struct mapsched *m)
{
	if (!m)
		return;
	free(m->round);
	free(m);
}

int mapsched_step_round(const struct mapsched *m, int s)
{
	return m->round[s / m->steps_per_round];
}

/* A round's pairs split evenly over its steps: the first per % steps
 * steps one pair more than the others. */
int mapsched_step_size(const struct mapsched *m, int s)
{
	int j = s % m->steps_per_round;

	return m->per_round / m->steps_per_round + (j < m->per_round % m->steps_per_round);
}

struct sw_pair mapsched_step_pair(const struct mapsched *m, int s, int i)
{
	int j = s % m->steps_per_round, q = m->per_round / m->steps_per_round, rem = m->per_round % m->steps_per_round;

	return mapsched_pair(m->n, mapsched_step_round(m, s), j * q + (j < rem ? j : rem) + i);
}

double mapsched_cover(const struct mapsched *m)
{
	return (double)m->nrounds / m->pass;
}
