/*
 * cli.c - the command-line grammar: the option table, parsing with
 * getopt_long, --help, the man page and the completion lists, all printed
 * from the same tables (see cli.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "config.h"
#include "sw.h"

struct cli_row {
	const char *name;   /* long name, without "--" */
	char letter;        /* short option, 0 for none */
	const char *value;  /* value name; NULL for a flag */
	const char *help;
};

static const struct cli_row rows[CLI_NOPTIONS] = {
	[CLI_CONFIG] = { "config", 'c', "FILE", "config file (INI); without one the built-in defaults "
		"(swstress --help lists them); run, plan and check also take it as their one argument" },
	[CLI_RANKS] = { "ranks", 'n', "N", "number of ranks to plan for (at least 2)" },
	[CLI_UNLOADED] = { "unloaded", 0, "MAP", "a map of the same hosts run one pair at a time (map_concurrency "
		"= 1): each claim is then a fault (slow unloaded too) or congestion (slow only under load)" },
	[CLI_CORES] = { "cores", 0, "N", "the ranks share N cores of one machine: the estimate counts busy ranks "
		"waiting for a CPU (a run finds this out itself)" },
	[CLI_LABEL] = { "label", 0, "L", "same as label=L: the run's name, the start of its folder name" },
	[CLI_FORMAT] = { "format", 0, "F", "output format: table (default) or classic (mailing-list lines)" },
	[CLI_PROGRESS] = { "progress", 0, NULL, "progress on stderr even when it is not a terminal" },
	[CLI_NO_PLOT] = { "no-plot", 0, NULL, "no charts" },
	[CLI_SVG] = { "svg", 0, NULL, "SVG charts instead of PNG" },
	[CLI_PORTS_PER_SIZE] = { "ports-per-size", 0, NULL, "also a per-pair map for every message size" },
	[CLI_OUTPUT] = { "output", 'o', "DIR", "folder for the files written (default results/NAME-YYYYmmdd-HHMMSS)" },
	[CLI_BASELINE] = { "baseline", 0, "PATH|NAME", "what to judge against: a results folder (or run.json) "
		"of a healthy run, or a baseline set (swstress baseline)" },
	[CLI_PROM] = { "prom", 0, "FILE", "also write the verdict as a node_exporter textfile, atomically" },
	[CLI_JSON] = { "json", 0, NULL, "print the verdict as one JSON object instead of plugin output" },
	[CLI_HISTORY] = { "history", 0, "FILE", "history database (default OUTPUT/history.sqlite, "
		"results/history.sqlite)" },
	[CLI_NO_HISTORY] = { "no-history", 0, NULL, "do not record the run in the history database" },
	[CLI_SINCE] = { "since", 0, "DATE", "only runs that started at or after DATE: YYYY-MM-DD, "
		"YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM] or the forms `date -Is` and `date -u` print" },
	[CLI_STORE] = { "store", 0, "STORE", "catalog store: an SQLite file (default results/catalog.sqlite) "
		"or postgresql://USER@HOST/DB" },
	[CLI_MAN] = { "man", 0, NULL, "print the manual page swstress(1) (troff)" },
	[CLI_LIST] = { "list", 0, "WHAT", "for shell completion: commands, keys, or options of COMMAND "
		"(one per line)" },
	[CLI_TIME_LIMIT] = { "time-limit", 0, "SECONDS", "end COMMAND (TERM, then KILL 5 s later) when it has not "
		"ended after SECONDS, and report UNKNOWN (set it above the check's deadline + 30 s)" },
	[CLI_VERBOSE] = { "verbose", 0, NULL, "every CI, the message rates and the method in full (wide; else "
		"within 80 columns, the method in one line)" },
	[CLI_SWITCH] = { "switch", 0, "MODEL", "only the runs of this switch: its [switch] model, or vendor "
		"and model" },
	[CLI_HISTORY_LABEL] = { "label", 0, "L", "only the runs of label L (the start of their folder names)" },
	[CLI_HISTORY_FORMAT] = { "format", 0, "F", "table (default) or csv (one row per run and cell, for "
		"plot/trend.gp)" },
	[CLI_SHARED_NODE] = { "shared-node", 0, NULL, "publish runs whose ranks shared a host (allow_shared_node "
		"= yes): they measured the host, not a switch, and the site marks them" },
};

/* Values of getopt_long for options without a letter: above any char. */
#define LONG_ONLY 0x100

