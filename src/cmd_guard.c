/*
 * guard.c - `swstress guard -- COMMAND...`: the Nagios promise whatever
 * happens to the ranks.
 *
 * mpiexec's own exit status says nothing Nagios can use when a rank is
 * killed (9), rank 0 stops, or mpiexec is interrupted (2, the code of a
 * usage error). The guard runs COMMAND (typically `mpiexec ... swstress
 * check ...`) as a child in its own process group, passes its stdout
 * through, forwards SIGINT, SIGTERM and SIGHUP (as SIGTERM) to that group,
 * and ends with exactly one Nagios status: the status of the first
 * "SWSTRESS STATUS" line (or JSON verdict, {"status":"STATUS",...}: check
 * --json) COMMAND printed, or, when none came, its own line
 * "SWSTRESS UNKNOWN - ..." saying how COMMAND ended, exit 3. With
 * --time-limit it ends COMMAND that has not ended in time (a rank stopped
 * so that nothing else ends the job). The status line comes first, as
 * Nagios reads the first line as the status: what COMMAND prints before
 * it (Hydra's banner about a killed rank) is held back and follows it.
 * When the guard's stderr is not a terminal (cron's ">check.last 2>&1"),
 * COMMAND's stderr is held back too, until the status line is out.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "health.h"
#include "sw.h"

#define KILL_GRACE 5.0   /* s from TERM to KILL at the time limit */
#define HOLD_MAX 16384   /* bytes held back before the status line */

static volatile sig_atomic_t g_child;    /* the child's process group */
static volatile sig_atomic_t g_signal;   /* the first signal the guard got */
static volatile sig_atomic_t g_sent_int, g_sent_term;

/* mpiexec (Hydra) passes SIGINT and SIGTERM on to the ranks, which then
 * record the signal in the results; a SIGHUP ends it and its ranks at
 * once, with nothing recorded, so a SIGHUP goes on as SIGTERM. Each goes
 * on once: a second SIGINT makes Hydra kill the ranks before they have
 * written (and `timeout`, or a shell's process group, often delivers one
 * signal twice). */
static void forward(int sig)
{
	volatile sig_atomic_t *sent = sig == SIGINT ? &g_sent_int : &g_sent_term;

	if (!g_signal)
		g_signal = sig;
	if (g_child > 0 && !*sent) {
		*sent = 1;
		kill(-(pid_t)g_child, sig == SIGINT ? SIGINT : SIGTERM);
	}
}

/* The Nagios status of a verdict line, or -1: the text verdict
 * "SWSTRESS WORD ..." or the JSON one of check --json and judge --json,
 * {"status":"WORD",...} on one line. */
