/*
 * fuzz_results.c - libFuzzer target for the results readers that report,
 * judge and compare use: results_load on a folder holding a fuzzed
 * run.json and samples.csv, then (when it loads) the analysis and the
 * text report, as `swstress report` does.
 *
 * Input: run.json, then a line "%%samples.csv%%", then samples.csv. With
 * no separator the whole input is run.json and samples.csv is empty.
 * The bootstrap count is capped so one input stays fast. Also built with
 * the normal compiler into a replay driver (replay.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "report.h"
#include "results.h"

#define SEP "\n%%samples.csv%%\n"

static char g_dir[64], g_json[96], g_csv[96];

static void cleanup(void)
{
	unlink(g_json);
	unlink(g_csv);
	rmdir(g_dir);
}

static void put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024];
	const uint8_t *sep = NULL;
	size_t seplen = strlen(SEP);

	if (!g_dir[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(g_dir, sizeof(g_dir), "%s/swfuzz-results-%d", base, (int)getpid());
		snprintf(g_json, sizeof(g_json), "%s/run.json", g_dir);
		snprintf(g_csv, sizeof(g_csv), "%s/samples.csv", g_dir);
		if (mkdir(g_dir, 0700) && access(g_dir, W_OK))
			abort();
		atexit(cleanup);
	}
	if (size >= seplen)
		sep = memmem(data, size, SEP, seplen);
	if (sep) {
		put(g_json, data, (size_t)(sep - data));
		put(g_csv, sep + seplen, size - (size_t)(sep - data) - seplen);
	} else {
		put(g_json, data, size);
		put(g_csv, NULL, 0);
	}
	struct sw_run *r = results_load(g_dir, err, sizeof(err));
	if (!r)
		return 0;
	struct sw_config cfg = r->cfg;
	if (cfg.bootstrap > 50)
		cfg.bootstrap = 50;
	struct sw_analysis *a = analysis_run(r, &cfg, err, sizeof(err));
	char *text = report_string(r, a, REPORT_TABLE);
	free(text);
	text = report_string(r, a, REPORT_CLASSIC);
	free(text);
	analysis_free(a);
	run_free(r);
	return 0;
}
