/*
 * baseline.c - named baseline sets (see baseline.h): the baseline command
 * and the resolution of --baseline. The sets live in the history database
 * (history.c); this file checks what goes in: a name that cannot be taken
 * for a path, and complete, readable results folders.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "baseline.h"
#include "results.h"
#include "run.h"

bool baseline_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 63 || s[0] == '.' || s[0] == '-')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

int baseline_resolve(const char *arg, const char *db, struct history_member **m, size_t *n, bool *is_set,
		     char *err, size_t errlen)
{
	struct stat st;

	*m = NULL;
	*n = 0;
	*is_set = false;
	if (stat(arg, &st) == 0 || !baseline_name_valid(arg)) {
		*m = calloc(1, sizeof(**m));
		if (!*m)
			return sw_fail(err, errlen, "out of memory");
		snprintf((*m)->folder, sizeof((*m)->folder), "%s", arg);
		*n = 1;
		return 0;
	}
	*is_set = true;
	if (access(db, F_OK))
		return sw_fail(err, errlen, "'%s' is neither a results folder nor a baseline set (no history "
			       "database %s; swstress baseline set NAME RESULT...)", arg, db);
	if (history_baseline_members(db, arg, m, n, err, errlen))
		return -1;
	if (*n == 0)
		return sw_fail(err, errlen, "'%s' is neither a results folder nor a baseline set in %s "
			       "(swstress baseline list)", arg, db);
	return 0;
}