static int line_status(const char *line)
{
	static const char json[] = "{\"status\":\"";
	size_t at;

	if (strncmp(line, "SWSTRESS ", 9) == 0)
		at = 9;
	else if (strncmp(line, json, sizeof(json) - 1) == 0)
		at = sizeof(json) - 1;
	else
		return -1;
	for (int i = SW_NAGIOS_OK; i <= SW_NAGIOS_UNKNOWN; i++) {
		const char *word = health_status_name(i), *end = line + at + strlen(word);

		if (strncmp(line + at, word, strlen(word)) == 0 &&
		    (at == 9 ? *end == ' ' || *end == '\n' || *end == '\0' : *end == '"'))
			return i;
	}
	return -1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Has child pid ended (its wait status into *ws)? */
static bool ended(pid_t pid, int *ws)
{
	return waitpid(pid, ws, WNOHANG) == pid;
}

/* COMMAND's output before its first status line; line: where the line
 * being read starts. Passing once a status line came, or when it is full. */
struct hold {
	char buf[HOLD_MAX];
	size_t len, line;
	bool passing;
};

/* Print what is held (after the guard's own status line) and pass the rest. */
static void release(struct hold *h)
{
	fwrite(h->buf, 1, h->len, stdout);
	h->len = h->line = 0;
	h->passing = true;
}

/* One byte of COMMAND's output: held until the status line, then passed. */
static void hold_byte(struct hold *h, char c)
{
	if (!h->passing && h->len == sizeof(h->buf))
		release(h);
	if (h->passing)
		fputc(c, stdout);
	else
		h->buf[h->len++] = c;
}

/* A status line ended the held text at h->len: it first, then the rest. */
static void status_first(struct hold *h)
{
	fwrite(h->buf + h->line, 1, h->len - h->line, stdout);
	h->len = h->line;
	release(h);
}

/* COMMAND's stderr while guard's stderr is not a terminal (cron's
 * ">check.last 2>&1"): held until the status line is out, so that the
 * status line comes first in the file, then written to stderr. fd -1:
 * stderr passes straight through (a terminal). */
struct ehold {
	int fd;
	char buf[4 * HOLD_MAX];
	size_t len;
	bool passing;
};

/* Write what stderr held (after the status line), and pass the rest. */
static void erelease(struct ehold *e)
{
	fflush(stdout);
	if (e->len)
		(void)!write(STDERR_FILENO, e->buf, e->len);
	e->len = 0;
	e->passing = true;
}

/* Read what COMMAND's stderr has (fd readable): held, or passed once the
 * status line is out (or the hold is full). At its end fd is closed. */
static void eread(struct ehold *e)
{
	char buf[4096];
	ssize_t got = read(e->fd, buf, sizeof(buf));

	if (got < 0 && errno == EINTR)
		return;
	if (got <= 0) {
		close(e->fd);
		e->fd = -1;
		return;
	}
	if (!e->passing && e->len + (size_t)got > sizeof(e->buf))
		erelease(e);
	if (e->passing)
		(void)!write(STDERR_FILENO, buf, (size_t)got);
	else {
		memcpy(e->buf + e->len, buf, (size_t)got);
		e->len += (size_t)got;
	}
}

/* What is left on COMMAND's stderr (it has ended), then all of it out. */
static void edrain(struct ehold *e)
{
	while (e->fd >= 0) {
		struct pollfd p = { .fd = e->fd, .events = POLLIN };

		if (poll(&p, 1, 100) <= 0)
			break;
		eread(e);
	}
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
	erelease(e);
}

/*
 * Pass fd (COMMAND's stdout) through to stdout until COMMAND has ended and
 * nothing is left to read, noting the status of the first status line in
 * *status; what comes before that line is held in *h and printed after it.
 * The pipe is not waited on past COMMAND's end (a process it left behind
 * may hold it open). 0 (COMMAND reaped, its wait status in *ws), or -1 at
 * the time limit (end, monotonic; 0 for none) with COMMAND running.
 */
static int pass_through(int fd, pid_t pid, double end, int *status, int *ws, struct hold *h, struct ehold *e)
{
	char buf[4096], head[64];
	size_t hlen = 0;
	bool done = false;

	for (;;) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = e->fd, .events = POLLIN } };
		int ms = done ? 0 : 200, n;
		ssize_t got;

		if (!done && end > 0 && now() >= end)
			return -1;
		n = poll(p, 2, ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0 && e->fd >= 0 && p[1].revents) {
			eread(e);
			if (!p[0].revents)
				continue;
		}
		if (n == 0 && done)
			break;
		if (n == 0) {
			done = ended(pid, ws);
			continue;
		}
		got = n < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		for (ssize_t i = 0; i < got; i++) {
			hold_byte(h, buf[i]);
			if (buf[i] != '\n') {
				if (hlen < sizeof(head) - 1)
					head[hlen++] = buf[i];
				continue;
			}
			head[hlen] = '\0';
			if (*status < 0 && (*status = line_status(head)) >= 0) {
				if (!h->passing)
					status_first(h);
				erelease(e);
			}
			h->line = h->len;
			hlen = 0;
		}
		fflush(stdout);
	}
	head[hlen] = '\0';
	if (*status < 0 && (*status = line_status(head)) >= 0 && !h->passing) {
		hold_byte(h, '\n');
		status_first(h);
	}
	if (*status >= 0)
		erelease(e);
	while (!done && !(done = ended(pid, ws))) {   /* stdout closed, COMMAND still running */
		if (end > 0 && now() >= end)
			return -1;
		usleep(50000);
	}
	return 0;
}

/* The time limit passed: TERM to COMMAND's process group, KILL after
 * KILL_GRACE s, and reap it. */
