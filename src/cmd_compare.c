/*
 * cmd_compare.c - `swstress compare A B [C ...]`: the command over compare.h
 * (argv in, the tables on stdout, the files through compare_write).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "compare.h"
#include "results.h"

static int compare_main(const struct cli_args *a)
{
	const char *output = a->opt[CLI_OUTPUT];
	char dir[SW_PATH_MAX], err[1024];
	struct compare *c;
	bool charts = !a->opt[CLI_NO_PLOT];
	int n = a->nargs, rc;
	const char *const *paths = a->args;

	c = compare_load(paths, n, err, sizeof(err));
	if (!c) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	if (output)
		snprintf(dir, sizeof(dir), "%s", output);
	else {
		char name[128];

		results_folder_name("compare", time(NULL), name, sizeof(name));
		snprintf(dir, sizeof(dir), "results/%s", name);
		for (int i = 2; access(dir, F_OK) == 0 && i < 100; i++)
			snprintf(dir, sizeof(dir), "results/%s-%d", name, i);
	}
	compare_print(stdout, c, a->opt[CLI_VERBOSE] != NULL);
	fflush(stdout);
	rc = compare_write(c, dir, NULL, charts, NULL, err, sizeof(err));
	if (rc)
		fprintf(stderr, "swstress: %s\n", err);
	else
		fprintf(stderr, "swstress: comparison in %s/compare.md\n", dir);
	compare_free(c);
	return rc ? SW_EXIT_FAIL : SW_EXIT_OK;
}

const struct cli_command compare_command = {
	.name = "compare",
	.synopsis = "RESULT_A RESULT_B [RESULT_C ...] [--output DIR] [--no-plot] [--verbose]",
	.summary = "switches side by side: runs of one switch pooled, which is worse, CI and p, charts",
	.description = "Each RESULT is a results folder or its run.json; A's switch is the reference;\n"
		       "runs with the same model (or label) are one switch's replicates. Prints the\n"
		       "answer first, then the comparison within 80 columns (--verbose: every CI, the\n"
		       "message rates and the method in full) and writes compare.md, compare.json and\n"
		       "the charts.\n"
		       "Fabric maps (schedule = map) compare with maps only: per pattern and size,\n"
		       "which switch's fabric is slower [CI], the hosts that got slower or faster,\n"
		       "the claims of one map alone and each side's group boundaries.\n",
	.options = CLI_OPT(CLI_OUTPUT) | CLI_OPT(CLI_NO_PLOT) | CLI_OPT(CLI_VERBOSE),
	.min_args = 2,
	.max_args = COMPARE_MAX_RUNS,
	.fn = compare_main,
};
