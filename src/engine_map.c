/*
 * engine_map.c - the fabric map's part of the engine (engine_int.h): a
 * map's level is a step of its schedule (plan.h, mapsched.h), a round of
 * the circle method or part of one, whose pairs differ from level to
 * level. Every rank computes them from the schedule it holds in its plan
 * (no pair list crosses the network, none is stored); the rest of a round
 * (its one deadline, the time-bounded samples, the overlap) is the
 * sweep's.
 */
#include "engine_int.h"
#include "mapsched.h"

void eng_map_round_pairs(struct eng *e, const struct ctrl *c)
{
	int step = e->plan->cell[c->cell].level, k = mapsched_step_size(e->plan->map, step);

	for (int i = 0; i < k; i++)
		e->mix[i] = mapsched_step_pair(e->plan->map, step, i);
	e->round_pair = e->mix;
	e->round_k = e->round_aggr = k;
}
