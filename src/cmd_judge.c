/*
 * cmd_judge.c - `swstress judge RESULT --baseline PATH|NAME`: the command
 * over judge.h (argv in, the verdict on stdout), and the options of judge
 * and check from their command line.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "judge.h"

void judge_opts_from_args(const struct cli_args *a, struct judge_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->result = a->nargs ? a->args[0] : NULL;
	o->baseline = a->opt[CLI_BASELINE];
	o->prom = a->opt[CLI_PROM];
	o->history = a->opt[CLI_HISTORY];
	o->json = a->opt[CLI_JSON] != NULL;
	o->no_history = a->opt[CLI_NO_HISTORY] != NULL;
	o->sets = a->sets;
	o->nsets = a->nsets;
}

static int judge_main(const struct cli_args *a)
{
	struct judge_opts o;

	judge_opts_from_args(a, &o);
	return judge_dir(o.result, &o, stdout);
}

const struct cli_command judge_command = {
	.name = "judge",
	.synopsis = "RESULT --baseline PATH|NAME [options] [key=value ...]",
	.summary = "health verdict of saved results against a baseline: a Nagios plugin",
	.description =
		"The verdict of a saved run (a results folder or its run.json) against a\n"
		"baseline run of a healthy fabric, without MPI: status line with performance\n"
		"data, then the worst cells and suspect ports. key=value (warn_drop, crit_drop,\n"
		"warn_inflation, crit_inflation, alpha, ...) override the judged run's config.\n"
		"A fabric map (schedule = map) is judged against baseline maps element by\n"
		"element: the fabric, each host's port, each group's uplink (groups from the\n"
		"baseline's first map), one value a block, Holm over every element; the status\n"
		"line names the worst (host node07, uplink of leaf2). A map against a sweep\n"
		"baseline, or a sweep against a map, is UNKNOWN.\n",
	.options = CLI_OPT(CLI_BASELINE) | CLI_OPT(CLI_PROM) | CLI_OPT(CLI_JSON) | CLI_OPT(CLI_HISTORY) |
		   CLI_OPT(CLI_NO_HISTORY),
	.min_args = 1,
	.max_args = 1,
	.keys = true,
	.nagios = true,
	.fn = judge_main,
};
