/*
 * replay.c - feeds files to a fuzz target's LLVMFuzzerTestOneInput without
 * libFuzzer, so the corpus runs as a plain regression test built with the
 * normal compiler: replay FILE_OR_DIR... Every regular file of a folder
 * is fed once (no recursion). Prints "NAME: N inputs" and exits 0; a crash
 * or abort in the target ends it (and the test) with the input's name on
 * stderr. REPLAY_VERBOSE=1 names every input as it goes.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *volatile g_current;

/* Name the input that crashed the target, then die of the same signal. */
static void on_fatal(int sig)
{
	const char *p = g_current;

	if (p) {
		(void)!write(2, "replay: crashed on ", 19);
		(void)!write(2, p, strlen(p));
		(void)!write(2, "\n", 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit_report(void)
{
	if (g_current)
		fprintf(stderr, "replay: exited while running %s\n", g_current);
}

static int feed(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	g_current = path;
	if (getenv("REPLAY_VERBOSE"))
		fprintf(stderr, "%s\n", path);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	g_current = NULL;
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int count = 0, bad = 0;

	atexit(at_exit_report);
	signal(SIGSEGV, on_fatal);
	signal(SIGABRT, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGFPE, on_fatal);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			bad++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad += feed(argv[i]) != 0;
			count++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;

		if (!d) {
			perror(argv[i]);
			bad++;
			continue;
		}
		while ((e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			bad += feed(path) != 0;
			count++;
		}
		closedir(d);
	}
	printf("%s: %d inputs replayed, %d unreadable\n", argv[0], count, bad);
	return bad ? 1 : 0;
}
