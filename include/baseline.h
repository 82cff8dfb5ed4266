/*
 * baseline.h - named baseline sets: the healthy runs a nightly check
 * compares with, kept in the history database (table baseline_runs) with
 * the results folders they are read from. The `swstress baseline`
 * command (set, add, list, remove) and the resolution of check's and
 * judge's --baseline ARG. MPI-free.
 *
 * --baseline ARG is a results folder (or its run.json) when ARG exists on
 * disk, otherwise the name of a set in the history database. A set name
 * is 1 to 63 letters, digits, '.', '_' or '-', not starting with '.' or
 * '-' (so it is never a path).
 */
#ifndef BASELINE_H
#define BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include "history.h"

/* true when s can name a baseline set. */
bool baseline_name_valid(const char *s);

/* The baseline runs ARG stands for, oldest first, into *m (malloc'ed,
 * caller frees; at least one): ARG itself when it exists on disk or is no
 * set name (*is_set false; then only m[0].folder is set), else the members
 * of set ARG in db (*is_set true). 0, or -1 with a message in err (a set
 * that does not exist or has no runs). */
int baseline_resolve(const char *arg, const char *db, struct history_member **m, size_t *n, bool *is_set,
		     char *err, size_t errlen);

#endif
