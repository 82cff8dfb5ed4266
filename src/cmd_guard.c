/*
 * guard.c - `swstress guard -- COMMAND...`: the Nagios promise whatever
 * happens to the ranks.
 *
 * mpiexec's own exit status says nothing Nagios can use when a rank is
 * killed (9), rank 0 stops, or mpiexec is interrupted (2, the code of a
 * usage error). The guard runs COMMAND (typically `mpiexec ... swstress
 * check ...`) as a child in its own process group, passes its stdout
 * through line by line, forwards SIGINT, SIGTERM and SIGHUP to that group,
 * and ends with exactly one Nagios status: the status of the first
 * "SWSTRESS STATUS" line COMMAND printed, or, when none came, its own line
 * "SWSTRESS UNKNOWN - ..." saying how COMMAND ended, exit 3.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "health.h"
#include "sw.h"

static volatile sig_atomic_t g_child;    /* the child's process group */
static volatile sig_atomic_t g_signal;   /* the first signal the guard got */

static void forward(int sig)
{
	if (!g_signal)
		g_signal = sig;
	if (g_child > 0)
		kill(-(pid_t)g_child, sig);
}

/* The Nagios status of a "SWSTRESS WORD ..." line, or -1. */
static int line_status(const char *line)
{
	if (strncmp(line, "SWSTRESS ", 9) != 0)
		return -1;
	for (int i = SW_NAGIOS_OK; i <= SW_NAGIOS_UNKNOWN; i++) {
		const char *word = health_status_name(i);
		size_t n = strlen(word);

		if (strncmp(line + 9, word, n) == 0 && (line[9 + n] == ' ' || line[9 + n] == '\n' ||
							    line[9 + n] == '\0'))
			return i;
	}
	return -1;
}

static int guard_main(const struct cli_args *a)
{
	int fd[2], status = -1, ws = 0;
	struct sigaction sa = { .sa_handler = forward };
	char *line = NULL;
	size_t cap = 0;
	FILE *in;
	pid_t pid;

	if (pipe(fd)) {
		printf("SWSTRESS UNKNOWN - guard: pipe: %s\n", strerror(errno));
		return SW_NAGIOS_UNKNOWN;
	}
	pid = fork();
	if (pid < 0) {
		printf("SWSTRESS UNKNOWN - guard: fork: %s\n", strerror(errno));
		return SW_NAGIOS_UNKNOWN;
	}
	if (pid == 0) {
		setpgid(0, 0);
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(a->args[0], (char *const *)a->args);
		fprintf(stderr, "swstress: guard: cannot run '%s': %s\n", a->args[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);   /* also here: no window where a signal misses the group */
	g_child = pid;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	close(fd[1]);
	in = fdopen(fd[0], "r");
	while (in) {
		ssize_t n;

		errno = 0;
		n = getline(&line, &cap, in);
		if (n < 0) {
			if (errno == EINTR) {
				clearerr(in);
				continue;
			}
			break;
		}
		if (status < 0)
			status = line_status(line);
		fputs(line, stdout);
		fflush(stdout);
	}
	free(line);
	if (in)
		fclose(in);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	g_child = 0;
	if (status >= 0)
		return status;
	if (WIFSIGNALED(ws))
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict: killed by signal %d (%s)\n", a->args[0],
		       WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else if (g_signal)
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict: stopped by signal %d (%s) to the guard, "
		       "exit %d\n", a->args[0], g_signal, strsignal(g_signal), WEXITSTATUS(ws));
	else
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict (exit %d): a rank died or was killed; "
		       "see its messages on stderr\n", a->args[0], WEXITSTATUS(ws));
	fflush(stdout);
	return SW_NAGIOS_UNKNOWN;
}

const struct cli_command guard_command = {
	.name = "guard",
	.synopsis = "-- COMMAND [ARG ...]",
	.summary = "run a check (mpiexec ... swstress check ...) and always end with one Nagios status",
	.description =
		"Runs COMMAND, passes its output through and forwards SIGINT, SIGTERM and\n"
		"SIGHUP to it. Exits with the status of the first SWSTRESS status line\n"
		"COMMAND printed; when none came (a rank killed, rank 0 stopped, mpiexec\n"
		"interrupted), prints SWSTRESS UNKNOWN with how COMMAND ended and exits 3.\n"
		"For cron, Slurm and Nagios: swstress guard -- mpiexec -f hosts -n 16\n"
		"swstress check -c health.conf --baseline nightly\n",
	.min_args = 1,
	.max_args = CLI_MAX_WORDS - 1,
	.nagios = true,
	.fn = guard_main,
};
