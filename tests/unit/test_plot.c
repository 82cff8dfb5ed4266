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
#include <inttypes.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fixture.h"
#include "plot.h"
#include "results.h"

#define FIXTURE "tests/data/fixture-run"
#define PROCUREMENT "tests/data/procurement-run"   /* 11 sizes, 6 levels, 3 patterns */

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

/* A fresh temporary copy of a fixture folder (without skip, if set; a
 * file the folder lacks is left out). */
static void copy_folder(const char *src, char *dir, size_t len, const char *skip)
{
	char path[600];

	fixture_mkdtemp(dir, len, "plot");
	for (int i = 0; fixture_files[i]; i++) {
		if (skip && strcmp(skip, fixture_files[i]) == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", src, fixture_files[i]);
		if (access(path, F_OK) != 0 && strcmp(src, FIXTURE) != 0)
			continue;
		char *text = slurp(path, NULL);
		cr_assert(text, "cannot read %s", path);
		snprintf(path, sizeof(path), "%s/%s", dir, fixture_files[i]);
		spit(path, text);
		free(text);
	}
}

static void copy_fixture(char *dir, size_t len, const char *skip)
{
	copy_folder(FIXTURE, dir, len, skip);
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
	unsigned char *rgb;      /* width x height x 3, when asked (png_pixels) */
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
 * pred is set, *matching counts the pixels it accepts; if keep, png->rgb
 * holds the pixels (free it). */
static void png_decode(const char *path, struct png *png, pixel_pred pred, size_t *matching, bool keep)
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
		if (keep)
			cr_assert((png->rgb = malloc((size_t)png->width * png->height * 3)));
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
				if (png->rgb)
					memcpy(png->rgb + ((size_t)y * png->width + x) * 3, p, 3);
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

static void png_read(const char *path, struct png *png, pixel_pred pred, size_t *matching)
{
	png_decode(path, png, pred, matching, false);
}

/* Nothing touches the image's edge: no title, label, tic or key cut off. */
static void check_edges(const struct plot_chart *c, const struct png *png)
{
	size_t inked = 0;

	for (uint32_t y = 0; y < png->height; y++)
		for (uint32_t x = 0; x < png->width; x++) {
			if (x >= 2 && y >= 2 && x + 2 < png->width && y + 2 < png->height)
				continue;
			const unsigned char *p = png->rgb + ((size_t)y * png->width + x) * 3;
			inked += (p[0] & p[1] & p[2]) != 0xff;
		}
	cr_expect_eq(inked, 0, "%s: %zu pixels drawn on the image's 2-pixel edge (a label cut off?)",
		     c->path, inked);
}

/* Every chart: a PNG of the size asked for, with content, nothing cut off
 * at its edge. */
static void check_charts(const struct plot_charts *charts)
{
	for (size_t i = 0; i < charts->n; i++) {
		const struct plot_chart *c = &charts->chart[i];
		struct png png;
		png_decode(c->path, &png, NULL, NULL, true);
		if (png.rgb)
			check_edges(c, &png);
		free(png.rgb);
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


/* ---- what a reader checks ------------------------------------------------ */

/* The bad port (a pair with 60 % of its peers' bandwidth) shows as a
 * vermillion row: more than share of the image. */
static void check_bad_port(const struct plot_chart *c, double share)
{
	struct png png;
	size_t bad = 0;

	cr_assert(c, "no such ports chart");
	png_read(c->path, &png, vermillion, &bad);
	if (png.decoded)
		cr_expect_gt((double)bad / (png.width * png.height), share,
			     "%s: the bad port does not stand out (%zu px)", c->path, bad);
}

static const unsigned char *pixel(const struct png *png, double x, double y)
{
	long ix = lround(x), iy = lround(y);

	cr_assert(ix >= 0 && iy >= 0 && ix < (long)png->width && iy < (long)png->height,
		  "pixel %ld,%ld outside the image", ix, iy);
	return png->rgb + ((size_t)iy * png->width + (size_t)ix) * 3;
}

static bool near(const unsigned char *p, uint32_t rgb, int tol)
{
	return abs(p[0] - (int)(rgb >> 16)) <= tol && abs(p[1] - (int)(rgb >> 8 & 0xff)) <= tol &&
	       abs(p[2] - (int)(rgb & 0xff)) <= tol;
}

/* Pixels of the image within tol of rgb. */
static size_t count_colour(const struct png *png, uint32_t rgb, int tol)
{
	size_t n = 0;

	for (size_t i = 0; i < (size_t)png->width * png->height; i++)
		n += near(png->rgb + 3 * i, rgb, tol);
	return n;
}

/* A CSV file of the results (comment lines skipped), as strings. */
struct sheet {
	char *text;
	char *head[128];
	int ncols;
	char **cell;      /* nrows x ncols */
	int nrows;
};

static int split(char *line, char **field, int max, char sep)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < max;) {
		field[n++] = p;
		p = strchr(p, sep);
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static void sheet_load(const char *path, struct sheet *t)
{
	memset(t, 0, sizeof(*t));
	t->text = slurp(path, NULL);
	cr_assert(t->text, "cannot read %s", path);
	char *save = NULL;
	for (char *line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (!t->ncols) {
			t->ncols = split(line, t->head, 128, ',');
			continue;
		}
		t->cell = realloc(t->cell, (size_t)(t->nrows + 1) * t->ncols * sizeof(char *));
		cr_assert(split(line, t->cell + (size_t)t->nrows * t->ncols, t->ncols, ',') == t->ncols,
			  "%s: short row", path);
		t->nrows++;
	}
}

static const char *sheet_get(const struct sheet *t, int row, const char *col)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->head[i], col) == 0)
			return t->cell[(size_t)row * t->ncols + i];
	cr_assert_fail("no column %s", col);
	return NULL;
}

static void sheet_free(struct sheet *t)
{
	free(t->text);
	free(t->cell);
}

/* A size as the charts name it: "4 B", "16 KiB", "4 MiB". */
static void size_name(uint64_t b, char *buf, size_t len)
{
	if (b >= 1048576 && b % 1048576 == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b / 1048576));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b / 1024));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)b);
}