static const char *const g_description =
	"Network switch stress tester: pairs MPI ranks (one per node), loads 1, 2, ...\n"
	"N/2 pairs at once and reports per-hop latency and bandwidth at each load level,\n"
	"and how far they fall off from the unloaded switch, with confidence intervals\n"
	"and significance tests.\n";

static const char *const g_exit_status =
	"0 success; 1 measurement failed (watchdog, MPI error, I/O); 2 usage or config error;\n"
	"128 + N run stopped by signal N (130 SIGINT, 143 SIGTERM; results written).\n"
	"judge and check (Nagios plugins): 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.\n";

static const char *const g_environment =
	"SWSTRESS_FAULT_STALL=RANK[:LEVEL]  rank RANK stops answering at level LEVEL (default 1)\n"
	"SWSTRESS_FAULT_DELAY=RANK:USEC     rank RANK waits USEC us before each message it sends\n"
	"SWSTRESS_PLOT_DIR=DIR              where the gnuplot scripts are\n"
	"SWSTRESS_PRELOAD=0                 run and check do not load their MPI_Finalize\n"
	"                                   workaround (finalize_preload.so; see README)\n";

static const char *const g_example =
	"mpiexec -f hosts -ppn 1 -n 48 swstress run -c configs/procurement.conf --label switchA\n";

static const struct cli_command *const *g_cmds;   /* for the help command */
static int g_ncmds;

static int opt_id(int val)
{
	for (int i = 0; i < CLI_NOPTIONS; i++)
		if (val == (rows[i].letter ? rows[i].letter : LONG_ONLY + i))
			return i;
	return -1;
}

int cli_usage_status(const struct cli_command *cmd)
{
	return cmd->nagios ? SW_NAGIOS_UNKNOWN : SW_EXIT_USAGE;
}

static void report_usage(const struct cli_command *cmd, const char *msg)
{
	if (cmd->nagios)
		printf("SWSTRESS UNKNOWN - bad arguments: %s\n", msg);
	else
		fprintf(stderr, "swstress: %s\n", msg);
}

int cli_usage_error(const struct cli_args *a, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	report_usage(a->cmd, msg);
	return cli_usage_status(a->cmd);
}

/* A word is a key=value setting when what precedes '=' could be a key
 * (letters, digits, '_', '-') and, unless it is a known key, the word
 * names no existing file: results/a=b and x=1 (a folder) are paths. */
