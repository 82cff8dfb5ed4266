/*
 * commands.h - the MPI-free commands that main.c lists, each defined in
 * its own module beside its function (see cli.h). A new command: define
 * its struct cli_command in its module, declare it here, and add it to
 * main.c's list.
 */
#ifndef COMMANDS_H
#define COMMANDS_H

#include "cli.h"

extern const struct cli_command compare_command;   /* compare.c */
extern const struct cli_command judge_command;     /* judge.c   */
extern const struct cli_command history_command;   /* history.c */
extern const struct cli_command publish_command;   /* store.c   */
extern const struct cli_command site_command;      /* site.c    */
extern const struct cli_command baseline_command;  /* baseline.c */
extern const struct cli_command guard_command;     /* guard.c   */

#endif
