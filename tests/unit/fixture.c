/* fixture.c - see fixture.h. */
#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fixture.h"

#define FIXTURE_PREFIX "/tmp/swstress-"

char fixture_dir[FIXTURE_DIR_MAX];

static int removed_all;

void fixture_mkdtemp(char *dir, size_t len, const char *name)
{
	int n = snprintf(dir, len, FIXTURE_PREFIX "%s-XXXXXX", name);

	cr_assert(n > 0 && (size_t)n < len, "fixture: '%s' does not fit a %zu-byte folder name", name, len);
	cr_assert_not_null(mkdtemp(dir), "fixture: mkdtemp %s: %s", dir, strerror(errno));
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0) {
		fprintf(stderr, "fixture: cannot remove %s: %s\n", path, strerror(errno));
		removed_all = -1;
	}
	return 0;
}

int fixture_rmtree(const char *dir)
{
	const char *keep = getenv("T_KEEP");

	if (strncmp(dir, FIXTURE_PREFIX, strlen(FIXTURE_PREFIX)) != 0 || strstr(dir, "/.."))
		return 0;
	if (keep && *keep) {
		fprintf(stderr, "kept %s\n", dir);
		return 0;
	}
	removed_all = 0;
	if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		fprintf(stderr, "fixture: cannot remove %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return removed_all;
}

void fixture_setup(void)
{
	fixture_mkdtemp(fixture_dir, sizeof(fixture_dir), criterion_current_suite->name);
}

void fixture_teardown(void)
{
	cr_assert_eq(fixture_rmtree(fixture_dir), 0, "fixture: %s not removed", fixture_dir);
}
