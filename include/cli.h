/*
 * cli.h - the one command-line grammar of every swstress command. MPI-free.
 *
 * Every option of every command is one row of one table (cli.c: name,
 * short letter, value name, help). A command is a struct cli_command that
 * says which rows it accepts, what words it takes and what it does; main.c
 * lists the commands, each defined next to its function (the places a new
 * command takes: commands.h).
 * --help, the man page (swstress help --man) and the shell completion
 * (swstress help --list=...) are all printed from these tables, so they
 * cannot drift apart.
 *
 * Grammar (getopt_long): options anywhere among the words, --opt=value or
 * --opt value, -c FILE or -cFILE, "--" ends the options. A word with '='
 * is a config setting (key=value) for commands that take keys; any other
 * word is an argument. Every command takes -h/--help (exit 0) and
 * -V/--version (exit 0).
 *
 * Bad usage: "swstress: MESSAGE" on stderr and exit 2, or for the Nagios
 * commands (check, judge) "SWSTRESS UNKNOWN - bad arguments: MESSAGE" on
 * stdout and exit 3.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The rows of the option table. A new option: one id here, one row in
 * cli.c's table. */
enum cli_option {
	CLI_CONFIG,       /* -c, --config FILE */
	CLI_RANKS,        /* -n, --ranks N */
	CLI_LABEL,        /* --label L */
	CLI_FORMAT,       /* --format F */
	CLI_PROGRESS,     /* --progress */
	CLI_NO_PLOT,      /* --no-plot */
	CLI_SVG,          /* --svg */
	CLI_PORTS_PER_SIZE, /* --ports-per-size */
	CLI_OUTPUT,       /* -o, --output DIR */
	CLI_BASELINE,     /* --baseline PATH */
	CLI_PROM,         /* --prom FILE */
	CLI_JSON,         /* --json */
	CLI_HISTORY,      /* --history FILE */
	CLI_NO_HISTORY,   /* --no-history */
	CLI_SINCE,        /* --since DATE */
	CLI_STORE,        /* --store STORE */
	CLI_MAN,          /* help --man */
	CLI_LIST,         /* help --list WHAT */
	CLI_TIME_LIMIT,   /* guard --time-limit SECONDS */
	CLI_VERBOSE,      /* --verbose */
	CLI_SWITCH,       /* history --switch MODEL */
	CLI_SHARED_NODE,  /* publish --shared-node */
	CLI_HISTORY_LABEL,  /* history --label L (a filter, not a setting) */
	CLI_HISTORY_FORMAT, /* history --format table|csv */
	CLI_CORES,        /* plan --cores N */
	CLI_UNLOADED,     /* report --unloaded MAP */
	CLI_NOPTIONS
};

#define CLI_OPT(id) (UINT64_C(1) << (id))
#define CLI_MAX_WORDS 128   /* arguments, and key=value words, per command */

struct cli_args;

struct cli_command {
	const char *name;
	const char *synopsis;     /* what follows "swstress NAME" in the usage line */
	const char *summary;      /* one line in swstress --help */
	const char *description;  /* COMMAND --help and the man page: lines ending in \n */
	uint64_t options;         /* CLI_OPT(CLI_CONFIG) | ... */
	int min_args, max_args;   /* arguments (words that are not key=value) */
	bool keys;                /* takes key=value config settings */
	bool nagios;              /* a plugin: bad usage is UNKNOWN (3) on stdout */
	bool mpi;                 /* calls MPI_Init: gets bad usage in args->error and
	                           * reports it itself, once, from rank 0 */
	const char *preset;       /* "key=value" the command sets over the config
	                           * file, under the command line's (map:
	                           * schedule=map); NULL: none */
	int (*fn)(const struct cli_args *a);
};

/* A parsed command line. Strings point into argv. */
struct cli_args {
	const struct cli_command *cmd;
	int argc;                 /* as main got them, in their order (for MPI_Init */
	char **argv;              /* and the command line a run records) */
	const char *opt[CLI_NOPTIONS];   /* value; "" for a flag given; NULL: absent */
	const char *args[CLI_MAX_WORDS];
	int nargs;
	const char *sets[CLI_MAX_WORDS]; /* key=value words, in order */
	int nsets;
	char error[512];          /* mpi commands: bad usage to report; "" when none */
};

/* The whole program: argv[1] names the command (or help, --help, -h,
 * --version, -V); cmds lists the commands. Returns the exit status. */
int cli_main(const struct cli_command *const *cmds, int ncmds, int argc, char **argv);

/* One command: parse argv[2..] (argv[1] is its name), print its help or
 * the version when asked, report bad usage, else run cmd->fn. Returns the
 * exit status. Tests call commands through this. */
int cli_run(const struct cli_command *cmd, int argc, char **argv);

/* Report bad usage found by a command after parsing (a bad --format
 * value, a missing --baseline) in the command's style, once; returns the
 * usage exit status (2, or 3 for the Nagios commands). */
int cli_usage_error(const struct cli_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The usage exit status of cmd: 2, or 3 (UNKNOWN) for the Nagios commands. */
int cli_usage_status(const struct cli_command *cmd);

/* COMMAND --help. */
void cli_print_help(FILE *f, const struct cli_command *cmd);

#endif
