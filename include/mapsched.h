/*
 * mapsched.h - the fabric map's schedule (config schedule = map): which
 * pairs of ranks run together. Pure, no MPI.
 *
 * The pass is a round-robin tournament by the circle method: for N ranks,
 * M = N - 1 rounds when N is even, M = N when N is odd; round r pairs x
 * with (2r - x) mod M for every x < M other than r, and r with N - 1 (N
 * even) or with nobody (N odd: r has the round's bye). So every round is
 * a matching of floor(N / 2) disjoint pairs (a perfect one for even N),
 * and every unordered pair of ranks meets in exactly one round of the
 * pass: the round r with 2r = x + y (mod M), M being odd. A pair is
 * written with a < b; a initiates (plan.h).
 *
 * A schedule runs a chosen set of the pass's rounds (all, or a seeded
 * subset that plan.c draws), each cut into ceil(n/2 / K) steps of at
 * most K pairs, as even as they go (config map_concurrency: all pairs of
 * a round at once, the loaded map; 1, the unloaded map; or K). A step is what the engine runs as one
 * level: its pairs at once, to one deadline. Nothing is stored per pair:
 * pairs are computed when asked, so the schedule of 4096 ranks is a few
 * kilobytes.
 */
#ifndef MAPSCHED_H
#define MAPSCHED_H

#include <stddef.h>
#include "plan.h"

struct mapsched {
	int n;             /* ranks */
	int pass;          /* rounds of a full pass (M above) */
	int per_round;     /* pairs in every round: n / 2 */
	int nrounds;       /* rounds chosen */
	int *round;        /* the chosen rounds, ascending, each < pass */
	int conc;          /* pairs a step runs at once, 1..per_round */
	int steps_per_round;
	int nsteps;        /* nrounds * steps_per_round */
};

/* Rounds of a full pass of n ranks (n >= 2), and pairs in each. */
int mapsched_pass(int n);
int mapsched_round_size(int n);

/* Pair i (0 <= i < mapsched_round_size(n)) of round r of the pass. */
struct sw_pair mapsched_pair(int n, int r, int i);

/* rank's partner in round r, -1 for its bye. */
int mapsched_partner(int n, int r, int rank);

/* The round in which ranks x and y (x != y) meet. */
int mapsched_round_of(int n, int x, int y);

/* A schedule of n ranks over the nrounds rounds in round[] (each below
 * mapsched_pass(n), no repeats; copied and sorted), conc pairs a step (0:
 * a whole round). NULL with a message in err on a bad argument or ENOMEM. */
struct mapsched *mapsched_create(int n, const int *round, int nrounds, int conc, char *err, size_t errlen);
void mapsched_free(struct mapsched *m);

/* Step s (0 <= s < nsteps): its round of the pass, its pair count, and
 * its pair i. */
int mapsched_step_round(const struct mapsched *m, int s);
int mapsched_step_size(const struct mapsched *m, int s);
struct sw_pair mapsched_step_pair(const struct mapsched *m, int s, int i);

/* The chance that a given pair of ranks is measured: chosen rounds over
 * the pass (each pair is in exactly one round). */
double mapsched_cover(const struct mapsched *m);

#endif