/* Draw chart c again exactly as plot_render did (its command line from
 * plot.log), adding table='TABLE': the text of what the script drew. */
static char *redraw_with_table(const char *dir, const struct plot_chart *c)
{
	char path[600], want[700], tpath[700];
	char *log, *vars = NULL, *script = NULL;

	snprintf(path, sizeof(path), "%s/plot.log", dir);
	log = slurp(path, NULL);
	cr_assert(log, "%s: missing", path);
	snprintf(want, sizeof(want), "out='%s';", c->path);
	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
		char *q = strrchr(line, '"');
		if (strncmp(line, "== gnuplot -e \"", 15) != 0 || !strstr(line, want) || !q)
			continue;
		*q = '\0';
		vars = line + 15;
		script = q + 2;
	}
	cr_assert(vars, "%s: no command line for %s", path, c->path);
	snprintf(tpath, sizeof(tpath), "%s.table", c->path);
	char *arg = malloc(strlen(vars) + strlen(tpath) + 32);
	sprintf(arg, "%s table='%s';", vars, tpath);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", "-e", arg, script, (char *)NULL);
		_exit(127);
	}
	int status;
	cr_assert(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "redrawing %s failed", c->path);
	free(arg);
	free(log);
	char *text = slurp(tpath, NULL);
	cr_assert(text, "%s: the script wrote no table", tpath);
	return text;
}

/* The fixed scale of the degradation map (plot/map.gp): position -1..1 of
 * a change in percent, symmetric-log, saturating at +-100 %. */
static double map_position(double v)
{
	double p = log10(1 + fabs(v) / 2) / log10(51);
	return (v < 0 ? -1 : 1) * (p > 1 ? 1 : p);
}

/* Its colours: Okabe-Ito blue, light blue, near white, light vermillion,
 * vermillion at -1, -0.5, 0, 0.5, 1, linear in between. */
