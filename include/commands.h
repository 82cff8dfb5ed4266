/*
 * commands.h - the MPI-free commands that main.c dispatches to. Each gets
 * the whole argv (argv[1] is the command name) and returns the exit status
 * documented in --help. Implemented in their own modules.
 */
#ifndef COMMANDS_H
#define COMMANDS_H

int compare_main(int argc, char **argv);   /* compare.c */
int judge_main(int argc, char **argv);     /* health.c  */
int history_main(int argc, char **argv);   /* history.c */
int publish_main(int argc, char **argv);   /* store.c   */
int site_main(int argc, char **argv);      /* site.c    */
int baseline_main(int argc, char **argv);  /* baseline.c */

#endif
