/*
 * cmd_report.c - `swstress report RESULT`: the command over results.h,
 * analysis.h and report.h (every statistic recomputed from the saved
 * samples, the report on stdout), and cmd_report_format, the --format of
 * report, run and check.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "analysis.h"
#include "commands.h"
#include "config.h"
#include "mapout.h"
#include "report.h"
#include "results.h"

int cmd_report_format(const struct cli_args *a, char *err, size_t errlen)
{
	const char *f = a->opt[CLI_FORMAT];
	int format = f ? report_format_find(f) : REPORT_TABLE;

	if (format < 0)
		return sw_fail(err, errlen, "option --format: '%s' is not table or classic", f);
	return format;
}

static int report_main(const struct cli_args *a)
{
	struct sw_config cfg;
	struct sw_run *r, *u = NULL;
	struct sw_analysis *an;
	struct report_maps *maps = NULL;
	char err[1024];
	int format = cmd_report_format(a, err, sizeof(err)), rc = SW_EXIT_FAIL;

	if (format < 0)
		return cli_usage_error(a, "%s", err);
	r = results_load(a->args[0], err, sizeof(err));
	if (!r) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	cfg = r->cfg;   /* the run's own config, the overrides on top */
	if (config_set_args(&cfg, a->sets, a->nsets, err, sizeof(err))) {
		rc = cli_usage_error(a, "%s", err);
		goto out;
	}
	if (config_validate(&cfg, err, sizeof(err))) {
		rc = cli_usage_error(a, "%s", err);
		goto out;
	}
	an = analysis_run(r, &cfg, err, sizeof(err));
	if (!an) {
		fprintf(stderr, "swstress: %s: %s\n", a->args[0], err);
		goto out;
	}
	r->cfg = cfg;
	if (cfg.schedule == CFG_SCHEDULE_MAP) {
		char dir[SW_PATH_MAX], hosts[SW_PATH_MAX + 16], line[256] = "";
		struct stat st;
		FILE *hf;

		/* RESULT is the folder or its run.json */
		snprintf(dir, sizeof(dir), "%s", a->args[0]);
		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			char *slash = strrchr(dir, '/');

			snprintf(slash ? slash : dir, sizeof(dir) - (size_t)(slash ? slash - dir : 0), "%s",
				 slash ? "" : ".");
		}
		/* a run keeps its [topology] groups in run.json; an older one
		 * did not: the files it wrote with them stay, the report's
		 * groups are inferred */
		snprintf(hosts, sizeof(hosts), "%s/hosts.csv", dir);
		if ((hf = fopen(hosts, "r"))) {
			if (!fgets(line, sizeof(line), hf))
				line[0] = '\0';
			fclose(hf);
		}
		if (strstr(line, "groups given") && !r->ngroup)
			fprintf(stderr, "swstress: note: %s: the run's map files kept (groups from its [topology]; "
				"the report's inferred)\n", dir);
		else if (mapout_write(dir, r, err, sizeof(err)))
			fprintf(stderr, "swstress: warning: %s: map files: %s\n", a->args[0], err);
	}
	/* the unloaded map read and checked before anything is printed */
	if (a->opt[CLI_UNLOADED]) {
		if (!(u = results_load(a->opt[CLI_UNLOADED], err, sizeof(err))) ||
		    report_map_check(r, u, err, sizeof(err))) {
			fprintf(stderr, "swstress: %s\n", err);
			analysis_free(an);
			goto out;
		}
		/* the loaded map's statistics, once for its tables and the contrast */
		if (!(maps = report_maps_analyse(r))) {
			fprintf(stderr, "swstress: out of memory\n");
			analysis_free(an);
			goto out;
		}
	}
	report_print_maps(stdout, r, an, format | (a->opt[CLI_VERBOSE] ? REPORT_VERBOSE : 0), maps);
	analysis_free(an);
	if (u && report_map_contrast(stdout, r, maps, u, err, sizeof(err))) {
		fprintf(stderr, "swstress: %s\n", err);
		goto out;
	}
	rc = SW_EXIT_OK;
out:
	report_maps_free(maps);
	run_free(u);
	run_free(r);
	return rc;
}

const struct cli_command report_command = {
	.name = "report",
	.synopsis = "RESULT [--format F] [--verbose] [--unloaded MAP] [key=value ...]",
	.summary = "recompute every statistic from samples.csv and print the report",
	.description = "RESULT is a results folder or its run.json. key=value words change the\n"
		       "statistics on top of the run's config, e.g. confidence=0.99 alpha=0.01.\n"
		       "For a fabric map, --unloaded MAP (the same hosts, map_concurrency = 1) sets\n"
		       "the loaded map beside the unloaded one: each claim is a fault (slow on both)\n"
		       "or congestion (slow only under load).\n",
	.options = CLI_OPT(CLI_FORMAT) | CLI_OPT(CLI_VERBOSE) | CLI_OPT(CLI_UNLOADED),
	.min_args = 1,
	.max_args = 1,
	.keys = true,
	.fn = report_main,
};