static uint32_t map_colour(double v)
{
	static const uint32_t stop[5] = { 0x0072B2, 0x8FC0E0, 0xF5F5F5, 0xEDA77E, 0xD55E00 };
	double g = (map_position(v) + 1) * 2;
	int i = g >= 4 ? 3 : (int)g;
	double t = g - i;
	uint32_t rgb = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double a = stop[i] >> sh & 0xff, b = stop[i + 1] >> sh & 0xff;
		rgb |= (uint32_t)lround(a + (b - a) * t) << sh;
	}
	return rgb;
}

/* Every cell of the degradation map: the text, the flags and the colour
 * are what summary.csv says, in the place the reader looks. */
static void check_map(const char *dir, const struct plot_chart *c, char *table, const struct png *png)
{
	struct sheet sum;
	char path[600];
	bool lat = strcmp(c->pattern, "pingpong") == 0;
	double left = 0, right = 0, top = 0, bottom = 0;
	int ncols = 0, nrows = 0, ncells = 0, nmine = 0;
	long nodes_lo = 0;
	struct cellrow { int col, row; long nodes; uint64_t size; char text[32]; int sig, hatched; } cells[1024];

	for (char *line = strtok(table, "\n"); line; line = strtok(NULL, "\n")) {
		struct cellrow r;
		if (sscanf(line, "# plot area in pixels (left right top bottom): %lf %lf %lf %lf",
			   &left, &right, &top, &bottom) == 4)
			continue;
		if (sscanf(line, "# columns %d rows %d", &ncols, &nrows) == 2)
			continue;
		if (ncells < 1024 && sscanf(line, "%d %d %ld %" SCNu64 " %31s %*s %d %d", &r.col, &r.row, &r.nodes,
					    &r.size, r.text, &r.sig, &r.hatched) == 7)
			cells[ncells++] = r;
	}
	cr_assert(right > left && bottom > top && ncols > 0 && nrows > 0, "%s: no plot area in the table", c->path);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	sheet_load(path, &sum);
	for (int i = 0; i < sum.nrows; i++) {
		long n = atol(sheet_get(&sum, i, "nodes"));
		if (!nodes_lo || n < nodes_lo)
			nodes_lo = n;
	}
	double cw = (right - left) / ncols, ch = (bottom - top) / nrows;
	for (int i = 0; i < sum.nrows; i++) {
		if (strcmp(sheet_get(&sum, i, "pattern"), c->pattern) != 0)
			continue;
		nmine++;
		long nodes = atol(sheet_get(&sum, i, "nodes"));
		uint64_t size = strtoull(sheet_get(&sum, i, "size_bytes"), NULL, 10);
		const char *pct = sheet_get(&sum, i, lat ? "lat_infl_pct" : "bw_drop_pct");
		int sig = atoi(sheet_get(&sum, i, lat ? "lat_infl_sig" : "bw_drop_sig"));
		/* a timed cell (hops 0) ran samples of sample_time: 50 ms in the fixtures */
		double v = strtod(pct, NULL), hops = atof(sheet_get(&sum, i, "hops"));
		double sample = hops > 0 ? hops * atof(sheet_get(&sum, i, "lat_median_us")) : 50000;
		bool has = isfinite(v);
		int hatched = atof(sheet_get(&sum, i, "overlap")) < 0.9 || sample < 1000;
		char want[32];
		if (has)
			snprintf(want, sizeof(want), "%+.1f", v);
		else
			snprintf(want, sizeof(want), "%s", nodes == nodes_lo ? "baseline" : "n/a");
		const struct cellrow *r = NULL;
		for (int k = 0; k < ncells; k++)
			if (cells[k].nodes == nodes && cells[k].size == size) {
				cr_expect(!r, "%s: cell %ld nodes %" PRIu64 " B drawn twice", c->path, nodes, size);
				r = &cells[k];
			}
		cr_assert(r, "%s: no cell for %ld nodes, %" PRIu64 " B", c->path, nodes, size);
		cr_expect_str_eq(r->text, want, "%s: %ld nodes %" PRIu64 " B shows %s, summary.csv has %s",
				 c->path, nodes, size, r->text, pct);
		cr_expect_eq(r->sig, sig, "%s: %ld nodes %" PRIu64 " B significance", c->path, nodes, size);
		cr_expect_eq(r->hatched, hatched, "%s: %ld nodes %" PRIu64 " B hatching", c->path, nodes, size);
		if (!png->rgb)
			continue;

		/* What a reader sees in the cell. */
		double cx = left + (r->col - 0.5) * cw, cy = top + (r->row - 0.5) * ch;
		uint32_t fill = has ? map_colour(v) : 0xE4E4E4;
		int same = 0, grey = 0, samples = 0, black = 0, ink = 0;
		for (double y = cy - 0.3 * ch; y <= cy + 0.3 * ch; y += 1, samples++) {
			const unsigned char *p = pixel(png, cx - 0.465 * cw, y);
			same += near(p, fill, 6);
			grey += abs(p[0] - p[1]) < 16 && abs(p[1] - p[2]) < 16 && p[0] < 0xA0;
		}
		for (double y = cy - 0.49 * ch; y <= cy - 0.36 * ch; y += 1) {
			const unsigned char *p = pixel(png, cx - 0.2 * cw, y);
			black += p[0] < 50 && p[1] < 50 && p[2] < 50;
		}
		for (double y = cy - 0.15 * ch; y <= cy + 0.15 * ch; y += 1)
			for (double x = cx - 0.25 * cw; x <= cx + 0.25 * cw; x += 1) {
				const unsigned char *p = pixel(png, x, y);
				ink += !near(p, fill, 80);
			}
		if (hatched)
			cr_expect_gt(grey, 2, "%s: %ld nodes %" PRIu64 " B is not hatched", c->path, nodes, size);
		else {
			cr_expect_eq(grey, 0, "%s: %ld nodes %" PRIu64 " B is hatched", c->path, nodes, size);
			cr_expect_geq(same, samples * 9 / 10, "%s: %ld nodes %" PRIu64 " B: colour is not #%06X "
				      "(%d of %d pixels)", c->path, nodes, size, fill, same, samples);
		}
		cr_expect_eq(black > 0, sig && has, "%s: %ld nodes %" PRIu64 " B: outline %s", c->path, nodes, size,
			     black ? "drawn, not significant" : "missing");
		cr_expect_geq(ink, 10, "%s: %ld nodes %" PRIu64 " B: no text", c->path, nodes, size);
	}
	cr_expect_eq(ncells, nmine, "%s: %d cells drawn, summary.csv has %d", c->path, ncells, nmine);
	sheet_free(&sum);
}

