/*
 * fuzz_config.c - libFuzzer target for the config parser.
 *
 * The input is a config file: it is written to a temporary file and read
 * with config_load_file; then every line of the same input is given to
 * config_set_arg as a command-line word (on a fresh config). Whatever
 * parses is validated, planned for 8 and 48 ranks, and round-tripped
 * through config_to_json / config_from_json, which must reproduce the
 * same JSON (the property run.json relies on). Also built with the normal
 * compiler into a replay driver (replay.c) that make test runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "config.h"
#include "plan.h"

static char g_path[64];

static void cleanup(void)
{
	if (g_path[0])
		unlink(g_path);
}

/* Validate, plan and round-trip a config that parsed. */
static void exercise(const struct sw_config *c)
{
	char err[1024], buf[2048];
	struct sw_config back;

	if (config_validate(c, err, sizeof(err)) == 0) {
		static const int ranks[] = { 2, 8, 48 };

		for (size_t i = 0; i < sizeof(ranks) / sizeof(ranks[0]); i++) {
			struct sw_plan *p = plan_create(c, ranks[i], err, sizeof(err));

			if (p) {
				(void)plan_estimate_seconds(p, c);
				plan_free(p);
			}
		}
	}
	(void)config_format_value(c, "sizes", buf, sizeof(buf));
	json_t *j = config_to_json(c);
	if (!j)
		return;
	config_defaults(&back);
	if (config_from_json(&back, j, err, sizeof(err)) == 0) {
		json_t *k = config_to_json(&back);

		if (k && !json_equal(j, k)) {
			char *a = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
			char *b = json_dumps(k, JSON_SORT_KEYS | JSON_COMPACT);

			fprintf(stderr, "config round trip differs:\n  %s\n  %s\n", a, b);
			abort();
		}
		json_decref(k);
	} else {
		fprintf(stderr, "config_from_json refused config_to_json's output: %s\n", err);
		abort();
	}
	json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sw_config c;
	char err[1024];
	FILE *f;

	if (!g_path[0]) {
		const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(g_path, sizeof(g_path), "%s/swfuzz-config-%d.conf", dir, (int)getpid());
		atexit(cleanup);
	}
	f = fopen(g_path, "w");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	config_defaults(&c);
	if (config_load_file(&c, g_path, err, sizeof(err)) == 0)
		exercise(&c);

	/* Each line as a key=value word on the command line. */
	char *copy = malloc(size + 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	config_defaults(&c);
	bool ok = true;
	for (char *line = copy, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (config_set_arg(&c, line, err, sizeof(err)))
			ok = false;
	}
	if (ok)
		exercise(&c);
	free(copy);
	return 0;
}
