/*
 * cmd_baseline.c - `swstress baseline set|add|list|remove`: the command over
 * baseline.h and the history database's sets (argv in, the list on stdout).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "baseline.h"
#include "commands.h"
#include "history.h"
#include "results.h"
#include "run.h"

/* A results folder for the set: complete and readable; its absolute path,
 * run name and start into m. 0, or -1 with err. */
static int member_of(const char *arg, struct history_member *m, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	struct sw_run *r;

	memset(m, 0, sizeof(*m));
	r = results_load(arg, err, errlen);
	if (!r)
		return -1;
	if (!r->complete) {
		sw_fail(err, errlen, "%s: run %s is incomplete (%s): a baseline needs complete runs", arg, r->name,
			r->failure[0] ? r->failure : "cut short");
		run_free(r);
		return -1;
	}
	snprintf(m->run, sizeof(m->run), "%s", r->name);
	snprintf(m->started, sizeof(m->started), "%s", r->started);
	run_free(r);
	if (!realpath(arg, path))
		return sw_fail(err, errlen, "%s: %s", arg, strerror(errno));
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {   /* FOLDER/run.json */
		char *slash = strrchr(path, '/');

		if (slash && slash != path)
			*slash = '\0';
	}
	if (strlen(path) >= sizeof(m->folder))
		return sw_fail(err, errlen, "%s: path longer than %zu bytes", arg, sizeof(m->folder) - 1);
	snprintf(m->folder, sizeof(m->folder), "%s", path);
	return 0;
}

/* The run name an argument of remove stands for: the last component of a
 * folder (or of the folder of a run.json). */
static void run_name_of(const char *arg, char *buf, size_t len)
{
	char tmp[SW_PATH_MAX];
	size_t n;
	char *slash;

	snprintf(tmp, sizeof(tmp), "%s", arg);
	n = strlen(tmp);
	while (n > 1 && tmp[n - 1] == '/')
		tmp[--n] = '\0';
	if (n > 9 && !strcmp(tmp + n - 9, "/run.json"))
		tmp[n - 9] = '\0';
	slash = strrchr(tmp, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : tmp);
}

