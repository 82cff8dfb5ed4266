/*
 * test_sfile.c - files under folders whose names are data: links,
 * FIFOs, devices and hard links planted at the names swstress reads and
 * writes are refused without blocking, following or truncating anything.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sfile.h"

static char dir[64];

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/sfile-test-XXXXXX");
	cr_assert(mkdtemp(dir));
}

static void rm_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

static void put_file(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
}

static void expect_file(const char *name, const char *text)
{
	char p[256], buf[256] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "r");
	cr_assert(f, "%s missing", p);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	cr_expect_str_eq(buf, text, "%s changed", name);
}

static int write_hello(FILE *f, const void *arg)
{
	(void)arg;
	return fputs("hello\n", f) < 0 ? -1 : 0;
}

TestSuite(sfile, .init = make_dir, .fini = rm_dir);

Test(sfile, read_refuses_links_fifos_and_big_files)
{
	char err[256], p[256];
	int d = sfile_dir(dir, err, sizeof(err));
	FILE *f;

	cr_assert_geq(d, 0, "%s", err);
	put_file("secret", "root:x:0:0\n");
	put_file("ok.csv", "a,b\n");
	snprintf(p, sizeof(p), "%s/secret", dir);
	cr_assert_eq(symlinkat(p, d, "report.txt"), 0);
	cr_assert_eq(mkfifoat(d, "pairs.csv", 0644), 0);
	cr_expect_null(sfile_read_at(d, "report.txt", 1 << 20, "R/report.txt", err, sizeof(err)));
	cr_expect_str_eq(err, "R/report.txt: cannot read: not a regular file (a symbolic link)");
	cr_expect_null(sfile_read_at(d, "pairs.csv", 1 << 20, "R/pairs.csv", err, sizeof(err)));  /* no hang */
	cr_expect_str_eq(err, "R/pairs.csv: cannot read: not a regular file");
	cr_expect_null(sfile_read_at(d, "ok.csv", 3, "R/ok.csv", err, sizeof(err)));
	cr_expect_str_eq(err, "R/ok.csv: 4 bytes, more than the 3 such a file may have");
	cr_expect_null(sfile_read_at(d, "none.csv", 9, "R/none.csv", err, sizeof(err)));
	cr_expect_eq(errno, ENOENT);
	f = sfile_read_at(d, "ok.csv", 4, "R/ok.csv", err, sizeof(err));
	cr_expect(f, "%s", err);
	if (f)
		fclose(f);
	/* a path: the same, but a config may be a link or /dev/null */
	snprintf(p, sizeof(p), "%s/report.txt", dir);
	cr_expect_null(sfile_read(p, 1 << 20, 0, err, sizeof(err)));
	f = sfile_read(p, 1 << 20, SFILE_FOLLOW, err, sizeof(err));
	cr_expect(f, "%s", err);
	if (f)
		fclose(f);
	cr_expect_null(sfile_read("/dev/null", 1 << 20, SFILE_FOLLOW, err, sizeof(err)));
	f = sfile_read("/dev/null", 1 << 20, SFILE_FOLLOW | SFILE_STREAM, err, sizeof(err));
	cr_expect(f, "%s", err);
	if (f)
		fclose(f);
	snprintf(p, sizeof(p), "%s/pairs.csv", dir);
	cr_expect_null(sfile_read(p, 1 << 20, SFILE_FOLLOW | SFILE_STREAM, err, sizeof(err)));
	close(d);
}

Test(sfile, slurp_whole_text_only)
{
	char err[256];
	int d = sfile_dir(dir, err, sizeof(err));
	size_t n = 0;
	char *s;

	cr_assert_geq(d, 0, "%s", err);
	put_file("fits.csv", "x,y\n1,2\n");
	s = sfile_slurp_at(d, "fits.csv", 100, &n, "R/fits.csv", err, sizeof(err));
	cr_assert(s, "%s", err);
	cr_expect_str_eq(s, "x,y\n1,2\n");
	cr_expect_eq(n, 8);
	free(s);
	cr_assert_eq(symlinkat("/dev/zero", d, "report.txt"), 0);
	cr_expect_null(sfile_slurp_at(d, "report.txt", 100, NULL, "R/report.txt", err, sizeof(err)));
	int fd = openat(d, "nul.txt", O_WRONLY | O_CREAT, 0644);
	cr_assert_eq(write(fd, "a\0b", 3), 3);
	close(fd);
	cr_expect_null(sfile_slurp_at(d, "nul.txt", 100, NULL, "R/nul.txt", err, sizeof(err)));
	cr_expect_str_eq(err, "R/nul.txt: not a text file (a NUL byte)");
	/* a sparse 2 GB file is refused by its size, never allocated */
	fd = openat(d, "big.csv", O_WRONLY | O_CREAT, 0644);
	cr_assert_eq(ftruncate(fd, 2LL << 30), 0);
	close(fd);
	cr_expect_null(sfile_slurp_at(d, "big.csv", 256 << 20, NULL, "R/big.csv", err, sizeof(err)));
	cr_expect(strstr(err, "2147483648 bytes, more than the 268435456"), "%s", err);
	close(d);
}

