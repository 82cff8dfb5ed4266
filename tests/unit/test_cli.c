/*
 * test_cli.c - the command-line grammar (cli.c) on a test command: both
 * forms of long options, short options, key=value words, arguments, the
 * messages and exit statuses of bad usage, --help and --version.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "capture.h"
#include "cli.h"
#include "sw.h"

static struct cli_args g_seen;
static const char *g_argv2, *g_argv6;
static int g_calls;

static int remember(const struct cli_args *a)
{
	g_seen = *a;
	g_argv2 = a->argc > 2 ? a->argv[2] : NULL;
	g_argv6 = a->argc > 6 ? a->argv[6] : NULL;
	g_calls++;
	return 42;
}

static const struct cli_command test_cmd = {
	.name = "probe",
	.synopsis = "[FILE] [key=value ...]",
	.summary = "a test command",
	.description = "Probes the grammar.\n",
	.options = CLI_OPT(CLI_CONFIG) | CLI_OPT(CLI_LABEL) | CLI_OPT(CLI_JSON) | CLI_OPT(CLI_RANKS),
	.max_args = 1,
	.keys = true,
	.fn = remember,
};

/* Run cmd on the words (NULL-terminated) with stdout and stderr into out;
 * its exit status. */
static int run(const struct cli_command *cmd, char *out, size_t len, ...)
{
	char *argv[32] = { "swstress", (char *)cmd->name };
	int argc = 2, code;
	struct capture c;
	va_list ap;

	va_start(ap, len);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	g_calls = 0;
	cr_assert_eq(capture_start(&c, true), 0);
	code = cli_run(cmd, argc, argv);
	capture_end(&c, out, len);
	return code;
}

Test(cli, both_long_forms_short_options_keys_and_arguments)
{
	char out[2048];

	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--config=a.conf", "reps=5", "--label", "x y", "f1", "--json",
			 "sizes=8", NULL), 42, "%s", out);
	cr_assert_str_eq(g_seen.opt[CLI_CONFIG], "a.conf");
	cr_assert_str_eq(g_seen.opt[CLI_LABEL], "x y");
	cr_assert_str_eq(g_seen.opt[CLI_JSON], "");
	cr_assert_null(g_seen.opt[CLI_RANKS]);
	cr_assert_eq(g_seen.nargs, 1);
	cr_assert_str_eq(g_seen.args[0], "f1");
	cr_assert_eq(g_seen.nsets, 2);
	cr_assert_str_eq(g_seen.sets[0], "reps=5");
	cr_assert_str_eq(g_seen.sets[1], "sizes=8");
	/* the command still sees argv in its order (for MPI_Init and run.json) */
	cr_assert_str_eq(g_argv2, "--config=a.conf");
	cr_assert_str_eq(g_argv6, "f1");

	cr_assert_eq(run(&test_cmd, out, sizeof(out), "-cb.conf", "-n", "8", NULL), 42, "%s", out);
	cr_assert_str_eq(g_seen.opt[CLI_CONFIG], "b.conf");
	cr_assert_str_eq(g_seen.opt[CLI_RANKS], "8");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--ranks=4", "--", "-odd-name", NULL), 42, "%s", out);
	cr_assert_str_eq(g_seen.args[0], "-odd-name");
	cr_assert_str_eq(g_seen.opt[CLI_RANKS], "4");
}

Test(cli, bad_usage_is_one_line_and_exit_2)
{
	char out[2048];

	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--bogus", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: unknown option '--bogus' (see swstress probe --help)\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "-x", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: unknown option '-x' (see swstress probe --help)\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--svg", NULL), SW_EXIT_USAGE);   /* not probe's */
	cr_assert_str_eq(out, "swstress: unknown option '--svg' (see swstress probe --help)\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--label", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: option --label needs a value (L)\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "-c", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: option --config needs a value (FILE)\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--label=", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: option --label needs a value (L)\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "--json=yes", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: option --json takes no value\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "a", "b", NULL), SW_EXIT_USAGE);
	cr_assert_str_eq(out, "swstress: unexpected argument 'b' (usage: swstress probe [FILE] [key=value ...])\n");
	cr_assert_eq(g_calls, 0);
}

Test(cli, nagios_commands_report_unknown_and_mpi_commands_report_themselves)
{
	struct cli_command plugin = test_cmd, mpi = test_cmd;
	char out[2048];

	plugin.nagios = true;
	plugin.min_args = 1;
	cr_assert_eq(run(&plugin, out, sizeof(out), NULL), SW_NAGIOS_UNKNOWN);
	cr_assert_str_eq(out, "SWSTRESS UNKNOWN - bad arguments: probe needs an argument "
			      "(usage: swstress probe [FILE] [key=value ...])\n");
	mpi.mpi = true;
	cr_assert_eq(run(&mpi, out, sizeof(out), "--bogus", NULL), 42);
	cr_assert_str_eq(out, "");
	cr_assert_str_eq(g_seen.error, "unknown option '--bogus' (see swstress probe --help)");
}

Test(cli, help_and_version_exit_0)
{
	struct cli_command plugin = test_cmd;
	char out[4096];

	plugin.nagios = true;
	plugin.min_args = 1;
	/* even with what would be bad usage next to it */
	cr_assert_eq(run(&plugin, out, sizeof(out), "--help", "--bogus", NULL), 0);
	cr_assert(!strncmp(out, "usage: swstress probe [FILE] [key=value ...]\n\nProbes the grammar.\n", 61), "%s", out);
	cr_assert_not_null(strstr(out, "\n  -c, --config=FILE      config file"), "%s", out);
	cr_assert_not_null(strstr(out, "\n      --json             "), "%s", out);
	cr_assert_not_null(strstr(out, "\n  -h, --help             this text\n"), "%s", out);
	cr_assert_not_null(strstr(out, "3 UNKNOWN"), "%s", out);
	cr_assert_null(strstr(out, "--svg"), "%s", out);
	cr_assert_eq(run(&plugin, out, sizeof(out), "-h", NULL), 0);
	cr_assert(!strncmp(out, "usage: swstress probe", 21), "%s", out);
	cr_assert_eq(run(&plugin, out, sizeof(out), "-V", NULL), 0);
	cr_assert_str_eq(out, "swstress " SW_VERSION "\n");
	cr_assert_eq(run(&test_cmd, out, sizeof(out), "x", "--version", NULL), 0);
	cr_assert_str_eq(out, "swstress " SW_VERSION "\n");
	cr_assert_eq(g_calls, 0);
}
