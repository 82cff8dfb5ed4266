/*
 * fuzz_plot.c - libFuzzer target for the CSV readers of plot (issue #11):
 * plot_check_results on a folder of run.json, summary.csv, pairs.csv and
 * fits.csv (sections "%%summary.csv%%" ..., see files.h), as plot reads
 * them before it draws; no gnuplot runs. Also replayed (replay.c).
 */
#include "files.h"
#include "plot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], dir[128];

	snprintf(dir, sizeof(dir), "%s/a", files_write(data, size, "a"));
	plot_check_results(dir, err, sizeof(err));
	return 0;
}
