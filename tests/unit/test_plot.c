/*
 * test_plot.c - plot.c and the gnuplot scripts: every chart of the fixture
 * results folder (tests/data/fixture-run) is drawn into a temporary copy and
 * checked as a PNG (signature, IHDR size, decoded pixels: many colours, not
 * blank; the bad port of the fixture shows in the heat map), also for a run
 * of one level and one size and one of 24 levels and 20 sizes; a missing or
 * malformed file gives one error naming it. Needs gnuplot on PATH (the
 * rendering tests are skipped without it). PNG pixels are inflated with
 * zlib's uncompress(), loaded with dlopen so the build needs no -lz.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "plot.h"

#define FIXTURE "tests/data/fixture-run"

static const char *const fixture_files[] = {
	"run.json", "samples.csv", "summary.csv", "pairs.csv", "fits.csv", NULL
};

/* ---- files ------------------------------------------------------------- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			if (len)
				*len = (size_t)n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* A fresh temporary copy of the fixture folder (without skip, if set). */
static void copy_fixture(char *dir, size_t len, const char *skip)
{
	char tmpl[] = "/tmp/swstress-plot-XXXXXX", path[600];

	cr_assert(mkdtemp(tmpl), "mkdtemp");
	snprintf(dir, len, "%s", tmpl);
	for (int i = 0; fixture_files[i]; i++) {
		if (skip && strcmp(skip, fixture_files[i]) == 0)
			continue;
		snprintf(path, sizeof(path), FIXTURE "/%s", fixture_files[i]);
		char *text = slurp(path, NULL);
		cr_assert(text, "cannot read %s", path);
		snprintf(path, sizeof(path), "%s/%s", dir, fixture_files[i]);
		spit(path, text);
		free(text);
	}
}

