/*
 * test_config.c - the config module: every value form, every error class
 * with its exact message, provenance, command-line overrides, the JSON
 * round trip and the key table. Data files live in tests/data/config/;
 * run from the repository root (as make unit-test does).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "pattern.h"

#define DATA "tests/data/config/"

static struct sw_config cfg;
static char err[1024];

static void setup(void)
{
	config_defaults(&cfg);
	err[0] = '\0';
}

TestSuite(config, .init = setup);

/* Set key=value from the command line; fail the test if it is refused. */
static void set_ok(const char *arg)
{
	int rc = config_set_arg(&cfg, arg, err, sizeof(err));

	cr_assert_eq(rc, 0, "'%s' refused: %s", arg, err);
}

/* Set key=value at "t.conf:7" and expect exactly "t.conf:7: " msg. */
static void set_fails(const char *key, const char *value, const char *msg)
{
	char want[1024];
	int rc = config_set(&cfg, key, value, "t.conf:7", err, sizeof(err));

	snprintf(want, sizeof(want), "t.conf:7: %s", msg);
	cr_assert_eq(rc, -1, "%s = %s accepted", key, value);
	cr_assert_str_eq(err, want);
}

/* A temporary config file holding text; the path is in path. */
static void temp_file(char *path, size_t len, const char *text)
{
	int fd;

	snprintf(path, len, "/tmp/swstress-test-XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void load_fails(const char *path, const char *want)
{
	int rc = config_load_file(&cfg, path, err, sizeof(err));

	cr_assert_eq(rc, -1, "%s loaded", path);
	cr_assert_str_eq(err, want);
}

static void value_is(const char *key, const char *want)
{
	char buf[2048];

	cr_assert_eq(config_format_value(&cfg, key, buf, sizeof(buf)), 0, "no key %s", key);
	cr_assert_str_eq(buf, want, "%s", key);
}

/* ---- defaults ---- */

Test(config, defaults)
{
	cr_assert_eq(cfg.level_unit, CFG_LEVEL_NODES);
	cr_assert(cfg.levels_all);
	cr_assert_eq(cfg.nlevels, 0);
	cr_assert_eq(cfg.nsizes, 4);
	cr_assert_eq(cfg.sizes[0], 8);
	cr_assert_eq(cfg.sizes[1], 1024);
	cr_assert_eq(cfg.sizes[2], 65536);
	cr_assert_eq(cfg.sizes[3], 1048576);
	cr_assert_eq(cfg.nhops, 0);
	cr_assert_float_eq(cfg.sample_time, 0.020, 1e-12);
	cr_assert_eq(cfg.npatterns, 3);
	cr_assert_eq(cfg.patterns[0], PAT_PINGPONG);
	cr_assert_eq(cfg.patterns[1], PAT_STREAM);
	cr_assert_eq(cfg.patterns[2], PAT_BIDIR);
	cr_assert_eq(cfg.window, 64);
	cr_assert_eq(cfg.pairing, CFG_PAIRING_ADJACENT);
	cr_assert_eq(cfg.seed, 1);
	cr_assert_eq(cfg.rep_min, 10);
	cr_assert_eq(cfg.rep_max, 10);
	cr_assert_eq(cfg.warmup, 1);
	cr_assert_float_eq(cfg.timeout, 60.0, 1e-12);
	cr_assert_not(cfg.allow_shared_node);
	cr_assert(cfg.allow_shared_kernel);
	cr_assert_eq(cfg.cpu_control, CFG_AUTO);
	cr_assert_eq(cfg.yield, CFG_YIELD_AUTO);
	cr_assert_not(cfg.distinct_buffers);
	cr_assert_not(cfg.blocking_waits);
	cr_assert_str_eq(cfg.label, "swstress");
	cr_assert_str_eq(cfg.output, "results");
	cr_assert_float_eq(cfg.confidence, 0.95, 1e-12);
	cr_assert_float_eq(cfg.alpha, 0.05, 1e-12);
	cr_assert_float_eq(cfg.min_effect, 2.0, 1e-12);
	cr_assert_float_eq(cfg.ci_target, 0.02, 1e-12);
	cr_assert_float_eq(cfg.cell_budget, 30.0, 1e-12);
	cr_assert_eq(cfg.bootstrap, 2000);
	cr_assert_float_eq(cfg.warn_drop, 10.0, 1e-12);
	cr_assert_float_eq(cfg.crit_drop, 25.0, 1e-12);
	cr_assert_float_eq(cfg.warn_inflation, 20.0, 1e-12);
	cr_assert_float_eq(cfg.crit_inflation, 50.0, 1e-12);
	cr_assert_float_eq(cfg.deadline, 300.0, 1e-12);
	cr_assert_str_eq(cfg.file, "");
	cr_assert_str_eq(config_where(&cfg, "sizes"), "default");
	cr_assert_str_eq(config_where(&cfg, "deadline"), "default");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
}

/* ---- config_parse_size / config_format_size ---- */

Test(config, parse_size_valid)
{
	static const struct { const char *text; uint64_t bytes; } ok[] = {
		{ "8", 8 }, { "8B", 8 }, { "8 b", 8 }, { "1KiB", 1024 }, { "64k", 65536 },
		{ "64K", 65536 }, { "1kib", 1024 }, { "4MiB", 4194304 }, { "1M", 1048576 },
		{ "2GiB", 2147483648ULL }, { "1g", 1073741824ULL }, { "1KB", 1000 }, { "1kb", 1000 },
		{ "3MB", 3000000 }, { "1GB", 1000000000ULL }, { " 16 KiB ", 16384 },
		{ "1.5KiB", 1536 }, { "0.5MiB", 524288 }, { "0", 0 },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t b = 12345;

		cr_assert_eq(config_parse_size(ok[i].text, &b), 0, "'%s' refused", ok[i].text);
		cr_assert_eq(b, ok[i].bytes, "'%s' gave %llu", ok[i].text, (unsigned long long)b);
	}
}

Test(config, parse_size_invalid)
{
	static const char *const bad[] = {
		"", " ", "KiB", "-8", "4XB", "4 KiBB", "1.5", "1.", "8 8", "0x10", "1TiB",
		"99999999999999999999", "17179869184GiB", "1,5KiB",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t b = 12345;

		cr_assert_eq(config_parse_size(bad[i], &b), -1, "'%s' accepted", bad[i]);
		cr_assert_eq(b, 12345, "'%s' wrote the result", bad[i]);
	}
}

Test(config, format_size)
{
	static const struct { uint64_t bytes; const char *text; } t[] = {
		{ 8, "8B" }, { 0, "0B" }, { 1000, "1000B" }, { 1024, "1KiB" }, { 1536, "1536B" },
		{ 65536, "64KiB" }, { 1048576, "1MiB" }, { 4194304, "4MiB" },
		{ 1073741824ULL, "1GiB" }, { 3ULL << 30, "3GiB" }, { 1025, "1025B" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char buf[32];
		uint64_t back;

		config_format_size(t[i].bytes, buf, sizeof(buf));
		cr_assert_str_eq(buf, t[i].text);
		cr_assert_eq(config_parse_size(buf, &back), 0);
		cr_assert_eq(back, t[i].bytes);
		/* the spaced form (compare): the same units, a blank before them */
		char want[32];
		size_t digits = strspn(t[i].text, "0123456789");
		snprintf(want, sizeof(want), "%.*s %s", (int)digits, t[i].text, t[i].text + digits);
		config_format_size_spaced(t[i].bytes, buf, sizeof(buf));
		cr_assert_str_eq(buf, want);
		cr_assert_eq(config_parse_size(buf, &back), 0);
		cr_assert_eq(back, t[i].bytes);
	}
}

/* ---- valid forms of each key ---- */

Test(config, sizes_list_units_sorted)
{
	set_ok("sizes = 64KiB, 8, 1MB, 1k");
	cr_assert_eq(cfg.nsizes, 4);
	cr_assert_eq(cfg.sizes[0], 8);
	cr_assert_eq(cfg.sizes[1], 1024);
	cr_assert_eq(cfg.sizes[2], 65536);
	cr_assert_eq(cfg.sizes[3], 1000000);
	value_is("sizes", "8, 1KiB, 64KiB, 1000000");
}

Test(config, sizes_geometric_range)
{
	set_ok("sizes=1..4MiB x4");
	cr_assert_eq(cfg.nsizes, 12);
	for (int i = 0; i < 12; i++)
		cr_assert_eq(cfg.sizes[i], 1ULL << (2 * i), "entry %d", i);
	/* the end is included even off the progression */
	set_ok("sizes=1KiB..100KiB x4");
	cr_assert_eq(cfg.nsizes, 5);
	cr_assert_eq(cfg.sizes[3], 65536);
	cr_assert_eq(cfg.sizes[4], 102400);
	/* factor 2 when none is given; "*" as well as "x" */
	set_ok("sizes=8..64");
	value_is("sizes", "8, 16, 32, 64");
	set_ok("sizes=8..64 *4");
	value_is("sizes", "8, 32, 64");
	set_ok("sizes=4..4");
	value_is("sizes", "4");
}

Test(config, sizes_mixed_list)
{
	set_ok("sizes=8, 1KiB..1MiB x8");
	value_is("sizes", "8, 1KiB, 8KiB, 64KiB, 512KiB, 1MiB");
	set_ok("sizes=4MiB, 8, 16..64 x2");
	value_is("sizes", "8, 16, 32, 64, 4MiB");
}

Test(config, levels_nodes_pairs_max_all)
{
	set_ok("nodes=48, 8, 16, max");
	cr_assert_eq(cfg.level_unit, CFG_LEVEL_NODES);
	cr_assert_not(cfg.levels_all);
	cr_assert_eq(cfg.nlevels, 4);
	cr_assert_eq(cfg.levels[0], 8);
	cr_assert_eq(cfg.levels[1], 16);
	cr_assert_eq(cfg.levels[2], 48);
	cr_assert_eq(cfg.levels[3], CFG_LEVEL_MAX);
	value_is("nodes", "8, 16, 48, max");
	value_is("pairs", "");

	set_ok("pairs=MAX, 1, 2");
	cr_assert_eq(cfg.level_unit, CFG_LEVEL_PAIRS);
	cr_assert_eq(cfg.nlevels, 3);
	cr_assert_eq(cfg.levels[0], 1);
	cr_assert_eq(cfg.levels[2], CFG_LEVEL_MAX);
	value_is("pairs", "1, 2, max");
	value_is("nodes", "");

	set_ok("pairs=all");
	cr_assert(cfg.levels_all);
	cr_assert_eq(cfg.level_unit, CFG_LEVEL_PAIRS);
	value_is("pairs", "all");

	set_ok("nodes=all");
	cr_assert(cfg.levels_all);
	cr_assert_eq(cfg.level_unit, CFG_LEVEL_NODES);

	set_ok("pairs=1..16");
	value_is("pairs", "1, 2, 4, 8, 16");
	set_ok("nodes=max");
	cr_assert_eq(cfg.nlevels, 1);
	cr_assert_eq(cfg.levels[0], CFG_LEVEL_MAX);
}

Test(config, hops_list_and_auto)
{
	set_ok("hops=16384, 1000");
	cr_assert_eq(cfg.nhops, 2);
	cr_assert_eq(cfg.hops[0], 1000);
	cr_assert_eq(cfg.hops[1], 16384);
	set_ok("hops=1000..100000 x10");
	value_is("hops", "1000, 10000, 100000");
	set_ok("hops=AUTO");
	cr_assert_eq(cfg.nhops, 0);
	value_is("hops", "auto");
}

Test(config, durations)
{
	static const struct { const char *text; double s; const char *back; } t[] = {
		{ "2", 2.0, "2s" }, { "2s", 2.0, "2s" }, { "1.5 s", 1.5, "1.5s" },
		{ "20ms", 0.02, "20ms" }, { "5 MS", 0.005, "5ms" }, { "250us", 250e-6, "250us" },
		{ "2min", 120.0, "120s" }, { "0.25", 0.25, "250ms" }, { "3sec", 3.0, "3s" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char arg[64];

		snprintf(arg, sizeof(arg), "timeout=%s", t[i].text);
		set_ok(arg);
		cr_assert_float_eq(cfg.timeout, t[i].s, 1e-12, "%s", t[i].text);
		value_is("timeout", t[i].back);
	}
	set_ok("sample_time=100us");
	cr_assert_float_eq(cfg.sample_time, 1e-4, 1e-15);
	set_ok("deadline=10min");
	cr_assert_float_eq(cfg.deadline, 600.0, 1e-12);
	set_ok("cell_budget=1500ms");
	cr_assert_float_eq(cfg.cell_budget, 1.5, 1e-12);
}

Test(config, booleans_and_yield)
{
	static const char *const yes[] = { "yes", "true", "1", "on", "YES", "True" };
	static const char *const no[] = { "no", "false", "0", "off", "No" };
	char arg[64];

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		cfg.allow_shared_node = false;
		snprintf(arg, sizeof(arg), "allow_shared_node=%s", yes[i]);
		set_ok(arg);
		cr_assert(cfg.allow_shared_node, "%s", yes[i]);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		cfg.allow_shared_node = true;
		snprintf(arg, sizeof(arg), "allow_shared_node=%s", no[i]);
		set_ok(arg);
		cr_assert_not(cfg.allow_shared_node, "%s", no[i]);
	}
	set_ok("yield=yes");
	cr_assert_eq(cfg.yield, CFG_YIELD_YES);
	set_ok("yield=no");
	cr_assert_eq(cfg.yield, CFG_YIELD_NO);
	set_ok("yield=auto");
	cr_assert_eq(cfg.yield, CFG_YIELD_AUTO);
	set_ok("distinct_buffers=yes");
	cr_assert(cfg.distinct_buffers);
	set_ok("blocking_waits=yes");
	cr_assert(cfg.blocking_waits);
}

Test(config, pairing_forms)
{
	set_ok("pairing=halves");
	cr_assert_eq(cfg.pairing, CFG_PAIRING_HALVES);
	set_ok("pairing=random");
	cr_assert_eq(cfg.pairing, CFG_PAIRING_RANDOM);
	set_ok("pairing=shift:4");
	cr_assert_eq(cfg.pairing, CFG_PAIRING_SHIFT);
	cr_assert_eq(cfg.shift, 4);
	value_is("pairing", "shift:4");
	set_ok("pairing=shift : 2");
	cr_assert_eq(cfg.shift, 2);
	set_ok("pairing=Adjacent");
	cr_assert_eq(cfg.pairing, CFG_PAIRING_ADJACENT);
	cr_assert_eq(cfg.shift, 0);
}

Test(config, design_and_run_to_run)
{
	value_is("design", "blocks");
	cr_assert_eq(cfg.design, CFG_DESIGN_BLOCKS);
	set_ok("design=Sequential");
	cr_assert_eq(cfg.design, CFG_DESIGN_SEQUENTIAL);
	set_ok("design=Blocks");
	cr_assert_eq(cfg.design, CFG_DESIGN_BLOCKS);
	set_ok("design=Sequential");
	cr_assert_eq(cfg.design, CFG_DESIGN_SEQUENTIAL);
	value_is("design", "sequential");
	set_fails("design", "interleaved", "design: unknown design 'interleaved' (blocks, sequential)");
	cr_assert(cfg.run_to_run == 5.0);
	set_ok("run_to_run=2.5%");
	cr_assert(cfg.run_to_run == 2.5);
	set_fails("run_to_run", "-1", "run_to_run: '-1' is out of range (0..1000)");
}

Test(config, repetitions_forms)
{
	set_ok("repetitions=7");
	cr_assert_eq(cfg.rep_min, 7);
	cr_assert_eq(cfg.rep_max, 7);
	value_is("repetitions", "7");
	set_ok("repetitions=10..100");
	cr_assert_eq(cfg.rep_min, 10);
	cr_assert_eq(cfg.rep_max, 100);
	value_is("repetitions", "10..100");
	set_ok("repetitions = 5 .. 5");
	cr_assert_eq(cfg.rep_max, 5);
}

Test(config, patterns_and_scalars)
{
	set_ok("patterns=Stream, pingpong");
	cr_assert_eq(cfg.npatterns, 2);
	cr_assert_eq(cfg.patterns[0], PAT_STREAM);
	cr_assert_eq(cfg.patterns[1], PAT_PINGPONG);
	set_ok("window=1");
	set_ok("window=1024");
	cr_assert_eq(cfg.window, 1024);
	set_ok("warmup=0");
	cr_assert_eq(cfg.warmup, 0);
	set_ok("seed=18446744073709551615");
	cr_assert_eq(cfg.seed, UINT64_MAX);
	set_ok("label=switch-A_2.0");
	cr_assert_str_eq(cfg.label, "switch-A_2.0");
	set_ok("output=/tmp/my results");
	cr_assert_str_eq(cfg.output, "/tmp/my results");
	set_ok("min_effect=5%");
	cr_assert_float_eq(cfg.min_effect, 5.0, 1e-12);
	set_ok("confidence=0.99");
	cr_assert_float_eq(cfg.confidence, 0.99, 1e-12);
	set_ok("bootstrap=100");
	cr_assert_eq(cfg.bootstrap, 100);
	set_ok("Sample-Time=7ms");   /* keys: any case, '-' for '_' */
	cr_assert_float_eq(cfg.sample_time, 0.007, 1e-12);
}

/* ---- errors, with their exact messages ---- */

Test(config, error_bad_unit_and_size)
{
	set_fails("sizes", "8, 4XB", "sizes: bad size '4XB' (units: B, KiB, MiB, GiB, KB, MB, GB)");
	set_fails("sizes", "0", "sizes: '0' is out of range (1..1GiB)");
	set_fails("sizes", "2GiB", "sizes: '2GiB' is out of range (1..1GiB)");
	set_fails("sizes", "-8", "sizes: bad size '-8' (units: B, KiB, MiB, GiB, KB, MB, GB)");
}

Test(config, error_lists)
{
	set_fails("sizes", "", "sizes: empty list");
	set_fails("sizes", "  ", "sizes: empty list");
	set_fails("nodes", "", "nodes: empty list");
	set_fails("hops", "", "hops: empty list");
	set_fails("patterns", "", "patterns: empty list");
	set_fails("sizes", "8,,16", "sizes: empty entry in '8,,16'");
	set_fails("sizes", "8, 16,", "sizes: empty entry in '8, 16,'");
	set_fails("sizes", "4MiB..1KiB", "sizes: range '4MiB..1KiB' starts after it ends");
	set_fails("sizes", "1..8 x1", "sizes: range factor in '1..8 x1' must be at least 2");
	set_fails("sizes", "1..8 x0", "sizes: range factor in '1..8 x0' must be at least 2");
	set_fails("sizes", "..8", "sizes: range '..8' needs a start and an end, e.g. '1KiB..1MiB x4'");
	set_fails("sizes", "8, 1KiB, 8", "sizes: duplicate entry '8'");
	set_fails("sizes", "1KiB, 1024", "sizes: duplicate entry '1KiB'");
	set_fails("hops", "1000, 1000", "hops: duplicate entry '1000'");
	set_fails("nodes", "max, 8, max", "nodes: duplicate entry 'max'");
	set_fails("pairs", "1..max", "pairs: 'max' cannot end a range ('1..max')");
	set_fails("patterns", "stream, stream", "patterns: duplicate entry 'stream'");
}

Test(config, error_too_many_entries)
{
	char list[1024] = "";

	for (int i = 1; i <= SW_MAX_LIST + 1; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i > 1 ? ", " : "", 2 * i);
	set_fails("hops", list, "hops: too many entries (at most 64)");
	set_fails("sizes", "1..1GiB x2, 3..1GiB x2, 5..1GiB x2", "sizes: too many entries (at most 64)");
	/* exactly the limit is fine */
	list[0] = '\0';
	for (int i = 1; i <= SW_MAX_LIST; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i > 1 ? ", " : "", 2 * i);
	cr_assert_eq(config_set(&cfg, "hops", list, "x", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(cfg.nhops, SW_MAX_LIST);
	set_fails("patterns", "pingpong, stream, bidir, pingpong", "patterns: duplicate entry 'pingpong'");
}

Test(config, error_levels)
{
	set_fails("nodes", "8, 12, 15", "nodes: odd number of nodes '15' (a pair takes 2 nodes)");
	set_fails("nodes", "3..16", "nodes: odd number of nodes '3' (a pair takes 2 nodes)");
	set_fails("nodes", "0", "nodes: '0' is out of range (2..1000000)");
	set_fails("pairs", "0", "pairs: '0' is out of range (1..500000)");
	set_fails("pairs", "-1", "pairs: '-1' is out of range (1..500000)");
	set_fails("pairs", "1, 2, all", "pairs: 'all' cannot be combined with other entries");
	set_fails("nodes", "eight", "nodes: 'eight' is not a whole number");
}

Test(config, error_numbers)
{
	set_fails("window", "0", "window: '0' is out of range (1..1024)");
	set_fails("window", "-4", "window: '-4' is out of range (1..1024)");
	set_fails("window", "2048", "window: '2048' is out of range (1..1024)");
	set_fails("window", "64k", "window: '64k' is not a whole number");
	set_fails("window", "", "window: empty value");
	set_fails("warmup", "-1", "warmup: '-1' is out of range (0..1000)");
	set_fails("bootstrap", "99", "bootstrap: '99' is out of range (100..1000000)");
	set_fails("confidence", "1", "confidence: '1' is out of range (> 0.5 and < 1)");
	set_fails("confidence", "0.5", "confidence: '0.5' is out of range (> 0.5 and < 1)");
	set_fails("alpha", "0", "alpha: '0' is out of range (> 0 and <= 0.5)");
	set_fails("alpha", "abc", "alpha: 'abc' is not a number");
	set_fails("ci_target", "nan", "ci_target: 'nan' is not a number");
	set_fails("confidence", "95%", "confidence: '95%' is not a number");
	set_fails("warn_drop", "0", "warn_drop: '0' is out of range (> 0 and <= 100)");
	set_fails("crit_drop", "101%", "crit_drop: '101%' is out of range (> 0 and <= 100)");
	set_fails("seed", "-1", "seed: '-1' is not a whole number 0..18446744073709551615");
}

Test(config, error_durations)
{
	set_fails("timeout", "5x", "timeout: bad duration '5x' (units: s, ms, us, min)");
	set_fails("timeout", "ms", "timeout: bad duration 'ms' (units: s, ms, us, min)");
	set_fails("timeout", "0", "timeout: '0' is out of range (> 0s and <= 86400s)");
	set_fails("timeout", "-1s", "timeout: '-1s' is out of range (> 0s and <= 86400s)");
	set_fails("sample_time", "2min", "sample_time: '2min' is out of range (> 0s and <= 60s)");
	set_fails("deadline", "0ms", "deadline: '0ms' is out of range (> 0s and <= 604800s)");
}

Test(config, error_words)
{
	set_fails("allow_shared_node", "maybe", "allow_shared_node: 'maybe' is not yes or no");
	set_fails("yield", "sometimes", "yield: 'sometimes' is not auto, yes or no");
	set_fails("pairing", "ring", "pairing: unknown pairing 'ring' (adjacent, halves, random, shift:D)");
	set_fails("pairing", "halves:2", "pairing: unknown pairing 'halves:2' (adjacent, halves, random, shift:D)");
	set_fails("pairing", "shift", "pairing: shift needs a distance, e.g. 'shift:2'");
	set_fails("pairing", "shift:0", "pairing: shift distance '0' is out of range (1..1e+06)");
	set_fails("pairing", "shift:x", "pairing: shift distance 'x' is not a whole number");
	set_fails("patterns", "pingpog", "patterns: unknown pattern 'pingpog' (did you mean 'pingpong'?)");
	set_fails("patterns", "alltoall", "patterns: unknown pattern 'alltoall' (patterns: pingpong, stream, bidir, incast)");
	set_fails("label", "a b", "label: 'a b' may hold only letters, digits, '.', '_' and '-'");
	set_fails("label", "x/y", "label: 'x/y' may hold only letters, digits, '.', '_' and '-'");
	set_fails("label", "0123456789012345678901234567890123456789012345678901234567890123",
		  "label: '0123456789012345678901234567890123456789012345678901234567890123' is longer than 63 characters");
	set_fails("output", "", "output: empty value");
}

Test(config, error_repetitions)
{
	set_fails("repetitions", "20..10", "repetitions: minimum 20 is larger than maximum 10");
	set_fails("repetitions", "0", "repetitions: '0' is out of range (1..1000000)");
	set_fails("repetitions", "-5..10", "repetitions: '-5' is out of range (1..1000000)");
	set_fails("repetitions", "ten", "repetitions: 'ten' is not a whole number");
}

Test(config, failed_set_leaves_config_untouched)
{
	struct sw_config before = cfg;

	cr_assert_eq(config_set(&cfg, "sizes", "8, 16, 4XB", "x", err, sizeof(err)), -1);
	cr_assert_eq(config_set(&cfg, "nodes", "8, 9", "x", err, sizeof(err)), -1);
	cr_assert_eq(config_set(&cfg, "pairing", "shift:0", "x", err, sizeof(err)), -1);
	cr_assert_eq(config_set(&cfg, "repetitions", "9..3", "x", err, sizeof(err)), -1);
	cr_assert_eq(config_set(&cfg, "patterns", "stream, nope", "x", err, sizeof(err)), -1);
	cr_assert_eq(memcmp(&before, &cfg, sizeof(cfg)), 0);
}

/* ---- unknown keys ---- */

Test(config, unknown_key_did_you_mean)
{
	set_fails("msgsz", "8", "unknown key 'msgsz' (did you mean 'sizes'?)");
	set_fails("size", "8", "unknown key 'size' (did you mean 'sizes'?)");
	set_fails("sampel_time", "8", "unknown key 'sampel_time' (did you mean 'sample_time'?)");
	set_fails("windw", "8", "unknown key 'windw' (did you mean 'window'?)");
	set_fails("repetition", "8", "unknown key 'repetition' (did you mean 'repetitions'?)");
	set_fails("iterations", "8", "unknown key 'iterations' (did you mean 'hops'?)");
	set_fails("np", "8", "unknown key 'np' (did you mean 'nodes'?)");
	set_fails("allow_shared_nodes", "1", "unknown key 'allow_shared_nodes' (did you mean 'allow_shared_node'?)");
	set_fails("colour", "red", "unknown key 'colour' (swstress --help lists the keys)");
	set_fails("", "8", "missing key before '='");
}

/* ---- files ---- */

Test(config, file_valid_every_key)
{
	cr_assert_eq(config_load_file(&cfg, DATA "valid.conf", err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(cfg.file, DATA "valid.conf");
	value_is("nodes", "8, 16, max");
	value_is("sizes", "8, 1KiB, 8KiB, 64KiB, 512KiB, 1MiB");
	value_is("hops", "1000, 2000");
	cr_assert_float_eq(cfg.sample_time, 0.005, 1e-12);
	value_is("patterns", "stream, pingpong");
	cr_assert_eq(cfg.window, 32);
	cr_assert_eq(cfg.pairing, CFG_PAIRING_SHIFT);
	cr_assert_eq(cfg.shift, 3);
	cr_assert_eq(cfg.seed, 42);
	cr_assert_eq(cfg.rep_min, 5);
	cr_assert_eq(cfg.rep_max, 50);
	cr_assert_eq(cfg.warmup, 3);
	cr_assert_float_eq(cfg.timeout, 120.0, 1e-12);
	cr_assert(cfg.allow_shared_node);
	cr_assert_eq(cfg.yield, CFG_YIELD_NO);
	cr_assert_str_eq(cfg.label, "switch-A_1.0");
	cr_assert_str_eq(cfg.output, "/tmp/sw results");
	cr_assert_float_eq(cfg.confidence, 0.99, 1e-12);
	cr_assert_float_eq(cfg.alpha, 0.01, 1e-12);
	cr_assert_float_eq(cfg.min_effect, 5.0, 1e-12);
	cr_assert_float_eq(cfg.ci_target, 0.05, 1e-12);
	cr_assert_float_eq(cfg.cell_budget, 1.5, 1e-12);
	cr_assert_eq(cfg.bootstrap, 5000);
	cr_assert_float_eq(cfg.warn_drop, 5.0, 1e-12);
	cr_assert_float_eq(cfg.crit_drop, 15.0, 1e-12);
	cr_assert_float_eq(cfg.warn_inflation, 10.0, 1e-12);
	cr_assert_float_eq(cfg.crit_inflation, 30.0, 1e-12);
	cr_assert_float_eq(cfg.deadline, 90.0, 1e-12);
	/* provenance: file and line of each key */
	cr_assert_str_eq(config_where(&cfg, "nodes"), DATA "valid.conf:5");
	cr_assert_str_eq(config_where(&cfg, "pairs"), DATA "valid.conf:5");
	cr_assert_str_eq(config_where(&cfg, "hops"), DATA "valid.conf:7");
	cr_assert_str_eq(config_where(&cfg, "deadline"), DATA "valid.conf:34");
	cr_assert_str_eq(config_where(&cfg, "no_such_key"), "?");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
}

Test(config, shipped_configs_are_valid)
{
	static const char *const files[] = {
		"configs/quick.conf", "configs/procurement.conf", "configs/health.conf",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		config_defaults(&cfg);
		cr_assert_eq(config_load_file(&cfg, files[i], err, sizeof(err)), 0, "%s", err);
		cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
	}
	/* procurement: 8..48 nodes, 4 B..4 MiB x4, adaptive repetitions */
	cr_assert_eq(cfg.nsizes, 3);  /* health.conf was last */
	/* the nightly check measures a slow pair in bounded time: pingpong
	 * time-bounded too, so the pair is named, not timed out (issue 27) */
	cr_assert(config_pattern_timed(&cfg, PAT_PINGPONG), "health.conf: pingpong not time-bounded");
	config_defaults(&cfg);
	cr_assert_eq(config_load_file(&cfg, "configs/procurement.conf", err, sizeof(err)), 0, "%s", err);
	value_is("nodes", "8, 16, 24, 32, 40, 48, max");
	value_is("sizes", "4, 16, 64, 256, 1KiB, 4KiB, 16KiB, 64KiB, 256KiB, 1MiB, 4MiB");
	cr_assert_eq(cfg.pairing, CFG_PAIRING_HALVES);
	cr_assert_lt(cfg.rep_min, cfg.rep_max);
	config_defaults(&cfg);
	cr_assert_eq(config_load_file(&cfg, "configs/quick.conf", err, sizeof(err)), 0, "%s", err);
	cr_assert(cfg.allow_shared_node);
}

Test(config, file_errors_name_the_line)
{
	load_fails(DATA "unknown_key.conf",
		   DATA "unknown_key.conf:3: unknown key 'msgsz' (did you mean 'sizes'?)");
	config_defaults(&cfg);
	load_fails(DATA "no_equals.conf", DATA "no_equals.conf:4: expected 'key = value', got 'window 64'");
	config_defaults(&cfg);
	load_fails(DATA "bad_unit.conf",
		   DATA "bad_unit.conf:3: sizes: bad size '4XB' (units: B, KiB, MiB, GiB, KB, MB, GB)");
	config_defaults(&cfg);
	load_fails(DATA "bad_section.conf", DATA "bad_section.conf:1: section header '[sweep' has no closing ']'");
	config_defaults(&cfg);
	load_fails(DATA "long_line.conf", DATA "long_line.conf:2: line is longer than 198 characters");
	config_defaults(&cfg);
	load_fails(DATA "reps_reversed.conf",
		   DATA "reps_reversed.conf:2: repetitions: minimum 20 is larger than maximum 10");
	config_defaults(&cfg);
	load_fails(DATA "odd_nodes.conf",
		   DATA "odd_nodes.conf:2: nodes: odd number of nodes '15' (a pair takes 2 nodes)");
}

Test(config, file_first_error_wins)
{
	char path[64], want[256];

	/* a syntax error before a bad value, and the other way round */
	temp_file(path, sizeof(path), "sizes = 8\nnonsense\nwindow = 0\n");
	snprintf(want, sizeof(want), "%s:2: expected 'key = value', got 'nonsense'", path);
	load_fails(path, want);
	unlink(path);
	temp_file(path, sizeof(path), "sizes = 8\nwindow = 0\nnonsense\n");
	snprintf(want, sizeof(want), "%s:2: window: '0' is out of range (1..1024)", path);
	load_fails(path, want);
	unlink(path);
}

Test(config, file_not_found)
{
	load_fails(DATA "no_such_file.conf", DATA "no_such_file.conf: cannot read: No such file or directory");
	load_fails(DATA, DATA ": cannot read: Is a directory");
}

/* Issue #11: a key given twice in one file is an error naming both lines
 * (it used to win silently), and so are nodes and pairs together (the
 * pairs were silently dropped). */
Test(config, file_duplicate_and_conflicting_keys_name_both_lines)
{
	char path[64], want[256];

	load_fails(DATA "duplicate.conf", DATA "duplicate.conf:4: duplicate key 'window' (first set at line 2)");
	config_defaults(&cfg);
	temp_file(path, sizeof(path), "pairs = 1,2\nsizes = 8\nnodes = 4\n");
	snprintf(want, sizeof(want), "%s:3: 'nodes' conflicts with 'pairs' at line 1 (levels are nodes or pairs, not both)",
		 path);
	load_fails(path, want);
	unlink(path);
	config_defaults(&cfg);
	temp_file(path, sizeof(path), "Window = 3\n[stats]\nwindow = 4\n");
	snprintf(want, sizeof(want), "%s:3: duplicate key 'window' (first set at line 1)", path);
	load_fails(path, want);
	unlink(path);
	/* the command line still wins over the file */
	config_defaults(&cfg);
	cr_assert_eq(config_load_file(&cfg, DATA "valid.conf", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&cfg, "pairs=1", err, sizeof(err)), 0, "%s", err);
}

/* Issue #11: NUL bytes, devices that never end, and one length limit for
 * a file line and a command-line word. */
Test(config, nul_bytes_endless_files_and_one_length_limit)
{
	char path[64], word[400], want[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/swstress-cfg-XXXXXX");
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	f = fdopen(fd, "w");
	fwrite("window = 3\nlabel = ab\0cd\n", 1, 25, f);
	fclose(f);
	snprintf(want, sizeof(want), "%s:2: a NUL byte: not a text file", path);
	load_fails(path, want);
	unlink(path);
	config_defaults(&cfg);
	load_fails("/dev/zero", "/dev/zero: more than 1048576 bytes: not a config file");
	/* 198 characters pass on the command line as in a file, 199 do not */
	config_defaults(&cfg);
	memset(word, 0, sizeof(word));
	memcpy(word, "label=", 6);
	memset(word + 6, 'a', 198 - 6);
	cr_expect_neq(config_set_arg(&cfg, word, err, sizeof(err)), 0);   /* too long a label, but not a line */
	cr_expect(strstr(err, "label: 'aaa") != NULL, "%s", err);
	word[198] = 'a';
	cr_expect_neq(config_set_arg(&cfg, word, err, sizeof(err)), 0);
	cr_expect_str_eq(err, "command line: 'label=...' is longer than 198 characters (as a config file line)");
}

Test(config, file_layout_crlf_bom_indent_comments)
{
	char path[64];

	temp_file(path, sizeof(path),
		  "\xEF\xBB\xBFwindow = 3\r\n"
		  "; comment\r\n"
		  "# comment\r\n"
		  "\t  sizes = 8, 64KiB   # trailing comment\r\n"
		  "    hops = 100 ; trailing comment\r\n"
		  "label: colon-form\r\n"
		  "\r\n"
		  "[any section name]\r\n"
		  "  pairs = 1, 2\r\n");
	cr_assert_eq(config_load_file(&cfg, path, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(cfg.window, 3);
	value_is("sizes", "8, 64KiB");
	value_is("hops", "100");
	value_is("pairs", "1, 2");
	cr_assert_str_eq(cfg.label, "colon-form");
	unlink(path);
}

Test(config, empty_file_changes_nothing)
{
	char path[64];
	struct sw_config before;

	temp_file(path, sizeof(path), "");
	before = cfg;
	cr_assert_eq(config_load_file(&cfg, path, err, sizeof(err)), 0, "%s", err);
	memset(cfg.file, 0, sizeof(cfg.file));
	cr_assert_eq(memcmp(&before, &cfg, sizeof(cfg)), 0);
	unlink(path);
}

/* ---- command line ---- */

Test(config, command_line_overrides_file)
{
	cr_assert_eq(config_load_file(&cfg, DATA "valid.conf", err, sizeof(err)), 0, "%s", err);
	set_ok("window=8");
	set_ok("pairs = 1, max");
	cr_assert_eq(cfg.window, 8);
	cr_assert_str_eq(config_where(&cfg, "window"), "command line");
	cr_assert_str_eq(config_where(&cfg, "nodes"), "command line");
	cr_assert_eq(cfg.level_unit, CFG_LEVEL_PAIRS);
	cr_assert_str_eq(config_where(&cfg, "seed"), DATA "valid.conf:12");
}

Test(config, command_line_errors)
{
	cr_assert_eq(config_set_arg(&cfg, "window", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: expected key=value, got 'window'");
	cr_assert_eq(config_set_arg(&cfg, "msgsz=8", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: unknown key 'msgsz' (did you mean 'sizes'?)");
	cr_assert_eq(config_set_arg(&cfg, "sizes=4XB", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: sizes: bad size '4XB' (units: B, KiB, MiB, GiB, KB, MB, GB)");
	cr_assert_eq(config_set_arg(&cfg, "=8", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: missing key before '='");
	/* a value may hold '=' */
	cr_assert_eq(config_set_arg(&cfg, "output=a=b", err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(cfg.output, "a=b");
}

/* ---- checks across keys ---- */

/* Issue #28: the CPU control is a round of the victims: yes without them
 * is refused naming the key; auto without them is fine. */
Test(config, cpu_control_yes_needs_victims)
{
	set_ok("cpu_control=yes");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: cpu_control = yes: needs victims (the CPU control is a round of the "
			      "victims beside aggressors that only load their CPUs)");
	set_ok("victims=1");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
	set_ok("victims=0");
	set_ok("cpu_control=auto");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
	set_fails("allow_shared_kernel", "maybe", "allow_shared_kernel: 'maybe' is not yes or no");
}

Test(config, validate_odd_hops_names_hops_line)
{
	cr_assert_eq(config_load_file(&cfg, DATA "odd_hops.conf", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, DATA "odd_hops.conf:4: hops: 1001 is odd, but pingpong needs an even number "
			      "(a round trip is 2 hops)");
	/* without pingpong, odd hops are fine */
	set_ok("patterns=stream, bidir");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
	/* pingpong added on the command line: the hops line is still named */
	set_ok("patterns=bidir, pingpong");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert(strncmp(err, DATA "odd_hops.conf:4: hops: 1001 is odd", strlen(DATA "odd_hops.conf:4: hops: 1001 is odd")) == 0, "%s", err);
}

/* timed takes auto, yes or no; timed = yes with a hop list is refused,
 * naming the line that set timed. */
Test(config, timed_key_and_its_conflict_with_hops)
{
	set_ok("timed=yes");
	cr_assert_eq(cfg.timed, CFG_YES);
	set_ok("timed=no");
	cr_assert_eq(cfg.timed, CFG_NO);
	set_ok("timed=auto");
	cr_assert_eq(cfg.timed, CFG_AUTO);
	cr_assert_eq(config_set_arg(&cfg, "timed=sometimes", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: timed: 'sometimes' is not auto, yes or no");
	set_ok("hops=1000");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
	set_ok("timed=yes");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: timed = yes: hops must be auto (a timed sample lasts sample_time)");
}

Test(config, validate_thresholds_and_reps)
{
	set_ok("crit_drop=5");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "command line: warn_drop 10 is larger than crit_drop 5");
	config_defaults(&cfg);
	cr_assert_eq(config_set(&cfg, "warn_inflation", "80", "h.conf:3", err, sizeof(err)), 0);
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "h.conf:3: warn_inflation 80 is larger than crit_inflation 50");
	config_defaults(&cfg);
	cfg.rep_min = 9;
	cfg.rep_max = 3;
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "default: repetitions: minimum 9 is larger than maximum 3");
}

/* ---- JSON ---- */

Test(config, json_holds_file_text)
{
	json_t *j;

	set_ok("sizes=8, 1KiB, 64KiB");
	set_ok("pairs=1,2,max");
	set_ok("sample_time=5ms");
	j = config_to_json(&cfg);
	cr_assert_not_null(j);
	cr_assert_str_eq(json_string_value(json_object_get(j, "sizes")), "8, 1KiB, 64KiB");
	cr_assert_str_eq(json_string_value(json_object_get(j, "pairs")), "1, 2, max");
	cr_assert_null(json_object_get(j, "nodes"));
	cr_assert_str_eq(json_string_value(json_object_get(j, "sample_time")), "5ms");
	cr_assert_str_eq(json_string_value(json_object_get(j, "hops")), "auto");
	cr_assert_str_eq(json_string_value(json_object_get(j, "window")), "64");
	cr_assert_str_eq(json_string_value(json_object_get(j, "confidence")), "0.95");
	cr_assert_str_eq(json_string_value(json_object_get(j, "allow_shared_node")), "no");
	json_decref(j);
}

/* c with its provenance cleared, for comparing values only. */
static void values_only(struct sw_config *c)
{
	memset(c->where, 0, sizeof(c->where));
	memset(c->file, 0, sizeof(c->file));
}

static void round_trip(const struct sw_config *c)
{
	struct sw_config back, a = *c;
	json_t *j = config_to_json(c);
	char *text;
	json_t *parsed;

	cr_assert_not_null(j);
	/* through text as well, as run.json would be */
	text = json_dumps(j, JSON_COMPACT);
	parsed = json_loads(text, 0, NULL);
	cr_assert_not_null(parsed);
	config_defaults(&back);
	cr_assert_eq(config_from_json(&back, parsed, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(config_where(&back, "sizes"), "run.json");
	values_only(&a);
	values_only(&back);
	cr_assert_eq(memcmp(&a, &back, sizeof(a)), 0, "round trip differs: %s", text);
	free(text);
	json_decref(parsed);
	json_decref(j);
}

Test(config, json_round_trip)
{
	round_trip(&cfg);  /* defaults */
	cr_assert_eq(config_load_file(&cfg, DATA "valid.conf", err, sizeof(err)), 0, "%s", err);
	round_trip(&cfg);
	set_ok("pairs=all");
	set_ok("sizes=1..1GiB x2, 1000, 3KB");
	set_ok("sample_time=0.0001234");
	set_ok("timeout=1e-7");
	set_ok("confidence=0.951234567891");
	set_ok("alpha=0.1");
	set_ok("seed=18446744073709551615");
	set_ok("pairing=random");
	set_ok("yield=yes");
	set_ok("repetitions=3");
	round_trip(&cfg);
	for (const char **f = (const char *[]){ "configs/quick.conf", "configs/procurement.conf",
						"configs/health.conf", NULL }; *f; f++) {
		config_defaults(&cfg);
		cr_assert_eq(config_load_file(&cfg, *f, err, sizeof(err)), 0, "%s", err);
		round_trip(&cfg);
	}
}

Test(config, json_from_loose_values_and_errors)
{
	json_t *j = json_pack("{s:i, s:f, s:b, s:s}", "window", 16, "alpha", 0.1, "allow_shared_node", 1,
			      "sizes", "8");

	cr_assert_eq(config_from_json(&cfg, j, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(cfg.window, 16);
	cr_assert_float_eq(cfg.alpha, 0.1, 1e-12);
	cr_assert(cfg.allow_shared_node);
	json_decref(j);

	j = json_pack("{s:s}", "msgsz", "8");
	cr_assert_eq(config_from_json(&cfg, j, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "run.json: unknown key 'msgsz' (did you mean 'sizes'?)");
	json_decref(j);

	j = json_pack("{s:[]}", "sizes");
	cr_assert_eq(config_from_json(&cfg, j, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "run.json: sizes: value must be a string");
	json_decref(j);

	j = json_array();
	cr_assert_eq(config_from_json(&cfg, j, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "run.json: config is not an object");
	json_decref(j);
}

/* ---- the key table ---- */

static char *capture_keys(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	config_print_keys(f);
	fclose(f);
	return buf;
}

Test(config, print_keys_aligned_table)
{
	static const char *const keys[] = {
		"nodes", "pairs", "sizes", "hops", "sample_time", "timed", "patterns", "window", "distinct_buffers",
		"blocking_waits", "pairing", "seed", "repetitions", "design", "schedule", "map_rounds", "map_concurrency", "warmup", "timeout", "allow_shared_node", "allow_shared_kernel", "yield", "ranks_per_node", "victims", "victim_size", "cpu_control", "isolate", "drift_check", "label",
		"output", "keep_days", "confidence", "alpha", "min_effect", "run_to_run", "suspect_min_effect", "ci_target", "cell_budget",
		"bootstrap", "warn_drop", "crit_drop", "warn_inflation", "crit_inflation", "deadline",
		"nightly_sigma", "baseline_window", "ewma_lambda", "ewma_limit",
		"vendor", "model", "firmware", "port_speed", "ports_used", "topology",
		"oversubscription", "cabling", "notes", "nic", "transport",
	};
	char *text = capture_keys(), *line, *save = NULL;
	int def_col = -1, help_col = -1, rows = 0;

	cr_assert(strncmp(text, "key ", 4) == 0, "%s", text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *d;

		if (line[0] == '[')
			continue;
		d = strstr(line, "  ");
		cr_assert_not_null(d, "%s", line);
		while (*d == ' ')
			d++;
		if (def_col < 0)
			def_col = (int)(d - line);
		cr_assert_eq((int)(d - line), def_col, "default column moved: %s", line);
		rows++;
		if (strncmp(line, "sizes ", 6) == 0) {
			cr_assert(strstr(line, "8, 1KiB, 64KiB, 1MiB") == d, "%s", line);
			help_col = (int)(strstr(line, "message sizes") - line);
		}
		if (strncmp(line, "window ", 7) == 0)
			cr_assert_eq((int)(strstr(line, "messages in flight") - line), help_col, "%s", line);
	}
	cr_assert_eq(rows, 1 + (int)(sizeof(keys) / sizeof(keys[0])));
	free(text);
	text = capture_keys();
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char pat[64];

		snprintf(pat, sizeof(pat), "\n%s ", keys[i]);
		cr_assert_not_null(strstr(text, pat), "key %s missing", keys[i]);
		/* and every listed key is settable */
		cr_assert_neq(strcmp(config_where(&cfg, keys[i]), "?"), 0, "%s", keys[i]);
	}
	free(text);
}

Test(config, print_effective_config_reloads)
{
	char *buf = NULL, path[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sw_config a;

	cr_assert_eq(config_load_file(&cfg, DATA "valid.conf", err, sizeof(err)), 0, "%s", err);
	set_ok("window=7");
	config_print(f, &cfg);
	fclose(f);
	cr_assert_not_null(strstr(buf, "window = 7  # command line\n"), "%s", buf);
	cr_assert_not_null(strstr(buf, "seed = 42  # " DATA "valid.conf:12\n"), "%s", buf);
	a = cfg;
	temp_file(path, sizeof(path), buf);
	config_defaults(&cfg);
	cr_assert_eq(config_load_file(&cfg, path, err, sizeof(err)), 0, "%s", err);
	values_only(&a);
	values_only(&cfg);
	cr_assert_eq(memcmp(&a, &cfg, sizeof(a)), 0);
	unlink(path);
	free(buf);
}

/* Switch and host metadata: free text, empty allowed, one line, bounded,
 * and through run.json and back unchanged. */
Test(config, switch_metadata_text)
{
	struct sw_config c, back;
	char err[512], big[300];
	json_t *j;

	config_defaults(&c);
	cr_assert_str_eq(c.model, "");
	cr_assert_eq(config_set_arg(&c, "model=SN2700 <b>&\"x\"", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&c, "ports_used=32", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&c, "oversubscription=3:1", err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set_arg(&c, "notes=", err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(c.model, "SN2700 <b>&\"x\"");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cr_assert_eq(config_set(&c, "vendor", big, "t.conf:3", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "t.conf:3: vendor: longer than 63 characters");
	cr_assert_eq(config_set(&c, "nic", "a\tb", "t.conf:4", err, sizeof(err)), -1);
	cr_assert(strstr(err, "control character"), "%s", err);
	cr_assert_eq(config_set_arg(&c, "ports_used=-1", err, sizeof(err)), -1);
	j = config_to_json(&c);
	cr_assert_not_null(j);
	cr_assert_str_eq(json_string_value(json_object_get(j, "model")), "SN2700 <b>&\"x\"");
	cr_assert_null(json_object_get(j, "notes"));   /* empty text is left out */
	config_defaults(&back);
	cr_assert_eq(config_from_json(&back, j, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(back.model, c.model);
	cr_assert_eq(back.ports_used, 32);
	cr_assert_str_eq(back.oversubscription, "3:1");
	json_decref(j);
}

/* Incast is always time-bounded: a hop list or timed = no is refused,
 * naming the line of the key that makes it impossible. */
Test(config, incast_is_timed_and_refuses_hop_counts)
{
	set_ok("patterns=stream, incast");
	cr_assert_eq(cfg.patterns[1], PAT_INCAST);
	cr_assert(config_pattern_timed(&cfg, PAT_INCAST));
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(config_set(&cfg, "hops", "1000", "i.conf:4", err, sizeof(err)), 0);
	cr_assert(config_pattern_timed(&cfg, PAT_INCAST) && !config_pattern_timed(&cfg, PAT_STREAM));
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "i.conf:4: incast is time-bounded: it needs hops = auto and timed = auto or yes");
	cr_assert_eq(config_set(&cfg, "hops", "auto", "i.conf:4", err, sizeof(err)), 0);
	cr_assert_eq(config_set(&cfg, "timed", "no", "i.conf:5", err, sizeof(err)), 0);
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "i.conf:5: incast is time-bounded: it needs hops = auto and timed = auto or yes");
	set_ok("timed=yes");
	cr_assert_eq(config_validate(&cfg, err, sizeof(err)), 0, "%s", err);
}
