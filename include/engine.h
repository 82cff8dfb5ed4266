/*
 * engine.h - the measurement engine, the only module besides main.c that
 * uses MPI (this header itself does not need mpi.h).
 *
 * Control is point to point from rank 0, never a collective, so that one
 * stalled rank delays only itself and its partner and rank 0 can name it:
 * rank 0 sends each active rank a ROUND message, runs its own sample if it
 * is in a pair, then collects one sample from each pair's initiator; ranks
 * the level leaves idle get a PING each round. Every wait polls (MPI_Test,
 * sched_yield when yielding) and checks the round's deadline (timeout),
 * which is the watchdog; idle ranks give up on a silent rank 0 after
 * timeout + 10 s.
 *
 * Fault injection for tests (documented in tests/README.md):
 *   SWSTRESS_FAULT_STALL=RANK[:LEVEL]  rank RANK stops answering at the first
 *                                      round of level LEVEL (default 1)
 *   SWSTRESS_FAULT_DELAY=RANK:USEC     rank RANK sleeps USEC microseconds
 *                                      before every message it sends
 *   SWSTRESS_FAULT_WANDER=USEC:PERIOD  every rank's speed wanders: it sleeps
 *                                      USEC (1 + sin(2 pi t / PERIOD)) / 2 us
 *                                      before every message, t the seconds
 *                                      since the sweep began
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdbool.h>
#include "run.h"

struct engine_env {
	int rank, nranks;
	bool yield;                /* this rank yields the CPU while waiting */
	double clock_offset;       /* local MPI_Wtime minus rank 0's */
};

/* Called on rank 0 after each level (results flushed by the callee). */
typedef void (*engine_level_fn)(struct sw_run *r, int level, void *ctx);

#define ENGINE_OVERRUN 2.0

struct engine_opts {
	bool progress;             /* cells done / total on stderr */
	double deadline;           /* s from the start of the sweep for the whole
	                            * sweep (check's deadline), 0 for none */
	int fail_code;             /* exit status on a watchdog failure */
	int signal_code;           /* exit status when SIGINT, SIGTERM or SIGHUP
	                            * stopped the sweep; 0: 128 + the signal */
	bool isolate;              /* after the sweep, isolate the hosts of
	                            * flagged pairs (isolate.h) */
	double estimate;           /* s, the plan's estimate: rank 0 warns once
	                            * on stderr when the sweep has run
	                            * ENGINE_OVERRUN times as long (and 1 s
	                            * more) with cells to go; 0 never */
	engine_level_fn level_done;
	void *ctx;
};

/* Collective over MPI_COMM_WORLD: host names and identities (hostid.h:
 * kernel, network stack, cores, MPI node) into r->host and r->id (rank
 * 0; r may be NULL elsewhere), the yield decision for this rank (cfg
 * yield: auto = more ranks on this rank's kernel than its cores), the
 * clock offsets, timer facts and the MPI version. Whether ranks share a
 * host is the caller's to judge from r (hostid_share). */
void engine_setup(struct sw_run *r, const struct sw_config *c, struct engine_env *env);

/* Run the sweep. Rank 0 passes its run (samples and per-cell facts filled
 * in) and its plan, where rank 0 resolves the hop count of hops = auto
 * cells; other ranks pass NULL and their own copy of the plan. The window
 * is at most SW_MAX_WINDOW (config.c's range). Returns 0 when
 * every cell ran. On a watchdog or MPI failure, rank 0 fills r->failure,
 * marks the cells, calls level_done once more so the results are on disk,
 * prints the failure once and calls MPI_Abort(fail_code): it does not
 * return. SIGINT, SIGTERM and SIGHUP are caught while the sweep runs: the
 * same path, with r->failure "stopped by signal N (NAME)", no cell marked
 * failed, and MPI_Abort(signal_code). A signal that comes after the last
 * wait is raised again on return, with the default action. */
int engine_sweep(struct sw_run *r, const struct sw_config *c, struct sw_plan *p,
		 const struct engine_env *env, const struct engine_opts *o);

/* The one way a rank ends the job: flush stderr, give the process manager
 * a moment to forward what this rank printed (Hydra drops a line still in
 * its pipe when the job is torn down at once), then MPI_Abort(code).
 * Does not return. */
_Noreturn void engine_abort(int code);

#endif