static int list_sets(const char *db, const char *name)
{
	struct history_member *m;
	size_t n;
	char err[1024];
	const char *shown = "";

	if (history_baseline_members(db, name, &m, &n, err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	if (n == 0) {
		if (name) {
			fprintf(stderr, "swstress: no baseline set '%s' in %s\n", name, db);
			free(m);
			return SW_EXIT_FAIL;
		}
		printf("no baseline sets in %s\n", db);
	}
	for (size_t i = 0; i < n; i++) {
		size_t runs = 0;

		if (strcmp(m[i].set, shown)) {
			for (size_t j = i; j < n && !strcmp(m[j].set, m[i].set); j++)
				runs++;
			printf("%sbaseline %s: %zu run%s%s\n", i ? "\n" : "", m[i].set, runs, runs == 1 ? "" : "s",
			       runs < 3 ? " (night-to-night spread unknown below 3 runs)" : "");
			printf("  %-36s  %-20s  %-20s  %-7s  %s\n", "run", "started", "added", "kind", "folder");
			shown = m[i].set;
		}
		printf("  %-36s  %-20s  %-20s  %-7s  %s%s\n", m[i].run, m[i].started, m[i].added,
		       m[i].rolling ? "rolling" : "marked", m[i].folder,
		       access(m[i].folder, F_OK) ? "  (missing)" : "");
	}
	free(m);
	return fflush(stdout) ? SW_EXIT_FAIL : SW_EXIT_OK;
}

static int baseline_main(const struct cli_args *a)
{
	const char *const *words = a->args, *history = a->opt[CLI_HISTORY], *sub, *name;
	char db[SW_PATH_MAX + 32], err[1024];
	int nwords = a->nargs, rc = SW_EXIT_OK;

	sub = nwords ? words[0] : "";
	name = nwords > 1 ? words[1] : NULL;
	if (strcmp(sub, "set") && strcmp(sub, "add") && strcmp(sub, "list") && strcmp(sub, "remove")) {
		return cli_usage_error(a, "baseline: %s%s%s (set, add, list or remove; see swstress baseline --help)",
				       nwords ? "unknown subcommand '" : "missing subcommand", sub, nwords ? "'" : "");
	}
	if (name && !baseline_name_valid(name)) {
		/* not cli_usage_error: its 512 bytes would cut a long name */
		fprintf(stderr, "swstress: baseline: '%s' is not a set name (1-63 letters, digits, . _ -; "
			"not starting with . or -)\n", name);
		return SW_EXIT_USAGE;
	}
	if ((!strcmp(sub, "set") || !strcmp(sub, "add")) && nwords < 3)
		return cli_usage_error(a, "baseline %s needs a set name and at least one results folder", sub);
	if ((!strcmp(sub, "remove") && !name) || (!strcmp(sub, "list") && nwords > 2))
		return cli_usage_error(a, "baseline %s: %s", sub, name ? "one set name at most" : "needs a set name");
	if (nwords > 2 && strcmp(sub, "remove"))
		history_result_path(history, words[2], db, sizeof(db));
	else if (history)
		snprintf(db, sizeof(db), "%s", history);
	else
		history_default_path("results", db, sizeof(db));

	if (!strcmp(sub, "list"))
		return list_sets(db, name);
	if (!strcmp(sub, "remove")) {
		int removed = 0, total = 0;

		/* remove NAME: the whole set; remove NAME RUN...: those runs. */
		for (int i = nwords > 2 ? 2 : 1; i < nwords; i++) {
			char run[SW_PATH_MAX];

			run_name_of(words[i], run, sizeof(run));
			if (history_baseline_remove(db, name, i > 1 ? run : NULL, &removed, err, sizeof(err))) {
				fprintf(stderr, "swstress: %s\n", err);
				return SW_EXIT_FAIL;
			}
			if (!removed) {
				fprintf(stderr, "swstress: baseline %s in %s has no run%s%s\n", name, db,
					i > 1 ? " " : "s", i > 1 ? run : "");
				rc = SW_EXIT_FAIL;
			}
			total += removed;
		}
		fprintf(stderr, "swstress: %d run%s removed from baseline %s\n", total, total == 1 ? "" : "s", name);
		return rc;
	}
	/* set, add: every folder must be good before the set changes. */
	struct history_member *m = calloc((size_t)nwords, sizeof(*m));

	if (!m) {
		fprintf(stderr, "swstress: out of memory\n");
		return SW_EXIT_FAIL;
	}
	for (int i = 2; i < nwords; i++) {
		if (member_of(words[i], &m[i - 2], err, sizeof(err))) {
			fprintf(stderr, "swstress: baseline %s: %s\n", sub, err);
			free(m);
			return SW_EXIT_FAIL;
		}
		/* a set holds a run once: two folders of one name would count twice */
		for (int j = 2; j < i; j++)
			if (!strcmp(m[j - 2].run, m[i - 2].run)) {
				fprintf(stderr, "swstress: baseline %s: %s and %s are the same run (%s)\n", sub,
					words[j], words[i], m[i - 2].run);
				free(m);
				return SW_EXIT_FAIL;
			}
	}
	if (history_baseline_put(db, name, m, (size_t)(nwords - 2), !strcmp(sub, "set"), err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		rc = SW_EXIT_FAIL;
	} else {
		fprintf(stderr, "swstress: baseline %s: %d run%s %s (%s)\n", name, nwords - 2, nwords == 3 ? "" : "s",
			!strcmp(sub, "set") ? "set" : "added", db);
		rc = list_sets(db, name);
	}
	free(m);
	return rc;
}

const struct cli_command baseline_command = {
	.name = "baseline",
	.synopsis = "set|add NAME RESULT... | list [NAME] | remove NAME [RUN...]",
	.summary = "named baseline sets of healthy runs, for check and judge --baseline NAME",
	.description =
		"  swstress baseline set NAME RESULT...    the set is exactly these runs\n"
		"  swstress baseline add NAME RESULT...    add runs (creates the set)\n"
		"  swstress baseline list [NAME]           the sets and their runs\n"
		"  swstress baseline remove NAME [RUN...]  drop runs (by name or folder), or the set\n"
		"\n"
		"A baseline set is several runs of a healthy fabric; check --baseline NAME compares\n"
		"a night with their typical value and night-to-night spread. RESULT is a complete\n"
		"results folder (or its run.json). The sets live in the history database: --history,\n"
		"else history.sqlite in the folder that holds the first RESULT, else\n"
		"results/history.sqlite.\n",
	.options = CLI_OPT(CLI_HISTORY),
	.max_args = CLI_MAX_WORDS,
	.fn = baseline_main,
};