static void remove_dir(const char *dir)
{
	char cmd[700];

	if (strncmp(dir, "/tmp/swstress-plot-", 19) != 0 || getenv("SWSTRESS_KEEP_PLOTS"))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* ---- PNG --------------------------------------------------------------- */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

struct png {
	uint32_t width, height;
	int depth, colour;       /* IHDR bit depth and colour type */
	size_t distinct;         /* distinct colours (capped at 4096) */
	double inked;            /* share of pixels that are not the background */
	bool decoded;
};

typedef int (*uncompress_fn)(unsigned char *, unsigned long *, const unsigned char *, unsigned long);

static uncompress_fn zlib_uncompress(void)
{
	static void *h;

	if (!h)
		h = dlopen("libz.so.1", RTLD_NOW);
	return h ? (uncompress_fn)(uintptr_t)dlsym(h, "uncompress") : NULL;
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

/* Colour test for one decoded pixel (RGB). */
typedef bool (*pixel_pred)(const unsigned char *rgb);

/* Read a PNG: header always; pixels (8-bit RGB/RGBA) when zlib loads. If
 * pred is set, *matching counts the pixels it accepts. */
static void png_read(const char *path, struct png *png, pixel_pred pred, size_t *matching)
{
	size_t len, idat_len = 0;
	unsigned char *buf = (unsigned char *)slurp(path, &len), *idat = NULL;
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	memset(png, 0, sizeof(*png));
	cr_assert(buf, "%s: cannot read", path);
	cr_assert(len > 33 && memcmp(buf, sig, 8) == 0, "%s: not a PNG (signature)", path);
	cr_assert(memcmp(buf + 12, "IHDR", 4) == 0, "%s: first chunk is not IHDR", path);
	png->width = be32(buf + 16);
	png->height = be32(buf + 20);
	png->depth = buf[24];
	png->colour = buf[25];
	for (size_t off = 8; off + 12 <= len;) {
		uint32_t n = be32(buf + off);
		if (off + 12 + n > len)
			break;
		if (memcmp(buf + off + 4, "IDAT", 4) == 0) {
			idat = realloc(idat, idat_len + n);
			memcpy(idat + idat_len, buf + off + 8, n);
			idat_len += n;
		}
		off += 12 + n;
	}
	uncompress_fn unz = zlib_uncompress();
	int bpp = png->colour == 6 ? 4 : png->colour == 2 ? 3 : 0;
	if (unz && idat && png->depth == 8 && bpp && buf[28] == 0) {
		size_t stride = (size_t)png->width * bpp;
		unsigned long raw_len = (stride + 1) * png->height;
		unsigned char *raw = malloc(raw_len), *prev = calloc(1, stride), *cur = malloc(stride);
		uint32_t *seen = calloc(4096, sizeof(*seen));
		size_t nseen = 0, inked = 0, match = 0;
		cr_assert(raw && prev && cur && seen);
		cr_assert(unz(raw, &raw_len, idat, idat_len) == 0, "%s: bad zlib data", path);
		cr_assert(raw_len == (stride + 1) * png->height, "%s: short image data", path);
		for (uint32_t y = 0; y < png->height; y++) {
			const unsigned char *line = raw + y * (stride + 1);
			int filter = line[0];
			for (size_t x = 0; x < stride; x++) {
				int a = x >= (size_t)bpp ? cur[x - bpp] : 0, b = prev[x];
				int c = x >= (size_t)bpp ? prev[x - bpp] : 0, v = line[1 + x];
				switch (filter) {
				case 1: v += a; break;
				case 2: v += b; break;
				case 3: v += (a + b) / 2; break;
				case 4: v += paeth(a, b, c); break;
				}
				cur[x] = (unsigned char)v;
			}
			for (uint32_t x = 0; x < png->width; x++) {
				const unsigned char *p = cur + (size_t)x * bpp;
				uint32_t rgb = (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
				if (rgb != 0xffffff)
					inked++;
				if (pred && pred(p))
					match++;
				bool found = false;
				for (size_t i = 0; i < nseen && !found; i++)
					found = seen[i] == rgb;
				if (!found && nseen < 4096)
					seen[nseen++] = rgb;
			}
			memcpy(prev, cur, stride);
		}
		png->distinct = nseen;
		png->inked = (double)inked / ((double)png->width * png->height);
		png->decoded = true;
		if (matching)
			*matching = match;
		free(raw);
		free(prev);
		free(cur);
		free(seen);
	}
	free(idat);
	free(buf);
}

/* Every chart: a PNG of the size asked for, with content. */
static void check_charts(const struct plot_charts *charts)
{
	for (size_t i = 0; i < charts->n; i++) {
		const struct plot_chart *c = &charts->chart[i];
		struct png png;
		png_read(c->path, &png, NULL, NULL);
		cr_expect_eq(png.width, (uint32_t)c->width, "%s: width %u, want %d", c->path, png.width, c->width);
		cr_expect_eq(png.height, (uint32_t)c->height, "%s: height %u, want %d", c->path, png.height, c->height);
		if (png.decoded) {
			cr_expect_geq(png.distinct, 40, "%s: only %zu colours", c->path, png.distinct);
			cr_expect_gt(png.inked, 0.01, "%s: nearly blank (%.3f inked)", c->path, png.inked);
		}
	}
}

/* gnuplot said nothing but our command lines. */
static void check_log_quiet(const char *dir)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/plot.log", dir);
	char *log = slurp(path, NULL);
	cr_assert(log, "%s: missing", path);
	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
		cr_expect(strncmp(line, "== gnuplot -e ", 14) == 0, "%s: gnuplot said: %s", path, line);
	free(log);
}

static const struct plot_chart *find_chart(const struct plot_charts *c, const char *kind,
					   const char *pattern, uint64_t size)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->chart[i].kind, kind) == 0 && strcmp(c->chart[i].pattern, pattern) == 0 &&
		    c->chart[i].size == size)
			return &c->chart[i];
	return NULL;
}

/* Near the heat map's "much worse" end (Okabe-Ito vermillion #D55E00). */
static bool vermillion(const unsigned char *p)
{
	return abs(p[0] - 0xD5) < 40 && abs(p[1] - 0x5E) < 50 && p[2] < 60;
}

/* ---- tests ------------------------------------------------------------- */

TestSuite(plot);

Test(plot, fixture_every_chart)
{
	struct plot_charts charts;
	char dir[256], err[512] = "";

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	copy_fixture(dir, sizeof(dir), NULL);
	int n = plot_render(dir, NULL, 0, &charts, err, sizeof(err));
	cr_assert_eq(n, 14, "plot_render: %d: %s", n, err);   /* 2 patterns x (3 + 4 sizes) */
	cr_assert_eq(charts.n, 14);
	const char *kinds[] = { "falloff", "size", "drop" };
	const char *patterns[] = { "pingpong", "stream" };
	const uint64_t sizes[] = { 8, 1024, 65536, 1048576 };
	for (int p = 0; p < 2; p++) {
		for (int k = 0; k < 3; k++) {
			const struct plot_chart *c = find_chart(&charts, kinds[k], patterns[p], 0);
			cr_assert(c, "no %s chart for %s", kinds[k], patterns[p]);
			char want[600];
			snprintf(want, sizeof(want), "%s/%s-%s.png", dir, kinds[k], patterns[p]);
			cr_expect_str_eq(c->path, want);
		}
		for (int s = 0; s < 4; s++)
			cr_assert(find_chart(&charts, "ports", patterns[p], sizes[s]),
				  "no ports chart for %s %llu", patterns[p], (unsigned long long)sizes[s]);
	}
	cr_expect_eq(find_chart(&charts, "falloff", "stream", 0)->width, 1500);
	cr_expect_eq(find_chart(&charts, "falloff", "stream", 0)->height, 680);
	check_charts(&charts);
	check_log_quiet(dir);

	/* The bad port (pair 2) shows as a vermillion cell in every heat map. */
	for (int p = 0; p < 2; p++) {
		struct png png;
		size_t bad = 0;
		const struct plot_chart *c = find_chart(&charts, "ports", patterns[p], 65536);
		png_read(c->path, &png, vermillion, &bad);
		if (png.decoded)
			cr_expect_gt((double)bad / (png.width * png.height), 0.02,
				     "%s: the bad port does not stand out (%zu px)", c->path, bad);
	}
	plot_charts_free(&charts);
	remove_dir(dir);
}