static bool is_setting(const char *w)
{
	const char *eq = strchr(w, '=');
	char key[64];
	size_t n = eq ? (size_t)(eq - w) : 0;

	if (!n || n >= sizeof(key) ||
	    strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") < n)
		return false;
	memcpy(key, w, n);
	key[n] = '\0';
	return config_has_key(key) || access(w, F_OK) != 0;
}

/* One word that is not an option. */
static int add_word(struct cli_args *a, const char *w)
{
	if (a->cmd->keys && is_setting(w)) {
		if (a->nsets == CLI_MAX_WORDS)
			return sw_fail(a->error, sizeof(a->error), "more than %d key=value words", CLI_MAX_WORDS);
		a->sets[a->nsets++] = w;
		return 0;
	}
	if (a->nargs == CLI_MAX_WORDS)
		return sw_fail(a->error, sizeof(a->error), "more than %d arguments", CLI_MAX_WORDS);
	a->args[a->nargs++] = w;
	return 0;
}

/* Parse argv[2..] for cmd into a: PARSED, HELP or VERSION asked, or -1
 * with bad usage in a->error. */
enum { PARSED = 0, HELP = 1, VERSION = 2 };

static int parse(const struct cli_command *cmd, int argc, char **argv, struct cli_args *a)
{
	struct option longopts[CLI_NOPTIONS + 1];
	char shortopts[2 * CLI_NOPTIONS + 8] = "-:";
	size_t ns = strlen(shortopts);
	int nl = 0, c;
	char **words;

	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->argc = argc;
	a->argv = argv;
	for (int i = 0; i < CLI_NOPTIONS; i++) {
		if (!(cmd->options & CLI_OPT(i)))
			continue;
		longopts[nl++] = (struct option){ rows[i].name, rows[i].value ? required_argument : no_argument,
						  NULL, rows[i].letter ? rows[i].letter : LONG_ONLY + i };
		if (rows[i].letter) {
			shortopts[ns++] = rows[i].letter;
			if (rows[i].value)
				shortopts[ns++] = ':';
		}
	}
	shortopts[ns] = '\0';
	longopts[nl] = (struct option){ 0 };

	/* --help and --version win over anything else on the line */
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return HELP;
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
			return VERSION;
	}
	/* getopt permutes what it parses: parse a copy, keep argv's order. */
	words = malloc((size_t)(argc > 1 ? argc : 2) * sizeof(*words));
	if (!words)
		return sw_fail(a->error, sizeof(a->error), "out of memory");
	words[0] = argv[0];
	for (int i = 2; i < argc; i++)
		words[i - 1] = argv[i];
	opterr = 0;
	optind = 0;   /* glibc: start afresh (tests parse many command lines) */
	while ((c = getopt_long(argc - 1, words, shortopts, longopts, NULL)) != -1) {
		const char *bad = words[optind - 1];
		int id;

		if (c == 1) {
			if (add_word(a, optarg))
				goto fail;
			continue;
		}
		if (c == ':') {
			id = opt_id(optopt);
			sw_fail(a->error, sizeof(a->error), "option --%s needs a value (%s)",
				id >= 0 ? rows[id].name : "?", id >= 0 ? rows[id].value : "");
			goto fail;
		}
		if (c == '?') {
			id = opt_id(optopt);
			if (optopt && id >= 0 && (cmd->options & CLI_OPT(id)))
				sw_fail(a->error, sizeof(a->error), "option --%s takes no value", rows[id].name);
			else if (optopt)
				sw_fail(a->error, sizeof(a->error), "unknown option '-%c' (see swstress %s --help)",
					optopt, cmd->name);
			else
				sw_fail(a->error, sizeof(a->error), "unknown option '%s' (see swstress %s --help)",
					bad, cmd->name);
			goto fail;
		}
		id = opt_id(c);
		if (rows[id].value && !optarg[0]) {
			sw_fail(a->error, sizeof(a->error), "option --%s needs a value (%s)", rows[id].name,
				rows[id].value);
			goto fail;
		}
		if (id == CLI_CONFIG && a->opt[id]) {   /* the last -n wins; a second config would hide the first */
			sw_fail(a->error, sizeof(a->error), "option --%s given twice ('%s', then '%s')", rows[id].name,
				a->opt[id], optarg);
			goto fail;
		}
		a->opt[id] = rows[id].value ? optarg : "";
	}
	for (int i = optind; i < argc - 1; i++)   /* after "--" */
		if (add_word(a, words[i]))
			goto fail;
	free(words);
	if (a->nargs < cmd->min_args || a->nargs > cmd->max_args) {
		if (a->nargs > cmd->max_args)
			return sw_fail(a->error, sizeof(a->error), "unexpected argument '%s' (usage: swstress %s %s)",
				       a->args[cmd->max_args], cmd->name, cmd->synopsis);
		return sw_fail(a->error, sizeof(a->error), "%s needs %s (usage: swstress %s %s)", cmd->name,
			       cmd->min_args > 1 ? "more arguments" : "an argument", cmd->name, cmd->synopsis);
	}
	return PARSED;
fail:
	free(words);
	return -1;
}

