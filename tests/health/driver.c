/*
 * driver.c - a small MPI-free stand-in for the swstress binary in the
 * health shell tests: it writes the synthetic fixture folders of
 * tests/unit/health_fixture.h and runs judge and history through the same
 * commands main.c lists (judge_command, history_command), so the shell tests
 * need neither MPI nor the command wiring.
 *
 *   driver fixtures DIR        DIR/base, DIR/ok, DIR/drop30 (30% stream
 *                              drop at 8 nodes and a slow pair node07-08),
 *                              DIR/mismatch (other sizes), DIR/drop15
 *                              (15% stream drop at 8 nodes), DIR/slowport
 *                              (node07-08 slower, nothing else),
 *                              DIR/widebase and DIR/wide (48 cells: a
 *                              long plugin output)
 *   driver drift DIR PCT       DIR/base1..5 and DIR/night1..7, a port
 *                              PCT % slower every night (see drift())
 *   driver judge ARGS...       as `swstress judge ARGS...`
 *   driver history ARGS...     as `swstress history ARGS...`
 *   driver baseline ARGS...    as `swstress baseline ARGS...`
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "health_fixture.h"

/* The fixtures are judged against one baseline run: their drops test the
 * thresholds alone, without the run-to-run allowance (run_to_run = 0), as
 * the plugin's exit codes are what the monitoring tests check. */
static void one_baseline_defaults(struct fx_spec *s)
{
	fx_defaults(s);
	s->run_to_run = "0";
}

static int fixtures(const char *dir)
{
	struct fx_spec s;
	char path[1024], err[512];

	one_baseline_defaults(&s);
	s.name = "base";
	s.noise_seed = 1;
	if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
		goto fail;
	s.name = "ok";
	s.noise_seed = 2;
	if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
		goto fail;
	s.name = "drop30";
	s.noise_seed = 3;
	s.slow_pattern = PAT_STREAM;
	s.slow_size = 65536;
	s.slow_factor = 1 / 0.7;
	s.slow_pair = 3;
	s.slow_pair_factor = 1.5;
	if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
		goto fail;
	one_baseline_defaults(&s);
	s.name = "mismatch";
	s.noise_seed = 4;
	s.sizes = "8, 1MiB";
	if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
		goto fail;
	one_baseline_defaults(&s);
	s.name = "drop15";
	s.noise_seed = 5;
	s.slow_pattern = PAT_STREAM;
	s.slow_size = 65536;
	s.slow_factor = 1 / 0.85;
	if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
		goto fail;
	one_baseline_defaults(&s);
	s.name = "slowport";
	s.noise_seed = 6;
	s.slow_pair = 3;
	s.slow_pair_factor = 1.5;
	if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
		goto fail;
	for (int i = 0; i < 2; i++) {
		one_baseline_defaults(&s);
		s.name = i ? "wide" : "widebase";
		s.noise_seed = 7 + (uint64_t)i;
		s.pairs = "1, 2, 4";
		s.sizes = "8, 64, 512, 4KiB, 32KiB, 64KiB, 256KiB, 1MiB";
		if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err)))
			goto fail;
	}
	return 0;
fail:
	fprintf(stderr, "driver: %s\n", err);
	return 1;
}

/*
 * A week of nights on a 2-node check (one pair, so the port's slowdown is
 * the cell's): DIR/base1..base5 healthy (the baseline set), then
 * DIR/night1..night7 with the pair PCT_PER_NIGHT % slower each night
 * (night i: sample time x (1 + i * pct / 100)). Nights start a day apart,
 * after the baseline runs.
 */
static int drift(const char *dir, double pct)
{
	struct fx_spec s;
	char path[1024], err[512], name[32];

	for (int i = 1; i <= 12; i++) {
		fx_defaults(&s);
		s.nranks = 2;
		s.pairs = "1";
		s.noise_seed = (uint64_t)i;   /* the start day: 2026-03-(i+1) */
		if (i <= 5) {
			snprintf(name, sizeof(name), "base%d", i);
		} else {
			snprintf(name, sizeof(name), "night%d", i - 5);
			s.slow_pair = 0;
			s.slow_pair_factor = 1.0 + (i - 5) * pct / 100.0;
		}
		s.name = name;
		if (fx_make(dir, &s, path, sizeof(path), err, sizeof(err))) {
			fprintf(stderr, "driver: %s\n", err);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "drift"))
		return drift(argv[2], atof(argv[3]));
	if (argc >= 3 && !strcmp(argv[1], "fixtures"))
		return fixtures(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "judge"))
		return cli_run(&judge_command, argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "history"))
		return cli_run(&history_command, argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "baseline"))
		return cli_run(&baseline_command, argc, argv);
	fprintf(stderr, "usage: driver fixtures DIR | judge ARGS... | history ARGS... | baseline ARGS...\n");
	return 2;
}
