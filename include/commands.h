/*
 * commands.h - the command layer: the MPI-free commands that main.c
 * lists, each in its own src/cmd_NAME.c over the library's functions (see
 * cli.h), and the few helpers they share with run and check. The command
 * layer (cli.c, cmd_*.c) reads argv and prints on stdout; it is linked
 * into the swstress binary, never into libswstress.a, so the library can
 * be used without a command line.
 *
 * A new command takes three places: its struct cli_command beside its
 * function in src/cmd_NAME.c, its extern line here, and one line in
 * main.c's list. --help, the man page and the completion follow from the
 * struct.
 */
#ifndef COMMANDS_H
#define COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include "cli.h"

struct sw_config;
struct judge_opts;

extern const struct cli_command plan_command;      /* cmd_plan.c     */
extern const struct cli_command report_command;    /* cmd_report.c   */
extern const struct cli_command plot_command;      /* cmd_plot.c     */
extern const struct cli_command compare_command;   /* cmd_compare.c  */
extern const struct cli_command judge_command;     /* cmd_judge.c    */
extern const struct cli_command history_command;   /* cmd_history.c  */
extern const struct cli_command publish_command;   /* cmd_publish.c  */
extern const struct cli_command site_command;      /* cmd_site.c     */
extern const struct cli_command baseline_command;  /* cmd_baseline.c */
extern const struct cli_command guard_command;     /* cmd_guard.c    */

/* The config of plan, run and check: the defaults, then the config file
 * (-c FILE, or the one argument), the key=value words and --label.
 * 0 or -1 with a message in err. (cmd_plan.c) */
int cmd_config(const struct cli_args *a, struct sw_config *c, char *err, size_t errlen);

/* --format of report, run and check: REPORT_TABLE (the default) or
 * REPORT_CLASSIC, or -1 with a message in err. (cmd_report.c) */
int cmd_report_format(const struct cli_args *a, char *err, size_t errlen);

/* Render the charts of the results folder dir (plot.h's flags); prints
 * where they are on stderr. after_run: a missing gnuplot or a failed
 * chart is a note, not a failure. Returns an exit status. (cmd_plot.c) */
int cmd_charts(const char *dir, unsigned flags, bool after_run);

/* The options of judge and check (judge.h) from their parsed command
 * line. (cmd_judge.c) */
void judge_opts_from_args(const struct cli_args *a, struct judge_opts *o);

#endif