/* What check_drawn found in a drop chart. */
struct drop_axis {
	double lo, hi;         /* the y range */
	int nclipped;          /* points beyond it */
	char sizes[256];       /* the sizes of those, "16 B ..." */
};

/* The drop chart's robust axis: every change beyond the y range is listed
 * as clipped (drawn on the edge with its value), every other one is
 * inside. */
static void check_drop(const char *dir, const struct plot_chart *c, char *table, struct drop_axis *ax)
{
	char *clipped_sizes = ax->sizes;
	size_t len = sizeof(ax->sizes);
	struct sheet sum;
	char path[600], *lines[512];
	double lo = NAN, hi = NAN;
	int nclipped = 0, nlines = 0;
	bool lat = strcmp(c->pattern, "pingpong") == 0;

	clipped_sizes[0] = '\0';
	for (char *line = strtok(table, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "yrange %lf %lf", &lo, &hi) == 2)
			continue;
		if (strncmp(line, "clipped ", 8) == 0 && nlines < 512)
			lines[nlines++] = line + 8;
	}
	cr_assert(lo < hi, "%s: no y range in the table", c->path);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	sheet_load(path, &sum);
	for (int i = 0; i < sum.nrows; i++) {
		if (strcmp(sheet_get(&sum, i, "pattern"), c->pattern) != 0)
			continue;
		double v = strtod(sheet_get(&sum, i, lat ? "lat_infl_pct" : "bw_drop_pct"), NULL);
		if (!isfinite(v))
			continue;
		char name[32], want[96];
		size_name(strtoull(sheet_get(&sum, i, "size_bytes"), NULL, 10), name, sizeof(name));
		snprintf(want, sizeof(want), "%s|%s|", name, sheet_get(&sum, i, "nodes"));
		bool listed = false;
		for (int k = 0; k < nlines; k++)
			listed |= strncmp(lines[k], want, strlen(want)) == 0 && fabs(atof(lines[k] + strlen(want)) - v) < 1e-3;
		cr_expect_eq(listed, v < lo || v > hi, "%s: %s nodes %s %+g against the axis %g..%g: %s", c->path,
			     sheet_get(&sum, i, "nodes"), name, v, lo, hi, listed ? "clipped but inside" : "outside, not marked");
		if (listed) {
			nclipped++;
			if (!strstr(clipped_sizes, name))
				snprintf(clipped_sizes + strlen(clipped_sizes), len - strlen(clipped_sizes), "%s%s",
					 clipped_sizes[0] ? " " : "", name);
		}
	}
	cr_expect_eq(nclipped, nlines, "%s: %d clipped points listed, %d beyond the axis", c->path, nlines, nclipped);
	sheet_free(&sum);
	ax->lo = lo;
	ax->hi = hi;
	ax->nclipped = nclipped;
}

