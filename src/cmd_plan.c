/*
 * cmd_plan.c - `swstress plan [CONFIG] -n RANKS`: the command over plan.h
 * (the levels, pairs, cells and time estimate on stdout, without MPI), and
 * cmd_config, the config of every command that takes one (plan, run, check).
 */
#include <stdio.h>
#include "commands.h"
#include "config.h"
#include "plan.h"
#include "run.h"
#include "fmt.h"

int cmd_config(const struct cli_args *a, struct sw_config *c, char *err, size_t errlen)
{
	const char *file = a->opt[CLI_CONFIG];

	config_defaults(c);
	if (file && a->nargs)
		return sw_fail(err, errlen, "unexpected argument '%s' (the config is -c %s)", a->args[0], file);
	if (!file && a->nargs)
		file = a->args[0];
	if (file && config_load_file(c, file, err, errlen))
		return -1;
	if (a->cmd->preset && config_set_arg(c, a->cmd->preset, err, errlen))
		return -1;
	if (config_set_args(c, a->sets, a->nsets, err, errlen))
		return -1;
	if (a->opt[CLI_LABEL] && config_set(c, "label", a->opt[CLI_LABEL], "option --label", err, errlen))
		return -1;
	return config_validate(c, err, errlen);
}

static int plan_main(const struct cli_args *a)
{
	struct sw_config cfg;
	struct sw_plan *p;
	char err[1024], mem[32];
	long n, cores = 0;

	if (!a->opt[CLI_RANKS])
		return cli_usage_error(a, "plan needs -n RANKS");
	if (sw_parse_long(a->opt[CLI_RANKS], 2, SW_MAX_RANKS, &n))
		return cli_usage_error(a, "option --ranks: '%s' is not a rank count from 2 to %d", a->opt[CLI_RANKS],
				       SW_MAX_RANKS);
	if (a->opt[CLI_CORES] && sw_parse_long(a->opt[CLI_CORES], 1, SW_MAX_RANKS, &cores))
		return cli_usage_error(a, "option --cores: '%s' is not a core count from 1 to %d", a->opt[CLI_CORES],
				       SW_MAX_RANKS);
	if (cmd_config(a, &cfg, err, sizeof(err)))
		return cli_usage_error(a, "%s", err);
	p = plan_create(&cfg, (int)n, err, sizeof(err));
	if (!p)
		return cli_usage_error(a, "%s", err);
	plan_set_cores(p, (int)cores);
	plan_print(stdout, p, &cfg);
	fmt_num(mem, sizeof(mem), run_memory_bytes(p, &cfg) / (1024.0 * 1024.0));
	printf("rank 0's memory: about %s MiB for the run (samples, per-cell facts, CPU times, hosts), as much again "
	       "while the statistics and files are written\n", mem);
	plan_free(p);
	return SW_EXIT_OK;
}

const struct cli_command plan_command = {
	.name = "plan",
	.synopsis = "[CONFIG] -n RANKS [--cores N] [key=value ...]",
	.summary = "levels, pairs, cells and an estimate of the time, without MPI",
	.description = "What a run of the config (the defaults without one) on RANKS ranks will do:\n"
		       "the load levels, the rank pairs of each level, the cells, and how long it takes.\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_RANKS) | CLI_OPT(CLI_CORES),
	.max_args = 1,
	.keys = true,
	.fn = plan_main,
};
