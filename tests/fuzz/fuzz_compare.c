/*
 * fuzz_compare.c - libFuzzer target for the inputs of compare (issue #11):
 * two results folders a/ and b/ (sections "%%samples.csv%%",
 * "%%b/run.json%%", "%%b/samples.csv%%", see files.h) loaded and matched
 * by compare_load, then printed, as `swstress compare a b` does without
 * charts. Also replayed (replay.c).
 */
#include "compare.h"
#include "files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], a[128], b[128];
	const char *root = files_write(data, size, "a");
	const char *paths[2] = { a, b };

	snprintf(a, sizeof(a), "%s/a", root);
	snprintf(b, sizeof(b), "%s/b", root);
	struct compare *c = compare_load(paths, 2, err, sizeof(err));
	if (c) {
		FILE *f = fopen("/dev/null", "w");

		if (f) {
			compare_print(f, c, false);
			fclose(f);
		}
		compare_free(c);
	}
	return 0;
}
