/*
 * cmd_site.c - `swstress site STORE OUTDIR`: the command over site.h and store.h.
 */
#include <stdio.h>
#include "commands.h"
#include "site.h"
#include "store.h"
#include "sw.h"

/* "swstress site STORE OUTDIR" */
static int site_main(const struct cli_args *a)
{
	const char *store = a->args[0], *outdir = a->args[1];
	char err[1024];
	struct store *s;
	int pages = 0, rc;

	s = store_open(store, false, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	rc = site_write(s, outdir, &pages, err, sizeof(err));
	store_close(s);
	if (rc) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	fprintf(stderr, "swstress: %d pages in %s/ (open %s/index.html)\n", pages, outdir, outdir);
	return SW_EXIT_OK;
}

const struct cli_command site_command = {
	.name = "site",
	.synopsis = "STORE OUTDIR",
	.summary = "write the catalog web site from a store",
	.description = "Static HTML, SVG charts, CSV/JSON downloads and switch comparisons from\n"
		       "STORE (an SQLite file or a postgresql:// URL) into OUTDIR.\n",
	.min_args = 2,
	.max_args = 2,
	.fn = site_main,
};