Test(sfile, write_refuses_hard_links_fifos_and_devices)
{
	char err[256], p[256], q[256];
	struct stat st;

	put_file("precious", "precious\n");
	snprintf(p, sizeof(p), "%s/precious", dir);
	snprintf(q, sizeof(q), "%s/sw.prom", dir);
	cr_assert_eq(link(p, q), 0);
	cr_expect_eq(sfile_write(q, write_hello, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "sw.prom: cannot write: the file has other hard links"), "%s", err);
	expect_file("precious", "precious\n");
	unlink(q);
	cr_assert_eq(mkfifo(q, 0644), 0);
	cr_expect_eq(sfile_write(q, write_hello, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "sw.prom: cannot write: not a regular file"), "%s", err);
	cr_expect_eq(lstat(q, &st), 0);
	cr_expect(S_ISFIFO(st.st_mode), "the FIFO was replaced");
	cr_expect_eq(sfile_write("/dev/null", write_hello, NULL, err, sizeof(err)), -1);
	cr_expect_str_eq(err, "/dev/null: cannot write: not a regular file");
	cr_expect_eq(lstat("/dev/null", &st), 0);
	cr_expect(S_ISCHR(st.st_mode));
	unlink(q);
	/* a link at the name is replaced, its target untouched */
	cr_assert_eq(symlink(p, q), 0);
	cr_expect_eq(sfile_write(q, write_hello, NULL, err, sizeof(err)), 0, "%s", err);
	expect_file("sw.prom", "hello\n");
	expect_file("precious", "precious\n");
	cr_expect_eq(lstat(q, &st), 0);
	cr_expect(S_ISREG(st.st_mode));
}

Test(sfile, write_under_never_follows_a_planted_folder)
{
	char err[256], other[300], cmd[400];

	snprintf(other, sizeof(other), "%s-other", dir);
	cr_assert_eq(mkdir(other, 0755), 0);
	snprintf(cmd, sizeof(cmd), "%s/switch", dir);
	cr_assert_eq(symlink(other, cmd), 0);
	cr_expect_eq(sfile_write_under(dir, "switch/a.html", write_hello, NULL, err, sizeof(err)), -1);
	cr_expect(strstr(err, "/switch: a symbolic link, not a folder: refused"), "%s", err);
	cr_expect_eq(sfile_write_under(dir, "runs/r1/run.json", write_hello, NULL, err, sizeof(err)), 0, "%s", err);
	expect_file("runs/r1/run.json", "hello\n");
	snprintf(cmd, sizeof(cmd), "rmdir '%s'", other);
	cr_expect_eq(system(cmd), 0, "something was written into the link's folder");
}

Test(sfile, own_files_are_checked_before_truncation)
{
	char err[256], p[256], q[256];
	FILE *f;
	int fd;

	put_file("precious", "precious\n");
	snprintf(p, sizeof(p), "%s/precious", dir);
	snprintf(q, sizeof(q), "%s/plot.log", dir);
	cr_assert_eq(link(p, q), 0);
	cr_expect_null(sfile_fopen_own(q, "w", err, sizeof(err)));
	cr_expect(strstr(err, "plot.log: cannot write: the file has other hard links"), "%s", err);
	cr_expect_eq(sfile_open_own(q, O_RDWR, err, sizeof(err)), -1);
	expect_file("precious", "precious\n");
	unlink(q);
	cr_assert_eq(symlink(p, q), 0);
	cr_expect_null(sfile_fopen_own(q, "w", err, sizeof(err)));
	cr_expect(strstr(err, "plot.log: cannot write: Too many levels of symbolic links"), "%s", err);
	unlink(q);
	cr_assert_eq(mkfifo(q, 0644), 0);
	cr_expect_eq(sfile_open_own(q, O_RDWR, err, sizeof(err)), -1);   /* no hang */
	cr_expect(strstr(err, "plot.log: cannot write: not a regular file"), "%s", err);
	unlink(q);
	put_file("plot.log", "old\n");
	f = sfile_fopen_own(q, "w", err, sizeof(err));
	cr_assert(f, "%s", err);
	fputs("new\n", f);
	fclose(f);
	expect_file("plot.log", "new\n");
	fd = sfile_open_own(q, O_WRONLY | O_APPEND, err, sizeof(err));
	cr_assert_geq(fd, 0, "%s", err);
	cr_expect_eq(write(fd, "more\n", 5), 5);
	close(fd);
	expect_file("plot.log", "new\nmore\n");
}

Test(sfile, paths_are_never_cut)
{
	char buf[16], err[128];

	cr_expect_eq(sfile_path(buf, sizeof(buf), err, sizeof(err), "%s/%s", "abc", "run.json"), 0);
	cr_expect_str_eq(buf, "abc/run.json");
	cr_expect_eq(sfile_path(buf, sizeof(buf), err, sizeof(err), "%s/%s", "abcdefgh", "run.json"), -1);
	cr_expect_str_eq(err, "abcdefgh/run.js...: path is longer than 15 bytes");
}