Test(plot, svg)
{
	struct plot_charts charts;
	char dir[256], err[512] = "";

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	copy_fixture(dir, sizeof(dir), NULL);
	int n = plot_render(dir, NULL, PLOT_SVG, &charts, err, sizeof(err));
	cr_assert_eq(n, 14, "plot_render: %d: %s", n, err);
	for (size_t i = 0; i < charts.n; i++) {
		char *text = slurp(charts.chart[i].path, NULL);
		size_t l = strlen(charts.chart[i].path);
		cr_assert(l > 4 && strcmp(charts.chart[i].path + l - 4, ".svg") == 0);
		cr_assert(text && strstr(text, "<svg"), "%s: not SVG", charts.chart[i].path);
		cr_expect(strstr(text, "switch-A"), "%s: no run label", charts.chart[i].path);
		free(text);
	}
	plot_charts_free(&charts);
	remove_dir(dir);
}

/* A synthetic run of nlevels levels (1..nlevels pairs) and nsizes sizes,
 * one pattern, every CI present but for the baseline's change (NaN). */
static void write_synthetic(const char *dir, int nlevels, int nsizes)
{
	char path[600];
	FILE *s, *p, *f;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	spit(path, "{\"name\": \"synthetic-20260101-000000\", \"started\": \"2026-01-01T00:00:00Z\","
		   " \"config\": {\"label\": \"synthetic\", \"min_effect\": \"5\"}}\n");
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	s = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/pairs.csv", dir);
	p = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/fits.csv", dir);
	f = fopen(path, "w");
	cr_assert(s && p && f);
	fprintf(s, "# synthetic\ncell,level,nodes,pairs,pattern,size_bytes,hops,"
		"lat_median_us,lat_lo_us,lat_hi_us,bw_median_MBps,bw_lo_MBps,bw_hi_MBps,"
		"agg_median_MBps,agg_lo_MBps,agg_hi_MBps,ideal_agg_MBps,"
		"lat_infl_pct,lat_infl_lo,lat_infl_hi,lat_infl_sig,bw_drop_pct,bw_drop_lo,bw_drop_hi,bw_drop_sig\n");
	fprintf(p, "# synthetic\ncell,level,nodes,pairs,pattern,size_bytes,hops,pair,host_a,host_b,"
		"lat_median_us,bw_median_MBps,lat_rel,bw_rel,z,flagged\n");
	fprintf(f, "# synthetic\nlevel,nodes,pairs,pattern,size_lo,size_hi,npoints,alpha_us,beta_MBps,n_half_bytes,r2\n");
	int cell = 0;
	for (int l = 0; l < nlevels; l++) {
		int k = l + 1;
		double load = 1 + 0.25 * l / (nlevels > 1 ? nlevels - 1 : 1);
		for (int z = 0; z < nsizes; z++, cell++) {
			double size = pow(2, 3 + z), lat = (1.2 + size / 10000) * load, bw = size / lat;
			double base = size / (1.2 + size / 10000), drop = (1 - bw / base) * 100;
			fprintf(s, "%d,%d,%d,%d,stream,%.0f,1000,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,",
				cell, l, 2 * k, k, size, lat, lat * 0.98, lat * 1.02, bw, bw * 0.98, bw * 1.02,
				bw * k, bw * k * 0.98, bw * k * 1.02, base * k);
			if (l == 0)
				fprintf(s, "NaN,NaN,NaN,0,NaN,NaN,NaN,0\n");
			else
				fprintf(s, "%g,%g,%g,1,%g,%g,%g,1\n", (load - 1) * 100, (load - 1) * 90,
					(load - 1) * 110, drop, drop - 1, drop + 1);
			for (int q = 0; q < k; q++) {
				double rel = (q == 2) ? 0.6 : 1 + 0.02 * sin(q + z);
				fprintf(p, "%d,%d,%d,%d,stream,%.0f,1000,%d,host%02d,host%02d,%g,%g,%g,%g,%g,%d\n",
					cell, l, 2 * k, k, size, q, 2 * q + 1, 2 * q + 2, lat / rel, bw * rel,
					1 / rel, rel, q == 2 ? 9.0 : 0.1, q == 2);
			}
		}
		fprintf(f, "%d,%d,%d,stream,8,%.0f,%d,%g,%g,%g,0.999\n", l, 2 * k, k, pow(2, 2 + nsizes),
			nsizes, 1.2 * load, 10000 / load, 12000.0);
	}
	fclose(s);
	fclose(p);
	fclose(f);
}

