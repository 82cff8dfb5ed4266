/*
 * cmd_plot.c - `swstress plot RESULT`: the command over plot.h (gnuplot
 * renders the charts into the results folder; where they are on stderr),
 * and cmd_charts, which run calls after its sweep too.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "plot.h"
#include "results.h"

int cmd_charts(const char *dir, unsigned flags, bool after_run)
{
	struct plot_charts charts = { 0 };
	char err[1024];
	int n;

	if (!plot_available()) {
		fprintf(stderr, "swstress: %sgnuplot is not installed (apt-get install gnuplot-nox), no charts%s\n",
			after_run ? "note: " : "", after_run ? "; later: swstress plot FOLDER" : "");
		return after_run ? SW_EXIT_OK : SW_EXIT_FAIL;
	}
	/* a folder given to plot: the files' form first (plot_check_results),
	 * then its summary.csv and fits.csv against its run.json and
	 * samples.csv (results_verify_folder, the check of compare, publish
	 * and site); after a run, the run has just written them */
	if (!after_run && (plot_check_results(dir, err, sizeof(err)) || results_verify_folder(dir, err, sizeof(err))))
		n = -1;
	else
		n = plot_render(dir, NULL, flags, &charts, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "swstress: %s%s\n", after_run ? "warning: charts: " : "", err);
		return after_run ? SW_EXIT_OK : SW_EXIT_FAIL;
	}
	bool victims = false, incast = false, fabric = false;
	for (size_t i = 0; i < charts.n; i++) {
		victims |= strcmp(charts.chart[i].kind, "victims") == 0;
		incast |= strcmp(charts.chart[i].kind, "incast") == 0;
		fabric |= strcmp(charts.chart[i].kind, "fabric") == 0;
	}
	if (fabric)
		fprintf(stderr, "swstress: %d charts in %s/ (fabric-*, fabric-hosts-*)\n", n, dir);
	else
		fprintf(stderr, "swstress: %d charts in %s/ (map-*, falloff-*, drop-*, size-*, ports-*%s%s)\n", n,
			dir, victims ? ", victims-*" : "", incast ? ", incast-*" : "");
	plot_charts_free(&charts);
	return SW_EXIT_OK;
}

static int plot_main(const struct cli_args *a)
{
	return cmd_charts(a->args[0], (a->opt[CLI_SVG] ? PLOT_SVG : 0) |
			  (a->opt[CLI_PORTS_PER_SIZE] ? PLOT_PORTS_PER_SIZE : 0), false);
}

const struct cli_command plot_command = {
	.name = "plot",
	.synopsis = "RESULT [--svg] [--ports-per-size]",
	.summary = "render the charts of a results folder (gnuplot)",
	.description = "Charts into the results folder: degradation map, fall-off, drop, size,\n"
		       "ports overview. A summary.csv or fits.csv that is not what the folder's\n"
		       "run.json and samples.csv give is refused (FILE:LINE), as compare and\n"
		       "publish refuse it.\n",
	.options = CLI_OPT(CLI_SVG) | CLI_OPT(CLI_PORTS_PER_SIZE),
	.min_args = 1,
	.max_args = 1,
	.fn = plot_main,
};
