/*
 * cmd_publish.c - `swstress publish RESULT... [--store STORE]`: the command over
 * store.h (argv in, one line per result on stdout).
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "store.h"
#include "sw.h"

/* "swstress publish RESULT... [--store URL] [--shared-node] [vendor=V] [model=M] [firmware=F]" */
static int publish_main(const struct cli_args *a)
{
	const char *url = a->opt[CLI_STORE];
	char def[SW_PATH_MAX], err[1024];
	struct store *s;
	struct store_publish_opts o = { .shared_node = a->opt[CLI_SHARED_NODE] != NULL };
	int nres = a->nargs, status = SW_EXIT_OK, added = 0, present = 0;

	for (int i = 0; i < a->nsets; i++) {
		const char *w = a->sets[i], *v = strchr(w, '=') + 1;
		size_t n = (size_t)(v - 1 - w);

		if (n == 6 && !strncmp(w, "vendor", n))
			o.vendor = v;
		else if (n == 5 && !strncmp(w, "model", n))
			o.model = v;
		else if (n == 8 && !strncmp(w, "firmware", n))
			o.firmware = v;
		else
			return cli_usage_error(a, "%s: publish takes vendor=, model= and firmware= only", w);
	}
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
		int rc = store_publish(s, a->args[i], &o, err, sizeof(err));

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
	.synopsis = "RESULT... [--store STORE] [--shared-node] [vendor=V] [model=M] [firmware=F]",
	.summary = "put complete runs (with [switch] model) into the switch catalog store",
	.description = "Each RESULT is a results folder. STORE is an SQLite file (default\n"
		       "results/catalog.sqlite) or postgresql://USER@HOST/DB (shared); a run already\n"
		       "there is kept once. vendor=, model= and firmware= fill in the [switch] keys of\n"
		       "runs that lack them (the site says they were supplied at publish time); a run\n"
		       "whose key has another value is refused. Runs whose ranks shared a host\n"
		       "(allow_shared_node = yes) measured the host, not a switch: refused unless\n"
		       "--shared-node, and marked on the site. Exit status 1 when a run is refused or\n"
		       "the store fails.\n",
	.options = CLI_OPT(CLI_STORE) | CLI_OPT(CLI_SHARED_NODE),
	.min_args = 1,
	.max_args = CLI_MAX_WORDS,
	.keys = true,
	.fn = publish_main,
};