/* Draw c again with its table and check what was drawn: in every panel no
 * two series share a colour and a marker (strict: neither a colour nor a
 * marker), every series' colour is in the image; the map's cells and the
 * drop chart's axis (into *ax) against summary.csv. */
static void check_drawn(const char *dir, const struct plot_chart *c, bool strict, struct drop_axis *ax)
{
	struct png png;
	char *table, *copy, *save = NULL;
	struct series { char panel[64], name[64]; uint32_t colour; int marker; } sr[256];
	int ns = 0;

	memset(ax, 0, sizeof(*ax));
	if (strcmp(c->kind, "ports") == 0)
		return;
	table = redraw_with_table(dir, c);
	png_decode(c->path, &png, NULL, NULL, true);
	copy = strdup(table);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[5];
		if (strncmp(line, "series ", 7) != 0 || ns == 256)
			continue;
		cr_assert_eq(split(line + 7, f, 5, '|'), 4, "%s: bad series line", c->path);
		snprintf(sr[ns].panel, sizeof(sr[ns].panel), "%s", f[0]);
		snprintf(sr[ns].name, sizeof(sr[ns].name), "%s", f[1]);
		sr[ns].colour = (uint32_t)strtoul(f[2] + 1, NULL, 16);
		sr[ns].marker = atoi(f[3]);
		ns++;
	}
	free(copy);
	if (strcmp(c->kind, "map") != 0)
		cr_expect_gt(ns, 0, "%s: no series", c->path);
	for (int i = 0; i < ns; i++) {
		for (int j = i + 1; j < ns; j++) {
			if (strcmp(sr[i].panel, sr[j].panel) != 0)
				continue;
			bool colour = sr[i].colour == sr[j].colour, marker = sr[i].marker == sr[j].marker;
			cr_expect(!(colour && marker), "%s: '%s' and '%s' share colour #%06X and marker %d",
				  c->path, sr[i].name, sr[j].name, sr[i].colour, sr[i].marker);
			if (strict)
				cr_expect(!colour && !marker, "%s: '%s' and '%s' share a %s", c->path, sr[i].name,
					  sr[j].name, colour ? "colour" : "marker");
		}
		if (png.rgb)
			cr_expect_geq(count_colour(&png, sr[i].colour, 10), 20, "%s: colour #%06X of '%s' is not drawn",
				      c->path, sr[i].colour, sr[i].name);
	}
	if (strcmp(c->kind, "map") == 0)
		check_map(dir, c, table, &png);
	if (strcmp(c->kind, "drop") == 0)
		check_drop(dir, c, table, ax);
	free(png.rgb);
	free(table);
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
	cr_assert_eq(n, 10, "plot_render: %d: %s", n, err);   /* 2 patterns x 5 kinds */
	cr_assert_eq(charts.n, 10);
	const char *kinds[] = { "map", "falloff", "size", "drop", "ports" };
	const char *patterns[] = { "pingpong", "stream" };
	const uint64_t sizes[] = { 8, 1024, 65536, 1048576 };
	for (int p = 0; p < 2; p++) {
		for (int k = 0; k < 5; k++) {
			const struct plot_chart *c = find_chart(&charts, kinds[k], patterns[p], 0);
			cr_assert(c, "no %s chart for %s", kinds[k], patterns[p]);
			char want[600];
			snprintf(want, sizeof(want), "%s/%s-%s.png", dir, kinds[k], patterns[p]);
			cr_expect_str_eq(c->path, want);
		}
	}
	cr_expect_eq(find_chart(&charts, "falloff", "stream", 0)->width, 1500);
	cr_expect_eq(find_chart(&charts, "falloff", "stream", 0)->height, 680);
	check_charts(&charts);
	check_log_quiet(dir);
	for (size_t i = 0; i < charts.n; i++) {
		struct drop_axis ax;
		check_drawn(dir, &charts.chart[i], false, &ax);
	}

	/* The bad port (pair 2) shows as a vermillion row in the overview. */
	for (int p = 0; p < 2; p++)
		check_bad_port(find_chart(&charts, "ports", patterns[p], 0), 0.02);
	plot_charts_free(&charts);

	/* On request, one per-pair map per size as well, the bad port in each. */
	n = plot_render(dir, NULL, PLOT_PORTS_PER_SIZE, &charts, err, sizeof(err));
	cr_assert_eq(n, 18, "plot_render: %d: %s", n, err);
	for (int p = 0; p < 2; p++)
		for (int s = 0; s < 4; s++) {
			const struct plot_chart *c = find_chart(&charts, "ports", patterns[p], sizes[s]);
			cr_assert(c, "no ports chart for %s %llu", patterns[p], (unsigned long long)sizes[s]);
			check_bad_port(c, 0.02);
		}
	plot_charts_free(&charts);
	fixture_rmtree(dir);
}

