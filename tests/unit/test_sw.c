/*
 * test_sw.c - the shared helpers of sw.c that keep input as data: number
 * parsing with range checks (no atoi, no wrap of "-1" through strtoull)
 * the path form handed to gnuplot, and temporary files that no planted
 * symlink can redirect.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "sw.h"

Test(sw, parse_long_whole_and_in_range)
{
	long v = 7;

	cr_expect_eq(sw_parse_long("42", 0, 100, &v), 0);
	cr_expect_eq(v, 42);
	cr_expect_eq(sw_parse_long(" -3 ", -5, 5, &v), 0);
	cr_expect_eq(v, -3);
	v = 7;
	const char *bad[] = { "", " ", "abc", "12abc", "1.5", "0x10", "101", "-1", "99999999999999999999", NULL };
	for (int i = 0; bad[i]; i++) {
		cr_expect_eq(sw_parse_long(bad[i], 0, 100, &v), -1, "'%s' accepted", bad[i]);
		cr_expect_eq(v, 7, "'%s' changed the value", bad[i]);
	}
}

Test(sw, parse_u64_refuses_signs)
{
	uint64_t v = 7;

	cr_expect_eq(sw_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	cr_expect_eq(v, UINT64_MAX);
	const char *bad[] = { "-1", "+1", "18446744073709551616", "", "1e3", "4294967298x", NULL };
	for (int i = 0; bad[i]; i++)
		cr_expect_eq(sw_parse_u64(bad[i], 0, UINT64_MAX, &v), -1, "'%s' accepted", bad[i]);
	cr_expect_eq(sw_parse_u64("0", 1, 10, &v), -1);
}

Test(sw, parse_double_finite)
{
	double v = 7;

	cr_expect_eq(sw_parse_double("1.5e-6", 0, 1, &v), 0);
	cr_expect_float_eq(v, 1.5e-6, 1e-12);
	const char *bad[] = { "inf", "-inf", "nan", "1e308x", "1e999", "", "2", "-0.5", NULL };
	for (int i = 0; bad[i]; i++)
		cr_expect_eq(sw_parse_double(bad[i], 0, 1, &v), -1, "'%s' accepted", bad[i]);
	/* an underflow to a tiny value is still a number, the range decides */
	cr_expect_eq(sw_parse_double("1e-320", 1e-9, 1, &v), -1);
}

/* gnuplot runs '<cmd' and '|cmd' file names through the shell: no name
 * handed over may start with either. */
Test(sw, path_plain_never_starts_with_a_pipe)
{
	char buf[64], err[128];

	cr_expect_eq(sw_path_plain("<touch X;echo /summary.csv", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "./<touch X;echo /summary.csv");
	cr_expect_eq(sw_path_plain("|cat > x", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "./|cat > x");
	cr_expect_eq(sw_path_plain("/abs/out.png", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "/abs/out.png");
	cr_expect_eq(sw_path_plain("-", buf, sizeof(buf), err, sizeof(err)), 0);
	cr_expect_str_eq(buf, "./-");
	cr_expect_eq(sw_path_plain("a\nb", buf, sizeof(buf), err, sizeof(err)), -1);
	cr_expect_str_eq(err, "a: path holds a control character");
	char longp[80];
	memset(longp, 'x', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	cr_expect_eq(sw_path_plain(longp, buf, sizeof(buf), err, sizeof(err)), -1);
	cr_expect(strstr(err, "path too long"));
}

/* ---- temporary files --------------------------------------------------- */

static int write_hello(FILE *f, const void *arg)
{
	(void)arg;
	return fputs("hello\n", f) < 0 ? -1 : 0;
}

static int write_fails(FILE *f, const void *arg)
{
	(void)arg;
	fputs("half", f);
	return -1;
}

/* Entries of dir whose name starts with '.' and ends with ".tmp". */
static int count_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert(d);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strlen(e->d_name) > 4 &&
		    strcmp(e->d_name + strlen(e->d_name) - 4, ".tmp") == 0)
			n++;
	closedir(d);
	return n;
}

Test(sw, temp_files_are_fresh_private_names)
{
	char dir[] = "/tmp/sw-test-XXXXXX", path[256], a[300], b[300], err[256];
	struct stat st;
	mode_t old = umask(077);

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.prom", dir);
	int fa = sw_temp_create(path, a, sizeof(a), err, sizeof(err));
	int fb = sw_temp_create(path, b, sizeof(b), err, sizeof(err));
	cr_assert(fa >= 0 && fb >= 0, "%s", err);
	cr_expect_str_neq(a, b, "two temporary files share a name");
	cr_expect(strncmp(a, dir, strlen(dir)) == 0 && strstr(a, "/.x.prom.") && strstr(a, ".tmp"), "%s", a);
	cr_assert_eq(fstat(fa, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0644, "mode %o despite umask 077", st.st_mode & 0777);
	close(fa);
	close(fb);
	unlink(a);
	unlink(b);
	umask(old);
	rmdir(dir);
}

/* A symlink at the destination is replaced, never written through; a
 * failed write leaves neither a temporary file nor a changed destination. */
Test(sw, write_atomic_never_follows_a_link)
{
	char dir[] = "/tmp/sw-test-XXXXXX", path[256], victim[256], err[256];
	struct stat st;
	char buf[64] = "";

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.prom", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *v = fopen(victim, "w");
	cr_assert(v);
	fputs("precious\n", v);
	fclose(v);
	cr_assert_eq(symlink(victim, path), 0);
	cr_assert_eq(sw_write_atomic(path, write_hello, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(lstat(path, &st), 0);
	cr_expect(S_ISREG(st.st_mode), "the link was written through, not replaced");
	v = fopen(victim, "r");
	cr_assert(v);
	cr_expect(fgets(buf, sizeof(buf), v) && strcmp(buf, "precious\n") == 0, "the link's target changed: %s", buf);
	fclose(v);
	cr_expect_eq(sw_write_atomic(path, write_fails, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "out.prom: write failed"), "%s", err);
	cr_expect_eq(count_temps(dir), 0, "a temporary file was left");
	v = fopen(path, "r");
	cr_assert(v);
	cr_expect(fgets(buf, sizeof(buf), v) && strcmp(buf, "hello\n") == 0, "a failed write changed it: %s", buf);
	fclose(v);
	unlink(path);
	unlink(victim);
	rmdir(dir);
}

Test(sw, fopen_nofollow_refuses_links)
{
	char dir[] = "/tmp/sw-test-XXXXXX", path[256], victim[256];

	cr_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/plot.log", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	cr_assert_eq(symlink(victim, path), 0);
	cr_expect_null(sw_fopen_nofollow(path, "w"));
	cr_expect_null(sw_fopen_nofollow(path, "a"));
	cr_expect_neq(access(victim, F_OK), 0, "created through the link");
	unlink(path);
	FILE *f = sw_fopen_nofollow(path, "a");
	cr_expect(f);
	if (f)
		fclose(f);
	unlink(path);
	rmdir(dir);
}