int cli_run(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli_args *a = malloc(sizeof(*a));
	int rc;

	if (!a) {
		fputs("swstress: out of memory\n", stderr);
		return SW_EXIT_FAIL;
	}
	rc = parse(cmd, argc, argv, a);
	if (rc == HELP) {
		cli_print_help(stdout, cmd);
		rc = SW_EXIT_OK;
	} else if (rc == VERSION) {
		printf("swstress %s\n", SW_VERSION);
		rc = SW_EXIT_OK;
	} else if (rc < 0 && !cmd->mpi) {
		report_usage(cmd, a->error);
		rc = cli_usage_status(cmd);
	} else {
		rc = cmd->fn(a);
	}
	free(a);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Help                                                               */

static void option_label(char *buf, size_t len, int id)
{
	const struct cli_row *r = &rows[id];

	snprintf(buf, len, "%c%c%c --%s%s%s", r->letter ? '-' : ' ', r->letter ? r->letter : ' ',
		 r->letter ? ',' : ' ', r->name, r->value ? "=" : "", r->value ? r->value : "");
}

/* "  LABEL  help" with the help wrapped at 79 columns. */
static void print_option(FILE *f, const char *label, const char *help)
{
	int col = fprintf(f, "  %-22s", label);

	while (*help) {
		size_t n = strcspn(help, " ");

		if (col + 1 + (int)n > 79) {
			fprintf(f, "\n%24s", "");
			col = 24;
		}
		col += fprintf(f, " %.*s", (int)n, help);
		help += n + (help[n] == ' ');
	}
	fputc('\n', f);
}

void cli_print_help(FILE *f, const struct cli_command *cmd)
{
	char label[64];

	fprintf(f, "usage: swstress %s %s\n\n%s\noptions:\n", cmd->name, cmd->synopsis, cmd->description);
	for (int i = 0; i < CLI_NOPTIONS; i++)
		if (cmd->options & CLI_OPT(i)) {
			option_label(label, sizeof(label), i);
			print_option(f, label, rows[i].help);
		}
	print_option(f, "-h, --help", "this text");
	print_option(f, "-V, --version", "the version");
	if (cmd->keys)
		fputs("\nkey=value sets a config key (swstress --help lists them).\n", f);
	if (cmd->nagios)
		fputs("\nexit status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.\n", f);
}

/* text with every line indented by two blanks */
static void print_indented(FILE *f, const char *title, const char *text)
{
	fprintf(f, "\n%s:\n", title);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static void print_usage(FILE *f)
{
	fprintf(f, "usage: swstress COMMAND [options] [key=value ...]\n\n%s\ncommands:\n", g_description);
	for (int i = 0; i < g_ncmds; i++)
		fprintf(f, "  %-9s %s\n", g_cmds[i]->name, g_cmds[i]->summary);
	fputs("\nswstress COMMAND --help shows a command's options; every command takes -h/--help\n"
	      "and -V/--version. Options may come anywhere, as --opt=value or --opt value.\n", f);
	print_indented(f, "example", g_example);
	print_indented(f, "exit status", g_exit_status);
	print_indented(f, "environment", g_environment);
	fputs("\nconfig keys (INI file or key=value on the command line; bandwidth MB/s = 10^6 bytes/s):\n", f);
	config_print_keys(f);
}

/* ---------------------------------------------------------------- */
/* The man page                                                       */

/* Text for troff: escapes, and a line may not start with a control
 * character. */
static void man_line(FILE *f, const char *s, size_t n)
{
	if (n && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
	fputc('\n', f);
}

/* Lines of text: an empty line starts a paragraph, indented lines are
 * kept as they are (examples). */
static void man_text(FILE *f, const char *text)
{
	bool verbatim = false;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		bool indented = n > 1 && p[0] == ' ' && p[1] == ' ';

		if (indented != verbatim) {
			fputs(indented ? ".nf\n" : ".fi\n", f);
			verbatim = indented;
		}
		if (n == 0)
			fputs(".PP\n", f);
		else
			man_line(f, p, n);
		p += n + (nl != NULL);
	}
	if (verbatim)
		fputs(".fi\n", f);
}

static void man_option(FILE *f, int id)
{
	char label[64];

	option_label(label, sizeof(label), id);
	fputs(".TP\n.B ", f);
	man_line(f, label + strspn(label, " "), strlen(label + strspn(label, " ")));
	man_line(f, rows[id].help, strlen(rows[id].help));
}

static void print_man(FILE *f)
{
	char line[256];
	const char *key, *def, *help;

	fprintf(f, ".TH SWSTRESS 1 \"\" \"swstress %s\" \"User Commands\"\n.SH NAME\n"
		"swstress \\- network switch stress tester\n.SH SYNOPSIS\n.nf\n", SW_VERSION);
	for (int i = 0; i < g_ncmds; i++) {
		snprintf(line, sizeof(line), "swstress %s %s", g_cmds[i]->name, g_cmds[i]->synopsis);
		man_line(f, line, strlen(line));
	}
	fputs(".fi\n.SH DESCRIPTION\n", f);
	man_text(f, g_description);
	fputs(".PP\nOptions may come anywhere among the words, as \\-\\-opt=value or \\-\\-opt value;\n"
	      "a word key=value sets a config key (see CONFIGURATION KEYS).\n"
	      "Every command takes \\-h, \\-\\-help (its options) and \\-V, \\-\\-version.\n"
	      ".SH COMMANDS\n", f);
	for (int i = 0; i < g_ncmds; i++) {
		const struct cli_command *c = g_cmds[i];

		snprintf(line, sizeof(line), "swstress %s %s", c->name, c->synopsis);
		fputs(".SS \"", f);
		for (const char *p = line; *p; p++)
			fputs(*p == '-' ? "\\-" : *p == '"' ? "\\(dq" : (char[2]){ *p, 0 }, f);
		fputs("\"\n", f);
		man_text(f, c->description);
		for (int id = 0; id < CLI_NOPTIONS; id++)
			if (c->options & CLI_OPT(id))
				man_option(f, id);
	}
	fputs(".SH CONFIGURATION KEYS\nA config file is INI ([sweep], [stats], [health] sections);\n"
	      "key=value on the command line overrides it. Bandwidth MB/s = 10^6 bytes/s.\n", f);
	for (int i = 0; (key = config_key(i, &def, &help)); i++) {
		snprintf(line, sizeof(line), "%s (default: %s)", key, def ? def : "none");
		fputs(".TP\n.B ", f);
		man_line(f, line, strlen(line));
		man_line(f, help, strlen(help));
	}
	fputs(".SH EXIT STATUS\n", f);
	man_text(f, g_exit_status);
	fputs(".SH ENVIRONMENT\n.nf\n", f);
	man_text(f, g_environment);
	fputs(".fi\n.SH EXAMPLE\n.nf\n", f);
	man_text(f, g_example);
	fputs(".fi\n.SH SEE ALSO\n.BR mpiexec (1),\n.BR srun (1),\n.BR sbatch (1),\n.BR scrontab (1),\n"
	      ".BR gnuplot (1)\n", f);
}

/* ---------------------------------------------------------------- */
/* The help command                                                   */

static const struct cli_command *find_command(const char *name)
{
	for (int i = 0; i < g_ncmds; i++)
		if (!strcmp(g_cmds[i]->name, name))
			return g_cmds[i];
	return NULL;
}

static int list(const struct cli_args *a)
{
	const char *what = a->opt[CLI_LIST], *key;
	const struct cli_command *cmd;

	if (!strcmp(what, "commands")) {
		for (int i = 0; i < g_ncmds; i++)
			printf("%s\n", g_cmds[i]->name);
	} else if (!strcmp(what, "keys")) {
		for (int i = 0; (key = config_key(i, NULL, NULL)); i++)
			printf("%s\n", key);
	} else if (!strcmp(what, "options") && a->nargs == 1 && (cmd = find_command(a->args[0]))) {
		/* "--name VALUE" or "--name", and "-x VALUE" for a letter */
		for (int i = 0; i < CLI_NOPTIONS; i++) {
			const char *v = rows[i].value ? rows[i].value : "";

			if (!(cmd->options & CLI_OPT(i)))
				continue;
			if (rows[i].letter)
				printf("-%c%s%s\n", rows[i].letter, *v ? " " : "", v);
			printf("--%s%s%s\n", rows[i].name, *v ? " " : "", v);
		}
		printf("--help\n--version\n");
	} else {
		return cli_usage_error(a, "--list: '%s' is not commands, keys or options COMMAND", what);
	}
	return SW_EXIT_OK;
}

static int help_main(const struct cli_args *a)
{
	const struct cli_command *cmd = NULL;

	if (a->opt[CLI_MAN]) {
		print_man(stdout);
		return SW_EXIT_OK;
	}
	if (a->opt[CLI_LIST])
		return list(a);
	if (a->nargs && !(cmd = find_command(a->args[0])))
		return cli_usage_error(a, "unknown command '%s' (see swstress --help)", a->args[0]);
	if (cmd)
		cli_print_help(stdout, cmd);
	else
		print_usage(stdout);
	return SW_EXIT_OK;
}

static const struct cli_command help_command = {
	.name = "help",
	.synopsis = "[COMMAND] [--man] [--list=WHAT]",
	.summary = "this text, a command's options, the manual page",
	.description = "Without a word: the commands, the exit statuses and the config keys.\n"
		       "With COMMAND: the same as swstress COMMAND --help.\n",
	.options = CLI_OPT(CLI_MAN) | CLI_OPT(CLI_LIST),
	.max_args = 1,
	.fn = help_main,
};

int cli_main(const struct cli_command *const *cmds, int ncmds, int argc, char **argv)
{
	static const struct cli_command *all[64];
	const char *name = argc > 1 ? argv[1] : NULL;

	g_ncmds = 0;
	for (int i = 0; i < ncmds && g_ncmds < 63; i++)
		all[g_ncmds++] = cmds[i];
	all[g_ncmds++] = &help_command;
	g_cmds = all;
	if (!name) {
		print_usage(stderr);
		return SW_EXIT_USAGE;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		print_usage(stdout);
		return SW_EXIT_OK;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("swstress %s\n", SW_VERSION);
		return SW_EXIT_OK;
	}
	const struct cli_command *cmd = find_command(name);

	if (!cmd) {
		fprintf(stderr, "swstress: unknown command '%s' (see swstress --help)\n", name);
		return SW_EXIT_USAGE;
	}
	return cli_run(cmd, argc, argv);
}