/* Procurement scale (tests/data/procurement-run: 11 sizes 4 B..4 MiB, 6
 * levels 8..48 nodes, 3 patterns, a noisy size, short and non-overlapping
 * cells, a bad port): one degradation map, fall-off, size, drop and ports
 * overview per pattern, each checked as a reader would. */
Test(plot, procurement_scale, .timeout = 300)
{
	struct plot_charts charts;
	char dir[256], err[512] = "", path[700];
	const char *patterns[] = { "pingpong", "stream", "bidir" };

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	copy_folder(PROCUREMENT, dir, sizeof(dir), NULL);
	int n = plot_render(dir, NULL, 0, &charts, err, sizeof(err));
	cr_assert_eq(n, 15, "plot_render: %d: %s", n, err);   /* 3 patterns x 5 kinds, no per-size maps */
	check_charts(&charts);
	check_log_quiet(dir);
	snprintf(path, sizeof(path), "%s/ports-stream-64KiB.png", dir);
	cr_expect(access(path, F_OK) != 0, "per-size ports maps drawn without being asked for");
	for (size_t i = 0; i < charts.n; i++) {
		const struct plot_chart *c = &charts.chart[i];
		struct drop_axis ax;

		check_drawn(dir, c, true, &ax);
		if (strcmp(c->kind, "drop") == 0) {
			/* One noisy size (stream 16 B, -48 .. -202 %) is clipped, not
			 * the axis stretched; nothing else is. */
			bool stream = strcmp(c->pattern, "stream") == 0;
			cr_expect_eq(ax.nclipped, stream ? 4 : 0, "%s: %d points clipped (%s)", c->path, ax.nclipped, ax.sizes);
			if (stream)
				cr_expect_str_eq(ax.sizes, "16 B");
			/* bidir 256 B and 1 KiB have CIs down to -300 %: cut, not followed. */
			if (strcmp(c->pattern, "bidir") == 0)
				cr_expect_gt(ax.lo, -20, "%s: a wide CI stretched the axis to %g", c->path, ax.lo);
		}
		if (strcmp(c->kind, "falloff") == 0 || strcmp(c->kind, "drop") == 0)
			cr_expect_eq(c->height, 980, "%s: small multiples: 3 rows of panels", c->path);
	}
	/* One row of 24, bad at 6 of 11 sizes: about 0.7 % of the image. */
	for (int p = 1; p < 3; p++)
		check_bad_port(find_chart(&charts, "ports", patterns[p], 0), 0.005);
	plot_charts_free(&charts);
	fixture_rmtree(dir);
}

