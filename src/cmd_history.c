/*
 * cmd_history.c - `swstress history`: the command over history.h (argv in, the
 * table or CSV on stdout).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "commands.h"
#include "history.h"

static int history_main(const struct cli_args *a)
{
	const char *since = a->opt[CLI_SINCE], *file = a->opt[CLI_HISTORY];
	const char *format = a->opt[CLI_HISTORY_FORMAT] ? a->opt[CLI_HISTORY_FORMAT] : "table";
	char def[SW_PATH_MAX], err[1024], since_buf[32];
	int rc;

	if (since) {   /* stored times are "YYYY-MM-DDTHH:MM:SSZ": compare alike */
		time_t t;
		struct tm tm;

		if (history_parse_time(since, &t))
			return cli_usage_error(a, "option --since: '%s' is not a time (YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM], "
					       "or as date -u or date -R print it)", since);
		strftime(since_buf, sizeof(since_buf), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
		since = since_buf;
	}
	struct history_filter flt = { since, a->opt[CLI_HISTORY_LABEL], a->opt[CLI_SWITCH] };

	if (strcmp(format, "table") && strcmp(format, "csv"))
		return cli_usage_error(a, "option --format: '%s' is not table or csv", format);
	if (!file) {
		history_default_path("results", def, sizeof(def));
		file = def;
	}
	err[0] = '\0';
	rc = !strcmp(format, "csv") ? history_write_csv(stdout, file, &flt, err, sizeof(err))
				   : history_write_table(stdout, file, &flt, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "swstress: %s\n", err);
		return SW_EXIT_FAIL;
	}
	return fflush(stdout) ? SW_EXIT_FAIL : SW_EXIT_OK;
}

const struct cli_command history_command = {
	.name = "history",
	.synopsis = "[--since DATE] [--label L] [--switch MODEL] [--format table|csv] [--history FILE]",
	.summary = "past runs and checks with their verdicts, and the trend of every cell",
	.description = "From the history database that every run, check and judge appends to.\n"
		       "DATE without a zone is UTC. --label and --switch keep the runs of one label\n"
		       "or one switch ([switch] model, or vendor and model), so that a trend does not\n"
		       "mix them. --format csv: one row per run and cell, for plot/trend.gp.\n",
	.options = CLI_OPT(CLI_SINCE) | CLI_OPT(CLI_HISTORY_LABEL) | CLI_OPT(CLI_SWITCH) |
		   CLI_OPT(CLI_HISTORY_FORMAT) | CLI_OPT(CLI_HISTORY),
	.fn = history_main,
};
