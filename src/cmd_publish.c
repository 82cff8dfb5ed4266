/*
 * cmd_publish.c - `swstress publish RESULT... [--store STORE]`: the command over
 * store.h (argv in, one line per result on stdout).
 */
#include <stdio.h>
#include "commands.h"
#include "store.h"
#include "sw.h"

/* "swstress publish RESULT... [--store URL]" */
static int publish_main(const struct cli_args *a)
{
	const char *url = a->opt[CLI_STORE];
	char def[SW_PATH_MAX], err[1024];
	struct store *s;
	int nres = a->nargs, status = SW_EXIT_OK, added = 0, present = 0;

	if (!url) {
		store_default_path("results", def, sizeof(def));
		url = def;
	}
	s = store_open(url, true, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	for (int i = 0; i < nres; i++) {
		int rc = store_publish(s, a->args[i], err, sizeof(err));

		if (rc == STORE_ADDED || rc == STORE_PRESENT) {
			printf("%s: %s\n", a->args[i], rc == STORE_ADDED ? "published" : "already in the store");
			added += rc == STORE_ADDED;
			present += rc == STORE_PRESENT;
		} else {
			fprintf(stderr, "swstress: %s%s\n", rc == STORE_REFUSED ? "refused: " : "", err);
			status = SW_EXIT_FAIL;
		}
	}
	fprintf(stderr, "swstress: %d published, %d already there, %d refused or failed; store %s\n", added,
		present, nres - added - present, store_name(s));
	store_close(s);
	return fflush(stdout) ? SW_EXIT_FAIL : status;
}

const struct cli_command publish_command = {
	.name = "publish",
	.synopsis = "RESULT... [--store STORE]",
	.summary = "put complete runs (with [switch] model) into the switch catalog store",
	.description = "Each RESULT is a results folder. STORE is an SQLite file (default\n"
		       "results/catalog.sqlite) or postgresql://USER@HOST/DB (shared); a run already\n"
		       "there is kept once. Exit status 1 when a run is refused or the store fails.\n",
	.options = CLI_OPT(CLI_STORE),
	.min_args = 1,
	.max_args = CLI_MAX_WORDS,
	.fn = publish_main,
};