Test(plot, svg)
{
	struct plot_charts charts;
	char dir[256], err[512] = "";

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	copy_fixture(dir, sizeof(dir), NULL);
	int n = plot_render(dir, NULL, PLOT_SVG, &charts, err, sizeof(err));
	cr_assert_eq(n, 10, "plot_render: %d: %s", n, err);
	for (size_t i = 0; i < charts.n; i++) {
		char *text = slurp(charts.chart[i].path, NULL);
		size_t l = strlen(charts.chart[i].path);
		cr_assert(l > 4 && strcmp(charts.chart[i].path + l - 4, ".svg") == 0);
		cr_assert(text && strstr(text, "<svg"), "%s: not SVG", charts.chart[i].path);
		cr_expect(strstr(text, "switch-A"), "%s: no run label", charts.chart[i].path);
		free(text);
	}
	plot_charts_free(&charts);
	fixture_rmtree(dir);
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
	fprintf(s, "# synthetic\ncell,level,nodes,pairs,pattern,size_bytes,hops,overlap,"
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
			fprintf(s, "%d,%d,%d,%d,stream,%.0f,1000,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g,",
				cell, l, 2 * k, k, size, k == 1 ? 1.0 : 0.95, lat, lat * 0.98, lat * 1.02, bw, bw * 0.98, bw * 1.02,
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
	char tmpl[FIXTURE_DIR_MAX], err[512] = "";

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	fixture_mkdtemp(tmpl, sizeof(tmpl), "plot");
	write_synthetic(tmpl, nlevels, nsizes);
	int n = plot_render(tmpl, NULL, 0, &charts, err, sizeof(err));
	/* map, falloff, drop, ports, and the size chart only over 2 sizes or more */
	cr_assert_eq(n, nsizes > 1 ? 5 : 4, "plot_render: %d: %s", n, err);
	for (size_t i = 0; nsizes < 2 && i < charts.n; i++)
		cr_assert_str_neq(charts.chart[i].kind, "size", "a size chart for one size: %s", charts.chart[i].path);
	check_charts(&charts);
	check_log_quiet(tmpl);
	plot_charts_free(&charts);
	fixture_rmtree(tmpl);
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
	snprintf(want, sizeof(want), "%s/summary.csv: cannot read: No such file or directory", dir);
	if (plot_available())
		cr_expect_str_eq(err, want);
	cr_expect_eq(charts.n, 0);
	plot_charts_free(&charts);
	fixture_rmtree(dir);
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
	fixture_rmtree(dir);
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
	fixture_rmtree(dir);
}

/* run.json's config is read back the one way (config_from_json): the
 * charts get the run's confidence and min_effect, and a value no run can
 * have is refused naming run.json and the key. */
static void replace_in(const char *path, const char *from, const char *to)
{
	char *text = slurp(path, NULL), *at;

	cr_assert(text && (at = strstr(text, from)), "%s: no '%s'", path, from);
	char *out = malloc(strlen(text) + strlen(to) + 1);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	spit(path, out);
	free(out);
	free(text);
}

Test(plot, config_read_back)
{
	char dir[256], err[512] = "", path[600];

	copy_fixture(dir, sizeof(dir), NULL);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	replace_in(path, "\"confidence\": \"0.95\"", "\"confidence\": \"0.9\"");
	replace_in(path, "\"min_effect\": \"2\"", "\"min_effect\": \"7.5\"");
	if (plot_available()) {
		cr_assert_eq(plot_render(dir, NULL, 0, NULL, err, sizeof(err)), 10, "%s", err);
		snprintf(path, sizeof(path), "%s/plot.log", dir);
		char *log = slurp(path, NULL);
		cr_assert(log);
		cr_expect(strstr(log, "conf='90';") && !strstr(log, "conf='95'"), "%s", log);
		cr_expect(strstr(log, "min_effect=7.5;") && !strstr(log, "min_effect=2;"), "%s", log);
		free(log);
		snprintf(path, sizeof(path), "%s/run.json", dir);
	}
	replace_in(path, "\"confidence\": \"0.9\"", "\"confidence\": \"1.5\"");
	cr_assert_eq(plot_check_results(dir, err, sizeof(err)), -1);
	cr_expect(strstr(err, "/run.json: config: ") && strstr(err, "confidence"), "got: %s", err);
	fixture_rmtree(dir);
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
	cr_expect_str_eq(err, FIXTURE "/nothing.csv: cannot read: No such file or directory");
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

/* A run with victims (written by results_write, as a sweep writes it):
 * one victim pair beside 1 and 2 aggressor pairs, 5 repetitions, the
 * victim 1.5x and 3x slower than alone. The sixth chart, victims-stream,
 * is drawn without a gnuplot warning; without its columns, a clear error. */
Test(plot, victims_chart)
{
	struct sw_config c;
	struct plot_charts charts;
	char tmpl[FIXTURE_DIR_MAX], err[512] = "", path[600], want[600];
	const char *kv[] = { "pairs=1,2", "patterns=stream", "sizes=64KiB", "victims=1", "repetitions=5", NULL };

	if (!plot_available())
		cr_skip_test("gnuplot not on PATH");
	fixture_mkdtemp(tmpl, sizeof(tmpl), "plot");
	config_defaults(&c);
	for (int i = 0; kv[i]; i++)
		cr_assert_eq(config_set_arg(&c, kv[i], err, sizeof(err)), 0, "%s", err);
	struct sw_plan *p = plan_create(&c, 6, err, sizeof(err));
	cr_assert_not_null(p, "%s", err);
	struct sw_run *r = run_create(&c, p, 6);
	cr_assert_not_null(r);
	for (int i = 0; i < 6; i++)
		snprintf(r->host[i], SW_HOST_MAX, "node%02d", i);
	for (int ci = 0; ci < 2; ci++) {
		for (int rep = 0; rep < 5; rep++) {
			for (int alone = 1; alone >= 0; alone--) {
				double p50 = 10e-6 * (alone ? 1 : 1.5 * (ci + 1)) * (1 + 0.02 * rep);
				struct sw_victim v = { ci, rep, 0, alone, rep, rep + 0.02, 0.02, 1000, p50, 2 * p50, false };

				cr_assert_eq(run_add_victim(r, &v), 0);
			}
			for (int q = 0; q <= ci; q++) {
				struct sw_sample s = { ci, rep, q, rep, rep + 0.02, 0.02, 100, 0 };

				cr_assert_eq(run_add_sample(r, &s), 0);
			}
		}
		r->cell[ci].reps = 5;
	}
	r->complete = true;
	struct sw_analysis *a = analysis_run(r, &r->cfg, err, sizeof(err));
	cr_assert_not_null(a, "%s", err);
	cr_assert_eq(results_write(tmpl, r, a, "x", err, sizeof(err)), 0, "%s", err);
	analysis_free(a);
	run_free(r);
	int n = plot_render(tmpl, NULL, 0, &charts, err, sizeof(err));
	cr_assert_eq(n, 6, "plot_render: %d: %s", n, err);   /* 4 kinds (one size: no size chart) + victims + rate */
	const struct plot_chart *vc = find_chart(&charts, "victims", "stream", 0);
	cr_assert(vc, "no victims chart");
	snprintf(want, sizeof(want), "%s/victims-stream.png", tmpl);
	cr_expect_str_eq(vc->path, want);
	check_charts(&charts);
	check_log_quiet(tmpl);
	plot_charts_free(&charts);

	snprintf(path, sizeof(path), "%s/summary.csv", tmpl);
	char *text = slurp(path, NULL), *col = strstr(text, ",victim_p99_infl_hi");
	cr_assert(col);
	memcpy(col, ",victim_p99_infl_XX", 19);
	spit(path, text);
	free(text);
	cr_assert_eq(plot_render(tmpl, NULL, 0, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s/summary.csv: missing column 'victim_p99_infl_hi'", tmpl);
	cr_expect_str_eq(err, want);
	fixture_rmtree(tmpl);
}
