/*
 * judge.h - the verdict as judge and check give it, around the pure one
 * of health.h: read the judged run and its baseline (a results folder or
 * a named set), compute the verdict with the drift chart from the
 * history, record it (history.h), write --prom, print it on the caller's
 * stream. A fabric map is judged against baseline maps (mapjudge.h), a
 * sweep against sweeps; a mix is UNKNOWN naming both. The check lock. A core module: MPI-free, no argv (the judge
 * command and judge_opts_from_args are in commands.h), nothing on stdout.
 */
#ifndef JUDGE_H
#define JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The options of judge and check (judge_opts_from_args, commands.h, fills
 * them from a command line). Pointers into argv. */
struct judge_opts {
	const char *result;             /* judge's RESULT (first positional) */
	const char *baseline;           /* --baseline PATH */
	const char *prom;               /* --prom FILE */
	const char *history;            /* --history FILE; NULL: default */
	bool json;                      /* --json */
	bool no_history;                /* --no-history */
	bool fresh;                     /* check: the run was just made, so even
	                                 * a verdict without a judgement (baseline
	                                 * unusable) is recorded as its verdict;
	                                 * judge records only a judged run */
	const char *const *sets;        /* key=value words: judge applies them
	                                 * on top of the judged run's config
	                                 * (crit_drop=20 alpha=0.01) */
	int nsets;
};

/* Judge a results folder (or its run.json) against o->baseline: print the
 * Nagios output (or --json) on out, write o->prom, record the run and
 * the verdict in the history (o->history, or history.sqlite in the folder
 * that holds result_dir; not with no_history). A history or --prom
 * failure is a warning on stderr and in the status line, and makes an OK
 * a WARNING. Returns the Nagios status printed. */
int judge_dir(const char *result_dir, const struct judge_opts *o, FILE *out);

/* The history database a check uses: o->history, or OUTPUT/history.sqlite. */
void judge_check_history(const struct judge_opts *o, const char *output, char *buf, size_t len);

/* Take the check lock: flock(LOCK_EX | LOCK_NB) on HISTORY_DB.lock, which
 * then holds our pid. Returns 0 with the open descriptor in *fd, or -1
 * with "previous check still running (pid N)" when another process holds
 * it (at once, no waiting), or another reason. The lock lives as long as
 * the descriptor; judge_unlock closes it. */
int judge_lock(const char *history_db, int *fd, char *err, size_t errlen);
void judge_unlock(int fd);

#endif