static void render_synthetic(int nlevels, int nsizes)
{
	struct plot_charts charts;
	char tmpl[] = "/tmp/swstress-plot-XXXXXX", err[512] = "";

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	cr_assert(mkdtemp(tmpl));
	write_synthetic(tmpl, nlevels, nsizes);
	int n = plot_render(tmpl, NULL, 0, &charts, err, sizeof(err));
	cr_assert_eq(n, 3 + nsizes, "plot_render: %d: %s", n, err);
	check_charts(&charts);
	check_log_quiet(tmpl);
	plot_charts_free(&charts);
	remove_dir(tmpl);
}

Test(plot, one_level_one_size)
{
	render_synthetic(1, 1);
}

Test(plot, many_levels_many_sizes, .timeout = 120)
{
	render_synthetic(24, 20);
}

Test(plot, missing_summary)
{
	char dir[256], err[512] = "", want[600];
	struct plot_charts charts;

	copy_fixture(dir, sizeof(dir), "summary.csv");
	cr_assert_eq(plot_render(dir, NULL, 0, &charts, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/summary.csv: cannot open: No such file or directory", dir);
	if (plot_available())
		cr_expect_str_eq(err, want);
	cr_expect_eq(charts.n, 0);
	plot_charts_free(&charts);
	remove_dir(dir);
}

Test(plot, missing_column)
{
	char dir[256], err[512] = "", want[600], path[600];

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	copy_fixture(dir, sizeof(dir), NULL);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	char *text = slurp(path, NULL), *col = strstr(text, ",lat_lo_us");
	cr_assert(col);
	memcpy(col, ",lat_XX_us", 10);
	spit(path, text);
	free(text);
	cr_assert_eq(plot_render(dir, NULL, 0, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/summary.csv: missing column 'lat_lo_us'", dir);
	cr_expect_str_eq(err, want);
	remove_dir(dir);
}

Test(plot, bad_row_and_bad_json)
{
	char dir[256], err[512] = "", path[600];

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	copy_fixture(dir, sizeof(dir), NULL);
	snprintf(path, sizeof(path), "%s/pairs.csv", dir);
	char *text = slurp(path, NULL);
	char *more = malloc(strlen(text) + 32);
	sprintf(more, "%s1,2,3\n", text);
	spit(path, more);
	free(more);
	cr_assert_eq(plot_render(dir, NULL, 0, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "pairs.csv:59: 3 fields, the header has 18"), "got: %s", err);
	spit(path, text);
	free(text);

	snprintf(path, sizeof(path), "%s/run.json", dir);
	spit(path, "{\"name\": \n");
	cr_assert_eq(plot_render(dir, NULL, 0, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "/run.json:"), "got: %s", err);
	remove_dir(dir);
}

Test(plot, check_csv)
{
	static const char *const cols[] = { "pair", "bw_rel", NULL };
	static const char *const nope[] = { "pair", "bandwidth", NULL };
	char err[256] = "";
	size_t rows = 0;

	cr_assert_eq(plot_check_csv(FIXTURE "/pairs.csv", cols, &rows, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(rows, 56);
	cr_assert_eq(plot_check_csv(FIXTURE "/pairs.csv", nope, NULL, err, sizeof(err)), -1);
	cr_expect_str_eq(err, FIXTURE "/pairs.csv: missing column 'bandwidth'");
	cr_assert_eq(plot_check_csv(FIXTURE "/nothing.csv", cols, NULL, err, sizeof(err)), -1);
	cr_expect_str_eq(err, FIXTURE "/nothing.csv: cannot open: No such file or directory");
}

Test(plot, script_dir)
{
	char dir[600], err[256] = "";

	cr_assert_eq(plot_script_dir(dir, sizeof(dir), err, sizeof(err)), 0, "%s", err);
	cr_expect(strstr(dir, "/plot"), "script dir %s", dir);
	setenv("SWSTRESS_PLOT_DIR", "/nonexistent", 1);
	cr_expect_eq(plot_script_dir(dir, sizeof(dir), err, sizeof(err)), -1);
	cr_expect_str_eq(err, "SWSTRESS_PLOT_DIR=/nonexistent: no falloff.gp there");
	unsetenv("SWSTRESS_PLOT_DIR");
}