static void end_command(pid_t pid, int *ws)
{
	double until = now() + KILL_GRACE;

	kill(-pid, SIGTERM);
	while (!ended(pid, ws)) {
		if (now() >= until) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, ws, 0) < 0 && errno == EINTR)
				;
			return;
		}
		usleep(50000);
	}
}

static int guard_main(const struct cli_args *a)
{
	static struct hold held;
	static struct ehold eheld = { .fd = -1 };
	int fd[2], efd[2] = { -1, -1 }, status = -1, ws = 0;
	double limit = 0;
	struct sigaction sa = { .sa_handler = forward };
	pid_t pid;

	if (a->opt[CLI_TIME_LIMIT] && sw_parse_double(a->opt[CLI_TIME_LIMIT], 1, 7 * 86400, &limit))
		return cli_usage_error(a, "option --time-limit: '%s' is not a number of seconds from 1 to 604800",
				       a->opt[CLI_TIME_LIMIT]);
	if (pipe(fd) || (!isatty(STDERR_FILENO) && pipe(efd))) {
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
		if (efd[1] >= 0) {
			dup2(efd[1], STDERR_FILENO);
			close(efd[0]);
			close(efd[1]);
		}
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
	if (efd[1] >= 0)
		close(efd[1]);
	eheld.fd = efd[0];
	if (pass_through(fd[0], pid, limit > 0 ? now() + limit : 0, &status, &ws, &held, &eheld)) {
		end_command(pid, &ws);
		g_child = 0;
		close(fd[0]);
		if (status >= 0) {
			edrain(&eheld);
			fprintf(stderr, "swstress: guard: '%s' had not ended after %g s (--time-limit): ended it\n",
				a->args[0], limit);
			return status;
		}
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict within %g s (--time-limit): ended it (TERM, "
		       "then KILL); a rank is stuck or stopped\n", a->args[0], limit);
		release(&held);
		edrain(&eheld);
		fflush(stdout);
		return SW_NAGIOS_UNKNOWN;
	}
	g_child = 0;
	close(fd[0]);
	if (status >= 0) {
		edrain(&eheld);
		return status;
	}
	if (WIFSIGNALED(ws))
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict: killed by signal %d (%s)\n", a->args[0],
		       WTERMSIG(ws), strsignal(WTERMSIG(ws)));
	else if (g_signal)
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict: stopped by signal %d (%s) to the guard, "
		       "exit %d\n", a->args[0], g_signal, strsignal(g_signal), WEXITSTATUS(ws));
	else
		printf("SWSTRESS UNKNOWN - '%s' printed no verdict (exit %d): a rank died, was killed or stopped answering; "
		       "see its messages on stderr\n", a->args[0], WEXITSTATUS(ws));
	release(&held);
	edrain(&eheld);
	fflush(stdout);
	return SW_NAGIOS_UNKNOWN;
}

const struct cli_command guard_command = {
	.name = "guard",
	.synopsis = "[--time-limit SECONDS] -- COMMAND [ARG ...]",
	.summary = "run a check (mpiexec ... swstress check ...) and always end with one Nagios status",
	.description =
		"Runs COMMAND, passes its output through and forwards SIGINT, SIGTERM and\n"
		"SIGHUP (as SIGTERM, which mpiexec passes on to the ranks) to it. Exits\n"
		"with the status of the first SWSTRESS status line (or check --json's\n"
		"{\"status\":...} line) COMMAND printed; when none came (a rank killed,\n"
		"rank 0 stopped, mpiexec interrupted), prints SWSTRESS UNKNOWN with how\n"
		"COMMAND ended and exits 3. The status line comes first: what COMMAND\n"
		"prints before it (and its stderr, when the guard's is not a terminal, as\n"
		"under cron) follows it. --time-limit ends COMMAND (TERM, then KILL 5 s\n"
		"later) when it has not ended after SECONDS.\n"
		"For cron, Slurm and Nagios: swstress guard --time-limit 200 -- mpiexec\n"
		"-f hosts -n 16 swstress check -c health.conf --baseline nightly\n",
	.options = CLI_OPT(CLI_TIME_LIMIT),
	.min_args = 1,
	.max_args = CLI_MAX_WORDS - 1,
	.nagios = true,
	.fn = guard_main,
};
